"""Instance-mask operations with GluonCV's signatures (gluoncv.data.transforms.mask): an instance is a list of
polygons, each a (K, 2) numpy array of (x, y) points; sizes are (width, height)."""
import copy

import numpy as np

from .boxes import _pair


def flip(polys, size, flip_x=False, flip_y=False):
    """Polygons of a (width, height) = `size` image mirrored (x -> width - x, y -> height - y)."""
    width, height = _pair(size, 'size')
    polys = copy.deepcopy(polys)
    for poly in polys:
        if flip_y:
            poly[:, 1] = height - poly[:, 1]
        if flip_x:
            poly[:, 0] = width - poly[:, 0]
    return polys


def resize(polys, in_size, out_size):
    """Polygons of an `in_size` image scaled to an `out_size` one (both (width, height))."""
    (iw, ih), (ow, oh) = _pair(in_size, 'in_size'), _pair(out_size, 'out_size')
    polys = copy.deepcopy(polys)
    for poly in polys:
        poly[:, 0] = 1.0 * ow / iw * poly[:, 0]
        poly[:, 1] = 1.0 * oh / ih * poly[:, 1]
    return polys


def to_mask(polys, size):
    """The union of the polygons rasterized on a (width, height) = `size` grid: an (height, width) uint8 mask
    (pycocotools' RLE)."""
    import pycocotools.mask as cocomask
    width, height = size
    rles = cocomask.frPyObjects([np.asarray(p).flatten().tolist() for p in polys], height, width)
    return cocomask.decode(cocomask.merge(rles))


def _grown(bboxes, m_h, m_w):
    """The boxes grown by one mask cell each side (the padded mask's extent)."""
    x1, y1, x2, y2 = (np.asarray(bboxes, np.float64)[:, i] for i in range(4))
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    hw, hh = (x2 - x1) / 2 * ((m_w + 2.0) / m_w), (y2 - y1) / 2 * ((m_h + 2.0) / m_h)
    return cx - hw, cy - hh, cx + hw, cy + hh


def fill(masks, bboxes, size, fast_fill=True):
    """Paste (N, m_h, m_w) mask-head probabilities into their (N, 4) boxes of a (width, height) = `size` image:
    (N, height, width) uint8 masks, each the box-sized bilinear resize of its mask (one cell of zeros around)
    thresholded at 0.5. `fast_fill=False` samples the mask continuously at each pixel center instead."""
    from PIL import Image
    width, height = size
    m_h, m_w = masks.shape[1:]
    padded = np.pad(masks, [(0, 0), (1, 1), (1, 1)], mode='constant').astype(np.float32)
    x1, y1, x2, y2 = _grown(bboxes, m_h, m_w)
    out = np.zeros((len(padded), height, width), dtype='uint8')
    if fast_fill:
        x1, y1, x2, y2 = (np.round(v).astype(int) for v in (x1, y1, x2, y2))
        w, h = x2 - x1 + 1, y2 - y1 + 1
        xx1, yy1 = np.maximum(0, x1), np.maximum(0, y1)
        xx2, yy2 = np.minimum(width, x2 + 1), np.minimum(height, y2 + 1)
        for i, mask in enumerate(padded):
            big = np.array(Image.fromarray(mask).resize((int(w[i]), int(h[i])), Image.BILINEAR)) > 0.5
            out[i, yy1[i]:yy2[i], xx1[i]:xx2[i]] = big[yy1[i] - y1[i]:yy2[i] - y1[i], xx1[i] - x1[i]:xx2[i] - x1[i]]
        return out
    from scipy.interpolate import RegularGridInterpolator
    for i, mask in enumerate(padded):
        cells_y, cells_x = np.arange(0.5, mask.shape[0] + 0.5), np.arange(0.5, mask.shape[1] + 0.5)
        f = RegularGridInterpolator((cells_y, cells_x), mask, bounds_error=False, fill_value=0.0)
        ys = (np.arange(0.5, height + 0.5) - y1[i]) / (y2[i] - y1[i]) * mask.shape[0]
        xs = (np.arange(0.5, width + 0.5) - x1[i]) / (x2[i] - x1[i]) * mask.shape[1]
        gy, gx = np.meshgrid(ys, xs, indexing='ij')
        out[i] = f(np.stack([gy, gx], -1)) >= 0.5
    return out
