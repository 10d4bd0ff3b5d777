"""The three trainable detector families' targets and losses, as GluonCV 0.10.5's scripts compute them (see the
package docstring): SSD, YOLOv3 (darknet's YOLOv3-tiny trains as one) and CenterNet, each a small head class that
prepares the net, makes the targets of a batch and computes its loss."""
import functools

import mxnet as mx
import numpy as np
from mxnet import gluon

from ....errors import BadInputError

from ...ops import box_blocks, targets as target_blocks
from ...transforms import detection as presets


@functools.lru_cache(maxsize=None)
def _loss_block(name, **options):
    """The parameter-free loss block vision.losses.<name>(**options), made once (a training step calls it)."""
    from ... import losses
    return getattr(losses, name)(**options)


class Draws(np.random.RandomState):
    """A RandomState with the `integers` method the box-aware transforms call (numpy's Generator spelling)."""

    def integers(self, low, high=None, size=None):
        return self.randint(low, high, size)


# -- SSD ----------------------------------------------------------------------------------------------------------
def _rows(label):
    """A label as float32 (N, 5+) rows x1, y1, x2, y2, class id[, ...] (an empty one as (0, 6))."""
    label = np.asarray(label, np.float32)
    return label if label.ndim == 2 else label.reshape(-1, 6)


