"""GluonCV's classification presets on OpenCV + numpy, driven by a weights record's `preprocess`.

`imagenet_eval` / `imagenet_train` follow GluonCV's ImageNet eval (resize short side, center crop, normalize) and
train (random resized crop, flip, color jitter 0.4, PCA lighting 0.1) recipes; `cifar_*` its CIFAR-10 ones.
`from_preprocess(record.preprocess)` builds the eval or train transform a checkpoint wants.
"""
import os

import numpy as np

from . import functional as T

IMAGENET_MEAN, IMAGENET_STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
CIFAR_MEAN, CIFAR_STD = (0.4914, 0.4822, 0.4465), (0.2023, 0.1994, 0.2010)


def _size(x):
    return (x, x) if isinstance(x, int) else tuple(x)


def imagenet_eval(img, resize=256, crop=224, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, interp=None,
                  **_):
    """RGB HxWx3 -> float32 1x3xcropxcrop: resize (int: the short side; (h, w): exactly), center crop, normalize.

    `interp` 'linear' is GluonCV's (MXNet's bilinear Resize); the default (area when shrinking) is closer to the
    antialiased resize torchvision-trained weights saw.

    >>> imagenet_eval(np.zeros((300, 400, 3), np.uint8)).shape
    (1, 3, 224, 224)
    >>> imagenet_eval(np.zeros((300, 400), np.uint8), resize=(224, 224)).shape
    (1, 3, 224, 224)
    """
    img, flag = T.as_rgb(img), T.INTERP[interp]
    img = T.resize_short(img, resize, flag) if isinstance(resize, int) else T.resize(img, _size(resize), flag)
    return T.normalize(T.center_crop(img, _size(crop)), mean, std, scale)[None]


def imagenet_train(img, rng, crop=224, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, jitter=0.4,
                   pca_noise=0.1, **_):
    """One augmented training sample, float32 3xcropxcrop (GluonCV train_imagenet.py's transform_train).

    >>> imagenet_train(np.zeros((300, 400, 3), np.uint8), np.random.default_rng(0)).shape
    (3, 224, 224)
    """
    img = T.random_flip(T.random_resized_crop(T.as_rgb(img), _size(crop), rng), rng)
    img = T.color_jitter(img, rng, jitter, jitter, jitter) if jitter else img
    img = T.lighting(img, rng, pca_noise) if pca_noise else img
    return T.normalize(img, mean, std, scale)


def cifar_train(img, rng, pad=4, mean=CIFAR_MEAN, std=CIFAR_STD, scale=1 / 255.0, **_):
    """CIFAR training sample: pad-4 random crop back to the input size, random flip, normalize -> 3xHxW."""
    img = T.as_rgb(img)
    img = T.random_flip(T.random_crop_padded(img, img.shape[:2], pad, rng), rng)
    return T.normalize(img, mean, std, scale)


def cifar_eval(img, mean=CIFAR_MEAN, std=CIFAR_STD, scale=1 / 255.0, **_):
    """CIFAR eval sample: normalize only -> 3xHxW."""
    return T.normalize(T.as_rgb(img), mean, std, scale)


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


def _eval_one(img, **kwargs):
    return imagenet_eval(img, **kwargs)[0]


def from_preprocess(preprocess, train=False, seed=None):
    """The transform a record's `preprocess` dict describes: img -> float32 3xHxW (one sample, for a DataLoader).

    `preprocess['preset']` picks 'imagenet' (default) or 'cifar'; the other keys are the preset's arguments.
    """
    pre = dict(preprocess)
    preset = pre.pop('preset', 'imagenet')
    if preset not in ('imagenet', 'cifar'):
        raise ValueError(f'unknown preprocess preset {preset!r}; one of imagenet, cifar')
    if preset == 'cifar':
        return Preset(cifar_train, pre, seed, True) if train else Preset(cifar_eval, pre)
    return Preset(imagenet_train, pre, seed, True) if train else Preset(_eval_one, pre)
