"""Box-aware image operations: an HxWxC numpy image and its boxes move together.

`boxes` is an (N, 4+) array whose first four columns are the corners x1, y1, x2, y2 in pixels (a detection label,
(N, 6) with class id and difficult, is one); further columns ride along unchanged. Sizes are (height, width), as in
functional.py; crop windows are (x, y, width, height), as GluonCV's. The conventions are GluonCV's
(gluoncv.data.transforms.bbox): a flip maps x to width - x, a resize scales x and y apart, a crop clips boxes to the
window and drops the empty ones. Random ops take a numpy Generator (or anything with its `uniform`, `integers` and
`random` methods), so a seeded pipeline is reproducible.
"""
import cv2
import numpy as np

from ...errors import BadInputError


def _boxes(boxes):
    """A float copy (float32 unless already floating) of an (N, 4+) box array."""
    boxes = np.array(boxes, copy=True)
    if not np.issubdtype(boxes.dtype, np.floating):
        boxes = boxes.astype(np.float32)
    if boxes.ndim != 2 or boxes.shape[1] < 4:
        raise BadInputError(f'boxes must be an (N, 4+) array of x1, y1, x2, y2 (then any columns); got shape '
                            f'{boxes.shape}')
    return boxes


def iou(a, b, offset=0):
    """Pairwise intersection over union of (N, 4+) and (M, 4+) corner boxes -> (N, M); `offset` 1 counts pixels
    inclusively (the VOC metric's convention: a box from 0 to 0 is one pixel wide).

    >>> iou(np.array([[0, 0, 2, 2]]), np.array([[1, 1, 3, 3], [4, 4, 5, 5]])).round(4).tolist()
    [[0.1429, 0.0]]
    """
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] < 4 or b.shape[1] < 4:
        raise BadInputError(f'iou wants two (N, 4+) box arrays, got shapes {a.shape} and {b.shape}')
    tl = np.maximum(a[:, None, :2], b[None, :, :2])
    br = np.minimum(a[:, None, 2:4], b[None, :, 2:4])
    inter = np.prod(br - tl + offset, axis=2) * (tl < br).all(axis=2)
    area_a = np.prod(a[:, 2:4] - a[:, :2] + offset, axis=1)
    area_b = np.prod(b[:, 2:4] - b[:, :2] + offset, axis=1)
    with np.errstate(divide='ignore', invalid='ignore'):
        return inter / (area_a[:, None] + area_b[None, :] - inter)


def resize_boxes(boxes, in_size, out_size):
    """Boxes of an image of (height, width) `in_size` scaled to one of `out_size` (x and y apart).

    >>> resize_boxes(np.array([[10, 10, 20, 30, 1]]), (100, 100), (50, 200)).tolist()
    [[20.0, 5.0, 40.0, 15.0, 1.0]]
    """
    boxes = _boxes(boxes)
    sy, sx = out_size[0] / in_size[0], out_size[1] / in_size[1]
    boxes[:, [0, 2]] *= sx
    boxes[:, [1, 3]] *= sy
    return boxes


def auto_interp(in_size, out_size):
    """GluonCV's interpolation 9 (MXNet's auto): bicubic when both sides grow, area when both shrink, else
    bilinear."""
    (h, w), (nh, nw) = in_size, out_size
    if nh > h and nw > w:
        return cv2.INTER_CUBIC
    if nh < h and nw < w:
        return cv2.INTER_AREA
    return cv2.INTER_LINEAR


def resize(img, boxes, size, interp=None):
    """Resize to (height, width) = `size` and scale the boxes; `interp` an OpenCV flag (None: auto_interp)."""
    h, w = img.shape[:2]
    flag = auto_interp((h, w), size) if interp is None else interp
    out = cv2.resize(img, (int(size[1]), int(size[0])), interpolation=flag)
    return out.reshape(out.shape[:2] + img.shape[2:]), resize_boxes(boxes, (h, w), size)


def flip_boxes(boxes, width):
    """Boxes of an image `width` wide mirrored left-right (x -> width - x, GluonCV's).

    >>> flip_boxes(np.array([[10, 0, 30, 5]]), 100).tolist()
    [[70.0, 0.0, 90.0, 5.0]]
    """
    boxes = _boxes(boxes)
    boxes[:, [0, 2]] = width - boxes[:, [2, 0]]
    return boxes


def hflip(img, boxes):
    """Mirror the image left-right, and its boxes."""
    return img[:, ::-1], flip_boxes(boxes, img.shape[1])


def translate_boxes(boxes, dx, dy):
    """Boxes moved by (dx, dy) pixels."""
    boxes = _boxes(boxes)
    boxes[:, [0, 2]] += dx
    boxes[:, [1, 3]] += dy
    return boxes


