"""ResNet V1b/c/d/s ("Bag of Tricks", He et al., arXiv:1812.01187): parameter-compatible with GluonCV 0.10.5
`resnet*_v1b/c/d/s`.

V1b moves the stride to the 3x3 conv; V1c replaces the 7x7 stem with three 3x3 convs (stem width 32); V1d adds
average-pool downsampling in the shortcut; V1s is V1c with stem width 64. Layout: blocks -> model -> weights
records -> registered builders. Names follow GluonCV's attributes (`conv1`, `layer1.0.bn2`, `fc`).
"""
from mxnet.gluon import nn

from ....registry import register_model
from ._gluoncv import gluoncv_weights
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
class BlockV1b(nn.HybridBlock):
    """Residual block with the stride on the 3x3 conv; `bottleneck` picks 1x1-3x3-1x1 (x4) over 3x3-3x3."""

    def __init__(self, planes, stride=1, downsample=None, bottleneck=True, dilation=1):
        super().__init__(prefix='')
        self.bottleneck = bottleneck
        if bottleneck:
            self.conv1 = nn.Conv2D(planes, 1, use_bias=False)
            self.bn1 = nn.BatchNorm()
            self.conv2 = nn.Conv2D(planes, 3, stride, dilation, dilation, use_bias=False)
            self.bn2 = nn.BatchNorm()
            self.conv3 = nn.Conv2D(planes * 4, 1, use_bias=False)
            self.bn3 = nn.BatchNorm()
        else:
            self.conv1 = nn.Conv2D(planes, 3, stride, dilation, dilation, use_bias=False)
            self.bn1 = nn.BatchNorm()
            self.conv2 = nn.Conv2D(planes, 3, 1, dilation, dilation, use_bias=False)
            self.bn2 = nn.BatchNorm()
        self.downsample = downsample

    def hybrid_forward(self, F, x):
        out = F.Activation(self.bn1(self.conv1(x)), act_type='relu')
        out = self.bn2(self.conv2(out))
        if self.bottleneck:
            out = self.bn3(self.conv3(F.Activation(out, act_type='relu')))
        residual = self.downsample(x) if self.downsample is not None else x
        return F.Activation(out + residual, act_type='relu')


def _shortcut(channels, stride, avg_down):
    seq = nn.HybridSequential(prefix='')
    if avg_down:  # V1d: average-pool, then a stride-1 conv, so no input pixel is skipped
        seq.add(nn.AvgPool2D(stride, stride, ceil_mode=True, count_include_pad=False))
        stride = 1
    seq.add(nn.Conv2D(channels, 1, stride, use_bias=False), nn.BatchNorm())
    return seq


# -- model --------------------------------------------------------------------------------------------------------
_LAYERS = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 152: [3, 8, 36, 3]}


