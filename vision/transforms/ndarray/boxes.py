"""Box operations with GluonCV's signatures (gluoncv.data.transforms.bbox): `bbox` a numpy (N, 4+) array of corners
x1, y1, x2, y2 (further columns ride along), sizes (width, height), crop boxes (x, y, width, height). Each returns a
new array."""
import numpy as np

from .. import bbox as _B


def _pair(value, what):
    if len(value) != 2:
        raise ValueError(f'{what} requires length 2 tuple, given {len(value)}')
    return value


def crop(bbox, crop_box=None, allow_outside_center=True):
    """The boxes inside `crop_box` = (x, y, width, height), in its pixels: clipped to it, the empty ones dropped, and
    with `allow_outside_center=False` those whose center lies outside too. None (or a None side) is unbounded."""
    bbox = bbox.copy()
    if crop_box is None:
        return bbox
    if len(crop_box) != 4:
        raise ValueError(f'Invalid crop_box parameter, requires length 4, given {crop_box}')
    if all(c is None for c in crop_box):
        return bbox
    x, y, w, h = crop_box
    lo = np.array([x or 0, y or 0])
    hi = lo + np.array([w or np.inf, h or np.inf])
    keep = np.ones(len(bbox), bool)
    if not allow_outside_center:
        centers = (bbox[:, :2] + bbox[:, 2:4]) / 2
        keep = ((lo <= centers) & (centers < hi)).all(axis=1)
    bbox[:, :2] = np.maximum(bbox[:, :2], lo) - lo
    bbox[:, 2:4] = np.minimum(bbox[:, 2:4], hi) - lo
    return bbox[keep & (bbox[:, :2] < bbox[:, 2:4]).all(axis=1)]


def flip(bbox, size, flip_x=False, flip_y=False):
    """Boxes of a (width, height) = `size` image mirrored: x -> width - x, y -> height - y."""
    width, height = _pair(size, 'size')
    bbox = bbox.copy()
    if flip_y:
        bbox[:, [1, 3]] = height - bbox[:, [3, 1]]
    if flip_x:
        bbox[:, [0, 2]] = width - bbox[:, [2, 0]]
    return bbox


def resize(bbox, in_size, out_size):
    """Boxes of an `in_size` image scaled to an `out_size` one (both (width, height)); float64 out."""
    (iw, ih), (ow, oh) = _pair(in_size, 'in_size'), _pair(out_size, 'out_size')
    bbox = bbox.astype(float)
    bbox[:, [0, 2]] *= ow / iw
    bbox[:, [1, 3]] *= oh / ih
    return bbox


def translate(bbox, x_offset=0, y_offset=0):
    """Boxes moved by (x_offset, y_offset)."""
    bbox = bbox.copy()
    bbox[:, :2] += (x_offset, y_offset)
    bbox[:, 2:4] += (x_offset, y_offset)
    return bbox


def affine_transform(pt, t):
    """The point (x, y) through the 2x3 matrix `t`."""
    return np.dot(t, np.array([pt[0], pt[1], 1.0], np.float32))[:2]


def get_affine_transform(center, scale, rot, output_size, shift=np.array([0, 0], dtype=np.float32), inv=0):
    """The 2x3 matrix taking the `scale`-wide square around `center`, turned by `rot` degrees, onto an output of
    (width, height) = `output_size`; `inv` the way back (CenterNet's)."""
    return _B.affine_matrix(center, scale, output_size, rot=rot, shift=shift, inv=bool(inv))
