"""ResNeXt (Xie et al., arXiv:1611.05431) and SE-ResNeXt (arXiv:1709.01507): parameter-compatible with GluonCV
0.10.5 `resnext{50,101}_{32,64}x4d` and `se_resnext*`.

Layout: blocks -> model -> weights records -> registered builders. The SE gate here uses 1x1 convs with bias
(GluonCV's SE-ResNeXt), unlike SE-ResNet's bias-free Dense layers.
"""
import math

from mxnet.gluon import nn

from ....registry import register_model
from ...layers import SEGate
from ._gluoncv import gluoncv_weights
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
class GroupBottleneck(nn.HybridBlock):
    """1x1 -> grouped 3x3 (`cardinality` groups of `width` * channels/64) -> 1x1 (x4), post-activation."""

    def __init__(self, channels, cardinality, width, stride, downsample, use_se):
        super().__init__(prefix='')
        group_width = cardinality * int(math.floor(channels * (width / 64)))
        self.body = nn.HybridSequential(prefix='')
        self.body.add(nn.Conv2D(group_width, 1, use_bias=False), nn.BatchNorm(), nn.Activation('relu'),
                      nn.Conv2D(group_width, 3, stride, 1, groups=cardinality, use_bias=False), nn.BatchNorm(),
                      nn.Activation('relu'), nn.Conv2D(channels * 4, 1, use_bias=False), nn.BatchNorm())
        self.se = SEGate(channels // 4, channels * 4) if use_se else None
        self.downsample = None
        if downsample:
            self.downsample = nn.HybridSequential(prefix='')
            self.downsample.add(nn.Conv2D(channels * 4, 1, stride, use_bias=False), nn.BatchNorm())

    def hybrid_forward(self, F, x):
        out = self.body(x)
        if self.se:
            out = self.se(out)
        residual = self.downsample(x) if self.downsample else x
        return F.Activation(out + residual, act_type='relu')


# -- model --------------------------------------------------------------------------------------------------------
_LAYERS = {50: [3, 4, 6, 3], 101: [3, 4, 23, 3]}


class ResNeXt(Classifier):
    """ResNeXt of `depth` with `cardinality` x `width`d grouped convs; `use_se` adds SE gates."""

    def __init__(self, depth, cardinality=32, width=4, classes=1000, use_se=False, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if depth not in _LAYERS:
            raise ValueError(f'ResNeXt depth {depth!r} is not one of {sorted(_LAYERS)}')
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(nn.Conv2D(64, 7, 2, 3, use_bias=False, in_channels=in_channels), nn.BatchNorm(),
                              nn.Activation('relu'), nn.MaxPool2D(3, 2, 1))
            for i, n in enumerate(_LAYERS[depth]):
                channels = 64 * 2 ** i
                stage = nn.HybridSequential(prefix=f'stage{i + 1}_')
                with stage.name_scope():
                    for j in range(n):
                        stage.add(GroupBottleneck(channels, cardinality, width, 2 if (i and not j) else 1, j == 0,
                                                  use_se))
                self.features.add(stage)
            self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.Dense(classes)
        self.feature_info = [Stage('features.2', 64, 2)] + [Stage(f'features.{4 + i}', 256 * 2 ** i, 4 * 2 ** i)
                                                            for i in range(4)]


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'resnext50_32x4d': '4ecf62e29336e0cbc5a2f844652635a330928b5a',
    'resnext101_32x4d': '8654ca5d0ba30a7868c5b42a7d4cc0ff2ba04dbc',
    'resnext101_64x4d': '2f0d1c9d343d140775bfa7548dd3a881a35855de',
    'se_resnext50_32x4d': '7906e0e16013ef8d195cbc05463cc37783ec7a8a',
    'se_resnext101_32x4d': '688e238985d45a38803c62cf345af2813d0e8aa0',
    'se_resnext101_64x4d': '11c50114a0483e27e74dc4236904254ef05b634b',
}
_PARAMS = {'resnext50_32x4d': 25028904, 'resnext101_32x4d': 44177704, 'resnext101_64x4d': 83455272,
           'se_resnext50_32x4d': 27559896, 'se_resnext101_32x4d': 48955416, 'se_resnext101_64x4d': 88232984}
_PAPERS = {False: 'https://arxiv.org/abs/1611.05431', True: 'https://arxiv.org/abs/1709.01507'}


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


def _weights(arch):
    return gluoncv_weights(arch, _SHA1, _PARAMS, _PAPERS[arch.startswith('se_')])


@register_model(weights=_weights('resnext50_32x4d'), **_REG)
def resnext50_32x4d(classes=1000, in_channels=3):
    """ResNeXt-50 32x4d (arXiv:1611.05431)."""
    return ResNeXt(50, 32, 4, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnext101_32x4d'), **_REG)
def resnext101_32x4d(classes=1000, in_channels=3):
    """ResNeXt-101 32x4d (arXiv:1611.05431)."""
    return ResNeXt(101, 32, 4, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnext101_64x4d'), **_REG)
def resnext101_64x4d(classes=1000, in_channels=3):
    """ResNeXt-101 64x4d (arXiv:1611.05431)."""
    return ResNeXt(101, 64, 4, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('se_resnext50_32x4d'), **_REG)
def se_resnext50_32x4d(classes=1000, in_channels=3):
    """SE-ResNeXt-50 32x4d (arXiv:1709.01507)."""
    return ResNeXt(50, 32, 4, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnext101_32x4d'), **_REG)
def se_resnext101_32x4d(classes=1000, in_channels=3):
    """SE-ResNeXt-101 32x4d (arXiv:1709.01507)."""
    return ResNeXt(101, 32, 4, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnext101_64x4d'), **_REG)
def se_resnext101_64x4d(classes=1000, in_channels=3):
    """SE-ResNeXt-101 64x4d (arXiv:1709.01507)."""
    return ResNeXt(101, 64, 4, classes, use_se=True, in_channels=in_channels)