def _iou(a, b):
    """IoU (N, M) of corner boxes, widths without +1: MXNet's contrib.box_iou, which GluonCV's targets use."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    tl = np.maximum(a[:, None, :2], b[None, :, :2])
    br = np.minimum(a[:, None, 2:4], b[None, :, 2:4])
    inter = np.prod(np.clip(br - tl, 0, None), axis=2)
    area_a = np.prod(np.clip(a[:, 2:4] - a[:, :2], 0, None), axis=1)
    area_b = np.prod(np.clip(b[:, 2:4] - b[:, :2], 0, None), axis=1)
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0).astype(np.float32)


def ssd_match(ious, iou_thresh=0.5, eps=1e-12):
    """GluonCV's SSD matching of anchors to boxes from their IoU (anchors, boxes) -> the box index of each anchor, or
    -1: greedy bipartite matching (pairs by falling IoU, each anchor and box used once), then for unmatched anchors
    the box they overlap most if that IoU is (within eps) the best any anchor has with it, then the box they
    overlap most if that IoU >= iou_thresh."""
    n, m = ious.shape
    match = np.full(n, -1, np.int64)
    if not m:
        return match
    used = np.zeros(m, bool)
    flat = ious.ravel()
    for k in np.argsort(-flat, kind='stable'):
        if flat[k] < eps or used.all():
            break
        a, g = divmod(int(k), m)
        if match[a] < 0 and not used[g]:
            match[a], used[g] = g, True
    best = ious.argmax(axis=1)
    best_iou = ious[np.arange(n), best]
    ties = (match < 0) & (best_iou + eps >= ious.max(axis=0)[best])
    match[ties] = best[ties]
    rest = (match < 0) & (best_iou >= iou_thresh)
    match[rest] = best[rest]
    return match


def ssd_targets(anchors, label, iou_thresh=0.5, stds=(0.1, 0.1, 0.2, 0.2)):
    """SSD training targets of one image: `anchors` (N, 4) corner boxes, `label` (M, 5+) boxes and class ids ->
    class targets (N,) (0 background, id + 1 for a matched anchor) and box targets (N, 4) (normalized center
    offsets of the matched box; 0 elsewhere), float32."""
    label = _rows(label)
    match = ssd_match(_iou(anchors, label[:, :4]), iou_thresh)
    pos = match >= 0
    cls = np.zeros(len(anchors), np.float32)
    cls[pos] = label[match[pos], 4] + 1
    box = np.zeros((len(anchors), 4), np.float32)
    if pos.any():
        g, a = label[match[pos], :4], anchors[pos]
        gw, gh = g[:, 2] - g[:, 0], g[:, 3] - g[:, 1]
        aw, ah = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
        gx, gy = g[:, 0] + gw * 0.5, g[:, 1] + gh * 0.5
        ax, ay = a[:, 0] + aw * 0.5, a[:, 1] + ah * 0.5
        box[pos] = np.stack([(gx - ax) / aw / stds[0], (gy - ay) / ah / stds[1],
                             np.log(gw / aw) / stds[2], np.log(gh / ah) / stds[3]], axis=1)
    return cls, box


class SSDTargetGenerator(gluon.Block):
    """GluonCV's SSDTargetGenerator, over gluonzoo's matchers and coders: each anchor goes to the ground-truth box
    it is the best anchor of, else to one it overlaps by `iou_thresh`; hard negatives by the class predictions
    (`negative_mining_ratio` of them a positive, below `neg_thresh`; 0: every unmatched anchor a negative); returns
    (class targets, box offsets normalized by `stds`, their mask) for (anchors (1, N, 4) centre form, class
    predictions (B, N, C + 1), boxes (B, M, 4), class ids (B, M, 1))."""

    def __init__(self, iou_thresh=0.5, neg_thresh=0.5, negative_mining_ratio=3, stds=(0.1, 0.1, 0.2, 0.2),
                 **kwargs):
        super().__init__(**kwargs)
        self._match = target_blocks.CompositeMatcher([target_blocks.BipartiteMatcher(share_max=False),
                                                      target_blocks.MaximumMatcher(iou_thresh)])
        self._mining = negative_mining_ratio > 0
        self._sample = target_blocks.OHEMSampler(negative_mining_ratio, thresh=neg_thresh) if self._mining else \
            target_blocks.NaiveSampler()
        self._classes = target_blocks.MultiClassEncoder()
        self._boxes = target_blocks.NormalizedBoxCenterEncoder(stds=stds)
        self._corners = box_blocks.BBoxCenterToCorner(split=False)

    def forward(self, anchors, cls_preds, gt_boxes, gt_ids):
        corners = self._corners(anchors.reshape((-1, 4)))
        ious = mx.nd.transpose(mx.nd.contrib.box_iou(corners, gt_boxes), (1, 0, 2))  # (B, N, M)
        matches = self._match(ious)
        samples = self._sample(matches, cls_preds, ious) if self._mining else self._sample(matches)
        box_targets, box_masks = self._boxes(samples, matches, corners, gt_boxes)
        return self._classes(samples, matches, gt_ids), box_targets, box_masks


def ssd_loss(cls_pred, box_pred, cls_target, box_target, negative_mining_ratio=3, rho=1.0, lambd=1.0):
    """GluonCV's SSDMultiBoxLoss of one batch (NDArrays): (total, class part, box part), scalars over the batch's
    positives. Negatives: the anchors with the largest class loss, `negative_mining_ratio` per positive of their
    image."""
    import mxnet as mx
    from ...losses import ssd_mined_losses
    nd = mx.nd
    num_pos = float((cls_target > 0).sum().asscalar())
    if num_pos < 1:  # nothing to learn from (GluonCV's dummy zero losses)
        zero = (cls_pred * 0).sum() + (box_pred * 0).sum()
        return zero, zero, zero
    cls_loss, box_loss = ssd_mined_losses(nd, cls_pred, box_pred, cls_target, box_target, negative_mining_ratio, rho)
    cls_loss, box_loss = cls_loss.sum() / num_pos, box_loss.sum() / num_pos
    return cls_loss + lambd * box_loss, cls_loss, box_loss


class _SSD:
    """SSD's targets and loss around a net that returns (class predictions, box predictions, anchors) in training
    mode. The backward is of the batch loss times the batch size: GluonCV steps by 1 a normalized loss, the engine
    divides by the batch."""
    train_transform, eval_transform = staticmethod(presets.ssd_train), staticmethod(presets.ssd_eval)

    def prepare(self, net, size, ctx):
        import mxnet as mx
        from mxnet import autograd
        with autograd.train_mode():
            anchors = net(mx.nd.zeros((1, 3, size, size), ctx=ctx))[2]
        a = anchors.reshape((-1, 4)).asnumpy()
        self.anchors = np.concatenate([a[:, :2] - a[:, 2:] / 2, a[:, :2] + a[:, 2:] / 2], axis=1).astype(np.float32)

    def targets(self, labels, size):
        cls, box = zip(*[ssd_targets(self.anchors, label) for label in labels])
        return np.stack(cls), np.stack(box)

    def loss(self, outputs, targets, ctx):
        import mxnet as mx
        cls_t, box_t = (mx.nd.array(t, ctx=ctx) for t in targets)
        total, cls, box = ssd_loss(outputs[0], outputs[1], cls_t, box_t)
        n = cls_t.shape[0]
        return total * n, {'cls': cls, 'box': box}


# -- YOLOv3 -------------------------------------------------------------------------------------------------------
def yolo3_targets(label, anchors, grids, size, num_class):
    """YOLOv3's prefetched targets of one image (GluonCV's YOLOV3PrefetchTargetGenerator): `anchors` a list of
    (A, 2) arrays (w, h) per level in output order, `grids` the (H, W) of each level, `size` (height, width) of the
    input. Returns objectness (N, 1), center (N, 2), scale (N, 2), weight (N, 2), class (N, C) targets, one row per
    (level, cell, anchor); class rows are -1 (ignored) but at positives."""
    counts = [len(a) * h * w for a, (h, w) in zip(anchors, grids)]
    n = sum(counts)
    obj, center, scale, weight = (np.zeros((n, k), np.float32) for k in (1, 2, 2, 2))
    cls = np.full((n, num_class), -1, np.float32)
    label = _rows(label)
    if not len(label):
        return obj, center, scale, weight, cls
    shapes = np.concatenate(anchors, axis=0).astype(np.float32)
    level_of = np.repeat(np.arange(len(anchors)), [len(a) for a in anchors])
    first_anchor = np.concatenate([[0], np.cumsum([len(a) for a in anchors])])
    first_row = np.concatenate([[0], np.cumsum(counts)])
    h_in, w_in = size
    gw, gh = label[:, 2] - label[:, 0], label[:, 3] - label[:, 1]
    gx, gy = label[:, 0] + gw * 0.5, label[:, 1] + gh * 0.5
    centered = np.stack([-0.5 * gw, -0.5 * gh, 0.5 * gw, 0.5 * gh], axis=1)
    anchor_boxes = np.concatenate([-0.5 * shapes, 0.5 * shapes], axis=1)
    best = _iou(anchor_boxes, centered).argmax(axis=0)  # per box, the best anchor shape of all levels
    for m in range(len(label)):
        if (label[m, :4] < 0).any():  # GluonCV stops at the first box with a negative corner (its padding)
            break
        k = int(best[m])
        lvl = int(level_of[k])
        gh_, gw_ = grids[lvl]
        fx, fy = gx[m] / w_in * gw_, gy[m] / h_in * gh_
        lx, ly = min(int(fx), gw_ - 1), min(int(fy), gh_ - 1)
        a = k - first_anchor[lvl]
        row = first_row[lvl] + (ly * gw_ + lx) * len(anchors[lvl]) + a
        center[row] = (fx - lx, fy - ly)
        scale[row] = (np.log(max(gw[m], 1) / shapes[k, 0]), np.log(max(gh[m], 1) / shapes[k, 1]))
        weight[row] = 2.0 - gw[m] * gh[m] / w_in / h_in
        obj[row] = 1
        cls[row] = 0
        cls[row, int(label[m, 4])] = 1
    return obj, center, scale, weight, cls


def yolo3_loss(outputs, targets, labels, ignore_iou_thresh=0.7):
    """GluonCV's YOLOV3Loss per image (objectness, center, scale, class; NDArrays (B,)) of the raw training outputs
    and prefetched targets; a prediction whose decoded box has IoU > ignore_iou_thresh with a box of its image is
    not counted as background."""
    import mxnet as mx
    nd = mx.nd
    boxes, centers, scales, objness, class_pred = outputs[:5]
    obj_t, center_t, scale_t, weight_t, cls_t = targets
    pred = boxes.asnumpy()
    ignore = np.zeros(obj_t.shape, np.float32)
    for b, label in enumerate(labels):
        if len(label):
            ignore[b, :, 0] = _iou(pred[b], label[:, :4]).max(axis=1) > ignore_iou_thresh
    obj_t = np.where(obj_t > 0, obj_t, -ignore)
    ctx = boxes.context
    obj_t, center_t, scale_t, weight_t, cls_t = (nd.array(t, ctx=ctx) for t in (obj_t, center_t, scale_t,
                                                                                    weight_t, cls_t))
    cls_mask = nd.tile(obj_t > 0, reps=(1, 1, cls_t.shape[2])) * (cls_t >= 0)
    return _loss_block('YOLOV3Loss')(objness, centers, scales, class_pred, obj_t, center_t, scale_t, weight_t, cls_t,
                                      cls_mask)


class _YOLOv3:
    """YOLOv3's targets and loss around a net that returns its raw predictions in training mode (yolo3.py). The
    backward is of the per-image losses' sum: GluonCV steps by the batch size, as the engine does."""
    train_transform, eval_transform = staticmethod(presets.yolo3_train), staticmethod(presets.yolo3_eval)

    def prepare(self, net, size, ctx):
        import mxnet as mx
        from mxnet import autograd
        with autograd.train_mode():
            outs = net(mx.nd.zeros((1, 3, size, size), ctx=ctx))
        self.grids = [tuple(g.shape[2:]) for g in outs[5:]]
        if hasattr(net, 'yolo1'):  # darknet's YOLOv3-tiny: its [yolo] layers hold their anchors as numbers
            self.anchors = [np.array(layer.anchors, np.float32) for layer in (net.yolo1, net.yolo2)]
        else:
            self.anchors = [o.anchors.data().asnumpy().reshape(-1, 2) for o in net.yolo_outputs]
        self.num_class = len(net.classes)

    def targets(self, labels, size):
        parts = zip(*[yolo3_targets(label, self.anchors, self.grids, (size, size), self.num_class)
                      for label in labels])
        return tuple(np.stack(p) for p in parts) + (labels,)

    def loss(self, outputs, targets, ctx):
        obj, center, scale, cls = yolo3_loss(outputs, targets[:5], targets[5])
        n = obj.shape[0]
        parts = {'obj': obj.sum() / n, 'center': center.sum() / n, 'scale': scale.sum() / n, 'cls': cls.sum() / n}
        return (obj + center + scale + cls).sum(), parts


