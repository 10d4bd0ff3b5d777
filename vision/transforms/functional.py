"""Image operations on HxWxC numpy arrays (OpenCV for resizing), the pieces the presets are made of.

Randomness comes from a numpy Generator passed in, so a seeded pipeline is reproducible and worker-safe.
"""
import cv2
import numpy as np

from ...errors import BadInputError

# AlexNet's PCA of ImageNet RGB pixels (0-255 scale), as MXNet's LightingAug and GluonCV's presets use them
PCA_EIGVAL = np.array([55.46, 4.794, 1.148], np.float32)
PCA_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]],
                      np.float32)
_GRAY = np.array([0.299, 0.587, 0.114], np.float32)
#: interpolation names a preprocess dict may give (None: area when shrinking, bilinear when growing)
INTERP = {None: None, 'area': cv2.INTER_AREA, 'linear': cv2.INTER_LINEAR, 'cubic': cv2.INTER_CUBIC,
          'nearest': cv2.INTER_NEAREST}
#: the pixel types normalize splits with OpenCV (other types, and over 4 channels, use numpy's strided channels)
_SPLITS = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.float32))


def as_rgb(img):
    """An array as HxWx3: grayscale replicated, alpha dropped, 16-bit scaled to 8-bit; uint8 and float kept.

    >>> as_rgb(np.zeros((4, 5), np.uint8)).shape
    (4, 5, 3)
    >>> as_rgb(np.full((2, 2, 4), 65535, np.uint16))[0, 0].tolist()
    [255, 255, 255]
    """
    img = np.asarray(img)
    if img.dtype == np.uint16:
        img = (img // 257).astype(np.uint8)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3 or img.shape[2] not in (1, 3, 4) or min(img.shape[:2]) < 1:
        raise BadInputError(f'an image must be HxW, HxWx1, HxWx3 or HxWx4; got an array of shape {img.shape}')
    if img.shape[2] == 1:
        img = np.repeat(img, 3, axis=2)
    return img[:, :, :3]


def to_color(img, color):
    """An HxWx3 RGB image as the net's `color`: 'RGB' (kept), 'BGR' (channels reversed) or 'grey' (HxWx1, OpenCV's
    luma: 0.299 R + 0.587 G + 0.114 B, so a grey picture read as RGB comes back unchanged).

    >>> to_color(np.full((2, 2, 3), 7, np.uint8), 'grey')[..., 0].tolist()
    [[7, 7], [7, 7]]
    """
    if color == 'RGB':
        return img
    if color == 'BGR':
        return img[:, :, ::-1]
    if color == 'grey':
        return cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_RGB2GRAY)[:, :, None]
    raise ValueError(f"color {color!r} is not 'RGB', 'BGR' or 'grey'")


def zero_pad(img, top, bottom, left, right):
    """Zero-pad an HxWxC image by the given number of pixels on each side."""
    return np.pad(img, ((top, bottom), (left, right), (0, 0)))


def pad_to(img, size):
    """Zero-pad an HxWxC image to (height, width) = `size`, centered (the extra pixel, if any, bottom/right)."""
    h, w = img.shape[:2]
    if h > size[0] or w > size[1]:
        raise BadInputError(f'cannot pad a {h}x{w} image to {size[0]}x{size[1]}; it is larger')
    top, left = (size[0] - h) // 2, (size[1] - w) // 2
    return zero_pad(img, top, size[0] - h - top, left, size[1] - w - left)


def crop(img, top, left, size):
    """The (height, width) = `size` window of an HxWxC image whose top-left pixel is (top, left)."""
    h, w = img.shape[:2]
    if top < 0 or left < 0 or top + size[0] > h or left + size[1] > w:
        raise BadInputError(f'cannot crop {size[0]}x{size[1]} at ({top}, {left}) from a {h}x{w} image')
    return img[top:top + size[0], left:left + size[1]]


def hflip(img):
    """Mirror left-right."""
    return img[:, ::-1]


def resize(img, size, interp=None):
    """Resize to `size` = (height, width); area interpolation when shrinking, bilinear when growing."""
    h, w = img.shape[:2]
    nh, nw = size
    if interp is None:
        interp = cv2.INTER_AREA if nh * nw < h * w else cv2.INTER_LINEAR
    return cv2.resize(img, (nw, nh), interpolation=interp)


def resize_short(img, short, interp=None):
    """Resize so the shorter side is `short`, keeping the aspect ratio; the longer side is truncated, as MXNet's
    Resize(keep_ratio=True) (GluonCV's eval preset) does, so both give the same pixels."""
    h, w = img.shape[:2]
    if h <= w:
        return resize(img, (short, int(w * short / h)), interp)
    return resize(img, (int(h * short / w), short), interp)


def resize_short_within(img, short, max_size, mult_base=1, interp=None):
    """Resize so the shorter side is `short` unless that makes the longer one exceed `max_size` (then the longer
    side is `max_size`), both sides rounded to multiples of `mult_base`: GluonCV's detection resize.

    >>> resize_short_within(np.zeros((300, 1000, 3), np.uint8), 600, 1000).shape
    (300, 1000, 3)
    """
    h, w = img.shape[:2]
    lo, hi = min(h, w), max(h, w)
    scale = short / lo
    if np.round(scale * hi / mult_base) * mult_base > max_size:
        scale = np.floor(max_size / mult_base) * mult_base / hi
    size = (int(np.round(h * scale / mult_base) * mult_base), int(np.round(w * scale / mult_base) * mult_base))
    return resize(img, size, interp)


