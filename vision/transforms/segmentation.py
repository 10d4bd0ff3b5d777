"""GluonCV's segmentation transforms (gluoncv/data/segbase.py) in numpy: `(image, mask) -> (image, mask)`.

The image is HxWx3 uint8 RGB, the mask HxW int32 class ids (-1 ignored), as vision.data.segmentation gives them.
GluonCV works on Pillow images, and OpenCV does not give Pillow's pixels (its INTER_LINEAR has no antialiasing: up
to 40 grey levels apart when shrinking; its nearest and Gaussian differ too), so Pillow's arithmetic is redone here:
`nearest_resize` (masks) and `pil_gaussian_blur` (three box blurs a direction, in fixed point) give Pillow's values
exactly; `pil_resize` (bilinear, antialiased, fixed point) runs its two passes width first, as Pillow's source reads,
while Pillow 13.0.0 sometimes goes height first: one grey level apart on some pixels. So masks are GluonCV's and
images within a grey level of its.

    sync_train(img, mask, rng, ...)   GluonCV's _sync_transform: flip, random long side, pad, random crop, blur
    sync_eval(img, mask, ...)         GluonCV's _val_sync_transform: short side to crop_size, center crop
    segmentation_train / _eval        those, then the image normalized to float32 CxHxW (GluonCV's ToTensor +
                                      Normalize); wrap them in transforms.DetectionPreset for a dataset

Random draws come from `rng` (a numpy Generator) in GluonCV's order: flip (random() < 0.5), the long side
(integers(lo, hi + 1)), the crop's x then y, blur (random() < 0.5) and its radius (random()).
"""
import math

import numpy as np

from ..meta import IMAGENET_MEAN, IMAGENET_STD
from .functional import normalize

_BITS = 22  # Pillow's fixed-point precision for 8-bit resampling


def _pil_taps(n_in, n_out):
    """Pillow's bilinear resampling of one axis: (first input index, fixed-point weights) per output pixel."""
    scale = n_in / n_out
    fscale = max(scale, 1.0)
    support = fscale
    ksize = int(math.ceil(support)) * 2 + 1
    first = np.zeros(n_out, np.int64)
    weights = np.zeros((n_out, ksize), np.int64)
    for o in range(n_out):
        center = (o + 0.5) * scale
        lo, hi = max(int(center - support + 0.5), 0), min(int(center + support + 0.5), n_in)
        # Pillow's double arithmetic, operation for operation (a reciprocal, a sequential sum), for its rounding
        k = np.maximum(1.0 - np.abs((np.arange(lo, hi) - center + 0.5) * (1.0 / fscale)), 0.0)
        total = sum(k.tolist())
        if total:
            k = k / total
        first[o] = lo
        weights[o, :hi - lo] = np.where(k < 0, np.trunc(-0.5 + k * (1 << _BITS)), np.trunc(0.5 + k * (1 << _BITS)))
    return first, weights


def _pil_pass(img, n_out, axis):
    first, weights = _pil_taps(img.shape[axis], n_out)
    idx = np.minimum(first[:, None] + np.arange(weights.shape[1]), img.shape[axis] - 1)
    taps = np.take(img.astype(np.int64), idx, axis=axis)  # axis becomes (n_out, ksize)
    shape = [1] * taps.ndim
    shape[axis], shape[axis + 1] = weights.shape
    acc = (taps * weights.reshape(shape)).sum(axis=axis + 1) + (1 << (_BITS - 1))
    return np.clip(acc >> _BITS, 0, 255).astype(np.uint8)


def pil_resize(img, size):
    """Pillow's `Image.resize((w, h), BILINEAR)` of an HxWxC uint8 image to `size` = (height, width): width first,
    rounded to 8 bits, then height (Pillow 13 sometimes goes height first: one grey level apart)."""
    h, w = img.shape[:2]
    if size[1] != w:
        img = _pil_pass(img, size[1], 1)
    if size[0] != h:
        img = _pil_pass(img, size[0], 0)
    return img


def _nearest_index(n_in, n_out):
    # Pillow steps the sample position by adding the scale, in double: its rounding, not (i + 0.5) * scale's
    scale = n_in / n_out
    pos = np.add.accumulate(np.concatenate([[scale * 0.5], np.full(n_out - 1, scale)]))
    return np.minimum(pos.astype(np.int64), n_in - 1)


def nearest_resize(mask, size):
    """Pillow's `Image.resize((w, h), NEAREST)` of a mask of any dtype to `size` = (height, width): output pixel i
    samples input pixel floor(position), the position starting at scale / 2 and stepping by scale."""
    h, w = mask.shape[:2]
    return mask[_nearest_index(h, size[0])][:, _nearest_index(w, size[1])]


def _box_radius(radius, passes):
    """Pillow's box radius for a Gaussian of `radius` (sigma) made of `passes` box blurs (Gwosdek et al. 2011), in
    float32 as Pillow computes it: an integer part and a fraction of the next pixel on each side."""
    f = np.float32
    s2 = f(radius) * f(radius) / f(passes)
    length = f(np.sqrt(12.0 * np.float64(s2) + 1.0))
    whole = f(np.floor((np.float64(length) - 1.0) / 2.0))
    frac = (f(2) * whole + f(1)) * (whole * (whole + f(1)) - f(3) * s2)
    return f(whole + frac / (f(6) * (s2 - (whole + f(1)) * (whole + f(1)))))


