"""GluonCV's detection presets on OpenCV + numpy: `(image, label) -> (float32 CxHxW, float32 label)`.

The image is HxWx3 uint8 RGB, the label (N, 4+) with corners first (a detection dataset's (N, 6)); the boxes come
back in the output image's pixels (CenterNet's training boxes in its heatmap's: see center_net_train). Eval presets
have no randomness and equal GluonCV's; train presets take a numpy Generator and draw what GluonCV's draw, in the
same order, so fed the same draws they give GluonCV's samples (tests/vision/detection/test_transforms.py replays
GluonCV's). The training-target generators GluonCV's train presets may add (anchors, heatmaps) belong to the
models, not here.

    ssd_train / ssd_eval                 SSDDefaultTrainTransform / SSDDefaultValTransform (no anchors)
    yolo3_train / yolo3_eval             YOLO3DefaultTrainTransform (no net, no mixup) / YOLO3DefaultValTransform
    faster_rcnn_train / faster_rcnn_eval FasterRCNNDefaultTrainTransform (no net) / FasterRCNNDefaultValTransform
    center_net_train / center_net_eval   CenterNetDefaultTrainTransform (no targets) / CenterNetDefaultValTransform

`DetectionPreset(fn, seed=None, **kwargs)` makes any of them a picklable dataset transform.
"""
import inspect
import os

import cv2
import numpy as np

from ..meta import IMAGENET_MEAN, IMAGENET_STD
from . import bbox as B
from .functional import normalize, resize_short_within

_LUMA = np.array([0.299, 0.587, 0.114], np.float32)
# YIQ: hue turns the I/Q plane
_TYIQ = np.array([[0.299, 0.587, 0.114], [0.596, -0.274, -0.321], [0.211, -0.523, 0.311]])
_ITYIQ = np.array([[1.0, 0.956, 0.621], [1.0, -0.272, -0.647], [1.0, -1.107, 1.705]])
# CenterNet's PCA of COCO RGB pixels (0-1 scale)
_CENTERNET_EIGVAL = np.array([0.2141788, 0.01817699, 0.00341571], np.float32)
_CENTERNET_EIGVEC = np.array([[-0.58752847, -0.69563484, 0.41340352], [-0.5832747, 0.00994535, -0.81221408],
                              [-0.56089297, 0.71832671, 0.41158938]], np.float32)


def random_color_distort(img, rng, brightness_delta=32, contrast=(0.5, 1.5), saturation=(0.5, 1.5), hue_delta=18):
    """SSD's photometric distortion (GluonCV's random_color_distort) on 0-255 pixels -> float32, not clipped (as
    GluonCV's): brightness, then contrast first or last around saturation and hue, each with probability 1/2."""
    img = img.astype(np.float32)

    def apply(p_draw):
        return rng.uniform(0, 1) > p_draw

    def bright(x):
        return x + np.float32(rng.uniform(-brightness_delta, brightness_delta)) if apply(0.5) else x

    def contr(x):
        return x * np.float32(rng.uniform(*contrast)) if apply(0.5) else x

    def satur(x):
        if not apply(0.5):
            return x
        alpha = rng.uniform(*saturation)
        gray = (x * _LUMA).sum(axis=2, keepdims=True) * np.float32(1.0 - alpha)
        return x * np.float32(alpha) + gray

    def hue(x):
        if not apply(0.5):
            return x
        a = rng.uniform(-hue_delta, hue_delta) * np.pi
        turn = np.array([[1.0, 0.0, 0.0], [0.0, np.cos(a), -np.sin(a)], [0.0, np.sin(a), np.cos(a)]])
        return x @ (_ITYIQ @ turn @ _TYIQ).T.astype(np.float32)

    img = bright(img)
    if rng.integers(0, 2):
        return hue(satur(contr(img)))
    return contr(hue(satur(img)))