def crop_boxes(boxes, window, allow_outside_center=True):
    """Boxes of the (x, y, width, height) `window`, in its pixels: clipped to it, empty ones dropped, and with
    `allow_outside_center=False` also those whose center is outside (GluonCV's bbox.crop).

    >>> crop_boxes(np.array([[0, 0, 10, 10], [50, 50, 60, 60]]), (5, 5, 20, 20)).tolist()
    [[0.0, 0.0, 5.0, 5.0]]
    """
    boxes = _boxes(boxes)
    x, y, w, h = window
    lo, hi = np.array([x, y], np.float64), np.array([x + w, y + h], np.float64)
    keep = np.ones(len(boxes), bool)
    if not allow_outside_center:
        centers = (boxes[:, :2] + boxes[:, 2:4]) / 2
        keep = ((lo <= centers) & (centers < hi)).all(axis=1)
    boxes[:, :2] = np.maximum(boxes[:, :2], lo) - lo
    boxes[:, 2:4] = np.minimum(boxes[:, 2:4], hi) - lo
    return boxes[keep & (boxes[:, :2] < boxes[:, 2:4]).all(axis=1)]


def crop(img, boxes, window, allow_outside_center=True):
    """The (x, y, width, height) `window` of the image, and crop_boxes of its boxes."""
    x, y, w, h = (int(v) for v in window)
    if x < 0 or y < 0 or x + w > img.shape[1] or y + h > img.shape[0]:
        raise BadInputError(f'cannot crop {w}x{h} at ({x}, {y}) from a {img.shape[1]}x{img.shape[0]} image')
    return img[y:y + h, x:x + w], crop_boxes(boxes, (x, y, w, h), allow_outside_center)


def _canvas(size, channels, fill, dtype):
    fill = np.broadcast_to(np.asarray(fill, dtype), (channels,))
    return np.tile(fill, (size[0], size[1], 1))


def expand(img, boxes, size, offset, fill=0):
    """Place the image on a (height, width) = `size` canvas of `fill` (a value or one per channel) with its
    top-left pixel at `offset` = (top, left); the boxes move along."""
    h, w, c = img.shape
    top, left = offset
    if top < 0 or left < 0 or top + h > size[0] or left + w > size[1]:
        raise BadInputError(f'a {h}x{w} image does not fit a {size[0]}x{size[1]} canvas at ({top}, {left})')
    out = _canvas(size, c, fill, img.dtype)
    out[top:top + h, left:left + w] = img
    return out, translate_boxes(boxes, left, top)


def random_expand(img, boxes, rng, max_ratio=4, fill=0, keep_ratio=True):
    """GluonCV's random_expand: a canvas 1 to `max_ratio` times the image (one ratio for both sides with
    `keep_ratio`), the image at a random place; returns (image, boxes, (x, y, width, height) of the canvas's
    placement as GluonCV reports it: the image's left/top offset and the canvas's width/height)."""
    h, w = img.shape[:2]
    if max_ratio <= 1:
        return img, _boxes(boxes), (0, 0, w, h)
    rx = rng.uniform(1, max_ratio)
    ry = rx if keep_ratio else rng.uniform(1, max_ratio)
    oh, ow = int(h * ry), int(w * rx)
    top = int(rng.integers(0, oh - h + 1))
    left = int(rng.integers(0, ow - w + 1))
    out, boxes = expand(img, boxes, (oh, ow), (top, left), fill)
    return out, boxes, (left, top, ow, oh)


#: the SSD paper's crop constraints (min IoU, max IoU) with some box; None is no bound
SSD_CONSTRAINTS = ((0.1, None), (0.3, None), (0.5, None), (0.7, None), (0.9, None), (None, 1))


def random_crop_window(boxes, size, rng, min_scale=0.3, max_scale=1.0, max_aspect_ratio=2.0, constraints=None,
                       max_trial=50):
    """GluonCV's random_crop_with_constraints: SSD's sampler. For each (min IoU, max IoU) constraint (default
    SSD_CONSTRAINTS) up to `max_trial` windows of random scale and aspect are drawn, and the first whose IoU with
    every box lies within the bounds is a candidate, as is the whole image. A random candidate that keeps at least
    one box center wins. Returns (crop_boxes of it, (x, y, width, height)); the image is (height, width) `size`."""
    constraints = SSD_CONSTRAINTS if constraints is None else constraints
    boxes = _boxes(boxes)
    h, w = size
    candidates = [(0, 0, w, h)]
    for lo, hi in constraints:
        lo, hi = -np.inf if lo is None else lo, np.inf if hi is None else hi
        for _ in range(max_trial):
            scale = rng.uniform(min_scale, max_scale)
            ratio = rng.uniform(max(1 / max_aspect_ratio, scale * scale), min(max_aspect_ratio, 1 / (scale * scale)))
            ch, cw = int(h * scale / np.sqrt(ratio)), int(w * scale * np.sqrt(ratio))
            top, left = int(rng.integers(0, h - ch)), int(rng.integers(0, w - cw))
            if not len(boxes):
                return boxes, (left, top, cw, ch)
            overlap = iou(boxes, np.array([[left, top, left + cw, top + ch]]))
            if lo <= overlap.min() and overlap.max() <= hi:
                candidates.append((left, top, cw, ch))
                break
    while candidates:
        window = candidates.pop(int(rng.integers(0, len(candidates))))
        kept = crop_boxes(boxes, window, allow_outside_center=False)
        if len(kept):
            return kept, window
    return boxes, (0, 0, w, h)


