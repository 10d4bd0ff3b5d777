"""VGG 11/13/16/19 with and without BatchNorm (Simonyan & Zisserman, arXiv:1409.1556): parameter-compatible with
GluonCV 0.10.5 `vgg*` / `vgg*_bn`.

Layout: model -> weights records -> registered builders. The two 4096-wide Dense layers sit inside `features`
(GluonCV's structure); the first takes 512x7x7 features, so the ImageNet checkpoints need 224x224 inputs.
"""
import math

from mxnet.gluon import nn

from ....errors import BadInputError
from ....registry import register_model
from ._gluoncv import gluoncv_weights
from .base import Classifier, Stage


# depth -> convs per stage (stage widths 64, 128, 256, 512, 512)
_SPEC = {11: [1, 1, 2, 2, 2], 13: [2, 2, 2, 2, 2], 16: [2, 2, 3, 3, 3], 19: [2, 2, 4, 4, 4]}
_WIDTHS = [64, 128, 256, 512, 512]


class VGG(Classifier):
    """GluonCV's VGG: stages of `layers[i]` 3x3 convs of `filters[i]` channels, each ending in a 2x2 max pool, then
    two 4096-unit Dense layers; `batch_norm` adds BN after every conv."""
    input_stride = 32

    def __init__(self, layers, filters, classes=1000, batch_norm=False, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if len(layers) != len(filters):
            raise BadInputError(f'VGG: {len(layers)} layers for {len(filters)} filters: give one conv count per '
                                'stage width')
        self.in_channels = in_channels
        taps = []
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            c_in = in_channels
            for i, (n, width) in enumerate(zip(layers, filters)):
                for _ in range(n):
                    self.features.add(nn.Conv2D(width, 3, padding=1, in_channels=c_in))
                    c_in = width
                    if batch_norm:
                        self.features.add(nn.BatchNorm())
                    self.features.add(nn.Activation('relu'))
                taps.append(Stage(f'features.{len(self.features) - 1}', width, 2 ** i))
                self.features.add(nn.MaxPool2D(strides=2))
            self._fc6 = len(self.features)  # an index: a block attribute would register a second name
            self.features.add(nn.Dense(4096, activation='relu'), nn.Dropout(0.5), nn.Dense(4096, activation='relu'),
                              nn.Dropout(0.5))
            self.output = nn.Dense(classes)
        self.feature_info = taps

    @property
    def fixed_input(self):
        """The input size the first Dense layer's weights fit (None until its input size is known)."""
        units = self.features[self._fc6].weight.shape[1]
        side = math.isqrt(units // 512) if units else 0
        return (side * 32, side * 32) if side else None


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'vgg11': 'dd221b160977f36a53f464cb54648d227c707a05',
    'vgg13': '6bc5de58a05a5e2e7f493e2d75a580d83efde38c',
    'vgg16': 'e660d4569ccb679ec68f1fd3cce07a387252a90a',
    'vgg19': 'ad2f660d101905472b83590b59708b71ea22b2e5',
    'vgg11_bn': 'ee79a8098a91fbe05b7a973fed2017a6117723a8',
    'vgg13_bn': '7d97a06c3c7a1aecc88b6e7385c2b373a249e95e',
    'vgg16_bn': '7f01cf050d357127a73826045c245041b0df7363',
    'vgg19_bn': 'f360b758e856f1074a85abd5fd873ed1d98297c3',
}
_PARAMS = {'vgg11': 132863336, 'vgg13': 133047848, 'vgg16': 138357544, 'vgg19': 143667240,
           'vgg11_bn': 132868840, 'vgg13_bn': 133053736, 'vgg16_bn': 138365992, 'vgg19_bn': 143678248}
_PAPER = 'https://arxiv.org/abs/1409.1556'


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


def _weights(arch):
    return gluoncv_weights(arch, _SHA1, _PARAMS, _PAPER)


@register_model(weights=_weights('vgg11'), **_REG)
def vgg11(classes=1000, in_channels=3):
    """VGG-11 (arXiv:1409.1556)."""
    return VGG(_SPEC[11], _WIDTHS, classes, batch_norm=False, in_channels=in_channels)


@register_model(weights=_weights('vgg13'), **_REG)
def vgg13(classes=1000, in_channels=3):
    """VGG-13 (arXiv:1409.1556)."""
    return VGG(_SPEC[13], _WIDTHS, classes, batch_norm=False, in_channels=in_channels)


@register_model(weights=_weights('vgg16'), **_REG)
def vgg16(classes=1000, in_channels=3):
    """VGG-16 (arXiv:1409.1556)."""
    return VGG(_SPEC[16], _WIDTHS, classes, batch_norm=False, in_channels=in_channels)


@register_model(weights=_weights('vgg19'), **_REG)
def vgg19(classes=1000, in_channels=3):
    """VGG-19 (arXiv:1409.1556)."""
    return VGG(_SPEC[19], _WIDTHS, classes, batch_norm=False, in_channels=in_channels)


@register_model(weights=_weights('vgg11_bn'), **_REG)
def vgg11_bn(classes=1000, in_channels=3):
    """VGG-11 with BatchNorm (arXiv:1409.1556)."""
    return VGG(_SPEC[11], _WIDTHS, classes, batch_norm=True, in_channels=in_channels)


@register_model(weights=_weights('vgg13_bn'), **_REG)
def vgg13_bn(classes=1000, in_channels=3):
    """VGG-13 with BatchNorm (arXiv:1409.1556)."""
    return VGG(_SPEC[13], _WIDTHS, classes, batch_norm=True, in_channels=in_channels)


@register_model(weights=_weights('vgg16_bn'), **_REG)
def vgg16_bn(classes=1000, in_channels=3):
    """VGG-16 with BatchNorm (arXiv:1409.1556)."""
    return VGG(_SPEC[16], _WIDTHS, classes, batch_norm=True, in_channels=in_channels)


@register_model(weights=_weights('vgg19_bn'), **_REG)
def vgg19_bn(classes=1000, in_channels=3):
    """VGG-19 with BatchNorm (arXiv:1409.1556)."""
    return VGG(_SPEC[19], _WIDTHS, classes, batch_norm=True, in_channels=in_channels)
