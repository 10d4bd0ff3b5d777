"""Image operations on HxWxC NDArrays with GluonCV's signatures (gluoncv.data.transforms.image); sizes are
(width, height) as GluonCV's, interpolations MXNet's codes (0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 lanczos,
9 auto by the resize's direction, 10 random)."""
import numbers
import random

import numpy as np

from ....errors import BadInputError

#: ImageNet's RGB eigen-decomposition (0-255 scale): AlexNet's PCA lighting, GluonCV's default
IMAGENET_EIGVAL = np.array([55.46, 4.794, 1.148])
IMAGENET_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])


def _hwc(src, what):
    if len(src.shape) != 3:
        raise BadInputError(f'{what} takes an HxWxC image, got shape {tuple(src.shape)}')
    return src.shape


def interp_method(interp, old_hw, new_hw):
    """MXNet's interpolation code for a resize from (h, w) `old_hw` to `new_hw`: 9 picks bicubic to enlarge, area to
    shrink, bilinear otherwise; 10 a random one of 0-4 (Python's `random`); others pass through."""
    if interp == 9:
        (oh, ow), (nh, nw) = old_hw, new_hw
        if nh > oh and nw > ow:
            return 2
        if nh < oh and nw < ow:
            return 3
        return 1
    if interp == 10:
        return random.randint(0, 4)
    if interp not in (0, 1, 2, 3, 4):
        raise BadInputError(f'interp must be one of 0-4, 9 (auto) or 10 (random), got {interp!r}')
    return interp


def imresize(src, w, h, interp=1):
    """`src` resized to w x h (OpenCV through mx.image.imresize)."""
    import mxnet as mx
    oh, ow, _ = _hwc(src, 'imresize')
    return mx.image.imresize(src, int(w), int(h), interp=interp_method(interp, (oh, ow), (h, w)))


def resize_long(src, size, interp=2):
    """The long side to `size`, the short one in proportion (floored)."""
    h, w, _ = _hwc(src, 'resize_long')
    nh, nw = (size, size * w // h) if h > w else (size * h // w, size)
    return imresize(src, nw, nh, interp=interp_method(interp, (h, w), (nh, nw)))


def short_within_size(h, w, short, max_size, mult_base=1):
    """(new_w, new_h) of GluonCV's resize_short_within: the short side to `short` unless the long one would pass
    `max_size`, each side rounded to a multiple of `mult_base`."""
    lo, hi = min(h, w), max(h, w)
    scale = float(short) / lo
    if np.round(scale * hi / mult_base) * mult_base > max_size:
        scale = float(np.floor(max_size / mult_base) * mult_base) / hi
    return int(np.round(w * scale / mult_base) * mult_base), int(np.round(h * scale / mult_base) * mult_base)


def resize_short_within(src, short, max_size, mult_base=1, interp=2):
    """The short side to `short`, the long side at most `max_size` (see short_within_size)."""
    h, w, _ = _hwc(src, 'resize_short_within')
    nw, nh = short_within_size(h, w, short, max_size, mult_base)
    return imresize(src, nw, nh, interp=interp_method(interp, (h, w), (nh, nw)))


def random_pca_lighting(src, alphastd, eigval=None, eigvec=None):
    """AlexNet's lighting noise added to a float image in place (and returned): eigvec @ (alpha * eigval), alpha
    ~ N(0, alphastd) per component (numpy's generator); nothing when alphastd <= 0."""
    import mxnet as mx
    if alphastd <= 0:
        return src
    eigval = IMAGENET_EIGVAL if eigval is None else np.asarray(eigval)
    eigvec = IMAGENET_EIGVEC if eigvec is None else np.asarray(eigvec)
    alpha = np.random.normal(0, alphastd, size=(3,))
    src += mx.nd.array((eigvec * alpha) @ eigval, ctx=src.context)
    return src


def _filled(shape, fill, dtype, ctx):
    import mxnet as mx
    if isinstance(fill, numbers.Number):
        return mx.nd.full(shape=shape, val=fill, dtype=dtype, ctx=ctx)
    fill = np.asarray(fill, dtype=np.float64).ravel()
    if fill.size != shape[2]:
        raise ValueError(f'Channel and fill size mismatch, {shape[2]} vs {fill.size}')
    return mx.nd.array(np.broadcast_to(fill, shape), dtype=dtype, ctx=ctx)


def random_expand(src, max_ratio=4, fill=0, keep_ratio=True):
    """The image at a random place on a canvas of `fill` 1 to `max_ratio` times its size (one ratio for both sides
    with `keep_ratio`); returns (canvas, (off_x, off_y, canvas_w, canvas_h)). Draws with Python's `random`."""
    if max_ratio <= 1:
        return src, (0, 0, src.shape[1], src.shape[0])
    h, w, c = _hwc(src, 'random_expand')
    rx = random.uniform(1, max_ratio)
    ry = rx if keep_ratio else random.uniform(1, max_ratio)
    oh, ow = int(h * ry), int(w * rx)
    off_y, off_x = random.randint(0, oh - h), random.randint(0, ow - w)
    dst = _filled((oh, ow, c), fill, src.dtype, src.context)
    dst[off_y:off_y + h, off_x:off_x + w, :] = src
    return dst, (off_x, off_y, ow, oh)


def random_flip(src, px=0, py=0, copy=False):
    """Flip vertically with probability `py`, horizontally with `px` (numpy's generator, y drawn first); returns
    (image, (flip_x, flip_y))."""
    import mxnet as mx
    flip_y = bool(np.random.choice([False, True], p=[1 - py, py]))
    flip_x = bool(np.random.choice([False, True], p=[1 - px, px]))
    if flip_y:
        src = mx.nd.flip(src, axis=0)
    if flip_x:
        src = mx.nd.flip(src, axis=1)
    if copy:
        src = src.copy()
    return src, (flip_x, flip_y)


def resize_contain(src, size, fill=0):
    """Fit the image into (width, height) = `size`, shrinking only, centered on a `fill` canvas; returns (canvas,
    (off_x, off_y, scaled_w, scaled_h))."""
    import mxnet as mx
    h, w, c = _hwc(src, 'resize_contain')
    ow, oh = size
    scale = min(oh / h, ow / w, 1)
    sx, sy = int(w * scale), int(h * scale)
    if scale < 1:
        src = mx.image.imresize(src, sx, sy)
    off_y = (oh - sy) // 2 if sy < oh else 0
    off_x = (ow - sx) // 2 if sx < ow else 0
    dst = _filled((oh, ow, c), fill, src.dtype, src.context)
    dst[off_y:off_y + sy, off_x:off_x + sx, :] = src
    return dst, (off_x, off_y, sx, sy)


def ten_crop(src, size):
    """The (width, height) = `size` crops at the center and the four corners (top-left, bottom-left, top-right,
    bottom-right), then the same five mirrored: a (10, h, w, C) NDArray."""
    import mxnet as mx
    h, w, _ = _hwc(src, 'ten_crop')
    ow, oh = size
    if h < oh or w < ow:
        raise ValueError(f'Cannot crop area {size} from image with size ({h}, {w})')
    crops = [src[(h - oh) // 2:(h + oh) // 2, (w - ow) // 2:(w + ow) // 2, :], src[0:oh, 0:ow, :],
             src[h - oh:h, 0:ow, :], src[0:oh, w - ow:w, :], src[h - oh:h, w - ow:w, :]]
    five = mx.nd.stack(*crops, axis=0)
    return mx.nd.concat(five, mx.nd.flip(five, axis=2), dim=0)
