"""Region-of-interest operations the two-stage detectors share (Faster R-CNN, Mask R-CNN), on NDArray or Symbol:
proposals as RoI rows, RoIAlign / RoIPooling of one feature map, and GluonCV 0.10.5's feature-pyramid level
assignment and pooling.

RoIs are rows (batch index, x1, y1, x2, y2) in input-image pixels. The pyramid pooling pools every RoI on every
level and keeps the one of its own level. GluonCV instead gives the RoIs of other levels batch index -1, which
MXNet's RoIAlign is meant to skip with zeros; on CPU (MXNet 1.9.1, src/operator/contrib/roi_align.cc) it zeroes
element n of the whole output instead of RoI n's block, so the skipped RoIs keep leftover memory and another RoI's
features lose a value (tests/vision/detection/test_faster_rcnn.py shows it).

>>> import mxnet as mx
>>> rois = batch_rois(mx.nd, mx.nd.array([[[0, 0, 10, 10]], [[2, 2, 400, 400]]]))
>>> rois.asnumpy().tolist()
[[0.0, 0.0, 0.0, 10.0, 10.0], [1.0, 2.0, 2.0, 400.0, 400.0]]
>>> pyramid_levels(mx.nd, rois, 2, 5).asnumpy().tolist()
[2.0, 4.0]
"""


def batch_rois(F, boxes):
    """(B * N, 5) RoI rows from per-image proposals `boxes` (B, N, 4): each box after its image's index."""
    first = F.slice_axis(boxes, axis=-1, begin=0, end=1)
    index = F.broadcast_like(F.contrib.arange_like(boxes, axis=0).reshape((-1, 1, 1)), first)
    return F.concat(index, boxes, dim=-1).reshape((-1, 5))


def roi_features(F, feature, rois, size, stride, mode='align', sample_ratio=2):
    """(R, C, h, w) features of `rois` (R, 5) on one map of `stride`: RoIAlign with `sample_ratio` points a bin
    (mode 'align') or RoIPooling (mode 'pool'); `size` is (h, w)."""
    if mode == 'align':
        return F.contrib.ROIAlign(feature, rois, size, 1.0 / stride, sample_ratio=sample_ratio)
    if mode == 'pool':
        return F.ROIPooling(feature, rois, size, 1.0 / stride)
    raise ValueError(f"roi mode {mode!r} is not 'align' or 'pool'")


def pyramid_levels(F, rois, min_level, max_level, canonical_scale=224.0, canonical_level=4, eps=1e-6):
    """(R,) pyramid level of each RoI (FPN paper, eq. 1): floor(4 + log2(sqrt(wh) / 224)), with Detectron's +1
    widths, clipped to [min_level, max_level]."""
    _, x1, y1, x2, y2 = F.split(rois, axis=-1, num_outputs=5)
    side = F.sqrt((x2 - x1 + 1) * (y2 - y1 + 1))
    level = F.floor(canonical_level + F.log2(side / canonical_scale + eps))
    return F.clip(level, min_level, max_level).reshape((-1,))


def pyramid_roi_features(F, features, rois, size, strides, min_level, max_level, mode='align', sample_ratio=2):
    """(R, C, h, w): each RoI pooled from its own level of `features` (levels min_level..max_level, in order, with
    their `strides`) and zeros from the others, summed (GluonCV's `_pyramid_roi_feats`)."""
    level = pyramid_levels(F, rois, min_level, max_level)
    pooled = []
    for feature, stride, lvl in zip(features, strides, range(min_level, max_level + 1)):
        out = roi_features(F, feature, rois, size, stride, mode, sample_ratio)
        pooled.append(F.where(level == lvl, out, F.zeros_like(out)))
    return F.ElementWiseSum(*pooled)
