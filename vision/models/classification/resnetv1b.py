"""ResNet V1b/c/d/e/s ("Bag of Tricks", He et al., arXiv:1812.01187) and GluonCV's nets built on it: parameter-
compatible with GluonCV 0.10.5 `resnet*_v1b/c/d/e/s`, `resnet*_v1b_gn` (GroupNorm), the pruned `resnet18_v1b_0.89`
and `resnet*_v1d_0.xx` (GluonCV's video-frame `resnet*_v1b_custom` lives in vision/models/action/tsn.py).

V1b moves the stride to the 3x3 conv; V1c replaces the 7x7 stem with three 3x3 convs (stem width 32); V1d adds
average-pool downsampling in the shortcut; V1s is V1c and V1e is V1d with stem width 64. A pruned net is a V1b/V1d
whose convs have the widths of its table (_resnetv1b_pruned.py). Layout: blocks -> model -> weights records ->
registered builders. Names follow GluonCV's attributes (`conv1`, `layer1.0.bn2`, `fc`). The options are GluonCV's:
`dilated`, `norm_layer` / `norm_kwargs` (a BatchNorm class, e.g. SyncBatchNorm, and its kwargs), `last_gamma`,
`use_global_stats`, `final_drop`.
"""
from mxnet.gluon import nn
from mxnet.gluon.nn import BatchNorm

from ....errors import BadInputError
from ....registry import register_model
from ._gluoncv import gluoncv_weights
from ._resnetv1b_pruned import PRUNED
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
class GroupNorm(nn.HybridBlock):
    """GluonCV's GroupNorm (Wu & He, arXiv:1803.08494): statistics over `ngroups` channel groups, then a scale and
    shift per channel (MXNet 1.9's nn.GroupNorm has them per group, so GluonCV's files do not fit it).
    `use_global_stats` is accepted and ignored: there are no running statistics to freeze."""

    def __init__(self, ngroups=32, in_channels=0, epsilon=1e-5, beta_initializer='zeros', gamma_initializer='ones',
                 scale=True, use_global_stats=False, **kwargs):
        super().__init__(**kwargs)
        if in_channels <= 0 or in_channels % ngroups:
            raise ValueError(f'GroupNorm needs in_channels, a multiple of ngroups={ngroups}; got {in_channels}')
        self.ngroups, self.epsilon, self.scale = ngroups, epsilon, scale
        self.gamma = self.params.get('gamma', shape=(in_channels,), init=gamma_initializer)
        self.beta = self.params.get('beta', shape=(in_channels,), init=beta_initializer)

    def hybrid_forward(self, F, x, gamma, beta):
        groups = x.reshape((0, self.ngroups, -1))
        centered = F.broadcast_sub(groups, groups.mean(axis=2, keepdims=True))
        std = F.sqrt(F.square(centered).mean(axis=2, keepdims=True) + self.epsilon)
        y = F.reshape_like(F.broadcast_div(centered, std), x).reshape((0, 0, -1))
        if self.scale:
            y = F.broadcast_mul(y, gamma.reshape((1, -1, 1)))
        return F.reshape_like(F.broadcast_add(y, beta.reshape((1, -1, 1))), x)


def norm_factory(norm_layer=BatchNorm, norm_kwargs=None, use_global_stats=False):
    """`make(channels, zero_gamma=False)` -> a norm layer, GluonCV's way: norm_layer(in_channels=, **norm_kwargs)."""
    kwargs = dict(norm_kwargs or {})
    if use_global_stats:
        kwargs['use_global_stats'] = True

    def make(channels, zero_gamma=False):
        return (norm_layer or BatchNorm)(in_channels=channels, **kwargs,
                                         **({'gamma_initializer': 'zeros'} if zero_gamma else {}))
    return make


