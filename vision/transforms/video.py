"""GluonCV 0.10's video transforms (gluoncv.data.transforms.video) over gluonzoo's image operations (functional):
each is a Gluon Block on a list of frames, HxWxC numpy arrays in (CxHxW after VideoToTensor), one draw a clip so
every frame gets the same crop and flip.

The random draws are GluonCV's, in its order, from Python's `random` (crop sizes, corners, flips) and numpy's global
generator (V3's scale and offsets), so the same seeds give the same crops. Tensors come out float32 (GluonCV's are
float64: the same numbers to float32's precision, half the memory for 10-crop clips). A crop that does not fit the
frame is an error, where GluonCV's slicing would return a smaller one.
"""
import math
import numbers
import random

import cv2
import numpy as np
from mxnet.gluon import Block

from ...errors import AssertedInputError, BadInputError
from . import functional as F

__all__ = ['VideoToTensor', 'VideoNormalize', 'VideoRandomHorizontalFlip', 'VideoMultiScaleCrop',
           'VideoCenterCrop', 'VideoTenCrop', 'VideoThreeCrop', 'VideoGroupTrainTransform', 'VideoGroupValTransform',
           'VideoGroupTrainTransformV2', 'VideoGroupValTransformV2', 'ShortSideRescale',
           'VideoGroupTrainTransformV3', 'RandomResizedCrop', 'VideoGroupTrainTransformV4']


def _pair(size):
    return (int(size), int(size)) if isinstance(size, numbers.Number) else tuple(size)


def _first(clips, what):
    if not len(clips):
        raise BadInputError(f'{what} takes a list of frames; got none')
    if np.ndim(clips[0]) != 3:
        raise BadInputError(f'{what} takes HxWxC frames; got one of shape {np.shape(clips[0])}')
    return clips[0].shape


def _resize(img, width, height):
    return F.resize(img, (height, width), cv2.INTER_LINEAR)  # cv2.resize's default, as GluonCV calls it


def _short_side(h, w, short):
    """(new_h, new_w) with the shorter side `short`, the longer floored (GluonCV's ShortSideRescale)."""
    if w < h:
        return int(math.floor(float(h) / w * short)), short
    return short, int(math.floor(float(w) / h * short))


class _Tensor:
    """HxWxC pixels -> float32 CxHxW: / max_intensity, then (x - mean) / std (functional.normalize)."""

    def __init__(self, mean, std, max_intensity):
        self.mean, self.std, self.max_intensity = mean, std, max_intensity

    def __call__(self, img):
        return F.normalize(img, self.mean, self.std, scale=1.0 / self.max_intensity)


def _tensor(mean, std, max_intensity):
    return _Tensor(list(np.asarray(mean, np.float64).reshape(-1)), list(np.asarray(std, np.float64).reshape(-1)),
                   max_intensity)


class VideoToTensor(Block):
    """HxWxC frames (0-255) -> float32 CxHxW frames divided by `max_intensity`."""

    def __init__(self, max_intensity=255.0):
        super().__init__()
        self.max_intensity = max_intensity

    def forward(self, clips):
        _first(clips, 'VideoToTensor')
        c = clips[0].shape[2]
        return [F.normalize(img, [0.0] * c, [1.0] * c, scale=1.0 / self.max_intensity) for img in clips]


class VideoNormalize(Block):
    """CxHxW frames -> (x - mean) / std per channel."""

    def __init__(self, mean, std):
        super().__init__()
        self.mean = np.asarray(mean, np.float32).reshape((len(mean), 1, 1))
        self.std = np.asarray(std, np.float32).reshape((len(std), 1, 1))

    def forward(self, clips):
        return [(np.asarray(img, np.float32) - self.mean) / self.std for img in clips]


class VideoRandomHorizontalFlip(Block):
    """All frames mirrored left-right, with probability `prob`."""

    def __init__(self, prob=0.5):
        super().__init__()
        self.prob = prob

    def forward(self, clips):
        return [F.hflip(img) for img in clips] if random.random() < self.prob else clips