# -- CenterNet ----------------------------------------------------------------------------------------------------
def gaussian_radius(height, width, min_overlap=0.7):
    """CornerNet's radius for a box of height x width: the smallest of the three corner shifts that keep the IoU
    with the box at `min_overlap` (GluonCV's _gaussian_radius)."""
    def root(a, b, c):
        return (b + np.sqrt(b ** 2 - 4 * a * c)) / 2
    r1 = root(1, height + width, width * height * (1 - min_overlap) / (1 + min_overlap))
    r2 = root(4, 2 * (height + width), (1 - min_overlap) * width * height)
    r3 = root(4 * min_overlap, -2 * min_overlap * (height + width), (min_overlap - 1) * width * height)
    return min(r1, r2, r3)


def _draw_gaussian(heatmap, cx, cy, radius):
    """The maximum of `heatmap` and a (2r+1)^2 Gaussian (sigma (2r+1)/6, tails under eps * peak zeroed) at (cx, cy),
    in place; the part outside the map is cut."""
    d = 2 * radius + 1
    sigma = d / 6
    r = np.arange(-radius, radius + 1, dtype=np.float64)
    g = np.exp(-(r[None, :] ** 2 + r[:, None] ** 2) / (2 * sigma * sigma))
    g[g < np.finfo(g.dtype).eps * g.max()] = 0
    h, w = heatmap.shape
    left, right = min(cx, radius), min(w - cx, radius + 1)
    top, bottom = min(cy, radius), min(h - cy, radius + 1)
    region = heatmap[cy - top:cy + bottom, cx - left:cx + right]
    patch = g[radius - top:radius + bottom, radius - left:radius + right]
    if min(region.shape) > 0 and min(patch.shape) > 0:
        np.maximum(region, patch, out=region)