class BlockV1b(nn.HybridBlock):
    """Residual block with the stride on the 3x3 conv, ending in `out` channels: 1x1-3x3-1x1 when `widths` gives
    the two inner widths (bottleneck), 3x3-3x3 when it gives one. `last_gamma` zero-initializes a bottleneck's
    last norm, so the block starts as the identity."""

    def __init__(self, widths, out, stride=1, downsample=None, dilation=1, previous_dilation=1, norm=None,
                 last_gamma=False, **kwargs):
        super().__init__(**{'prefix': '', **kwargs})
        norm = norm or norm_factory()
        self.bottleneck = len(widths) == 2
        if self.bottleneck:
            self.conv1 = nn.Conv2D(widths[0], 1, use_bias=False)
            self.bn1 = norm(widths[0])
            self.conv2 = nn.Conv2D(widths[1], 3, stride, dilation, dilation, use_bias=False)
            self.bn2 = norm(widths[1])
            self.conv3 = nn.Conv2D(out, 1, use_bias=False)
            self.bn3 = norm(out, zero_gamma=last_gamma)
        else:
            self.conv1 = nn.Conv2D(widths[0], 3, stride, dilation, dilation, use_bias=False)
            self.bn1 = norm(widths[0])
            self.conv2 = nn.Conv2D(out, 3, 1, previous_dilation, previous_dilation, use_bias=False)
            self.bn2 = norm(out)
        self.downsample = downsample

    def hybrid_forward(self, F, x):
        out = F.Activation(self.bn1(self.conv1(x)), act_type='relu')
        out = self.bn2(self.conv2(out))
        if self.bottleneck:
            out = self.bn3(self.conv3(F.Activation(out, act_type='relu')))
        residual = self.downsample(x) if self.downsample is not None else x
        return F.Activation(out + residual, act_type='relu')


class BasicBlockV1b(BlockV1b):
    """GluonCV's BasicBlockV1b: 3x3-3x3 at `planes` channels, `strides` and `dilation` on the first conv."""
    expansion = 1

    def __init__(self, planes, strides=1, dilation=1, downsample=None, previous_dilation=1, norm_layer=None,
                 norm_kwargs=None, **kwargs):
        kwargs.pop('last_gamma', None)  # GluonCV's ResNetV1b hands it to every block; a basic block has no use for it
        super().__init__((planes,), planes, strides, downsample, dilation, previous_dilation,
                         norm_factory(norm_layer, norm_kwargs), **kwargs)


class BottleneckV1b(BlockV1b):
    """GluonCV's BottleneckV1b: 1x1-3x3-1x1 at `planes` inner channels, 4 x `planes` out, the stride on the 3x3."""
    expansion = 4

    def __init__(self, planes, strides=1, dilation=1, downsample=None, previous_dilation=1, norm_layer=None,
                 norm_kwargs=None, last_gamma=False, **kwargs):
        super().__init__((planes, planes), planes * 4, strides, downsample, dilation, previous_dilation,
                         norm_factory(norm_layer, norm_kwargs), last_gamma, **kwargs)


def _shortcut(stage, channels, stride, avg_down, norm):
    # GluonCV's `down{stage}_` scope, so the symbol names are its own (`resnetv1d_down1_conv0_weight`)
    seq = nn.HybridSequential(prefix=f'down{stage}_')
    with seq.name_scope():
        if avg_down:  # V1d: average-pool, then a stride-1 conv, so no input pixel is skipped
            seq.add(nn.AvgPool2D(stride, stride, ceil_mode=True, count_include_pad=False))
            stride = 1
        seq.add(nn.Conv2D(channels, 1, stride, use_bias=False), norm(channels))
    return seq