class ShortSideRescale(Block):
    """Frames resized so the shorter side is `short_side`, keeping the aspect ratio (the longer side floored)."""

    def __init__(self, short_side):
        super().__init__()
        self.short_side = short_side

    def forward(self, clips):
        h, w, _ = _first(clips, 'ShortSideRescale')
        new_h, new_w = _short_side(h, w, self.short_side)
        return [_resize(img, new_w, new_h) for img in clips]


class RandomResizedCrop(Block):
    """A crop of `scale` of the area and an aspect ratio drawn uniformly in `ratio` (its sides swapped half the
    time), resized to `size` (height, width); ten tries, then the central crop GluonCV falls back to."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.)):
        super().__init__()
        self.height, self.width = size[0], size[1]
        self.scale, self.ratio = scale, ratio

    def get_params(self, img, scale, ratio):
        """(top, left, height, width) of the crop."""
        height, width, _ = img.shape
        for _ in range(10):
            target = random.uniform(*scale) * height * width
            aspect = random.uniform(*ratio)
            w, h = int(round(math.sqrt(target * aspect))), int(round(math.sqrt(target / aspect)))
            if random.random() < 0.5:
                w, h = h, w
            if 0 < w <= width and 0 < h <= height:
                return random.randint(0, height - h), random.randint(0, width - w), h, w
        in_ratio = float(width) / float(height)
        if in_ratio < min(ratio):
            w, h = width, int(round(width / min(ratio)))
        elif in_ratio > max(ratio):
            w, h = int(round(height * max(ratio))), height
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def forward(self, clips):
        _first(clips, 'RandomResizedCrop')
        top, left, h, w = self.get_params(clips[0], self.scale, self.ratio)
        return [_resize(F.crop(img, top, left, (h, w)), self.width, self.height) for img in clips]


class VideoMultiScaleCrop(Block):
    """TSN's corner and multi-scale crop (Wang et al. 2015): a crop side of `scale_ratios` times the shorter side
    each way (at most `max_distort` ratios apart), at one of 5 fixed places (13 with `more_fix_crop`) or anywhere
    (`fix_crop=False`), resized to `size` (height, width)."""

    def __init__(self, size, scale_ratios, fix_crop=True, more_fix_crop=True, max_distort=1):
        super().__init__()
        self.height, self.width = size[0], size[1]
        self.scale_ratios, self.fix_crop, self.more_fix_crop = scale_ratios, fix_crop, more_fix_crop
        self.max_distort = max_distort

    def fillFixOffset(self, more_fix_crop, image_h, image_w, crop_h, crop_w):  # noqa: N802 (GluonCV's name)
        """The fixed (top, left) places: 4 corners and the centre, then 4 edge centres and 4 quarter points."""
        h, w = (image_h - crop_h) // 4, (image_w - crop_w) // 4
        steps = [(0, 0), (0, 4), (4, 0), (4, 4), (2, 2)]
        if more_fix_crop:
            steps += [(0, 2), (4, 2), (2, 0), (2, 4), (1, 1), (1, 3), (3, 1), (3, 3)]
        return [(i * h, j * w) for i, j in steps]

    def fillCropSize(self, scale_ratios, max_distort, image_h, image_w):  # noqa: N802 (GluonCV's name)
        """The (height, width) crop sizes: each pair of ratios at most max_distort apart, times the shorter side."""
        base = np.min((image_h, image_w))
        return [(int(base * rh), int(base * rw)) for i, rh in enumerate(scale_ratios)
                for j, rw in enumerate(scale_ratios) if np.absolute(i - j) <= max_distort]

    def _window(self, h, w, flip_prob=None):
        """GluonCV's draws in its order: crop size, (the flip), place."""
        crop_h, crop_w = random.choice(self.fillCropSize(self.scale_ratios, self.max_distort, h, w))
        flip = random.random() < flip_prob if flip_prob is not None else False
        if self.fix_crop:
            top, left = random.choice(self.fillFixOffset(self.more_fix_crop, h, w, crop_h, crop_w))
        else:
            top, left = random.randint(0, h - crop_h), random.randint(0, w - crop_w)
        return top, left, crop_h, crop_w, flip

    def forward(self, clips):
        h, w, _ = _first(clips, 'VideoMultiScaleCrop')
        top, left, ch, cw, _ = self._window(h, w)
        return [_resize(F.crop(img, top, left, (ch, cw)), self.width, self.height) for img in clips]