def random_crop(img, boxes, rng, **kwargs):
    """random_crop_window applied: (cropped image, its boxes, the (x, y, width, height) window)."""
    boxes, window = random_crop_window(boxes, img.shape[:2], rng, **kwargs)
    x, y, w, h = window
    return img[y:y + h, x:x + w], boxes, window


def letterbox(img, boxes, size, fill=0, interp=None):
    """Fit the image into (height, width) = `size` keeping its aspect (scaled up or down), centered on a `fill`
    canvas; returns (image, boxes, (scale, left, top)), which unletterbox_boxes undoes.

    >>> out, b, how = letterbox(np.zeros((50, 100, 3), np.uint8), np.array([[0, 0, 100, 50]]), (64, 64))
    >>> out.shape, b.tolist(), how
    ((64, 64, 3), [[0.0, 16.0, 64.0, 48.0]], (0.64, 0, 16))
    """
    h, w, c = img.shape
    scale = min(size[0] / h, size[1] / w)
    nh, nw = max(1, int(round(h * scale))), max(1, int(round(w * scale)))
    top, left = (size[0] - nh) // 2, (size[1] - nw) // 2
    small, boxes = resize(img, boxes, (nh, nw), interp)
    out = _canvas(size, c, fill, img.dtype)
    out[top:top + nh, left:left + nw] = small
    return out, translate_boxes(boxes, left, top), (scale, left, top)


def unletterbox_boxes(boxes, scale, left, top):
    """Boxes found on a letterboxed image, back in the original image's pixels."""
    boxes = translate_boxes(boxes, -left, -top)
    boxes[:, :4] /= scale
    return boxes


def affine_matrix(center, scale, output_size, rot=0.0, shift=(0.0, 0.0), inv=False):
    """GluonCV's get_affine_transform (CenterNet's): the 2x3 matrix taking the `scale`-wide square around
    `center` = (x, y), rotated by `rot` degrees, onto an output of (width, height) = `output_size`; `inv` the way
    back."""
    scale = np.broadcast_to(np.asarray(scale, np.float32), (2,))
    center, shift = np.asarray(center, np.float32), np.asarray(shift, np.float32)
    rad = np.pi * rot / 180
    half = scale[0] * -0.5
    src_dir = np.array([-half * np.sin(rad), half * np.cos(rad)])  # (0, -width/2) rotated
    dst_w, dst_h = output_size
    src, dst = np.zeros((3, 2), np.float32), np.zeros((3, 2), np.float32)
    src[0] = center + scale * shift
    src[1] = center + src_dir + scale * shift
    dst[0] = [dst_w * 0.5, dst_h * 0.5]
    dst[1] = np.array([dst_w * 0.5, dst_h * 0.5], np.float32) + np.array([0, dst_w * -0.5], np.float32)
    for pts in (src, dst):  # the third point: the first turned 90 degrees about the second
        d = pts[0] - pts[1]
        pts[2] = pts[1] + np.array([-d[1], d[0]], np.float32)
    return cv2.getAffineTransform(dst, src) if inv else cv2.getAffineTransform(src, dst)


def affine_boxes(boxes, matrix):
    """Both corners of each box through the 2x3 `matrix` (GluonCV's affine_transform of each corner; a rotation
    would need all four corners)."""
    boxes = _boxes(boxes)
    for cols in ((0, 1), (2, 3)):
        pts = np.concatenate([boxes[:, cols].astype(np.float32), np.ones((len(boxes), 1), np.float32)], 1)
        boxes[:, cols] = pts @ np.asarray(matrix).T
    return boxes


def warp_affine(img, boxes, matrix, size, clip=True):
    """The image warped by the 2x3 `matrix` onto (width, height) = `size` (bilinear, black borders) and
    affine_boxes of its boxes, clipped to the output when `clip`."""
    out = cv2.warpAffine(img, matrix, tuple(int(v) for v in size), flags=cv2.INTER_LINEAR)
    boxes = affine_boxes(boxes, matrix)
    if clip:
        boxes = clip_boxes(boxes, (size[1], size[0]))
    return out.reshape(out.shape[:2] + img.shape[2:]), boxes


def clip_boxes(boxes, size):
    """Corners clamped to the pixels of a (height, width) = `size` image: x to [0, width - 1], y to
    [0, height - 1] (GluonCV's bbox_clip_xyxy).

    >>> clip_boxes(np.array([[-5, 2, 120, 40]]), (30, 100)).tolist()
    [[0.0, 2.0, 99.0, 29.0]]
    """
    boxes = _boxes(boxes)
    boxes[:, [0, 2]] = np.clip(boxes[:, [0, 2]], 0, size[1] - 1)
    boxes[:, [1, 3]] = np.clip(boxes[:, [1, 3]], 0, size[0] - 1)
    return boxes
