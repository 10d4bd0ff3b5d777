"""SENet-154 (Hu et al., arXiv:1709.01507) and the deep-stem ResNeXt-101e (Xie et al., arXiv:1611.05431, with the
stem and shortcuts of He et al., arXiv:1812.01187): parameter-compatible with GluonCV 0.10.5 `senet_154`,
`senet_154e` (its senet.py) and `resnext101e_64x4d`, `se_resnext101e_64x4d` (its resnext.py).

Layout: blocks -> model -> weights records -> registered builders. Both nets start with three 3x3 convs (64, 64,
128) and a max pool, then four stages of grouped bottlenecks, so their parameters sit at the same paths
(`features.10.0.body.0.weight`, `output.weight`). SENet-154 differs in its block (the first 1x1 conv is half as
wide, SE always), its 3x3 projection shortcuts, a ceil-mode stem pool without padding and dropout before the head.
`norm_layer` / `norm_kwargs` are GluonCV's: a BatchNorm class (e.g. SyncBatchNorm) and its keyword arguments.
"""
from mxnet.gluon import nn

from ....registry import register_model
from ...layers import norm_factory
from ._gluoncv import gluoncv_weights
from .base import Classifier, Stage
from .resnext import ResNeXtBlock


# -- blocks -------------------------------------------------------------------------------------------------------
class SEBlock(ResNeXtBlock):
    """GluonCV's SENet SEBlock: the SENet unit (halved first 1x1, SE gate, last gamma starting at zero), with a
    `downsample_kernel_size` projection (through an average pool with `avg_down`) when `downsample`."""

    def __init__(self, channels, cardinality, bottleneck_width, stride, downsample=False, downsample_kernel_size=3,
                 avg_down=False, norm_layer=nn.BatchNorm, norm_kwargs=None):
        if downsample_kernel_size not in (1, 3):
            raise ValueError(f'downsample_kernel_size is 1 or 3, not {downsample_kernel_size!r}')
        shortcut = ('avg' if avg_down else f'conv{downsample_kernel_size}') if downsample else None
        super().__init__(channels, cardinality, bottleneck_width, stride, shortcut, True, 2, zero_gamma=True,
                         bn=norm_factory(norm_layer, norm_kwargs))


# -- model --------------------------------------------------------------------------------------------------------
_LAYERS = {101: [3, 4, 23, 3], 152: [3, 8, 36, 3]}


class DeepStemResNeXt(Classifier):
    """ResNeXt of `layers` blocks a stage with the 3x3-conv stem (`stem_width`, `stem_width`, 2 * `stem_width`
    channels).

    `senet=True` is SENet: halved first 1x1 convs, SE gates, 3x3 projection shortcuts, a ceil-mode stem pool and
    dropout 0.2 before the head. `avg_down` projects through an average pool in stages 2-4.
    """

    def __init__(self, layers, cardinality, width, classes=1000, senet=False, use_se=False, avg_down=False,
                 stem_width=64, last_gamma=False, norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=3,
                 **kwargs):
        super().__init__(**kwargs)
        if len(layers) != 4:
            raise ValueError(f'{type(self).__name__} takes four stages of layers, not {list(layers)}')
        bn = norm_factory(norm_layer, norm_kwargs)
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            for i, (c, s) in enumerate(((stem_width, 2), (stem_width, 1), (stem_width * 2, 1))):
                self.features.add(nn.Conv2D(c, 3, s, 1, use_bias=False, in_channels=0 if i else in_channels),
                                  bn(), nn.Activation('relu'))
            self.features.add(nn.MaxPool2D(3, 2, ceil_mode=True) if senet else nn.MaxPool2D(3, 2, 1))
            for i, n in enumerate(layers):
                channels, stride = 64 * 2 ** i, 1 if i == 0 else 2
                if i and avg_down:
                    shortcut = 'avg'
                else:
                    shortcut = 'conv3' if senet and i else 'conv1'
                stage = nn.HybridSequential(prefix=f'stage{i + 1}_')
                with stage.name_scope():
                    for j in range(n):
                        stage.add(ResNeXtBlock(channels, cardinality, width, stride if j == 0 else 1,
                                               shortcut if j == 0 else None, use_se or senet, 2 if senet else 1,
                                               zero_gamma=not last_gamma, bn=bn))
                self.features.add(stage)
            self.features.add(nn.GlobalAvgPool2D())
            if senet:
                self.features.add(nn.Dropout(0.2))
            self.output = nn.Dense(classes)
        self.feature_info = [Stage('features.8', stem_width * 2, 2)] + \
            [Stage(f'features.{10 + i}', 256 * 2 ** i, 4 * 2 ** i) for i in range(4)]


class SENet(DeepStemResNeXt):
    """GluonCV's SENet: `layers` SEBlocks a stage of `cardinality` x `bottleneck_width`d grouped convs."""

    def __init__(self, layers, cardinality, bottleneck_width, avg_down=False, classes=1000, norm_layer=nn.BatchNorm,
                 norm_kwargs=None, in_channels=3, **kwargs):
        super().__init__(layers, cardinality, bottleneck_width, classes, senet=True, avg_down=avg_down,
                         norm_layer=norm_layer, norm_kwargs=norm_kwargs, in_channels=in_channels, **kwargs)


# -- weights records (GluonCV 0.10.5 model_store.py; it has none for senet_154e and the ResNeXt-101e) -----------
_SHA1 = {'senet_154': 'b5538ef10557243511b9b46063aa4c40790d74ba'}
_PARAMS = {'senet_154': 115088984}
_PAPER = 'https://arxiv.org/abs/1709.01507'


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


@register_model(weights=gluoncv_weights('senet_154', _SHA1, _PARAMS, _PAPER), **_REG)
def senet_154(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """SENet-154 (arXiv:1709.01507)."""
    return SENet(_LAYERS[152], 64, 4, False, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def senet_154e(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """SENet-154e: SENet-154 with average-pool shortcuts (arXiv:1709.01507)."""
    return SENet(_LAYERS[152], 64, 4, True, classes, norm_layer, norm_kwargs, in_channels)


@register_model(task='image-classification', protected=('in_channels', 'stem_width'), test_input=(1, 3, 32, 32))
def resnext101e_64x4d(classes=1000, in_channels=3, stem_width=64, last_gamma=False, norm_layer=nn.BatchNorm,
                      norm_kwargs=None):
    """ResNeXt-101e 64x4d: deep stem, average-pool shortcuts (arXiv:1611.05431)."""
    return DeepStemResNeXt(_LAYERS[101], 64, 4, classes, avg_down=True, stem_width=stem_width, last_gamma=last_gamma,
                           norm_layer=norm_layer, norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(task='image-classification', protected=('in_channels', 'stem_width'), test_input=(1, 3, 32, 32))
def se_resnext101e_64x4d(classes=1000, in_channels=3, stem_width=64, last_gamma=False, norm_layer=nn.BatchNorm,
                         norm_kwargs=None):
    """SE-ResNeXt-101e 64x4d: deep stem, average-pool shortcuts (arXiv:1709.01507)."""
    return DeepStemResNeXt(_LAYERS[101], 64, 4, classes, use_se=True, avg_down=True, stem_width=stem_width,
                           last_gamma=last_gamma, norm_layer=norm_layer, norm_kwargs=norm_kwargs,
                           in_channels=in_channels)
