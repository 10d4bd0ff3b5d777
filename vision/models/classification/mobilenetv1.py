"""MobileNet v1 (Howard et al., arXiv:1704.04861): parameter-compatible with GluonCV 0.10.5 `mobilenet{1.0,0.75,
0.5,0.25}`.

Layout: blocks -> model -> weights records -> registered builders. A flat `features` Sequential of
conv-BN-ReLU triples (GluonCV's structure), then a Dense head.
"""
from mxnet.gluon import nn

from ....registry import register_model
from ...layers import conv_bn
from ._gluoncv import gluoncv_weights
from .base import Classifier, last_per_stride


# (depthwise input channels, pointwise output channels, stride) of the 13 separable blocks, before the multiplier
_BLOCKS = [(32, 64, 1), (64, 128, 2), (128, 128, 1), (128, 256, 2), (256, 256, 1), (256, 512, 2)] + \
    [(512, 512, 1)] * 5 + [(512, 1024, 2), (1024, 1024, 1)]


class MobileNetV1(Classifier):
    """MobileNet v1 with width `multiplier`: a 3x3 stem and 13 depthwise-separable blocks."""

    def __init__(self, multiplier=1.0, classes=1000, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        self.in_channels = in_channels
        candidates = []
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            with self.features.name_scope():
                conv_bn(self.features, int(32 * multiplier), 3, 2, 1, in_channels=in_channels)
                stride = 2
                candidates.append(('features.2', int(32 * multiplier), stride))
                for dw, out, s in _BLOCKS:
                    dw, out = int(dw * multiplier), int(out * multiplier)
                    conv_bn(self.features, dw, 3, s, 1, groups=dw)
                    conv_bn(self.features, out)
                    stride *= s
                    candidates.append((f'features.{len(self.features) - 1}', out, stride))
                self.features.add(nn.GlobalAvgPool2D(), nn.Flatten())
            self.output = nn.Dense(classes)
        self.feature_info = last_per_stride(candidates)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {'mobilenet1.0': 'efbb2ca3881998d5a8c5cb6c457a28c1e085fed5',
         'mobilenet0.75': '84c801e27b1ac5040b6e945c0d1f8d49e9a59f3d',
         'mobilenet0.5': '0130d2aa2f7e3a63db35579b243e25f512172371',
         'mobilenet0.25': 'f0046a3da4e150b85da58ea31913dbb86e7540d1'}
_PARAMS = {'mobilenet1.0': 4231976, 'mobilenet0.75': 2585560, 'mobilenet0.5': 1331592, 'mobilenet0.25': 470072}
_PAPER = 'https://arxiv.org/abs/1704.04861'


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


def _weights(arch):
    return gluoncv_weights(arch, _SHA1, _PARAMS, _PAPER)


@register_model('mobilenet1.0', weights=_weights('mobilenet1.0'), **_REG)
def mobilenet1_0(classes=1000, in_channels=3):
    """MobileNet v1 width 1.0 (arXiv:1704.04861)."""
    return MobileNetV1(1.0, classes, in_channels=in_channels)


@register_model('mobilenet0.75', weights=_weights('mobilenet0.75'), **_REG)
def mobilenet0_75(classes=1000, in_channels=3):
    """MobileNet v1 width 0.75 (arXiv:1704.04861)."""
    return MobileNetV1(0.75, classes, in_channels=in_channels)


@register_model('mobilenet0.5', weights=_weights('mobilenet0.5'), **_REG)
def mobilenet0_5(classes=1000, in_channels=3):
    """MobileNet v1 width 0.5 (arXiv:1704.04861)."""
    return MobileNetV1(0.5, classes, in_channels=in_channels)


@register_model('mobilenet0.25', weights=_weights('mobilenet0.25'), **_REG)
def mobilenet0_25(classes=1000, in_channels=3):
    """MobileNet v1 width 0.25 (arXiv:1704.04861)."""
    return MobileNetV1(0.25, classes, in_channels=in_channels)