# -- model --------------------------------------------------------------------------------------------------------
_LAYERS = {18: (2, 2, 2, 2), 34: (3, 4, 6, 3), 50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


def standard_widths(layers, bottleneck, deep_stem=False, stem_width=32):
    """The widths table (_resnetv1b_pruned.py's layout) of the unpruned net of `layers` blocks a stage."""
    stages = []
    for i, n in enumerate(layers):
        planes = 64 * 2 ** i
        stages.append((planes * 4 if bottleneck else planes, ((planes, planes) if bottleneck else (planes,),) * n))
    return {'stem': (stem_width, stem_width, stem_width * 2) if deep_stem else (64,), 'stages': tuple(stages)}


def _check_table(table, layers, bottleneck, deep_stem):
    blocks = [len(b) for _, b in table['stages']]
    inner = {len(w) for _, b in table['stages'] for w in b}
    if len(table['stem']) != (3 if deep_stem else 1) or blocks != list(layers) or inner != {2 if bottleneck else 1}:
        raise ValueError(f'the widths table (stem {table["stem"]}, blocks {blocks}) does not fit a ResNet V1b of '
                         f'{list(layers)} {"bottleneck" if bottleneck else "basic"} blocks with deep_stem={deep_stem}')


def blocks_of(depth):
    """(block class, blocks a stage) of the standard ResNet V1b of `depth`."""
    if depth not in _LAYERS:
        raise ValueError(f'ResNetV1b depth {depth!r} is not one of {sorted(_LAYERS)}')
    return (BottleneckV1b if depth >= 50 else BasicBlockV1b), list(_LAYERS[depth])


class ResNetV1b(Classifier):
    """GluonCV's ResNet V1b: `layers` blocks a stage of `block` (BasicBlockV1b or BottleneckV1b); `deep_stem`
    (V1c/d/e/s) with `stem_width`, `avg_down` (V1d/e); `widths` (a table of _resnetv1b_pruned.py) gives every conv
    its width. `dilated` keeps layer3 and layer4 at stride 8 with dilated convs (GluonCV's segmentation backbones);
    `norm_layer(in_channels=C, **norm_kwargs)` makes every norm layer. `name_prefix` None (the default) names the
    parameters Gluon's way (`resnetv1b0_...`); GluonCV's files load by structural names either way."""
    head_name = 'fc'

    def __init__(self, block, layers, classes=1000, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                 last_gamma=False, deep_stem=False, stem_width=32, avg_down=False, final_drop=0.0,
                 use_global_stats=False, name_prefix=None, in_channels=3, widths=None, **kwargs):
        if name_prefix is not None:
            kwargs['prefix'] = name_prefix
        super().__init__(**kwargs)
        if block not in (BasicBlockV1b, BottleneckV1b) or len(layers) != 4:
            raise BadInputError(f'ResNetV1b takes block BasicBlockV1b or BottleneckV1b and 4 stages of layers, not '
                                f'{getattr(block, "__name__", block)} and {list(layers)}')
        bottleneck = block is BottleneckV1b
        table = widths or standard_widths(layers, bottleneck, deep_stem, stem_width)
        _check_table(table, layers, bottleneck, deep_stem)
        norm = norm_factory(norm_layer, norm_kwargs, use_global_stats)
        self.in_channels = in_channels
        stem = table['stem']
        with self.name_scope():
            if deep_stem:
                self.conv1 = nn.HybridSequential(prefix='conv1')
                self.conv1.add(nn.Conv2D(stem[0], 3, 2, 1, use_bias=False, in_channels=in_channels), norm(stem[0]),
                               nn.Activation('relu'), nn.Conv2D(stem[1], 3, 1, 1, use_bias=False), norm(stem[1]),
                               nn.Activation('relu'), nn.Conv2D(stem[2], 3, 1, 1, use_bias=False))
            else:
                self.conv1 = nn.Conv2D(stem[0], 7, 2, 3, use_bias=False, in_channels=in_channels)
            self.bn1 = norm(stem[-1])
            self.relu = nn.Activation('relu')
            self.maxpool = nn.MaxPool2D(3, 2, 1)
            self.feature_info, total = [Stage('relu', stem[-1], 2)], 4
            for i, (out, blocks) in enumerate(table['stages']):
                dilation = (1, 1, 2, 4)[i] if dilated else 1
                stride = 1 if i == 0 or dilation > 1 else 2
                # GluonCV places shortcuts by the unpruned widths: where the stride or the channels change, so in
                # every stage but a basic-block net's first on a 64-channel stem
                changes = i or bottleneck or (deep_stem and stem_width * 2 != 64)
                down = _shortcut(i + 1, out, stride, avg_down, norm) if changes else None
                layer = nn.HybridSequential(prefix=f'layers{i + 1}_')
                with layer.name_scope():
                    for j, inner in enumerate(blocks):
                        # GluonCV's first block of a dilated stage takes half the stage's dilation
                        first = (2 if dilation == 4 else 1) if j == 0 else dilation
                        layer.add(BlockV1b(inner, out, stride if j == 0 else 1, down if j == 0 else None, first,
                                           dilation, norm, last_gamma))
                setattr(self, f'layer{i + 1}', layer)
                total *= stride
                self.feature_info.append(Stage(f'layer{i + 1}', out, total))
            self.avgpool = nn.GlobalAvgPool2D()
            self.flat = nn.Flatten()
            self.drop = nn.Dropout(final_drop) if final_drop > 0 else None
            self.num_features = out
            setattr(self, self.head_name, self._head(classes, out))

    def _head(self, classes, in_units):
        return nn.Dense(classes, in_units=in_units)

    def stages(self):
        return [(name, getattr(self, name)) for name in
                ('conv1', 'bn1', 'relu', 'maxpool', 'layer1', 'layer2', 'layer3', 'layer4')]

    def pooled(self, x):
        """The pooled features (after dropout, when there is some) that the head classifies."""
        for _, stage in self.stages():
            x = stage(x)
        x = self.flat(self.avgpool(x))
        return self.drop(x) if self.drop is not None else x

    def hybrid_forward(self, F, x):
        return self.fc(self.pooled(x))


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'resnet18_v1b': '2d9d980c990442f826f20781ed039851e78dabe3',
    'resnet34_v1b': '8e16b84814e84f64d897854003f049872991eaa6',
    'resnet50_v1b': '0ecdba34691be172036ddf244ff1b2eade75ffde',
    'resnet101_v1b': 'a455932aa95cb7dcfa05fd040b9b5a5660733c39',
    'resnet152_v1b': 'a5a61ee1ce5ab7c09720775b223360f3c60e211d',
    'resnet50_v1c': '2a4e070854db538595cc7ee02e1a914bdd49ca02',
    'resnet101_v1c': '064858f23f9878bfbbe378a88ccb25d612b149a1',
    'resnet152_v1c': '75babab699e1c93f5da3c1ce4fd0092d1075f9a0',
    'resnet50_v1d': '117a384ecf61490eb31ea147eb0e61e6d2b8a449',
    'resnet101_v1d': '1b2b825feff86b0354642a4ab59f9b6e35e47338',
    'resnet152_v1d': 'cddbc86ff24a5544f57242ded0acb14ef1fbd437',
    'resnet50_v1s': '25a187fa281ddc98afbcd0cc0f0646885b874b80',
    'resnet101_v1s': 'bd93a83c05f709a803b1221aeff0b028e6eebb03',
    'resnet152_v1s': 'cf74621d988ad06c6c6aa44f5597e5b600a966cc',
    'resnet50_v1b_gn': '48ddf358d5acc879f76740dae695be67d96beea6',
    # the pruned nets, by GluonCV's model names (its store has them as PRUNED[name]['store'])
    'resnet18_v1b_0.89': '54f7742b1f8939ef8e59ede3469bfa5eb6e247fa',
    'resnet50_v1d_0.86': 'a230c33f7966ab761597328686b28d0545e4ea30',
    'resnet50_v1d_0.48': '0d3e69bb033d1375c3734419bbc653c3a474ea53',
    'resnet50_v1d_0.37': '9982ae4985b14e1c0ab25342a9f08bc4773b3998',
    'resnet50_v1d_0.11': '6a25eeceb7d27bd9c05fa2bf250c55d3960ad4c7',
    'resnet101_v1d_0.76': 'a872796b63fb883116831db3454711421a628154',
    'resnet101_v1d_0.73': '712fccb185921a596baebe9246ff6c994b88591b',
}
_PARAMS = {
    'resnet18_v1b': 11689512, 'resnet34_v1b': 21797672, 'resnet50_v1b': 25557032, 'resnet101_v1b': 44549160,
    'resnet152_v1b': 60192808, 'resnet50_v1c': 25576264, 'resnet101_v1c': 44568392, 'resnet152_v1c': 60212040,
    'resnet50_v1d': 25576264, 'resnet101_v1d': 44568392, 'resnet152_v1d': 60212040, 'resnet50_v1s': 25680808,
    'resnet101_v1s': 44672936, 'resnet152_v1s': 60316584, 'resnet50_v1b_gn': 25557032,
    'resnet18_v1b_0.89': 10444592, 'resnet50_v1d_0.86': 22042360, 'resnet50_v1d_0.48': 12416200,
    'resnet50_v1d_0.37': 9474560, 'resnet50_v1d_0.11': 2913616, 'resnet101_v1d_0.76': 34099320,
    'resnet101_v1d_0.73': 32767800,
}
_PAPER = 'https://arxiv.org/abs/1812.01187'
_GN_PAPER = 'https://arxiv.org/abs/1803.08494'
_VARIANTS = {'b': {}, 'c': dict(deep_stem=True), 'd': dict(deep_stem=True, avg_down=True),
             'e': dict(deep_stem=True, avg_down=True, stem_width=64), 's': dict(deep_stem=True, stem_width=64)}