def center_net_targets(label, num_class, width, height):
    """CenterNet's targets of one image whose boxes are in heatmap pixels (GluonCV's CenterNetTargetGenerator):
    heatmap (C, H, W), sizes (2, H, W) and their mask, center offsets (2, H, W) and their mask, float32."""
    heat = np.zeros((num_class, height, width), np.float32)
    wh, wh_mask, reg, reg_mask = (np.zeros((2, height, width), np.float32) for _ in range(4))
    for box in _rows(label):
        bh, bw = box[3] - box[1], box[2] - box[0]
        if not (bh > 0 and bw > 0):
            continue
        radius = max(0, int(gaussian_radius(np.ceil(bh), np.ceil(bw))))
        center = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], np.float32)
        cx, cy = center.astype(np.int32)
        cx, cy = min(int(cx), width - 1), min(int(cy), height - 1)
        _draw_gaussian(heat[int(box[4])], cx, cy, radius)
        wh[:, cy, cx] = bw, bh
        wh_mask[:, cy, cx] = 1
        reg[:, cy, cx] = center - np.array([cx, cy], np.float32)
        reg_mask[:, cy, cx] = 1
    return heat, wh, wh_mask, reg, reg_mask


class CenterNetTargetGenerator(gluon.Block):
    """GluonCV's CenterNetTargetGenerator: center_net_targets as a Block, called with one image's boxes (N, 4, in
    heatmap pixels) and class ids (N,); returns the five targets as NDArrays."""

    def __init__(self, num_class, output_width, output_height):
        super().__init__()
        self._num_class, self._output_width, self._output_height = num_class, int(output_width), int(output_height)

    def forward(self, gt_boxes, gt_ids):
        boxes = np.asarray(gt_boxes, np.float32).reshape(-1, 4)
        ids = np.asarray(gt_ids, np.float32).reshape(-1, 1)
        if len(boxes) != len(ids):
            raise BadInputError(f'{len(boxes)} boxes but {len(ids)} class ids: give one id a box')
        targets = center_net_targets(np.hstack([boxes, ids]), self._num_class, self._output_width,
                                     self._output_height)
        return tuple(mx.nd.array(t) for t in targets)