def center_crop(img, size):
    """The centered (height, width) = `size` window; the image must be at least that large."""
    h, w = img.shape[:2]
    ch, cw = size
    if h < ch or w < cw:
        raise BadInputError(f'cannot center-crop {ch}x{cw} from a {h}x{w} image; resize it first')
    return crop(img, (h - ch) // 2, (w - cw) // 2, size)


def random_resized_crop(img, size, rng, area=(0.08, 1.0), ratio=(3 / 4, 4 / 3)):
    """Inception-style crop: random area fraction and log-uniform aspect ratio, resized to `size` (h, w).

    Ten tries, then a center crop of the whole image (as MXNet's random_size_crop falls back).
    """
    h, w = img.shape[:2]
    for _ in range(10):
        target = rng.uniform(*area) * h * w
        r = np.exp(rng.uniform(np.log(ratio[0]), np.log(ratio[1])))
        cw, ch = int(round(np.sqrt(target * r))), int(round(np.sqrt(target / r)))
        if 0 < cw <= w and 0 < ch <= h:
            x0, y0 = rng.integers(0, w - cw + 1), rng.integers(0, h - ch + 1)
            return resize(img[y0:y0 + ch, x0:x0 + cw], size)
    s = min(h, w)
    return resize(center_crop(img, (s, s)), size)


def random_crop_padded(img, size, pad, rng):
    """Zero-pad by `pad` on every side, then a random (h, w) = `size` window (the CIFAR training crop)."""
    img = zero_pad(img, pad, pad, pad, pad)
    h, w = img.shape[:2]
    return crop(img, rng.integers(0, h - size[0] + 1), rng.integers(0, w - size[1] + 1), size)


def random_flip(img, rng, p=0.5):
    """Mirror left-right with probability p."""
    return hflip(img) if rng.random() < p else img


def color_jitter(img, rng, brightness=0.4, contrast=0.4, saturation=0.4):
    """Brightness, contrast and saturation jitter in random order, each factor uniform in [1-x, 1+x].

    Works on float32 0-255 pixels and clips back to 0-255; the formulas are MXNet's Brightness/Contrast/
    SaturationJitterAug (contrast blends with the mean luma, saturation with each pixel's luma).
    """
    img = img.astype(np.float32)
    ops = [(lambda x, a: x * a, brightness),
           (lambda x, a: x * a + (1 - a) * float((x @ _GRAY).mean()), contrast),
           (lambda x, a: x * a + (1 - a) * (x @ _GRAY)[:, :, None], saturation)]
    for i in rng.permutation(len(ops)):
        op, amount = ops[i]
        if amount:
            img = op(img, 1.0 + rng.uniform(-amount, amount))
    return np.clip(img, 0, 255)


def lighting(img, rng, alphastd=0.1):
    """AlexNet PCA lighting noise: add eigvec @ (alpha * eigval), alpha ~ N(0, alphastd), on 0-255 pixels."""
    alpha = rng.normal(0, alphastd, size=3).astype(np.float32)
    return np.clip(img.astype(np.float32) + PCA_EIGVEC @ (alpha * PCA_EIGVAL), 0, 255)


def normalize(img, mean, std, scale=1 / 255.0, layout='NCHW'):
    """HxWxC pixels -> float32 CxHxW ('NCHW', the default) or HxWxC ('NHWC'): x * scale, minus mean, over std.

    The scaling divides by 1 / scale (by 255.0 for the usual 1/255, bit for bit what x / 255.0 gives), so a training
    recipe that always divided keeps its numbers.

    >>> x = normalize(np.full((2, 3, 1), 255, np.uint8), [0.5], [0.5])
    >>> x.shape, x.dtype, float(x.max())
    ((1, 2, 3), dtype('float32'), 1.0)
    """
    if img.ndim != 3 or img.shape[2] != len(mean) or len(std) != len(mean):
        raise BadInputError(f'cannot normalize an image of shape {img.shape} with {len(mean)} mean and '
                            f'{len(std)} std values: one of each per channel')
    if layout == 'NHWC':
        x = img.astype(np.float32) / np.float32(1.0 / scale)
        return np.ascontiguousarray((x - np.asarray(mean, np.float32)) / np.asarray(std, np.float32))
    if layout != 'NCHW':
        raise ValueError(f"layout {layout!r} is not 'NCHW' or 'NHWC'")
    # channel by channel straight into the CxHxW result: the same float32 operations, in one pass each and no
    # transposed copy (a third of the input pipeline's time, scripts/bench/input_pipeline.py). OpenCV's SIMD split
    # first: numpy's ops on contiguous planes take 0.08 ms for 224x224x3 uint8, on the strided channels 0.12 ms
    split = img.dtype in _SPLITS and img.shape[2] <= 4
    planes = cv2.split(img) if split else [img[..., c] for c in range(img.shape[2])]
    out = np.empty((img.shape[2],) + img.shape[:2], np.float32)
    for c, (m, s) in enumerate(zip(mean, std)):
        np.divide(planes[c], np.float32(1.0 / scale), out=out[c], dtype=np.float32)
        out[c] -= np.float32(m)
        out[c] /= np.float32(s)
    return out