# -- registered builders ------------------------------------------------------------------------------------------
# Each builder hands its own arguments (`locals()`) to the model: they are GluonCV's options.
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


def _weights(arch, paper=_PAPER):
    store = {'store_name': PRUNED[arch]['store']} if arch in PRUNED else {}  # GluonCV's files keep the old names
    return gluoncv_weights(arch, _SHA1, _PARAMS, paper, **store)


def _pruned(name):
    """A pruned net's options: its widths, and the prefix that makes its parameters' Gluon names the keys of
    GluonCV's published files (`resnetv1d_layers1_conv0_weight`)."""
    return dict(widths=PRUNED[name], prefix='resnetv1d_')


@register_model(weights=_weights('resnet18_v1b'), **_REG)
def resnet18_v1b(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                 last_gamma=False, use_global_stats=False):
    """ResNet-18 V1b (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(18), **locals())


@register_model(weights=_weights('resnet34_v1b'), **_REG)
def resnet34_v1b(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                 last_gamma=False, use_global_stats=False):
    """ResNet-34 V1b (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(34), **locals())


@register_model(weights=_weights('resnet50_v1b'), **_REG)
def resnet50_v1b(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                 last_gamma=False, use_global_stats=False):
    """ResNet-50 V1b (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(50), **locals())


@register_model(weights=_weights('resnet101_v1b'), **_REG)
def resnet101_v1b(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-101 V1b (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(101), **locals())


@register_model(weights=_weights('resnet152_v1b'), **_REG)
def resnet152_v1b(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-152 V1b (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(152), **locals())


@register_model(weights=_weights('resnet50_v1b_gn', _GN_PAPER), **_REG)
def resnet50_v1b_gn(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_kwargs=None, last_gamma=False,
                    use_global_stats=False):
    """ResNet-50 V1b with GroupNorm (arXiv:1803.08494)."""
    return ResNetV1b(*blocks_of(50), norm_layer=GroupNorm, **locals())


@register_model(**_REG)
def resnet101_v1b_gn(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_kwargs=None, last_gamma=False,
                     use_global_stats=False):
    """ResNet-101 V1b with GroupNorm (arXiv:1803.08494)."""
    return ResNetV1b(*blocks_of(101), norm_layer=GroupNorm, **locals())


@register_model(weights=_weights('resnet50_v1c'), **_REG)
def resnet50_v1c(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                 last_gamma=False, use_global_stats=False):
    """ResNet-50 V1c (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(50), **_VARIANTS['c'], **locals())


