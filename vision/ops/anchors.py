"""SSD's anchor boxes (Liu et al., arXiv:1512.02325) as GluonCV 0.10.5's SSDAnchorGenerator lays them out, and their
crop to a feature map. (Faster R-CNN's RPN anchors are another layout: rpn_anchors.py.)

The anchors of one feature map are made once, in numpy, for a grid of up to `alloc_size` cells and kept with the
model's parameters (GluonCV saves them in its files); a forward pass crops the top-left (H, W) cells of the map it
sees, so any input size up to `step * alloc_size` runs, and exports, without regenerating anything.

>>> a = ssd_anchors(30, 60, (1, 2, 0.5), 8, alloc_size=(2, 3))
>>> a.shape, num_anchors((1, 2, 0.5))
((1, 1, 2, 3, 16), 4)
>>> a[0, 0, 1, 2].reshape(4, 4).astype(float).round(2).tolist()  # the cell at row 1, column 2: center (20, 12)
[[20.0, 12.0, 30.0, 30.0], [20.0, 12.0, 42.43, 42.43], [20.0, 12.0, 42.43, 21.21], [20.0, 12.0, 21.21, 42.43]]
"""
import numpy as np


def num_anchors(ratios):
    """Anchors per cell: one per ratio, plus the extra square of size sqrt(size * next_size)."""
    return len(ratios) + 1


def ssd_anchors(size, next_size, ratios, step, alloc_size=(128, 128), offsets=(0.5, 0.5)):
    """Center-form anchors (cx, cy, w, h) in input pixels, float32 of shape (1, 1, H, W, 4 * anchors) for an
    `alloc_size` (H, W) grid of cells `step` pixels apart, centers at `offsets` (y, x) of a cell. Per cell, in
    order: a square of `size`, a square of sqrt(size * next_size), then for each ratio r after the first a box of
    `size`'s area with w / h = r (the first ratio must be 1: it is the first square)."""
    sizes = (size, np.sqrt(size * next_size))
    shapes = [(sizes[0], sizes[0]), (sizes[1], sizes[1])] + \
        [(sizes[0] * np.sqrt(r), sizes[0] / np.sqrt(r)) for r in ratios[1:]]
    # float64 as GluonCV computes them, rounded to float32 once: the saved constants agree to the bit
    cy = (np.arange(alloc_size[0]) + offsets[0]) * step
    cx = (np.arange(alloc_size[1]) + offsets[1]) * step
    out = np.empty((alloc_size[0], alloc_size[1], len(shapes), 4))
    out[..., 0] = cx[None, :, None]
    out[..., 1] = cy[:, None, None]
    out[..., 2:] = np.array(shapes)[None, None]
    return out.reshape(1, 1, alloc_size[0], alloc_size[1], -1).astype('float32')


def anchors_like(F, anchors, x):
    """The anchors of feature map `x` (B, C, H, W): the top-left (H, W) cells of `anchors` (from ssd_anchors),
    flattened to (1, H * W * anchors, 4), row-major over cells then anchors (the order of the predictions)."""
    return F.slice_like(anchors, x, axes=(2, 3)).reshape((1, -1, 4))