def _center(h, w, th, tw):
    # GluonCV rounds half to even (Python's round): a 3-pixel margin puts the crop 2 from the left
    return int(round((h - th) / 2.)), int(round((w - tw) / 2.))


class VideoCenterCrop(Block):
    """The centred `size` crop ((height, width) or one number) of every frame."""

    def __init__(self, size):
        super().__init__()
        self.size = _pair(size)

    def forward(self, clips):
        h, w, _ = _first(clips, 'VideoCenterCrop')
        top, left = _center(h, w, *self.size)
        return [F.crop(img, top, left, self.size) for img in clips]


class VideoThreeCrop(Block):
    """Three `size` crops of each frame along its longer side (left, right, middle or top, bottom, middle): a crop
    side must equal the frame's; the output is crop by crop, each all frames."""

    def __init__(self, size):
        super().__init__()
        self.size = _pair(size)

    def forward(self, clips):
        h, w, _ = _first(clips, 'VideoThreeCrop')
        th, tw = self.size
        if th == h:
            step = (w - tw) // 2
            places = [(0, 0), (0, 2 * step), (0, step)]
        elif tw == w:
            step = (h - th) // 2
            places = [(0, 0), (2 * step, 0), (step, 0)]
        else:
            raise AssertedInputError(f'VideoThreeCrop {self.size} needs the crop height or width to equal the '
                                     f"frame's ({h}, {w}); rescale the short side to it first (ShortSideRescale)")
        return [F.crop(img, top, left, self.size) for top, left in places for img in clips]


