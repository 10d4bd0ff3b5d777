"""Region-proposal anchors (Faster R-CNN, Mask R-CNN), laid out as GluonCV 0.10.5's `RPNAnchorGenerator` lays them
out, so its parameter files (which store the grid) load and the proposals come out in the same order.

The base boxes of one feature-map cell follow Detectron's enumeration: for each aspect ratio, every size, centered
on ((stride - 1) / 2, (stride - 1) / 2) with Detectron's +1 widths and the ratio's width rounded to whole pixels.
The grid repeats them at every cell of an `alloc_size` map, once, as a (1, 1, H, W, A * 4) float32 array that a
net keeps as a constant and crops to each feature map (`crop`): a larger picture needs a larger `alloc_size`.

>>> base_anchors(16, sizes=(32,), ratios=(1,)).tolist()
[[-8.0, -8.0, 23.0, 23.0]]
>>> anchor_grid(16, sizes=(32, 64), ratios=(0.5, 1, 2), alloc_size=(4, 5)).shape
(1, 1, 4, 5, 24)
"""
import numpy as np


def base_anchors(stride, sizes, ratios):
    """(len(ratios) * len(sizes), 4) corner boxes of the cell at the origin, ratio-major (GluonCV's order)."""
    center, area = (stride - 1) * 0.5, float(stride * stride)
    out = []
    for ratio in ratios:
        width = np.round(np.sqrt(area / ratio))
        height = np.round(width * ratio)
        for size in sizes:
            w, h = width * size / stride, height * size / stride
            out.append([center - 0.5 * (w - 1), center - 0.5 * (h - 1), center + 0.5 * (w - 1), center + 0.5 * (h - 1)])
    return np.array(out, dtype=np.float64)


def anchor_grid(stride, sizes, ratios, alloc_size):
    """The base anchors shifted to every cell of an (H, W) = `alloc_size` feature map: float32 (1, 1, H, W, A * 4),
    row-major over cells, the A anchors of a cell together."""
    height, width = alloc_size
    x, y = np.meshgrid(np.arange(0, width * stride, stride), np.arange(0, height * stride, stride))
    shifts = np.stack([x.ravel(), y.ravel(), x.ravel(), y.ravel()], axis=1)
    grid = base_anchors(stride, sizes, ratios)[None] + shifts[:, None]
    return grid.reshape((1, 1, height, width, -1)).astype(np.float32)


def crop(F, grid, feature):
    """The (1, h * w * A, 4) anchors of a (B, C, h, w) `feature` map, cut from a precomputed `grid`."""
    return F.slice_like(grid, feature, axes=(2, 3)).reshape((1, -1, 4))
