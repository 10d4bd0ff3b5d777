"""DarkNet-53 (Redmon & Farhadi, YOLOv3, arXiv:1804.02767): parameter-compatible with GluonCV 0.10.5 `darknet53`.

Layout: blocks -> model -> weights records -> registered builder. Convs are conv (no bias) -> BN -> LeakyReLU(0.1).
"""
from mxnet.gluon import nn

from ....errors import BadInputError
from ....registry import register_model
from ...layers import conv_bn_seq
from ._gluoncv import gluoncv
from .base import Classifier, Stage


def _conv(channels, kernel, stride=1, norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=0):
    return conv_bn_seq(channels, kernel, stride, kernel // 2, act='leaky0.1', norm_layer=norm_layer,
                       in_channels=in_channels, **(norm_kwargs or {}))


class DarknetBasicBlockV3(nn.HybridBlock):
    """x + conv3x3(2c)(conv1x1(c)(x)) (GluonCV's signature)."""

    def __init__(self, channel, norm_layer=nn.BatchNorm, norm_kwargs=None, **kwargs):
        super().__init__(**dict({'prefix': ''}, **kwargs))
        self.body = nn.HybridSequential(prefix='')
        self.body.add(_conv(channel, 1, 1, norm_layer, norm_kwargs), _conv(channel * 2, 3, 1, norm_layer, norm_kwargs))

    def hybrid_forward(self, F, x):
        return x + self.body(x)


# blocks per stage and channels (stem, then each stage); every stage starts with a stride-2 conv
_LAYERS, _CHANNELS = [1, 2, 8, 8, 4], [32, 64, 128, 256, 512, 1024]


class DarknetV3(Classifier):
    """GluonCV's DarknetV3: a 3x3 stem of `channels[0]`, then per stage a stride-2 3x3 conv to `channels[i + 1]` and
    `layers[i]` residual blocks; a global-pool classifier. DarkNet-53 is ([1, 2, 8, 8, 4], [32, ..., 1024])."""

    def __init__(self, layers, channels, classes=1000, norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=3,
                 **kwargs):
        super().__init__(**kwargs)
        if len(layers) != len(channels) - 1:
            raise BadInputError(f'DarknetV3: {len(layers)} layers need {len(layers) + 1} channels (the stem, then '
                                f'one per stage), got {len(channels)}')
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential()
            self.features.add(_conv(channels[0], 3, 1, norm_layer, norm_kwargs, in_channels))
            taps = []
            for i, (n, c) in enumerate(zip(layers, channels[1:])):
                self.features.add(_conv(c, 3, 2, norm_layer, norm_kwargs))
                for _ in range(n):
                    self.features.add(DarknetBasicBlockV3(c // 2, norm_layer, norm_kwargs))
                taps.append(Stage(f'features.{len(self.features) - 1}', c, 2 ** (i + 1)))
            self.output = nn.Dense(classes)
        self.feature_info = taps

    def hybrid_forward(self, F, x):
        x = F.Pooling(self.features(x), kernel=(7, 7), global_pool=True, pool_type='avg')
        return self.output(x)


DARKNET53_GLUONCV = gluoncv('darknet53', '2189ea49720a116dead245b9b252301cffa18d28', 41609928,
                            'https://arxiv.org/abs/1804.02767')


@register_model('darknet53', task='image-classification', weights=[DARKNET53_GLUONCV],
                protected=('in_channels',), test_input=(1, 3, 32, 32))
def darknet53(classes=1000, in_channels=3):
    """DarkNet-53 (arXiv:1804.02767)."""
    return DarknetV3(_LAYERS, _CHANNELS, classes, in_channels=in_channels)
