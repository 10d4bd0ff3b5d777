"""SqueezeNet 1.0 / 1.1 (Iandola et al., arXiv:1602.07360): parameter-compatible with GluonCV 0.10.5
`squeezenet1.0` / `squeezenet1.1`.

Layout: blocks -> model -> weights records -> registered builders. The head ends in GluonCV's 13x13 average
pool, which fixes the input at 224x224.
"""
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import HybridConcurrent

from ....registry import register_model
from ._gluoncv import gluoncv_weights
from .base import Classifier, last_per_stride


# -- blocks -------------------------------------------------------------------------------------------------------
def _conv_relu(channels, kernel, padding=0):
    out = nn.HybridSequential(prefix='')
    out.add(nn.Conv2D(channels, kernel, padding=padding), nn.Activation('relu'))
    return out


def _fire(squeeze, expand):
    """squeeze 1x1, then 1x1 and 3x3 expands concatenated: 2 * `expand` channels out."""
    out = nn.HybridSequential(prefix='')
    paths = HybridConcurrent(axis=1, prefix='')
    paths.add(_conv_relu(expand, 1), _conv_relu(expand, 3, 1))
    out.add(_conv_relu(squeeze, 1), paths)
    return out


# -- model --------------------------------------------------------------------------------------------------------
# version -> (stem channels, stem kernel, layout: 'M' = 3x3/2 max pool, (squeeze, expand) = fire module)
_SPEC = {'1.0': (96, 7, ['M', (16, 64), (16, 64), (32, 128), 'M', (32, 128), (48, 192), (48, 192), (64, 256), 'M',
                         (64, 256)]),
         '1.1': (64, 3, ['M', (16, 64), (16, 64), 'M', (32, 128), (32, 128), 'M', (48, 192), (48, 192), (64, 256),
                         (64, 256)])}


class SqueezeNet(Classifier):
    """SqueezeNet `version` '1.0' or '1.1'."""
    fixed_input = (224, 224)

    def __init__(self, version='1.0', classes=1000, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if version not in _SPEC:
            raise ValueError(f'SqueezeNet version {version!r} is not one of {sorted(_SPEC)}')
        c, kernel, layout = _SPEC[version]
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(nn.Conv2D(c, kernel, 2, in_channels=in_channels), nn.Activation('relu'))
            stride, candidates = 2, [('features.1', c, 2)]
            for item in layout:
                if item == 'M':
                    self.features.add(nn.MaxPool2D(3, 2, ceil_mode=True))
                    stride *= 2
                    continue
                self.features.add(_fire(*item))
                candidates.append((f'features.{len(self.features) - 1}', 2 * item[1], stride))
            self.features.add(nn.Dropout(0.5))
            self.output = nn.HybridSequential(prefix='')
            self.output.add(nn.Conv2D(classes, 1), nn.Activation('relu'), nn.AvgPool2D(13), nn.Flatten())
        self.feature_info = last_per_stride(candidates)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {'squeezenet1.0': '264ba4970a0cc87a4f15c96e25246a1307caf523',
         'squeezenet1.1': '33ba0f93753c83d86e1eb397f38a667eaf2e9376'}
_PARAMS = {'squeezenet1.0': 1248424, 'squeezenet1.1': 1235496}
_PAPER = 'https://arxiv.org/abs/1602.07360'


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 224, 224))


def _weights(arch):
    return gluoncv_weights(arch, _SHA1, _PARAMS, _PAPER)


@register_model('squeezenet1.0', weights=_weights('squeezenet1.0'), **_REG)
def squeezenet1_0(classes=1000, in_channels=3):
    """SqueezeNet 1.0 (arXiv:1602.07360)."""
    return SqueezeNet('1.0', classes, in_channels=in_channels)


@register_model('squeezenet1.1', weights=_weights('squeezenet1.1'), **_REG)
def squeezenet1_1(classes=1000, in_channels=3):
    """SqueezeNet 1.1 (arXiv:1602.07360)."""
    return SqueezeNet('1.1', classes, in_channels=in_channels)
