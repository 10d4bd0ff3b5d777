"""GluonCV's transform blocks (gluoncv.data.transforms.block): a padded random crop and random erasing, as Gluon
Blocks on HxWxC NDArrays. Draws come from Python's `random` (mx.image.random_crop's too)."""
import math
import numbers
import random

import numpy as np
from mxnet.gluon import Block


class RandomCrop(Block):
    """A random `size` crop ((width, height) or one number), after zero-padding each side by `pad` pixels (an int,
    or np.pad's per-axis widths), resized with `interpolation` when the image is smaller."""

    def __init__(self, size, pad=None, interpolation=2):
        super().__init__()
        if isinstance(size, (numbers.Number, np.generic)):
            size = (size, size)
        self._args = (size, interpolation)
        self.pad = ((pad, pad), (pad, pad), (0, 0)) if isinstance(pad, int) else pad

    def forward(self, x):
        from mxnet import image, nd
        if self.pad:
            x = nd.array(np.pad(x.asnumpy(), self.pad, mode='constant', constant_values=0))
        return image.random_crop(x, *self._args)[0]


class RandomErasing(Block):
    """Random erasing (Zhong et al. 2017): with `probability`, a rectangle of s_min to s_max of the area and aspect
    `ratio` to 1/`ratio` is set to `mean` (one value per channel), in place."""

    def __init__(self, probability=0.5, s_min=0.02, s_max=0.4, ratio=0.3, mean=(125.31, 122.96, 113.86)):
        super().__init__()
        self.probability, self.mean, self.s_min, self.s_max, self.ratio = probability, mean, s_min, s_max, ratio

    def forward(self, x):
        for name in ('probability', 's_min', 's_max', 'ratio'):
            if not isinstance(getattr(self, name), float):
                raise TypeError(f'RandomErasing {name} must be a float, got {getattr(self, name)!r}')
        if not isinstance(self.mean, (int, tuple)):
            raise TypeError(f'RandomErasing mean must be an int or a tuple, got {self.mean!r}')
        if random.uniform(0, 1) > self.probability:
            return x
        # GluonCV reads the first two axes as (width, height); kept, so the erased window is the same one
        width, height, _ = x.shape
        target = random.uniform(self.s_min, self.s_max) * width * height
        aspect = random.uniform(self.ratio, 1 / self.ratio)
        w, h = int(round(math.sqrt(target * aspect))), int(round(math.sqrt(target / aspect)))
        if w < width and h < height:
            x1, y1 = random.randint(0, width - w), random.randint(0, height - h)
            for c in range(3):
                x[x1:x1 + w, y1:y1 + h, c] = self.mean[c]
        return x