class VideoTenCrop(Block):
    """Ten `size` crops of each frame: centre, top-left, bottom-left, top-right, bottom-right, then those mirrored;
    frame by frame."""

    def __init__(self, size):
        super().__init__()
        self.size = _pair(size)

    def forward(self, clips):
        h, w, _ = _first(clips, 'VideoTenCrop')
        oh, ow = self.size
        if h < oh or w < ow:
            raise BadInputError(f'VideoTenCrop cannot crop {self.size} from frames of size ({h}, {w})')
        places = [((h - oh) // 2, (w - ow) // 2), (0, 0), (h - oh, 0), (0, w - ow), (h - oh, w - ow)]
        out = []
        for img in clips:
            five = [F.crop(img, top, left, self.size) for top, left in places]
            out += five + [F.hflip(c) for c in five]
        return out


class VideoGroupTrainTransform(Block):
    """TSN's training transform: multi-scale corner crop resized to `size`, random flip (`prob`), float32 tensor
    normalized by `mean` / `std` after / max_intensity."""

    def __init__(self, size, scale_ratios, mean, std, fix_crop=True, more_fix_crop=True, max_distort=1, prob=0.5,
                 max_intensity=255.0):
        super().__init__()
        self.height, self.width = size[0], size[1]
        self.multiScaleCrop = VideoMultiScaleCrop(size, scale_ratios, fix_crop, more_fix_crop, max_distort)
        self.prob, self._tensor = prob, _tensor(mean, std, max_intensity)

    def forward(self, clips):
        h, w, _ = _first(clips, 'VideoGroupTrainTransform')
        top, left, ch, cw, flip = self.multiScaleCrop._window(h, w, self.prob)
        out = []
        for img in clips:
            img = _resize(F.crop(img, top, left, (ch, cw)), self.width, self.height)
            out.append(self._tensor(F.hflip(img) if flip else img))
        return out


class VideoGroupValTransform(Block):
    """The validation transform: centre crop `size`, float32 tensor normalized by `mean` / `std`."""

    def __init__(self, size, mean, std, max_intensity=255.0):
        super().__init__()
        self.size, self._tensor = _pair(size), _tensor(mean, std, max_intensity)

    def forward(self, clips):
        h, w, _ = _first(clips, 'VideoGroupValTransform')
        top, left = _center(h, w, *self.size)
        return [self._tensor(F.crop(img, top, left, self.size)) for img in clips]


class VideoGroupTrainTransformV2(Block):
    """mmaction's training transform: short side to `short_side`, then VideoGroupTrainTransform's crop, flip and
    tensor."""

    def __init__(self, size, short_side, scale_ratios, mean, std, fix_crop=True, more_fix_crop=True, max_distort=1,
                 prob=0.5, max_intensity=255.0):
        super().__init__()
        self.height, self.width, self.short_side = size[0], size[1], short_side
        self.multiScaleCrop = VideoMultiScaleCrop(size, scale_ratios, fix_crop, more_fix_crop, max_distort)
        self.prob, self._tensor = prob, _tensor(mean, std, max_intensity)

    def forward(self, clips):
        h, w, _ = _first(clips, 'VideoGroupTrainTransformV2')
        new_h, new_w = _short_side(h, w, self.short_side)
        top, left, ch, cw, flip = self.multiScaleCrop._window(new_h, new_w, self.prob)
        out = []
        for img in clips:
            img = _resize(F.crop(_resize(img, new_w, new_h), top, left, (ch, cw)), self.width, self.height)
            out.append(self._tensor(F.hflip(img) if flip else img))
        return out


class VideoGroupValTransformV2(Block):
    """SlowFast's validation transform: short side to `short_side`, centre crop `crop_size` (the margin's half
    rounded up), float32 tensor."""

    def __init__(self, crop_size, short_side, mean, std, max_intensity=255.0):
        super().__init__()
        self.height, self.width, self.short_side = crop_size[0], crop_size[1], short_side
        self._tensor = _tensor(mean, std, max_intensity)

    def forward(self, clips):
        h, w, _ = _first(clips, 'VideoGroupValTransformV2')
        new_h, new_w = _short_side(h, w, self.short_side)
        top, left = int(math.ceil((new_h - self.height) / 2)), int(math.ceil((new_w - self.width) / 2))
        return [self._tensor(F.crop(_resize(img, new_w, new_h), top, left, (self.height, self.width)))
                for img in clips]


class VideoGroupTrainTransformV3(Block):
    """SlowFast's training transform: short side drawn in [min_size, max_size], a random `crop_size` crop (numpy's
    draws, the last offset never drawn, as GluonCV's), random flip, float32 tensor."""

    def __init__(self, crop_size, min_size, max_size, mean, std, prob=0.5, max_intensity=255.0):
        super().__init__()
        self.height, self.width = crop_size[0], crop_size[1]
        self.min_size, self.max_size, self.prob = min_size, max_size, prob
        self._tensor = _tensor(mean, std, max_intensity)

    def forward(self, clips):
        h, w, _ = _first(clips, 'VideoGroupTrainTransformV3')
        new_h, new_w = _short_side(h, w, int(round(np.random.uniform(self.min_size, self.max_size))))
        top = int(np.random.randint(0, new_h - self.height)) if new_h > self.height else 0
        left = int(np.random.randint(0, new_w - self.width)) if new_w > self.width else 0
        flip = random.random() < self.prob
        out = []
        for img in clips:
            img = F.crop(_resize(img, new_w, new_h), top, left, (self.height, self.width))
            out.append(self._tensor(F.hflip(img) if flip else img))
        return out


class VideoGroupTrainTransformV4(Block):
    """mmaction's SlowFast training transform: RandomResizedCrop to `size`, random flip, float32 tensor."""

    def __init__(self, size, mean, std, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.), prob=0.5, max_intensity=255.0):
        super().__init__()
        self.height, self.width = size[0], size[1]
        self.randomResizedCrop = RandomResizedCrop(size, scale, ratio)
        self.scale, self.ratio, self.prob = scale, ratio, prob
        self._tensor = _tensor(mean, std, max_intensity)

    def forward(self, clips):
        _first(clips, 'VideoGroupTrainTransformV4')
        top, left, h, w = self.randomResizedCrop.get_params(clips[0], self.scale, self.ratio)
        flip = random.random() < self.prob
        out = []
        for img in clips:
            img = _resize(F.crop(img, top, left, (h, w)), self.width, self.height)
            out.append(self._tensor(F.hflip(img) if flip else img))
        return out
