"""ResNeXt (Xie et al., arXiv:1611.05431) and SE-ResNeXt (arXiv:1709.01507): parameter-compatible with GluonCV
0.10.5 `resnext{50,101}_{32,64}x4d` and `se_resnext*`.

Layout: blocks -> model -> weights records -> registered builders. ResNeXtBlock is the grouped bottleneck of every
ResNeXt family here (senet.py's, cifar_resnext.py's); its SE gate uses 1x1 convs with bias (GluonCV's SE-ResNeXt),
unlike SE-ResNet's bias-free Dense layers.
"""
import math

from mxnet.gluon import nn

from ....registry import register_model
from ...layers import SEGate, norm_factory
from ._gluoncv import gluoncv_weights
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
class ResNeXtBlock(nn.HybridBlock):
    """1x1 -> grouped 3x3 (`cardinality` groups of `width` * channels/64) -> 1x1 (x4) -> optional SE gate, plus the
    input or its projection `shortcut` ('conv1' / 'conv3': a strided 1x1 / 3x3 conv, 'avg': average pool then
    1x1 conv), then ReLU.

    `squeeze` divides the first 1x1 conv's width (SENet: 2). `zero_gamma` starts the last BN at gamma 0, as
    GluonCV's ImageNet ResNeXt/SENet do (their `last_gamma=True` turns it off); only the initialization differs.
    """

    def __init__(self, channels, cardinality, width, stride=1, shortcut=None, use_se=False, squeeze=1,
                 zero_gamma=False, bn=nn.BatchNorm, **kwargs):
        super().__init__(**{'prefix': '', **kwargs})
        group_width = cardinality * int(math.floor(channels * (width / 64)))
        self.body = nn.HybridSequential(prefix='')
        self.body.add(nn.Conv2D(group_width // squeeze, 1, use_bias=False), bn(), nn.Activation('relu'),
                      nn.Conv2D(group_width, 3, stride, 1, groups=cardinality, use_bias=False), bn(),
                      nn.Activation('relu'), nn.Conv2D(channels * 4, 1, use_bias=False),
                      bn(gamma_initializer='zeros') if zero_gamma else bn())
        self.se = SEGate(channels // 4, channels * 4) if use_se else None
        self.downsample = None
        if shortcut:
            self.downsample = nn.HybridSequential(prefix='')
            if shortcut == 'avg':  # no input pixel is skipped, unlike a strided 1x1 conv
                self.downsample.add(nn.AvgPool2D(stride, stride, ceil_mode=True, count_include_pad=False),
                                    nn.Conv2D(channels * 4, 1, use_bias=False))
            else:
                kernel = 3 if shortcut == 'conv3' else 1
                self.downsample.add(nn.Conv2D(channels * 4, kernel, stride, kernel // 2, use_bias=False))
            self.downsample.add(bn())

    def hybrid_forward(self, F, x):
        out = self.body(x)
        if self.se is not None:
            out = self.se(out)
        residual = self.downsample(x) if self.downsample is not None else x
        return F.Activation(out + residual, act_type='relu')


class Block(ResNeXtBlock):
    """GluonCV's ResNeXt Block over ResNeXtBlock: `downsample` a projection shortcut (through a `stride` average
    pool with `avg_down`), `use_se` the SE gate; the last norm's gamma starts at zero unless `last_gamma`, as
    GluonCV's code has it (its docs say the reverse): the same start as GluonCV's training."""

    def __init__(self, channels, cardinality, bottleneck_width, stride, downsample=False, last_gamma=False,
                 use_se=False, avg_down=False, norm_layer=nn.BatchNorm, norm_kwargs=None, **kwargs):
        shortcut = ('avg' if avg_down else 'conv1') if downsample else None
        super().__init__(channels, cardinality, bottleneck_width, stride, shortcut, use_se, zero_gamma=not last_gamma,
                         bn=norm_factory(norm_layer, norm_kwargs), **kwargs)


# -- model --------------------------------------------------------------------------------------------------------
_LAYERS = {50: [3, 4, 6, 3], 101: [3, 4, 23, 3]}


class ResNext(Classifier):
    """GluonCV's ResNext: `layers` Blocks a stage with `cardinality` x `bottleneck_width`d grouped convs; `use_se`
    adds SE gates, `deep_stem` three 3x3 convs (`stem_width`, twice that) for the 7x7, `avg_down` average-pooled
    shortcuts after the first stage."""

    def __init__(self, layers, cardinality, bottleneck_width, classes=1000, last_gamma=False, use_se=False,
                 deep_stem=False, avg_down=False, stem_width=64, norm_layer=nn.BatchNorm, norm_kwargs=None,
                 in_channels=3, **kwargs):
        super().__init__(**kwargs)
        self.cardinality, self.bottleneck_width, self.in_channels = cardinality, bottleneck_width, in_channels
        norm = dict(norm_kwargs or {})
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            if deep_stem:
                self.features.add(nn.Conv2D(stem_width, 3, 2, 1, use_bias=False, in_channels=in_channels),
                                  norm_layer(**norm), nn.Activation('relu'),
                                  nn.Conv2D(stem_width, 3, 1, 1, use_bias=False), norm_layer(**norm),
                                  nn.Activation('relu'), nn.Conv2D(stem_width * 2, 3, 1, 1, use_bias=False))
            else:
                self.features.add(nn.Conv2D(64, 7, 2, 3, use_bias=False, in_channels=in_channels))
            self.features.add(norm_layer(**norm), nn.Activation('relu'))
            stem = len(self.features) - 1
            self.features.add(nn.MaxPool2D(3, 2, 1))
            for i, n in enumerate(layers):
                channels = 64 * 2 ** i
                stage = nn.HybridSequential(prefix=f'stage{i + 1}_')
                with stage.name_scope():
                    for j in range(n):
                        stage.add(Block(channels, cardinality, bottleneck_width, 2 if (i and not j) else 1, j == 0,
                                        last_gamma, use_se, avg_down and i > 0 and j == 0, norm_layer, norm_kwargs))
                self.features.add(stage)
            self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.Dense(classes)
        self.feature_info = [Stage(f'features.{stem}', stem_width * 2 if deep_stem else 64, 2)] + [
            Stage(f'features.{stem + 2 + i}', 256 * 2 ** i, 4 * 2 ** i) for i in range(len(layers))]


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
    return ResNext(_LAYERS[50], 32, 4, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnext101_32x4d'), **_REG)
def resnext101_32x4d(classes=1000, in_channels=3):
    """ResNeXt-101 32x4d (arXiv:1611.05431)."""
    return ResNext(_LAYERS[101], 32, 4, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnext101_64x4d'), **_REG)
def resnext101_64x4d(classes=1000, in_channels=3):
    """ResNeXt-101 64x4d (arXiv:1611.05431)."""
    return ResNext(_LAYERS[101], 64, 4, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('se_resnext50_32x4d'), **_REG)
def se_resnext50_32x4d(classes=1000, in_channels=3):
    """SE-ResNeXt-50 32x4d (arXiv:1709.01507)."""
    return ResNext(_LAYERS[50], 32, 4, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnext101_32x4d'), **_REG)
def se_resnext101_32x4d(classes=1000, in_channels=3):
    """SE-ResNeXt-101 32x4d (arXiv:1709.01507)."""
    return ResNext(_LAYERS[101], 32, 4, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnext101_64x4d'), **_REG)
def se_resnext101_64x4d(classes=1000, in_channels=3):
    """SE-ResNeXt-101 64x4d (arXiv:1709.01507)."""
    return ResNext(_LAYERS[101], 64, 4, classes, use_se=True, in_channels=in_channels)