def center_net_color_distort(img, rng, var=0.4, alphastd=0.1):
    """CenterNet's jitter (GluonCV's np_random_color_distort) of a float32 0-1 image, in place: brightness,
    contrast and saturation in random order, then PCA lighting. Its gray is OpenCV's BGR weighting of the RGB
    picture, as CenterNet's code (which read BGR) and GluonCV compute it."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    gray_mean = gray.mean()

    def blend(alpha, other):
        img[...] = img * alpha + other * (1 - alpha)

    def brightness():
        img[...] *= 1.0 + rng.uniform(-var, var)

    def contrast():
        blend(1.0 + rng.uniform(-var, var), gray_mean)

    def saturation():
        blend(1.0 + rng.uniform(-var, var), gray[:, :, None])

    ops = (brightness, contrast, saturation)
    for i in rng.permutation(3):
        ops[i]()
    img += np.dot(_CENTERNET_EIGVEC, _CENTERNET_EIGVAL * rng.normal(0, alphastd, 3))
    return img


def _tensor(img, mean, std):
    return normalize(img, mean, std)


def _flip(img, boxes, rng, p=0.5):
    return B.hflip(img, boxes) if rng.random() < p else (img, boxes)


def ssd_train(img, label, rng, width=300, height=300, mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """SSD's augmentation: color distortion, expansion (half the time, up to 4x on a mean-colored canvas), SSD's
    IoU-constrained crop, resize to width x height with a random one of OpenCV's five interpolations, flip half
    the time, normalize."""
    img = random_color_distort(img, rng)
    boxes = label
    if rng.uniform(0, 1) > 0.5:
        img, boxes, _ = B.random_expand(img, boxes, rng, fill=[m * 255 for m in mean])
    img, boxes, _ = B.random_crop(img, boxes, rng)
    img, boxes = B.resize(img, boxes, (height, width), interp=int(rng.integers(0, 5)))
    img, boxes = _flip(img, boxes, rng)
    return _tensor(img, mean, std), boxes.astype(np.float32)


def ssd_eval(img, label, width=300, height=300, mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """Resize to width x height (GluonCV's auto interpolation), normalize."""
    img, boxes = B.resize(img, label, (height, width))
    return _tensor(img, mean, std), boxes.astype(np.float32)


def yolo3_train(img, label, rng, width=416, height=416, mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """YOLOv3's augmentation: GluonCV's is SSD's (distortion, expansion, constrained crop, random-interpolation
    resize, flip)."""
    return ssd_train(img, label, rng, width, height, mean, std)


def yolo3_eval(img, label, width=416, height=416, mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """Resize to width x height (auto interpolation), normalize: GluonCV's YOLO3DefaultValTransform."""
    return ssd_eval(img, label, width, height, mean, std)


def _short_within(img, label, short, max_size):
    h, w = img.shape[:2]
    out = resize_short_within(img, short, max_size, interp=cv2.INTER_LINEAR)
    return out, B.resize_boxes(label, (h, w), out.shape[:2])


def faster_rcnn_train(img, label, rng, short=600, max_size=1000, flip_p=0.5, mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """Short side to `short` (a (lo, hi) pair: a random integer in it, both ends included) with the long side at
    most `max_size` (bilinear), flip with probability `flip_p`, normalize."""
    if isinstance(short, (tuple, list)):
        short = int(rng.integers(short[0], short[1] + 1))
    img, boxes = _short_within(img, label, short, max_size)
    img, boxes = _flip(img, boxes, rng, flip_p)
    return _tensor(img, mean, std), boxes.astype(np.float32)


def faster_rcnn_eval(img, label, short=600, max_size=1000, mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """Short side to `short`, long side at most `max_size` (bilinear), normalize; the image's scale is the input
    height over the output's (GluonCV returns it as a third value)."""
    img, boxes = _short_within(img, label, short, max_size)
    return _tensor(img, mean, std), boxes.astype(np.float32)


def _border(border, size):
    i = 1
    while size - border // i <= border // i:
        i *= 2
    return border // i


def center_net_train(img, label, rng, width=512, height=512, scale_factor=4, mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """CenterNet's augmentation: flip half the time, then an affine crop around a random center (at least 128
    pixels in, fewer on small images) of the long side times a factor ~ N(1, 0.4) clipped to 0.6-1.4, onto
    width x height, color jitter and PCA lighting, normalize. The boxes come back in the heatmap's pixels (the
    output over `scale_factor`, GluonCV's target generator's input), clipped to it; `scale_factor=1` gives the
    input's. Each axis is clipped to its own side, where GluonCV clips x1, y1 to the width and x2, y2 to the height:
    the same for the square sizes CenterNet uses."""
    img, boxes = _flip(img, label, rng)
    h, w = img.shape[:2]
    bx, by = _border(128, w), _border(128, h)
    center = np.array([rng.integers(bx, w - bx), rng.integers(by, h - by)], np.float32)
    side = max(h, w) * 1.0 * np.clip(rng.standard_normal() * 0.4 + 1, 0.6, 1.4)
    x = cv2.warpAffine(np.ascontiguousarray(img), B.affine_matrix(center, side, (width, height)), (width, height),
                       flags=cv2.INTER_LINEAR)
    out_w, out_h = width // scale_factor, height // scale_factor
    boxes = B.clip_boxes(B.affine_boxes(boxes, B.affine_matrix(center, side, (out_w, out_h))), (out_h, out_w))
    x = center_net_color_distort(x.astype(np.float32) / 255.0, rng)
    return _center_net_tensor(x, mean, std), boxes.astype(np.float32)


def _center_net_tensor(x, mean, std):
    """(x - mean) / std of a 0-1 float image -> float32 CxHxW (CenterNet's presets divide by 255 before their
    jitter, so not here)."""
    x = (x - np.asarray(mean, np.float32).reshape(1, 1, 3)) / np.asarray(std, np.float32).reshape(1, 1, 3)
    return np.ascontiguousarray(x.transpose(2, 0, 1).astype(np.float32))


def center_net_eval(img, label, width=512, height=512, mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """The whole image, long side fitted, centered on a black width x height canvas by an affine warp (bilinear);
    boxes moved along and clipped to it; normalize."""
    h, w = img.shape[:2]
    matrix = B.affine_matrix(np.array([w / 2.0, h / 2.0], np.float32), max(h, w) * 1.0, (width, height))
    x, boxes = B.warp_affine(np.ascontiguousarray(img), label, matrix, (width, height))
    return _center_net_tensor(x.astype(np.float32) / 255.0, mean, std), boxes.astype(np.float32)


class DetectionPreset:
    """A picklable `(image, label)` transform: `fn(img, label, [rng,] **kwargs)`, e.g.
    `DetectionPreset(ssd_train, seed=0, width=512, height=512)`. A random one (`fn` takes `rng`) reseeds itself
    in every DataLoader worker process (from the seed and the pid), so forked workers do not repeat each other's
    draws."""

    def __init__(self, fn, seed=None, **kwargs):
        self.fn, self.kwargs, self.seed = fn, kwargs, seed
        self.random = 'rng' in inspect.signature(fn).parameters
        self._pid, self._rng = os.getpid(), np.random.default_rng(seed)

    def __call__(self, img, label):
        if not self.random:
            return self.fn(img, label, **self.kwargs)
        if os.getpid() != self._pid:
            self._pid = os.getpid()
            self._rng = np.random.default_rng(None if self.seed is None else [self.seed, self._pid])
        return self.fn(img, label, self._rng, **self.kwargs)