def _box_pass(img, radius):
    """One of Pillow's box blurs along axis 1, edges repeated: the 2r + 1 pixels around x at weight ww, the next one
    out on each side at fw (24-bit fixed point), rounded to 8 bits."""
    r = int(radius)
    ww = int(np.float32(1 << 24) / (radius * np.float32(2) + np.float32(1)))
    fw = ((1 << 24) - (2 * r + 1) * ww) // 2
    n = img.shape[1]
    p = np.pad(img.astype(np.int64), [(0, 0), (r + 1, r + 1)] + [(0, 0)] * (img.ndim - 2), mode='edge')
    inner = sum(p[:, r + 1 + k:r + 1 + k + n] for k in range(-r, r + 1))
    return ((inner * ww + (p[:, :n] + p[:, 2 * r + 2:2 * r + 2 + n]) * fw + (1 << 23)) >> 24).astype(np.uint8)


def pil_gaussian_blur(img, radius, passes=3):
    """Pillow's `ImageFilter.GaussianBlur(radius)` of an HxWxC uint8 image: three box blurs along x, then three
    along y, each rounded to 8 bits."""
    box = _box_radius(radius, passes)
    if radius == 0 or box == 0:
        return img.copy()
    for _ in range(passes):
        img = _box_pass(img, box)
    img = img.swapaxes(0, 1)
    for _ in range(passes):
        img = _box_pass(img, box)
    return np.ascontiguousarray(img.swapaxes(0, 1))


def _resize_pair(img, mask, size):
    return pil_resize(img, size), nearest_resize(mask, size)


def sync_train(img, mask, rng, base_size=520, crop_size=480, mask_fill=-1):
    """GluonCV's training augmentation of an image and its mask. The long side is drawn from
    [base_size / 2, 2 base_size] (GluonCV's code draws the long side, though its comment says short); a side left
    under crop_size is padded at the bottom/right, the image with 0 and the mask with `mask_fill` (-1: ignored;
    GluonCV 0.10.5 pads the raw mask with 0, which is VOC's background, ADE20K's ignored: pass mask_fill=0 to
    replay it on VOC)."""
    if rng.random() < 0.5:
        img, mask = img[:, ::-1], mask[:, ::-1]
    long_side = int(rng.integers(int(base_size * 0.5), int(base_size * 2.0) + 1))
    h, w = img.shape[:2]
    if h > w:
        oh, ow = long_side, int(1.0 * w * long_side / h + 0.5)
    else:
        oh, ow = int(1.0 * h * long_side / w + 0.5), long_side
    img, mask = _resize_pair(np.ascontiguousarray(img), np.ascontiguousarray(mask), (oh, ow))
    if min(oh, ow) < crop_size:
        ph, pw = max(crop_size - oh, 0), max(crop_size - ow, 0)
        img = np.pad(img, ((0, ph), (0, pw), (0, 0)))
        mask = np.pad(mask, ((0, ph), (0, pw)), constant_values=mask_fill)
    h, w = img.shape[:2]
    x = int(rng.integers(0, w - crop_size + 1))
    y = int(rng.integers(0, h - crop_size + 1))
    img, mask = img[y:y + crop_size, x:x + crop_size], mask[y:y + crop_size, x:x + crop_size]
    if rng.random() < 0.5:
        img = pil_gaussian_blur(img, rng.random())
    return np.ascontiguousarray(img), np.ascontiguousarray(mask).astype(np.int32)


def sync_eval(img, mask, crop_size=480):
    """GluonCV's validation transform: the short side resized to crop_size (the long one truncated), then the
    centered crop_size square (its offset Python's round, half to even, as GluonCV's)."""
    h, w = img.shape[:2]
    if w > h:
        oh, ow = crop_size, int(1.0 * w * crop_size / h)
    else:
        oh, ow = int(1.0 * h * crop_size / w), crop_size
    img, mask = _resize_pair(img, mask, (oh, ow))
    x, y = int(round((ow - crop_size) / 2.0)), int(round((oh - crop_size) / 2.0))
    return (np.ascontiguousarray(img[y:y + crop_size, x:x + crop_size]),
            np.ascontiguousarray(mask[y:y + crop_size, x:x + crop_size]).astype(np.int32))


def segmentation_train(img, mask, rng, base_size=520, crop_size=480, mask_fill=-1, mean=IMAGENET_MEAN,
                       std=IMAGENET_STD):
    """sync_train, then the image as normalized float32 CxHxW."""
    img, mask = sync_train(img, mask, rng, base_size, crop_size, mask_fill)
    return normalize(img, mean, std), mask


def segmentation_eval(img, mask, crop_size=480, mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """sync_eval, then the image as normalized float32 CxHxW."""
    img, mask = sync_eval(img, mask, crop_size)
    return normalize(img, mean, std), mask