class ResNetV1b(Classifier):
    """ResNet V1b of `depth`; `deep_stem` (V1c/d/s) with `stem_width`, `avg_down` (V1d)."""
    head_name = 'fc'

    def __init__(self, depth, classes=1000, deep_stem=False, stem_width=32, avg_down=False, in_channels=3,
                 final_drop=0.0, **kwargs):
        super().__init__(**kwargs)
        if depth not in _LAYERS:
            raise ValueError(f'ResNetV1b depth {depth!r} is not one of {sorted(_LAYERS)}')
        bottleneck = depth >= 50
        expansion = 4 if bottleneck else 1
        self.in_channels = in_channels
        stem_out = stem_width * 2 if deep_stem else 64
        with self.name_scope():
            if deep_stem:
                self.conv1 = nn.HybridSequential(prefix='conv1')
                self.conv1.add(nn.Conv2D(stem_width, 3, 2, 1, use_bias=False, in_channels=in_channels),
                               nn.BatchNorm(), nn.Activation('relu'),
                               nn.Conv2D(stem_width, 3, 1, 1, use_bias=False), nn.BatchNorm(),
                               nn.Activation('relu'), nn.Conv2D(stem_out, 3, 1, 1, use_bias=False))
            else:
                self.conv1 = nn.Conv2D(64, 7, 2, 3, use_bias=False, in_channels=in_channels)
            self.bn1 = nn.BatchNorm()
            self.relu = nn.Activation('relu')
            self.maxpool = nn.MaxPool2D(3, 2, 1)
            inplanes = stem_out
            for i, n in enumerate(_LAYERS[depth]):
                planes, stride = 64 * 2 ** i, 1 if i == 0 else 2
                down = None
                if stride != 1 or inplanes != planes * expansion:
                    down = _shortcut(planes * expansion, stride, avg_down)
                layer = nn.HybridSequential(prefix=f'layers{i + 1}_')
                with layer.name_scope():
                    layer.add(BlockV1b(planes, stride, down, bottleneck))
                    for _ in range(1, n):
                        layer.add(BlockV1b(planes, 1, None, bottleneck))
                inplanes = planes * expansion
                setattr(self, f'layer{i + 1}', layer)
            self.avgpool = nn.GlobalAvgPool2D()
            self.flat = nn.Flatten()
            self.drop = nn.Dropout(final_drop) if final_drop > 0 else None
            self.fc = nn.Dense(classes, in_units=512 * expansion)
        self.feature_info = [Stage('relu', stem_out, 2)] + \
            [Stage(f'layer{i + 1}', 64 * 2 ** i * expansion, 4 * 2 ** i) for i in range(4)]

    def stages(self):
        return [(name, getattr(self, name)) for name in
                ('conv1', 'bn1', 'relu', 'maxpool', 'layer1', 'layer2', 'layer3', 'layer4')]

    def hybrid_forward(self, F, x):
        for _, stage in self.stages():
            x = stage(x)
        x = self.flat(self.avgpool(x))
        if self.drop is not None:
            x = self.drop(x)
        return self.fc(x)


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
}
_PARAMS = {
    'resnet18_v1b': 11689512, 'resnet34_v1b': 21797672, 'resnet50_v1b': 25557032, 'resnet101_v1b': 44549160,
    'resnet152_v1b': 60192808, 'resnet50_v1c': 25576264, 'resnet101_v1c': 44568392, 'resnet152_v1c': 60212040,
    'resnet50_v1d': 25576264, 'resnet101_v1d': 44568392, 'resnet152_v1d': 60212040, 'resnet50_v1s': 25680808,
    'resnet101_v1s': 44672936, 'resnet152_v1s': 60316584,
}
_PAPER = 'https://arxiv.org/abs/1812.01187'
# variant letter -> (deep_stem, stem_width, avg_down, depths GluonCV defines)
_VARIANTS = {'b': (False, 32, False, (18, 34, 50, 101, 152)), 'c': (True, 32, False, (50, 101, 152)),
             'd': (True, 32, True, (50, 101, 152)), 's': (True, 64, False, (50, 101, 152))}


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


def _weights(arch):
    return gluoncv_weights(arch, _SHA1, _PARAMS, _PAPER)


@register_model(weights=_weights('resnet18_v1b'), **_REG)
def resnet18_v1b(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-18 V1b (arXiv:1812.01187)."""
    return ResNetV1b(18, classes, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet34_v1b'), **_REG)
def resnet34_v1b(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-34 V1b (arXiv:1812.01187)."""
    return ResNetV1b(34, classes, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet50_v1b'), **_REG)
def resnet50_v1b(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-50 V1b (arXiv:1812.01187)."""
    return ResNetV1b(50, classes, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet101_v1b'), **_REG)
def resnet101_v1b(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-101 V1b (arXiv:1812.01187)."""
    return ResNetV1b(101, classes, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet152_v1b'), **_REG)
def resnet152_v1b(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-152 V1b (arXiv:1812.01187)."""
    return ResNetV1b(152, classes, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet50_v1c'), **_REG)
def resnet50_v1c(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-50 V1c (arXiv:1812.01187)."""
    return ResNetV1b(50, classes, deep_stem=True, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet101_v1c'), **_REG)
def resnet101_v1c(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-101 V1c (arXiv:1812.01187)."""
    return ResNetV1b(101, classes, deep_stem=True, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet152_v1c'), **_REG)
def resnet152_v1c(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-152 V1c (arXiv:1812.01187)."""
    return ResNetV1b(152, classes, deep_stem=True, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet50_v1d'), **_REG)
def resnet50_v1d(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-50 V1d (arXiv:1812.01187)."""
    return ResNetV1b(50, classes, deep_stem=True, avg_down=True, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet101_v1d'), **_REG)
def resnet101_v1d(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-101 V1d (arXiv:1812.01187)."""
    return ResNetV1b(101, classes, deep_stem=True, avg_down=True, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet152_v1d'), **_REG)
def resnet152_v1d(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-152 V1d (arXiv:1812.01187)."""
    return ResNetV1b(152, classes, deep_stem=True, avg_down=True, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet50_v1s'), **_REG)
def resnet50_v1s(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-50 V1s (arXiv:1812.01187)."""
    return ResNetV1b(50, classes, deep_stem=True, stem_width=64, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet101_v1s'), **_REG)
def resnet101_v1s(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-101 V1s (arXiv:1812.01187)."""
    return ResNetV1b(101, classes, deep_stem=True, stem_width=64, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('resnet152_v1s'), **_REG)
def resnet152_v1s(classes=1000, in_channels=3, final_drop=0.0):
    """ResNet-152 V1s (arXiv:1812.01187)."""
    return ResNetV1b(152, classes, deep_stem=True, stem_width=64, in_channels=in_channels, final_drop=final_drop)
