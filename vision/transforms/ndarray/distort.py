"""GluonCV's experimental augmentations (gluoncv.data.transforms.experimental): SSD's photometric distortion of an
NDArray, CenterNet's of a numpy image, SSD's IoU-constrained crop sampler. Draws come from numpy's global generator
and Python's `random` in GluonCV's order (the CenterNet one from `data_rng`, its op order from `random`)."""
import random

import numpy as np

from ...bbox_utils import bbox_iou
from .boxes import crop as bbox_crop

_LUMA = [[[0.299, 0.587, 0.114]]]
_TYIQ = np.array([[0.299, 0.587, 0.114], [0.596, -0.274, -0.321], [0.211, -0.523, 0.311]])
_ITYIQ = np.array([[1.0, 0.956, 0.621], [1.0, -0.272, -0.647], [1.0, -1.107, 1.705]])
#: CenterNet's PCA of COCO's RGB pixels (0-1 scale)
COCO_EIGVAL = np.array([0.2141788, 0.01817699, 0.00341571], dtype=np.float32)
COCO_EIGVEC = np.array([[-0.58752847, -0.69563484, 0.41340352], [-0.5832747, 0.00994535, -0.81221408],
                        [-0.56089297, 0.71832671, 0.41158938]], dtype=np.float32)


def random_color_distort(src, brightness_delta=32, contrast_low=0.5, contrast_high=1.5, saturation_low=0.5,
                         saturation_high=1.5, hue_delta=18):
    """SSD's distortion of an HxWx3 NDArray -> float32 (not clipped): brightness, then contrast before or after
    saturation and hue, each applied with probability 1/2."""
    import mxnet as mx
    x = src.astype('float32')

    def drawn():
        return np.random.uniform(0, 1) > 0.5

    def brightness(x):
        return x + np.random.uniform(-brightness_delta, brightness_delta) if drawn() else x

    def contrast(x):
        return x * np.random.uniform(contrast_low, contrast_high) if drawn() else x

    def saturation(x):
        if not drawn():
            return x
        alpha = np.random.uniform(saturation_low, saturation_high)
        gray = mx.nd.sum(x * mx.nd.array(_LUMA, ctx=x.context), axis=2, keepdims=True) * (1.0 - alpha)
        return x * alpha + gray

    def hue(x):
        if not drawn():
            return x
        a = random.uniform(-hue_delta, hue_delta) * np.pi
        turn = np.array([[1.0, 0.0, 0.0], [0.0, np.cos(a), -np.sin(a)], [0.0, np.sin(a), np.cos(a)]])
        return mx.nd.dot(x, mx.nd.array((_ITYIQ @ turn @ _TYIQ).T, ctx=x.context))

    x = brightness(x)
    if np.random.randint(0, 2):
        return hue(saturation(contrast(x)))
    return contrast(hue(saturation(x)))


def np_random_color_distort(image, data_rng=None, eig_val=None, eig_vec=None, var=0.4, alphastd=0.1):
    """CenterNet's jitter of a float32 HxWx3 0-1 numpy image, in place (and returned): brightness, contrast and
    saturation in an order Python's `random.shuffle` draws, each by 1 + U(-var, var) from `data_rng` (numpy's
    global RandomState when None), then PCA lighting. The gray is OpenCV's BGR weighting, as CenterNet's."""
    import cv2
    rng = np.random.mtrand._rand if data_rng is None else data_rng
    eig_val = COCO_EIGVAL if eig_val is None else eig_val
    eig_vec = COCO_EIGVEC if eig_vec is None else eig_vec
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gray_mean = gray.mean()

    def blend(alpha, other):
        np.multiply(image, alpha, out=image)
        np.add(image, other * (1 - alpha), out=image)

    def brightness():
        np.multiply(image, 1.0 + rng.uniform(low=-var, high=var), out=image)

    def contrast():
        blend(1.0 + rng.uniform(low=-var, high=var), gray_mean)

    def saturation():
        blend(1.0 + rng.uniform(low=-var, high=var), gray[:, :, None])

    ops = [brightness, contrast, saturation]
    random.shuffle(ops)
    for op in ops:
        op()
    np.add(image, np.dot(eig_vec, eig_val * rng.normal(scale=alphastd, size=(3,))), out=image)
    return image


#: SSD's sampler: (min IoU, max IoU) with some box, None unbounded
SSD_CONSTRAINTS = ((0.1, None), (0.3, None), (0.5, None), (0.7, None), (0.9, None), (None, 1))


def random_crop_with_constraints(bbox, size, min_scale=0.3, max_scale=1, max_aspect_ratio=2, constraints=None,
                                 max_trial=50):
    """SSD's crop of an image of (width, height) = `size`: per constraint up to `max_trial` windows of random scale
    and aspect, the first whose IoU with every box is within bounds a candidate, as is the whole image; a random
    candidate keeping some box center wins. Returns (cropped boxes, (x, y, width, height))."""
    constraints = SSD_CONSTRAINTS if constraints is None else constraints
    w, h = size
    candidates = [(0, 0, w, h)]
    for lo, hi in constraints:
        lo, hi = -np.inf if lo is None else lo, np.inf if hi is None else hi
        for _ in range(max_trial):
            scale = random.uniform(min_scale, max_scale)
            ratio = random.uniform(max(1 / max_aspect_ratio, scale * scale), min(max_aspect_ratio, 1 / (scale * scale)))
            ch, cw = int(h * scale / np.sqrt(ratio)), int(w * scale * np.sqrt(ratio))
            top, left = random.randrange(h - ch), random.randrange(w - cw)
            if len(bbox) == 0:
                return bbox, (left, top, cw, ch)
            overlap = bbox_iou(bbox, np.array([[left, top, left + cw, top + ch]]))
            if lo <= overlap.min() and overlap.max() <= hi:
                candidates.append((left, top, cw, ch))
                break
    while candidates:
        window = candidates.pop(np.random.randint(0, len(candidates)))
        kept = bbox_crop(bbox, window, allow_outside_center=False)
        if kept.size:
            return kept, tuple(window)
    return bbox, (0, 0, w, h)
