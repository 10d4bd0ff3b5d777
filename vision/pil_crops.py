"""EfficientNet's training and evaluation crops on PIL images (GluonCV's `utils.transforms`, after the TensorFlow
reference): a random crop of some area and aspect ratio that covers at least `min_covered` of the picture
(Python's `random` draws), falling back to the center crop, which keeps imgsize / (imgsize + 32) of the short
side. Both return the cropped PIL image (resize it afterwards).

>>> from PIL import Image
>>> EfficientNetCenterCrop(224)(Image.new('RGB', (400, 300))).size
(263, 263)
"""
import math
import random


class EfficientNetCenterCrop:
    """The centered square of side imgsize / (imgsize + 32) of the picture's short side."""

    def __init__(self, imgsize):
        self.imgsize = imgsize

    def __call__(self, img):
        width, height = img.size
        side = float(self.imgsize) / (self.imgsize + 32) * min(width, height)
        top, left = int(round((height - side) / 2.0)), int(round((width - side) / 2.0))
        return img.crop((left, top, left + side, top + side))


class EfficientNetRandomCrop:
    """Up to `max_attempts` random crops: an aspect ratio from `aspect_ratio_range`, a height giving an area in
    `area_range` (fractions of the picture), kept when it fits and covers `min_covered`; the center crop
    otherwise (and when the crop would be the whole picture)."""

    def __init__(self, imgsize, min_covered=0.1, aspect_ratio_range=(3. / 4, 4. / 3), area_range=(0.1, 1.0),
                 max_attempts=10):
        if not (min_covered > 0 and 0 < aspect_ratio_range[0] <= aspect_ratio_range[1]
                and 0 < area_range[0] <= area_range[1] and max_attempts >= 1):
            raise ValueError(f'EfficientNetRandomCrop: need min_covered > 0, 0 < ratio low <= high, 0 < area low <= '
                             f'high and max_attempts >= 1; got {min_covered}, {aspect_ratio_range}, {area_range}, '
                             f'{max_attempts}')
        self.min_covered, self.aspect_ratio_range = min_covered, aspect_ratio_range
        self.area_range, self.max_attempts = area_range, max_attempts
        self._fallback = EfficientNetCenterCrop(imgsize)

    def _height_range(self, ratio, width, height, lo_area, hi_area):
        lo = int(round(math.sqrt(lo_area / ratio)))
        hi = int(round(math.sqrt(hi_area / ratio)))
        if hi * ratio > width:  # the widest crop must fit the width (rounding included)
            hi = int((width + 0.5 - 1e-7) / ratio)
            if hi * ratio > width:
                hi -= 1
        hi = min(hi, height)
        return min(lo, hi), hi

    def __call__(self, img):
        width, height = img.size
        total = width * height
        lo_area, hi_area = self.area_range[0] * total, self.area_range[1] * total
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            lo, hi = self._height_range(ratio, width, height, lo_area, hi_area)
            h = int(round(random.uniform(lo, hi)))
            w = int(round(h * ratio))
            if not lo_area <= w * h <= hi_area or w > width or h > height or w * h < self.min_covered * total:
                continue
            if (w, h) == (width, height):
                return self._fallback(img)
            x, y = random.randint(0, width - w), random.randint(0, height - h)
            return img.crop((x, y, x + w, y + h))
        return self._fallback(img)
