"""Mask R-CNN's M x M mask probabilities pasted onto the picture, as GluonCV 0.10.5's `utils.viz.expand_mask`
(its `data.transforms.mask.fill`, fast path) does: each mask padded by one zero pixel, its box grown to match,
the box rounded to whole pixels, the mask resized to it with Pillow's bilinear filter (which averages over the
source pixels when it shrinks), and kept where above 0.5. Written in numpy, so Pillow is not needed; the resized
values are Pillow's to the last float32 bit in most cases and one unit in the last place off in the others (tested
on random masks: Pillow's pass order seems to vary), so a pixel could differ only at a value within 6e-8 of 0.5.

>>> import numpy as np
>>> full = paste_masks(np.ones((1, 2, 2)), np.array([[2, 1, 5, 3]]), (8, 6))
>>> full.shape, full.dtype, full.sum(axis=1).tolist()
((1, 6, 8), dtype('uint8'), [[0, 0, 3, 3, 3, 0, 0, 0]])
"""
import numpy as np


def _taps(size_in, size_out):
    """(first source pixel, weights (size_out, taps) float64) of Pillow's bilinear resampling along one axis: its
    ImagingResample coefficients, a triangle as wide as the scale when shrinking, normalized to sum 1."""
    scale = size_in / size_out
    support = max(scale, 1.0)
    taps = int(np.ceil(support)) * 2 + 1
    first, weights = np.zeros(size_out, dtype=int), np.zeros((size_out, taps))
    for i in range(size_out):
        center = (i + 0.5) * scale
        lo, hi = max(int(center - support + 0.5), 0), min(int(center + support + 0.5), size_in)
        w = np.maximum(0.0, 1.0 - np.abs((np.arange(lo, hi) - center + 0.5) * (1.0 / support)))
        total = np.cumsum(w)[-1] if len(w) else 0.0  # summed in order, as Pillow sums
        first[i], weights[i, :hi - lo] = lo, w / total if total else w
    return first, weights


def _resample(x, size_out):
    """`x` (n, size_in) float32 resampled along its last axis, summed tap by tap in float64 as Pillow sums."""
    first, weights = _taps(x.shape[1], size_out)
    padded = np.pad(x.astype(np.float64), [(0, 0), (0, weights.shape[1])])
    out = np.zeros((x.shape[0], size_out))
    for t in range(weights.shape[1]):
        out += padded[:, first + t] * weights[:, t]
    return out.astype(np.float32)


def _resize(mask, width, height):
    """`mask` (h, w) float32 resized to (height, width) as Pillow resizes a mode 'F' image with BILINEAR:
    horizontally, then vertically, each pass stored in float32."""
    return _resample(_resample(mask, width).T, height).T


def paste_masks(masks, boxes, size, scores=None, thresh=0.5, scale=1.0):
    """Binary full-picture masks (N, height, width) uint8 of mask probabilities `masks` (N, M, M) on corner
    `boxes` (N, 4) for a picture of `size` (width, height), GluonCV's `expand_mask`: with `scores` (N,), only
    the detections scoring at least `thresh`; `scale` multiplies the boxes first (to the picture's size when the
    net saw it resized). NDArrays are accepted; nothing passed in is changed."""
    masks, boxes = (np.asarray(a.asnumpy() if hasattr(a, 'asnumpy') else a) for a in (masks, boxes))
    if len(masks) != len(boxes) or (scores is not None and len(scores) != len(masks)):
        raise ValueError(f'{len(masks)} masks, {len(boxes)} boxes' +
                         (f' and {len(scores)} scores' if scores is not None else '') + ': one of each a detection')
    boxes = boxes.reshape((-1, 4)) * scale
    if scores is not None:
        keep = np.asarray(scores.asnumpy() if hasattr(scores, 'asnumpy') else scores).reshape(-1) >= thresh
        masks, boxes = masks[keep], boxes[keep]
    width, height = size
    m_h, m_w = masks.shape[1:]
    padded = np.pad(masks, [(0, 0), (1, 1), (1, 1)]).astype(np.float32)
    # grow each box by the padding's share, so the mask's own M x M still covers the box
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    hw, hh = (boxes[:, 2] - boxes[:, 0]) / 2 * ((m_w + 2) / m_w), (boxes[:, 3] - boxes[:, 1]) / 2 * ((m_h + 2) / m_h)
    x1, y1, x2, y2 = (np.round(v).astype(int) for v in (cx - hw, cy - hh, cx + hw, cy + hh))
    out = np.zeros((len(masks), height, width), dtype=np.uint8)
    for i, mask in enumerate(padded):
        w, h = x2[i] - x1[i] + 1, y2[i] - y1[i] + 1
        inside = (_resize(mask, w, h) > 0.5).astype(np.uint8)
        xa, ya, xb, yb = max(0, x1[i]), max(0, y1[i]), min(width, x2[i] + 1), min(height, y2[i] + 1)
        if xb > xa and yb > ya:
            out[i, ya:yb, xa:xb] = inside[ya - y1[i]:yb - y1[i], xa - x1[i]:xb - x1[i]]
    return out
