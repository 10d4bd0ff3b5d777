"""Multi-scale, flipped, sliding-window evaluation of a semantic segmentation net: GluonCV's MultiEvalModel (and its
one-call SegEvalModel).

For each scale the normalized image is resized so its long side is ceil(base_size * scale) (bilinear, MXNet's
BilinearResize2D as GluonCV's); an image that fits in one crop_size window is padded to it (bottom/right, with the
value a black pixel has after normalization) and run once; a larger one is covered by crop_size windows two thirds
of a window apart, each padded likewise, their scores averaged where they overlap. Each run adds the scores of the
mirrored image mirrored back and takes exp() of the sum (GluonCV's); each scale's map is resized to the image and
the scales summed. The argmax of the result is the prediction SegmentationMetric takes.

>>> import mxnet as mx
>>> net = mx.gluon.nn.Conv2D(2, 1, in_channels=3); net.initialize()
>>> MultiEvalModel(net, 2, base_size=16, crop_size=16, scales=(0.5, 1.0))(mx.nd.zeros((3, 10, 12))).shape
(1, 2, 10, 12)
"""
import math

import mxnet as mx
import numpy as np

from .meta import IMAGENET_MEAN, IMAGENET_STD


class SegEvalModel:
    """GluonCV's SegEvalModel: calls the net's `predict` (`use_predict`) or `evaluate` (its main scores)."""

    def __init__(self, module, use_predict=False):
        self.module, self.use_predict = module, use_predict

    def __call__(self, *inputs, **kwargs):
        return (self.module.predict if self.use_predict else self.module.evaluate)(*inputs, **kwargs)

    def collect_params(self):
        return self.module.collect_params()


class MultiEvalModel:
    """`MultiEvalModel(net, nclass, ctx_list, flip, scales, base_size, crop_size)` (GluonCV's order); base_size and
    crop_size default to the net's attributes of those names (GluonCV's nets carry them). The net maps (1, 3,
    crop_size, crop_size) to scores (1, nclass, crop_size, crop_size), or a tuple/list whose first item they are
    (the auxiliary map is not used); scores at a stride of the input are resized to it first. `model(image)` takes one normalized CxHxW
    image (an NDArray) and returns the summed scores (1, nclass, H, W); `parallel_forward(images)` takes one image
    per entry of `ctx_list` and returns one score map each, as GluonCV's. `mean`, `std` give the padding value
    (-mean / std per channel)."""

    def __init__(self, net, nclass, ctx_list=None, flip=True, scales=(0.5, 0.75, 1.0, 1.25, 1.5, 1.75),
                 base_size=None, crop_size=None, mean=IMAGENET_MEAN, std=IMAGENET_STD):
        self.net, self.nclass, self.scales, self.flip = net, int(nclass), tuple(scales), flip
        self.base_size = base_size if base_size is not None else getattr(net, 'base_size', None)
        self.crop_size = crop_size if crop_size is not None else getattr(net, 'crop_size', None)
        if self.base_size is None or self.crop_size is None:
            raise ValueError('base_size and crop_size: pass them, or give the net attributes of those names')
        self.ctx_list = list(ctx_list) if ctx_list else [mx.cpu()]
        self.pad_value = -np.asarray(mean, np.float64) / np.asarray(std, np.float64)

    def parallel_forward(self, inputs):
        if len(inputs) != len(self.ctx_list):
            raise ValueError(f'{len(inputs)} images for {len(self.ctx_list)} contexts')
        return tuple(self(x.as_in_context(ctx)) for x, ctx in zip(inputs, self.ctx_list))

    def __call__(self, image):
        if image.ndim != 3:
            raise ValueError(f'MultiEvalModel takes one CxHxW image, not an array of shape {image.shape}')
        image = image.expand_dims(0)
        _, _, h, w = image.shape
        crop, stride = self.crop_size, int(self.crop_size * 2.0 / 3.0)
        scores = mx.nd.zeros((1, self.nclass, h, w), ctx=image.context)
        for scale in self.scales:
            long_side = int(math.ceil(self.base_size * scale))
            if h > w:
                height, width = long_side, int(1.0 * w * long_side / h + 0.5)
            else:
                height, width = int(1.0 * h * long_side / w + 0.5), long_side
            img = mx.nd.contrib.BilinearResize2D(image, height=height, width=width)
            if long_side <= crop:
                out = self._flip_scores(self._pad(img))[:, :, :height, :width]
            else:
                img = self._pad(img) if min(height, width) < crop else img
                ph, pw = img.shape[2:]
                out = mx.nd.zeros((1, self.nclass, ph, pw), ctx=image.context)
                count = mx.nd.zeros((1, 1, ph, pw), ctx=image.context)
                for y0 in range(0, stride * (int(math.ceil(1.0 * (ph - crop) / stride)) + 1), stride):
                    for x0 in range(0, stride * (int(math.ceil(1.0 * (pw - crop) / stride)) + 1), stride):
                        y1, x1 = min(y0 + crop, ph), min(x0 + crop, pw)
                        window = self._flip_scores(self._pad(img[:, :, y0:y1, x0:x1]))
                        out[:, :, y0:y1, x0:x1] += window[:, :, :y1 - y0, :x1 - x0]
                        count[:, :, y0:y1, x0:x1] += 1
                out = (out / count)[:, :, :height, :width]
            scores += mx.nd.contrib.BilinearResize2D(out, height=h, width=w)
        return scores

    def _scores(self, x):
        out = self.net(x)
        out = out[0] if isinstance(out, (tuple, list)) else out
        if out.shape[2:] != x.shape[2:]:  # scores at a stride (HRNet's `_s`): GluonCV's nets upsample themselves
            out = mx.nd.contrib.BilinearResize2D(out, height=x.shape[2], width=x.shape[3])
        return out

    def _flip_scores(self, x):
        out = self._scores(x)
        if self.flip:
            out = out + self._scores(x.flip(3)).flip(3)
        return out.exp()

    def _pad(self, img):
        """Pad (1, C, h, w) to at least crop_size a side, bottom/right, with each channel's black."""
        _, c, h, w = img.shape
        ph, pw = max(self.crop_size, h), max(self.crop_size, w)
        if (ph, pw) == (h, w):
            return img
        fill = mx.nd.array(self.pad_value[:c].reshape(1, c, 1, 1), ctx=img.context, dtype=img.dtype)
        out = mx.nd.broadcast_to(fill, shape=(1, c, ph, pw)).copy()
        out[:, :, :h, :w] = img
        return out
