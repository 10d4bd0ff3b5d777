"""DenseNet 121/161/169/201 (Huang et al., arXiv:1608.06993): parameter-compatible with GluonCV 0.10.5
`densenet*`.

Layout: blocks -> model -> weights records -> registered builders. The final 7x7 average pool (GluonCV's, kept
for its outputs) fixes the input at 224x224 (any size 224-255 gives the same 7x7 map).
"""
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import HybridConcurrent, Identity

from ....registry import register_model
from ._gluoncv import gluoncv_weights
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
def _dense_layer(growth, bn_size, dropout, norm):
    """[x, BN-ReLU-1x1-BN-ReLU-3x3(x)] concatenated on channels."""
    new = nn.HybridSequential(prefix='')
    new.add(norm(), nn.Activation('relu'), nn.Conv2D(bn_size * growth, 1, use_bias=False),
            norm(), nn.Activation('relu'), nn.Conv2D(growth, 3, padding=1, use_bias=False))
    if dropout:
        new.add(nn.Dropout(dropout))
    out = HybridConcurrent(axis=1, prefix='')
    out.add(Identity(), new)
    return out


def _transition(channels, norm):
    out = nn.HybridSequential(prefix='')
    out.add(norm(), nn.Activation('relu'), nn.Conv2D(channels, 1, use_bias=False), nn.AvgPool2D(2, 2))
    return out


# -- model --------------------------------------------------------------------------------------------------------
# depth -> (stem channels, growth rate, layers per dense block)
_SPEC = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]), 169: (64, 32, [6, 12, 32, 32]),
         201: (64, 32, [6, 12, 48, 32])}


class DenseNet(Classifier):
    """GluonCV's DenseNet: a `num_init_features` stem, dense blocks of `block_config[i]` layers adding
    `growth_rate` channels each (bottleneck width `bn_size` x growth, optional `dropout`), halving transitions."""
    fixed_input = (224, 224)
    input_stride = 32

    def __init__(self, num_init_features, growth_rate, block_config, bn_size=4, dropout=0, classes=1000,
                 norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        c = num_init_features
        self.in_channels = in_channels

        def norm():
            return norm_layer(**(norm_kwargs or {}))
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(nn.Conv2D(c, 7, 2, 3, use_bias=False, in_channels=in_channels), norm(),
                              nn.Activation('relu'), nn.MaxPool2D(3, 2, 1))
            taps = [Stage('features.2', c, 2)]
            for i, n in enumerate(block_config):
                stage = nn.HybridSequential(prefix=f'stage{i + 1}_')
                with stage.name_scope():
                    for _ in range(n):
                        stage.add(_dense_layer(growth_rate, bn_size, dropout, norm))
                self.features.add(stage)
                c += n * growth_rate
                if i != len(block_config) - 1:
                    taps.append(Stage(f'features.{len(self.features) - 1}', c, 4 * 2 ** i))
                    self.features.add(_transition(c // 2, norm))
                    c //= 2
            self.features.add(norm(), nn.Activation('relu'))
            taps.append(Stage(f'features.{len(self.features) - 1}', c, 4 * 2 ** (len(block_config) - 1)))
            self.features.add(nn.AvgPool2D(7), nn.Flatten())
            self.output = nn.Dense(classes)
        self.feature_info = taps


def _densenet(depth, classes, in_channels, dropout):
    """The DenseNet of `depth` layers (121, 161, 169, 201)."""
    return DenseNet(*_SPEC[depth], dropout=dropout, classes=classes, in_channels=in_channels)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {'densenet121': 'f27dbf2dbd5ce9a80b102d89c7483342cd33cb31',
         'densenet161': 'b6c8a95717e3e761bd88d145f4d0a214aaa515dc',
         'densenet169': '2603f878403c6aa5a71a124c4a3307143d6820e9',
         'densenet201': '1cdbc116bc3a1b65832b18cf53e1cb8e7da017eb'}
_PARAMS = {'densenet121': 7978856, 'densenet161': 28681000, 'densenet169': 14149480, 'densenet201': 20013928}
_PAPER = 'https://arxiv.org/abs/1608.06993'


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 224, 224))


def _weights(arch):
    return gluoncv_weights(arch, _SHA1, _PARAMS, _PAPER)


@register_model(weights=_weights('densenet121'), **_REG)
def densenet121(classes=1000, in_channels=3, dropout=0.0):
    """DenseNet-121 (arXiv:1608.06993)."""
    return _densenet(121, classes, in_channels, dropout)


@register_model(weights=_weights('densenet161'), **_REG)
def densenet161(classes=1000, in_channels=3, dropout=0.0):
    """DenseNet-161 (arXiv:1608.06993)."""
    return _densenet(161, classes, in_channels, dropout)


@register_model(weights=_weights('densenet169'), **_REG)
def densenet169(classes=1000, in_channels=3, dropout=0.0):
    """DenseNet-169 (arXiv:1608.06993)."""
    return _densenet(169, classes, in_channels, dropout)


@register_model(weights=_weights('densenet201'), **_REG)
def densenet201(classes=1000, in_channels=3, dropout=0.0):
    """DenseNet-201 (arXiv:1608.06993)."""
    return _densenet(201, classes, in_channels, dropout)
