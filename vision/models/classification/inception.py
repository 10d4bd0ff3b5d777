"""Inception v3 (Szegedy et al., arXiv:1512.00567): parameter-compatible with GluonCV 0.10.5 `inceptionv3`.

Layout: blocks -> model -> weights records -> registered builder. Every conv is conv (no bias) -> BN (eps 1e-3)
-> ReLU; the 8x8 average pool before the head fixes the input at 299x299.
"""
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import HybridConcurrent

from ....registry import register_model
from ...layers import conv_bn_seq
from ...meta import IMAGENET_299
from ._gluoncv import gluoncv
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
def _conv(channels, kernel=1, stride=1, pad=0):
    return conv_bn_seq(channels, kernel, stride, pad, epsilon=0.001)


def _branch(pool, *convs):
    """An optional pool ('avg': 3x3/1 pad 1, 'max': 3x3/2), then convs given as (channels, kernel, stride, pad)."""
    out = nn.HybridSequential(prefix='')
    if pool == 'avg':
        out.add(nn.AvgPool2D(3, 1, 1))
    elif pool == 'max':
        out.add(nn.MaxPool2D(3, 2))
    for c in convs:
        out.add(_conv(*c))
    return out


def _concat(*branches):
    out = HybridConcurrent(axis=1, prefix='')
    out.add(*branches)
    return out


def _block_a(pool_features):
    return _concat(_branch(None, (64, 1)), _branch(None, (48, 1), (64, 5, 1, 2)),
                   _branch(None, (64, 1), (96, 3, 1, 1), (96, 3, 1, 1)), _branch('avg', (pool_features, 1)))


def _block_b():
    return _concat(_branch(None, (384, 3, 2)), _branch(None, (64, 1), (96, 3, 1, 1), (96, 3, 2)), _branch('max'))


def _block_c(c7):
    return _concat(
        _branch(None, (192, 1)),
        _branch(None, (c7, 1), (c7, (1, 7), 1, (0, 3)), (192, (7, 1), 1, (3, 0))),
        _branch(None, (c7, 1), (c7, (7, 1), 1, (3, 0)), (c7, (1, 7), 1, (0, 3)), (c7, (7, 1), 1, (3, 0)),
                (192, (1, 7), 1, (0, 3))),
        _branch('avg', (192, 1)))


def _block_d():
    return _concat(_branch(None, (192, 1), (320, 3, 2)),
                   _branch(None, (192, 1), (192, (1, 7), 1, (0, 3)), (192, (7, 1), 1, (3, 0)), (192, 3, 2)),
                   _branch('max'))


def _split_3x3():
    """1x3 and 3x1 convs side by side (Inception-E's widening)."""
    return _concat(_branch(None, (384, (1, 3), 1, (0, 1))), _branch(None, (384, (3, 1), 1, (1, 0))))


def _block_e():
    b3 = nn.HybridSequential(prefix='')
    b3.add(_branch(None, (384, 1)), _split_3x3())
    b3dbl = nn.HybridSequential(prefix='')
    b3dbl.add(_branch(None, (448, 1), (384, 3, 1, 1)), _split_3x3())
    return _concat(_branch(None, (320, 1)), b3, b3dbl, _branch('avg', (192, 1)))


# -- model --------------------------------------------------------------------------------------------------------
class InceptionV3(Classifier):
    """Inception v3 for 299x299 inputs."""
    fixed_input = (299, 299)

    def __init__(self, classes=1000, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(conv_bn_seq(32, 3, 2, epsilon=0.001, in_channels=in_channels), _conv(32, 3),
                              _conv(64, 3, 1, 1), nn.MaxPool2D(3, 2), _conv(80, 1), _conv(192, 3),
                              nn.MaxPool2D(3, 2), _block_a(32), _block_a(64), _block_a(64), _block_b(),
                              _block_c(128), _block_c(160), _block_c(160), _block_c(192), _block_d(), _block_e(),
                              _block_e(), nn.AvgPool2D(8), nn.Dropout(0.5))
            self.output = nn.Dense(classes)
        self.feature_info = [Stage(f'features.{i}', c, s) for i, c, s in
                             ((2, 64, 2), (5, 192, 4), (9, 288, 8), (14, 768, 16), (17, 2048, 32))]


_PAPER = 'https://arxiv.org/abs/1512.00567'
INCEPTIONV3_GLUONCV = gluoncv('inceptionv3', 'a5050dbcbfc54908fc1b7700698eb7ffbc150417', 23834568,
                              _PAPER, preprocess=IMAGENET_299)


@register_model('inceptionv3', task='image-classification', weights=[INCEPTIONV3_GLUONCV],
                protected=('in_channels',), test_input=(1, 3, 299, 299))
def inceptionv3(classes=1000, in_channels=3):
    """Inception v3 (arXiv:1512.00567)."""
    return InceptionV3(classes, in_channels)
