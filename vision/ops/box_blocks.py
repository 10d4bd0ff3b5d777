"""GluonCV's box blocks (`gluoncv.nn.bbox`): HybridBlocks over the arithmetic of boxes.py, so a training-target
pipeline written for GluonCV builds from the same pieces. Boxes are on `axis` (default the last), corner form
(x1, y1, x2, y2) unless `fmt='center'` (cx, cy, w, h).

>>> import mxnet as mx
>>> BBoxArea()(mx.nd.array([[0, 0, 4, 2], [3, 3, 1, 1]])).asnumpy().ravel().tolist()  # an inverted box has area 0
[8.0, 0.0]
"""
import numpy as np
from mxnet import gluon

from .boxes import center_to_corner, corner_to_center


def _fmt(fmt):
    fmt = str(fmt).lower()
    if fmt not in ('corner', 'center'):
        raise ValueError(f"Unsupported format: {fmt}. Use 'corner' or 'center'.")
    return fmt


class NumPyBBoxCornerToCenter:
    """Corner boxes -> center boxes on numpy arrays along `axis`; `split` returns the four parts."""

    def __init__(self, axis=-1, split=False):
        self._axis, self._split = axis, split

    def __call__(self, x):
        x1, y1, x2, y2 = np.split(x, 4, axis=self._axis)
        w, h = x2 - x1, y2 - y1
        parts = (x1 + w * 0.5, y1 + h * 0.5, w, h)
        return parts if self._split else np.concatenate(parts, axis=self._axis)


class BBoxCornerToCenter(gluon.HybridBlock):
    """(x1, y1, x2, y2) -> (cx, cy, w, h) along `axis`; `split` returns the four parts."""

    def __init__(self, axis=-1, split=False):
        super().__init__()
        self._axis, self._split = axis, split

    def hybrid_forward(self, F, x):
        if self._axis == -1:
            return corner_to_center(F, x, split=self._split)
        x1, y1, x2, y2 = F.split(x, axis=self._axis, num_outputs=4)
        w, h = x2 - x1, y2 - y1
        parts = (x1 + w * 0.5, y1 + h * 0.5, w, h)
        return parts if self._split else F.concat(*parts, dim=self._axis)


class BBoxCenterToCorner(gluon.HybridBlock):
    """(cx, cy, w, h) -> (x1, y1, x2, y2) along `axis`; `split` returns the four parts."""

    def __init__(self, axis=-1, split=False):
        super().__init__()
        self._axis, self._split = axis, split

    def hybrid_forward(self, F, x):
        if self._axis == -1:
            return center_to_corner(F, x, split=self._split)
        cx, cy, w, h = F.split(x, axis=self._axis, num_outputs=4)
        parts = (cx - w * 0.5, cy - h * 0.5, cx + w * 0.5, cy + h * 0.5)
        return parts if self._split else F.concat(*parts, dim=self._axis)


class BBoxSplit(gluon.HybridBlock):
    """The four coordinates of boxes on `axis` as four arrays (that axis dropped with `squeeze_axis`)."""

    def __init__(self, axis, squeeze_axis=False, **kwargs):
        super().__init__(**kwargs)
        self._axis, self._squeeze = axis, squeeze_axis

    def hybrid_forward(self, F, x):
        return F.split(x, axis=self._axis, num_outputs=4, squeeze_axis=self._squeeze)


class BBoxArea(gluon.HybridBlock):
    """w * h of each box, (..., 1); a negative width or height counts as 0."""

    def __init__(self, axis=-1, fmt='corner', **kwargs):
        super().__init__(**kwargs)
        self._axis, self._fmt = axis, _fmt(fmt)

    def hybrid_forward(self, F, x):
        if self._fmt == 'corner':
            _, _, w, h = corner_to_center(F, x, split=True)
        else:
            _, _, w, h = F.split(x, axis=self._axis, num_outputs=4)
        return F.relu(w) * F.relu(h)


class BBoxBatchIOU(gluon.HybridBlock):
    """Pairwise IoU of boxes a (..., N, 4) and b (..., M, 4) -> (..., N, M); `offset` 1 counts widths
    pixel-inclusively, `eps` keeps an empty union finite."""

    def __init__(self, axis=-1, fmt='corner', offset=0, eps=1e-15, **kwargs):
        super().__init__(**kwargs)
        self._axis, self._fmt, self._offset, self._eps = axis, _fmt(fmt), offset, eps

    def _corners(self, F, x):
        if self._fmt == 'center':
            return [v.squeeze(axis=-1) for v in center_to_corner(F, x, split=True)]
        return F.split(x, axis=self._axis, num_outputs=4, squeeze_axis=True)

    def hybrid_forward(self, F, a, b):
        a = [v.expand_dims(-1) for v in self._corners(F, a)]  # (..., N, 1)
        b = [v.expand_dims(-2) for v in self._corners(F, b)]  # (..., 1, M)
        o = self._offset
        iw = F.clip(F.broadcast_minimum(a[2], b[2]) - F.broadcast_maximum(a[0], b[0]) + o, 0, 65504.0)
        ih = F.clip(F.broadcast_minimum(a[3], b[3]) - F.broadcast_maximum(a[1], b[1]) + o, 0, 65504.0)
        inter = iw * ih
        area_a = (a[2] - a[0] + o) * (a[3] - a[1] + o)
        area_b = (b[2] - b[0] + o) * (b[3] - b[1] + o)
        return inter / (F.broadcast_add(area_a, area_b) - inter + self._eps)


class BBoxClipToImage(gluon.HybridBlock):
    """Boxes (B, N, 4) clipped to [0, width] x [0, height] of the image batch `img` (B, C, H, W)."""

    def hybrid_forward(self, F, x, img):
        size = F.shape_array(img).slice_axis(axis=0, begin=2, end=None)  # (H, W)
        limit = F.tile(F.reverse(size, axis=0), reps=(2,)).reshape((1, 1, 4))  # (W, H, W, H)
        return F.broadcast_minimum(F.relu(x), F.cast(limit, dtype='float32'))
