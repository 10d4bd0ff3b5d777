"""ShuffleNet V1 (Zhang et al., arXiv:1707.01083) and V2 (Ma et al., arXiv:1807.11164): parameter-compatible
with GluonCV 0.10.5 `shufflenet_v1` (3 groups) and `shufflenet_v2` (1x width).

Layout: blocks -> models -> registered builders; GluonCV publishes no ShuffleNet checkpoint. As in GluonCV, V1's
stem is a bare 3x3 conv with bias (no BN or ReLU) and V1's unit convs have biases; V2's have none. GluonCV's
builders accept `norm_layer` / `norm_kwargs` but build plain BatchNorm whatever they say, and its V1 accepts
`groups` but builds 3: here both take effect (a BatchNorm class with its kwargs; groups 1, 2 or 3, the paper's
widths), and the defaults are GluonCV's nets.
"""

from mxnet.gluon import nn

from ....registry import register_model
from ...layers import norm_factory
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
def conv_unit(channels, kernel=1, stride=1, groups=1, relu=True, bias=True, norm=nn.BatchNorm):
    """HybridSequential(conv, BN[, ReLU]): GluonCV's ShuffleNet conv unit (padding kernel // 2)."""
    seq = nn.HybridSequential(prefix='')
    seq.add(nn.Conv2D(channels, kernel, stride, kernel // 2, groups=groups, use_bias=bias), norm())
    if relu:
        seq.add(nn.Activation('relu'))
    return seq


def channel_shuffle(F, x, groups):
    """Interleave the channels of `groups` equal groups: channel j of group i moves to j * groups + i."""
    return F.reshape(F.swapaxes(F.reshape(x, shape=(0, -4, groups, -1, -2)), 1, 2), shape=(0, -3, -2))


class ShuffleUnitV1(nn.HybridBlock):
    """Grouped 1x1 -> channel shuffle -> depthwise 3x3 -> grouped 1x1, added to the input (ReLU after), or for a
    stride-2 unit (`downsample`) concatenated after a 3x3 average pool of the input.

    `grouped_first=False` makes the first 1x1 conv dense and skips the shuffle (the first unit, on 24 channels).
    """

    def __init__(self, in_channels, out_channels, downsample, groups=3, grouped_first=True, norm=nn.BatchNorm):
        super().__init__(prefix='')
        self.downsample, self.groups, self.grouped_first = downsample, groups, grouped_first
        out = out_channels - in_channels if downsample else out_channels
        mid = out // 4
        self.conv_beforshuffle = nn.HybridSequential(prefix='')  # sic: GluonCV's attribute name
        self.conv_beforshuffle.add(conv_unit(mid, groups=groups if grouped_first else 1, norm=norm))
        self.conv_aftershuffle = nn.HybridSequential(prefix='')
        self.conv_aftershuffle.add(conv_unit(mid, 3, 2 if downsample else 1, mid, relu=False, norm=norm),
                                   conv_unit(out, groups=groups, relu=False, norm=norm))

    def hybrid_forward(self, F, x):
        out = self.conv_beforshuffle(x)
        if self.grouped_first:
            out = channel_shuffle(F, out, self.groups)
        out = self.conv_aftershuffle(out)
        if self.downsample:
            out = F.concat(F.Pooling(x, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type='avg'), out, dim=1)
        else:
            out = x + out
        return F.Activation(out, act_type='relu')


class ShuffleUnitV2(nn.HybridBlock):
    """Half the channels through 1x1 -> depthwise 3x3 -> 1x1 (`branch2_conv`), the other half kept, concatenated
    and shuffled; a stride-2 unit (`downsample`) runs the whole input through both branches (`branch1_conv`:
    depthwise 3x3 -> 1x1)."""

    def __init__(self, in_channels, out_channels, downsample, norm=nn.BatchNorm):
        super().__init__(prefix='')
        self.in_channels, self.downsample = in_channels, downsample
        half, stride = out_channels // 2, 2 if downsample else 1
        if downsample:
            self.branch1_conv = nn.HybridSequential(prefix='')
            self.branch1_conv.add(conv_unit(in_channels, 3, 2, in_channels, relu=False, bias=False, norm=norm),
                                  conv_unit(half, bias=False, norm=norm))
        self.branch2_conv = nn.HybridSequential(prefix='')
        self.branch2_conv.add(conv_unit(half, bias=False, norm=norm),
                              conv_unit(half, 3, stride, half, relu=False, bias=False, norm=norm),
                              conv_unit(half, bias=False, norm=norm))

    def hybrid_forward(self, F, x):
        if self.downsample:
            kept, x = self.branch1_conv(x), x
        else:
            kept = F.slice_axis(x, axis=1, begin=0, end=self.in_channels // 2)
            x = F.slice_axis(x, axis=1, begin=self.in_channels // 2, end=self.in_channels)
        return channel_shuffle(F, F.concat(kept, self.branch2_conv(x), dim=1), 2)


# -- models -------------------------------------------------------------------------------------------------------
_REPEATS = (3, 7, 3)  # units after each stage's first (stride-2) one
#: ShuffleNet V1 stage widths by groups (GluonCV's table; groups 4 and 8 do not divide its bottleneck widths)
_V1_WIDTHS = {1: (144, 288, 576), 2: (200, 400, 800), 3: (240, 480, 960)}
_V2_WIDTHS = (116, 232, 464)  # 1x


def _norm(norm_layer, norm_kwargs):
    return norm_factory(norm_layer, norm_kwargs, epsilon=1e-5, momentum=0.9)


def _stage(units):
    seq = nn.HybridSequential(prefix='')
    seq.add(*units)
    return seq


class ShuffleNetV1(Classifier):
    """ShuffleNet V1 with `groups` (1, 2, 3) groups: a 3x3 stem conv, max pool, three stages of shuffle units."""

    def __init__(self, groups=3, classes=1000, norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if groups not in _V1_WIDTHS:
            raise ValueError(f'ShuffleNetV1 groups {groups!r} is not one of {sorted(_V1_WIDTHS)}')
        norm = _norm(norm_layer, norm_kwargs)
        self.in_channels = in_channels
        widths = (24,) + _V1_WIDTHS[groups]
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(nn.Conv2D(24, 3, 2, 1, in_channels=in_channels), nn.MaxPool2D(3, 2, 1))
            for i, n in enumerate(_REPEATS):
                cin, cout = widths[i], widths[i + 1]
                self.features.add(_stage([ShuffleUnitV1(cin, cout, True, groups, i > 0, norm)] +
                                         [ShuffleUnitV1(cout, cout, False, groups, True, norm) for _ in range(n)]))
            self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.Dense(classes)
        self.feature_info = [Stage('features.0', 24, 2), Stage('features.1', 24, 4)] + \
            [Stage(f'features.{i + 2}', c, 8 * 2 ** i) for i, c in enumerate(widths[1:])]


class ShuffleNetV2(Classifier):
    """ShuffleNet V2 1x: a 3x3 stem conv unit, max pool, three stages of shuffle units, a 1x1 conv to 1024."""

    def __init__(self, classes=1000, norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        norm = _norm(norm_layer, norm_kwargs)
        self.in_channels = in_channels
        widths = (24,) + _V2_WIDTHS
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(conv_unit(24, 3, 2, bias=False, norm=norm), nn.MaxPool2D(3, 2, 1))
            for i, n in enumerate(_REPEATS):
                cin, cout = widths[i], widths[i + 1]
                self.features.add(_stage([ShuffleUnitV2(cin, cout, True, norm)] +
                                         [ShuffleUnitV2(cout, cout, False, norm) for _ in range(n)]))
            self.features.add(conv_unit(1024, bias=False, norm=norm), nn.GlobalAvgPool2D())
            self.output = nn.Dense(classes)
        self.feature_info = [Stage('features.0', 24, 2), Stage('features.1', 24, 4), Stage('features.2', 116, 8),
                             Stage('features.3', 232, 16), Stage('features.5', 1024, 32)]


# -- registered builders (no weights: GluonCV publishes no ShuffleNet checkpoint) ----------------------------------
@register_model(task='image-classification', protected=('in_channels', 'groups'), test_input=(1, 3, 32, 32))
def shufflenet_v1(classes=1000, in_channels=3, groups=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """ShuffleNet V1, 1x (arXiv:1707.01083)."""
    return ShuffleNetV1(groups, classes, norm_layer, norm_kwargs, in_channels)


@register_model(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))
def shufflenet_v2(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """ShuffleNet V2, 1x (arXiv:1807.11164)."""
    return ShuffleNetV2(classes, norm_layer, norm_kwargs, in_channels)
