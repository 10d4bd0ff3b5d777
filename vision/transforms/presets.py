"""Image presets on OpenCV + numpy, driven by a weights record's `preprocess` (its keys: vision/tasks.py).

`image_eval` applies a record's preprocess to one picture: color (RGB, BGR or grey), resize (short side or exact),
center crop, scale, mean/std, layout. `imagenet_eval` / `imagenet_train` follow GluonCV's ImageNet eval and train
(random resized crop, flip, color jitter 0.4, PCA lighting 0.1) recipes; `cifar_*` its CIFAR-10 ones.
`from_preprocess(record.preprocess)` builds the eval (or train) transform a checkpoint wants.
"""
import os

import numpy as np

from ..meta import CIFAR_MEAN, CIFAR_STD, IMAGENET_MEAN, IMAGENET_STD
from . import functional as T


def _size(x):
    return (x, x) if isinstance(x, int) else tuple(x)


def image_eval(img, resize=None, crop=None, mean=None, std=None, scale=1 / 255.0, color='RGB', layout='NCHW',
               interp=None, max_size=None):
    """One picture (HxW, HxWx1/3/4, uint8 or uint16) -> float32 CxHxW (or HxWxC for layout 'NHWC'), as a record's
    preprocess says: color, resize (int: the short side, aspect kept; with `max_size` the long side at most that,
    GluonCV's detection resize; (h, w): exactly), center crop, x * scale, minus mean, over std. Without mean/std the
    pixels are only scaled.

    `interp` 'linear' is GluonCV's (MXNet's bilinear Resize); the default (area when shrinking) is closer to the
    antialiased resize torchvision-trained weights saw.

    >>> image_eval(np.zeros((300, 400, 3), np.uint8), resize=32, crop=28, color='grey').shape
    (1, 28, 28)
    """
    img, flag = T.to_color(T.as_rgb(img), color), T.INTERP[interp]
    if resize is not None:
        if not isinstance(resize, int):
            img = T.resize(img, _size(resize), flag)
        elif max_size:
            img = T.resize_short_within(img, resize, max_size, interp=flag)
        else:
            img = T.resize_short(img, resize, flag)
        if img.ndim == 2:  # cv2.resize drops a single channel axis
            img = img[:, :, None]
    if crop is not None:
        img = T.center_crop(img, _size(crop))
    channels = img.shape[2]
    mean = (0.0,) * channels if mean is None else mean
    std = (1.0,) * channels if std is None else std
    return T.normalize(img, mean, std, scale, layout)


def imagenet_eval(img, resize=256, crop=224, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, interp=None,
                  **preprocess):
    """RGB HxWx3 -> float32 1x3xcropxcrop: GluonCV's ImageNet eval (resize short side 256, center crop 224,
    normalize); the other keys of a record's preprocess (color, layout) pass through to image_eval.

    >>> imagenet_eval(np.zeros((300, 400, 3), np.uint8)).shape
    (1, 3, 224, 224)
    >>> imagenet_eval(np.zeros((300, 400), np.uint8), resize=(224, 224)).shape
    (1, 3, 224, 224)
    """
    return image_eval(img, resize, crop, mean, std, scale, interp=interp, **preprocess)[None]


def imagenet_train(img, rng, crop=224, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, jitter=0.4,
                   pca_noise=0.1, color='RGB', layout='NCHW'):
    """One augmented training sample, float32 3xcropxcrop (GluonCV train_imagenet.py's transform_train).

    >>> imagenet_train(np.zeros((300, 400, 3), np.uint8), np.random.default_rng(0)).shape
    (3, 224, 224)
    """
    img = T.random_flip(T.random_resized_crop(T.as_rgb(img), _size(crop), rng), rng)
    img = T.color_jitter(img, rng, jitter, jitter, jitter) if jitter else img
    img = T.lighting(img, rng, pca_noise) if pca_noise else img
    return T.normalize(T.to_color(img, color), mean, std, scale, layout)


def cifar_train(img, rng, pad=4, mean=CIFAR_MEAN, std=CIFAR_STD, scale=1 / 255.0, color='RGB', layout='NCHW'):
    """CIFAR training sample: pad-4 random crop back to the input size, random flip, normalize -> CxHxW."""
    img = T.to_color(T.as_rgb(img), color)
    img = T.random_flip(T.random_crop_padded(img, img.shape[:2], pad, rng), rng)
    return T.normalize(img, mean, std, scale, layout)


def cifar_eval(img, mean=CIFAR_MEAN, std=CIFAR_STD, scale=1 / 255.0, color='RGB', layout='NCHW'):
    """CIFAR eval sample (GluonCV's): normalize only -> CxHxW."""
    return image_eval(img, mean=mean, std=std, scale=scale, color=color, layout=layout)


class Preset:
    """A picklable sample transform: `fn(img, [rng,] **kwargs)`. A random preset reseeds itself in every
    DataLoader worker process (from the seed and the pid), so forked workers do not repeat each other's draws."""

    def __init__(self, fn, kwargs, seed=None, random=False):
        self.fn, self.kwargs, self.seed, self.random = fn, kwargs, seed, random
        self._pid, self._rng = os.getpid(), np.random.default_rng(seed)

    def __call__(self, img):
        if not self.random:
            return self.fn(img, **self.kwargs)
        if os.getpid() != self._pid:
            self._pid = os.getpid()
            self._rng = np.random.default_rng(None if self.seed is None else [self.seed, self._pid])
        return self.fn(img, self._rng, **self.kwargs)


#: the training augmentation a record's `preset` names, and the preprocess keys it takes
TRAIN_PRESETS = {'imagenet': (imagenet_train, ('crop', 'mean', 'std', 'scale', 'color', 'layout')),
                 'cifar': (cifar_train, ('mean', 'std', 'scale', 'color', 'layout'))}


def from_preprocess(preprocess, train=False, seed=None):
    """The transform a record's `preprocess` describes: img -> float32 CxHxW (one sample, for a DataLoader).

    Eval: image_eval with every key. Train: the augmentation `preprocess['preset']` names ('imagenet', the default,
    or 'cifar'), with the keys it takes.
    """
    pre = dict(preprocess)
    preset = pre.pop('preset', 'imagenet')
    if preset not in TRAIN_PRESETS:
        raise ValueError(f'unknown preprocess preset {preset!r}; one of {", ".join(TRAIN_PRESETS)}')
    if not train:
        return Preset(image_eval, pre)
    fn, keys = TRAIN_PRESETS[preset]
    return Preset(fn, {k: v for k, v in pre.items() if k in keys}, seed, True)