@register_model(weights=_weights('resnet101_v1c'), **_REG)
def resnet101_v1c(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-101 V1c (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(101), **_VARIANTS['c'], **locals())


@register_model(weights=_weights('resnet152_v1c'), **_REG)
def resnet152_v1c(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-152 V1c (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(152), **_VARIANTS['c'], **locals())


@register_model(weights=_weights('resnet50_v1d'), **_REG)
def resnet50_v1d(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                 last_gamma=False, use_global_stats=False):
    """ResNet-50 V1d (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(50), **_VARIANTS['d'], **locals())


@register_model(weights=_weights('resnet101_v1d'), **_REG)
def resnet101_v1d(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-101 V1d (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(101), **_VARIANTS['d'], **locals())


@register_model(weights=_weights('resnet152_v1d'), **_REG)
def resnet152_v1d(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-152 V1d (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(152), **_VARIANTS['d'], **locals())


@register_model(**_REG)
def resnet50_v1e(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                 last_gamma=False, use_global_stats=False):
    """ResNet-50 V1e (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(50), **_VARIANTS['e'], **locals())


@register_model(**_REG)
def resnet101_v1e(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-101 V1e (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(101), **_VARIANTS['e'], **locals())


@register_model(**_REG)
def resnet152_v1e(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-152 V1e (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(152), **_VARIANTS['e'], **locals())


@register_model(weights=_weights('resnet50_v1s'), **_REG)
def resnet50_v1s(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                 last_gamma=False, use_global_stats=False):
    """ResNet-50 V1s (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(50), **_VARIANTS['s'], **locals())


@register_model(weights=_weights('resnet101_v1s'), **_REG)
def resnet101_v1s(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-101 V1s (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(101), **_VARIANTS['s'], **locals())


@register_model(weights=_weights('resnet152_v1s'), **_REG)
def resnet152_v1s(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm, norm_kwargs=None,
                  last_gamma=False, use_global_stats=False):
    """ResNet-152 V1s (arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(152), **_VARIANTS['s'], **locals())


@register_model('resnet18_v1b_0.89', weights=_weights('resnet18_v1b_0.89'), **_REG)
def resnet18_v1b_0_89(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm,
                      norm_kwargs=None, last_gamma=False, use_global_stats=False):
    """ResNet-18 V1b pruned by GluonCV (resnet18_v1b_2.6x; arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(18), **_pruned('resnet18_v1b_0.89'), **locals())


@register_model('resnet50_v1d_0.86', weights=_weights('resnet50_v1d_0.86'), **_REG)
def resnet50_v1d_0_86(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm,
                      norm_kwargs=None, last_gamma=False, use_global_stats=False):
    """ResNet-50 V1d pruned by GluonCV (resnet50_v1d_1.8x; arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(50), **_VARIANTS['d'], **_pruned('resnet50_v1d_0.86'), **locals())


@register_model('resnet50_v1d_0.48', weights=_weights('resnet50_v1d_0.48'), **_REG)
def resnet50_v1d_0_48(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm,
                      norm_kwargs=None, last_gamma=False, use_global_stats=False):
    """ResNet-50 V1d pruned by GluonCV (resnet50_v1d_3.6x; arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(50), **_VARIANTS['d'], **_pruned('resnet50_v1d_0.48'), **locals())


@register_model('resnet50_v1d_0.37', weights=_weights('resnet50_v1d_0.37'), **_REG)
def resnet50_v1d_0_37(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm,
                      norm_kwargs=None, last_gamma=False, use_global_stats=False):
    """ResNet-50 V1d pruned by GluonCV (resnet50_v1d_5.9x; arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(50), **_VARIANTS['d'], **_pruned('resnet50_v1d_0.37'), **locals())


@register_model('resnet50_v1d_0.11', weights=_weights('resnet50_v1d_0.11'), **_REG)
def resnet50_v1d_0_11(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm,
                      norm_kwargs=None, last_gamma=False, use_global_stats=False):
    """ResNet-50 V1d pruned by GluonCV (resnet50_v1d_8.8x; arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(50), **_VARIANTS['d'], **_pruned('resnet50_v1d_0.11'), **locals())


@register_model('resnet101_v1d_0.76', weights=_weights('resnet101_v1d_0.76'), **_REG)
def resnet101_v1d_0_76(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm,
                       norm_kwargs=None, last_gamma=False, use_global_stats=False):
    """ResNet-101 V1d pruned by GluonCV (resnet101_v1d_1.9x; arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(101), **_VARIANTS['d'], **_pruned('resnet101_v1d_0.76'), **locals())


@register_model('resnet101_v1d_0.73', weights=_weights('resnet101_v1d_0.73'), **_REG)
def resnet101_v1d_0_73(classes=1000, in_channels=3, final_drop=0.0, dilated=False, norm_layer=BatchNorm,
                       norm_kwargs=None, last_gamma=False, use_global_stats=False):
    """ResNet-101 V1d pruned by GluonCV (resnet101_v1d_2.2x; arXiv:1812.01187)."""
    return ResNetV1b(*blocks_of(101), **_VARIANTS['d'], **_pruned('resnet101_v1d_0.73'), **locals())
