"""ResNeXt-29 for 32x32 CIFAR images (Xie et al., arXiv:1611.05431): parameter-compatible with GluonCV 0.10.5
`cifar_resnext29_32x4d` and `cifar_resnext29_16x64d`.

Layout: model -> weights records -> registered builders; the block is resnext.py's ResNeXtBlock (the grouped
bottleneck, here without SE and with the last BN's gamma starting at 1, as GluonCV's CIFAR file has it). A 3x3
stem of 64 channels, three stages of three blocks (256, 512, 1024 out; stride 2 from the second), global average
pool, one Dense head; parameter paths are GluonCV's (`features.3.0.body.0.weight`, `output.weight`).
"""
from mxnet.gluon import nn

from ....registry import register_model
from ...layers import norm_factory
from ...meta import CIFAR10, CIFAR10_EVAL
from ._gluoncv import gluoncv_weights
from .base import Classifier, Stage
from .resnext import ResNeXtBlock


# -- model --------------------------------------------------------------------------------------------------------
class CIFARResNeXt(Classifier):
    """ResNeXt-(9n+2) with `cardinality` x `width`d grouped convs for 32x32 inputs."""

    def __init__(self, depth, cardinality, width, classes=10, norm_layer=nn.BatchNorm, norm_kwargs=None,
                 in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if (depth - 2) % 9 or depth < 11:
            raise ValueError(f'CIFARResNeXt depth must be 9n + 2 (11, 20, 29, ...), not {depth!r}')
        bn = norm_factory(norm_layer, norm_kwargs)
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(nn.Conv2D(64, 3, 1, 1, use_bias=False, in_channels=in_channels), bn(),
                              nn.Activation('relu'))
            for i in range(3):
                stage = nn.HybridSequential(prefix=f'stage{i + 1}_')
                with stage.name_scope():
                    for j in range((depth - 2) // 9):
                        stage.add(ResNeXtBlock(64 * 2 ** i, cardinality, width, 2 if (i and not j) else 1,
                                               'conv1' if j == 0 else None, bn=bn))
                self.features.add(stage)
            self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.Dense(classes)
        # the stem runs at stride 1, as the first stage does: the stages are the maps, one a stride
        self.feature_info = [Stage(f'features.{3 + i}', 256 * 2 ** i, 2 ** i) for i in range(3)]


# -- weights records (GluonCV 0.10.5 model_store.py: CIFAR-10, none for 32x4d) ----------------------------------
_SHA1 = {'cifar_resnext29_16x64d': 'e8ff9f4f9cb319dfbf524d01e487af9a7f8a3cf5'}
_PARAMS = {'cifar_resnext29_16x64d': 68155210}


def _weights(arch):
    return gluoncv_weights(arch, _SHA1, _PARAMS, 'https://arxiv.org/abs/1611.05431', preprocess=CIFAR10_EVAL,
                           classes=CIFAR10, recipe='GluonCV scripts/classification/cifar/train_cifar10.py')


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


@register_model(weights=_weights('cifar_resnext29_32x4d'), **_REG)
def cifar_resnext29_32x4d(classes=10, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """ResNeXt-29 32x4d for 32x32 images (arXiv:1611.05431)."""
    return CIFARResNeXt(29, 32, 4, classes, norm_layer, norm_kwargs, in_channels)


@register_model(weights=_weights('cifar_resnext29_16x64d'), **_REG)
def cifar_resnext29_16x64d(classes=10, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """ResNeXt-29 16x64d for 32x32 images (arXiv:1611.05431)."""
    return CIFARResNeXt(29, 16, 64, classes, norm_layer, norm_kwargs, in_channels)
