"""Box arithmetic shared by the detectors, on NDArray or Symbol (pass `F`), in the ops ONNX export can express.

Boxes are corner boxes (x1, y1, x2, y2) unless a name says center (cx, cy, w, h), on the last axis, without the +1
of Detectron's widths (GluonCV's convention). The formulas are GluonCV 0.10.5's `nn/bbox.py` and `nn/coder.py`;
written out instead of `contrib.box_decode`, which has no ONNX converter (the numbers agree to float rounding).

>>> import mxnet as mx
>>> corner_to_center(mx.nd, mx.nd.array([[0, 0, 4, 2]])).asnumpy().tolist()
[[2.0, 1.0, 4.0, 2.0]]
"""


def corner_to_center(F, x, split=False):
    """(x1, y1, x2, y2) -> (cx, cy, w, h); `split` returns the four (..., 1) arrays."""
    x1, y1, x2, y2 = F.split(x, axis=-1, num_outputs=4)
    w, h = x2 - x1, y2 - y1
    parts = (x1 + w * 0.5, y1 + h * 0.5, w, h)
    return parts if split else F.concat(*parts, dim=-1)


def center_to_corner(F, x, split=False):
    """(cx, cy, w, h) -> (x1, y1, x2, y2); `split` returns the four (..., 1) arrays."""
    cx, cy, w, h = F.split(x, axis=-1, num_outputs=4)
    hw, hh = w * 0.5, h * 0.5
    parts = (cx - hw, cy - hh, cx + hw, cy + hh)
    return parts if split else F.concat(*parts, dim=-1)


def decode_center_offsets(F, x, anchors, stds=(0.1, 0.1, 0.2, 0.2), clip=None, corner_anchors=False):
    """Corner boxes from normalized center offsets `x` (..., 4) of `anchors` (broadcastable; center boxes, or corner
    ones with `corner_anchors`): GluonCV's NormalizedBoxCenterDecoder. `clip` caps the log-scale of w and h."""
    a = corner_to_center(F, anchors, split=True) if corner_anchors else F.split(anchors, axis=-1, num_outputs=4)
    p = F.split(x, axis=-1, num_outputs=4)
    cx = F.broadcast_add(F.broadcast_mul(p[0] * stds[0], a[2]), a[0])
    cy = F.broadcast_add(F.broadcast_mul(p[1] * stds[1], a[3]), a[1])
    dw, dh = p[2] * stds[2], p[3] * stds[3]
    if clip:
        dw, dh = F.minimum(dw, clip), F.minimum(dh, clip)
    hw = F.broadcast_mul(F.exp(dw), a[2]) * 0.5
    hh = F.broadcast_mul(F.exp(dh), a[3]) * 0.5
    return F.concat(cx - hw, cy - hh, cx + hw, cy + hh, dim=-1)


def per_class_scores(F, probs, classes, thresh=0.01):
    """(class ids, scores), both (B, N, classes), of every foreground class at every box from softmax `probs`
    (B, N, 1 + classes), background first: GluonCV's MultiPerClassDecoder. Scores at or under `thresh` become 0 and
    their id -1."""
    scores = probs.slice_axis(axis=-1, begin=1, end=None)
    ids = F.broadcast_add(F.zeros_like(scores), F.arange(classes).reshape((1, 1, classes)))
    keep = scores > thresh
    return F.where(keep, ids, F.ones_like(ids) * -1), F.where(keep, scores, F.zeros_like(scores))
