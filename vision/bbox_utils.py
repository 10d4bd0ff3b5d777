"""Numpy box helpers of GluonCV's `utils.bbox`: pairwise IoU, (x, y, w, h) <-> corner boxes with its pixel-inclusive
widths (a box from x 0 to x 9 is 10 wide), and clipping to a picture. A list or tuple of 4 numbers gives a tuple
back, an (N, 4) array an array.

>>> bbox_xywh_to_xyxy([20, 30, 100.2, 300.4])
(20, 30, 119.2, 329.4)
>>> bbox_xyxy_to_xywh(np.array([[0., 0, 9, 4]])).tolist()
[[0.0, 0.0, 10.0, 5.0]]
"""
import numpy as np

from .transforms.bbox import iou


def bbox_iou(bbox_a, bbox_b, offset=0):
    """(N, M) IoU of the corner boxes (N, 4+) and (M, 4+); `offset` 1 counts widths pixel-inclusively."""
    a, b = np.asarray(bbox_a), np.asarray(bbox_b)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] < 4 or b.shape[1] < 4:
        raise IndexError(f'bbox_iou takes (N, 4+) and (M, 4+) boxes, got shapes {a.shape} and {b.shape}')
    return iou(a, b, offset=offset)


def _as_boxes(x, what):
    if isinstance(x, (tuple, list)):
        if len(x) != 4:
            raise IndexError(f'{what}: a box has 4 numbers, got {len(x)}')
        return None
    if isinstance(x, np.ndarray):
        if x.size % 4:
            raise IndexError(f'{what}: boxes must be (N, 4), got shape {x.shape}')
        return x.reshape(-1, 4)
    raise TypeError(f'{what} takes a list, tuple or numpy array of boxes, not {type(x).__name__}')


def bbox_xywh_to_xyxy(xywh):
    """(x, y, w, h) -> (x1, y1, x2, y2) with x2 = x + w - 1 (widths under 1 give x2 = x)."""
    a = _as_boxes(xywh, 'bbox_xywh_to_xyxy')
    if a is None:
        x, y, w, h = xywh
        return x, y, x + np.maximum(w - 1, 0), y + np.maximum(h - 1, 0)
    return np.hstack((a[:, :2], a[:, :2] + np.maximum(0, a[:, 2:4] - 1)))


def bbox_xyxy_to_xywh(xyxy):
    """(x1, y1, x2, y2) -> (x, y, w, h) with w = x2 - x1 + 1."""
    a = _as_boxes(xyxy, 'bbox_xyxy_to_xywh')
    if a is None:
        x1, y1, x2, y2 = xyxy
        return x1, y1, x2 - x1 + 1, y2 - y1 + 1
    return np.hstack((a[:, :2], a[:, 2:4] - a[:, :2] + 1))


def bbox_clip_xyxy(xyxy, width, height):
    """Corner boxes clipped to the pixels of a `width` x `height` picture, [0, width - 1] x [0, height - 1]; an
    array gives (N, 4) back (GluonCV's gives the four clipped columns one after another, flat (4N,))."""
    a = _as_boxes(xyxy, 'bbox_clip_xyxy')
    hi = np.array([width - 1, height - 1, width - 1, height - 1])
    if a is None:
        return tuple(np.minimum(m, np.maximum(0, v)) for v, m in zip(xyxy, hi))
    return np.minimum(hi, np.maximum(0, a))