def center_net_loss(outputs, targets, wh_weight=0.1, reg_weight=1.0):
    """GluonCV's CenterNet losses of one batch (scalars): the heatmap focal loss over the batch's centers, and L1 of
    sizes (times wh_weight) and offsets (times reg_weight) over their masked cells."""
    heat, wh, reg = outputs
    heat_t, wh_t, wh_m, reg_t, reg_m = targets
    return (_loss_block('HeatmapFocalLoss', from_logits=True)(heat, heat_t),
            _loss_block('MaskedL1Loss', weight=wh_weight)(wh, wh_t, wh_m),
            _loss_block('MaskedL1Loss', weight=reg_weight)(reg, reg_t, reg_m))


class _CenterNet:
    """CenterNet's targets and loss around a net that returns (heatmap, sizes, offsets) in training mode. The
    backward is of the batch loss times the batch size (GluonCV steps by 1 a batch-normalized loss)."""
    eval_transform = staticmethod(presets.center_net_eval)

    def prepare(self, net, size, ctx):
        self.num_class, self.stride = len(net.classes), int(net.scale)
        for p in net.collect_params('.*heads.*|.*bias').values():  # GluonCV's train_center_net.py
            p.wd_mult = 0.0

    def train_transform(self, img, label, rng, **kwargs):
        return presets.center_net_train(img, label, rng, scale_factor=self.stride, **kwargs)

    def targets(self, labels, size):
        out = size // self.stride
        return tuple(np.stack(p) for p in zip(*[center_net_targets(label, self.num_class, out, out)
                                                for label in labels]))

    def loss(self, outputs, targets, ctx):
        import mxnet as mx
        heat, wh, reg = center_net_loss(outputs, [mx.nd.array(t, ctx=ctx) for t in targets])
        n = targets[0].shape[0]
        return (heat + wh + reg) * n, {'heatmap': heat, 'wh': wh, 'offset': reg}


_HEADS = {'ssd': _SSD, 'yolo3': _YOLOv3, 'center_net': _CenterNet}

