"""ResNet v1 (He et al., arXiv:1512.03385) and v2 (arXiv:1603.05027), with and without squeeze-and-excitation
(SE-ResNet, arXiv:1709.01507): parameter-compatible with GluonCV 0.10.5 `resnet*_v1/_v2`, `se_resnet*_v1/_v2`.

Layout: blocks -> model -> weights records -> registered builders. GluonCV quirks kept on purpose because they
are in its checkpoints: the v1 bottleneck's 1x1 convs have a bias and stride on the first 1x1; v2 starts with a
BatchNorm without scale/shift on the raw image.
"""
from mxnet.gluon import nn

from ....errors import BadInputError
from ....registry import register_model
from ...layers import SEGate
from ._gluoncv import gluoncv_weights
from .base import Classifier, Stage


def _conv3x3(channels, stride, in_channels=0):
    return nn.Conv2D(channels, 3, stride, 1, use_bias=False, in_channels=in_channels)


def _norms(norm_layer, norm_kwargs, last_gamma):
    """(norm, last_norm) makers: `last_gamma` starts the block's last norm at zero (the block begins as identity)."""
    def norm(**kw):
        return norm_layer(**kw, **(norm_kwargs or {}))
    return norm, (lambda: norm(gamma_initializer='zeros')) if last_gamma else norm


# -- blocks: GluonCV's classes and signatures ----------------------------------------------------------------------
class _ResidualV1(nn.HybridBlock):
    """Post-activation residual block: relu(body(x) [* se] + shortcut(x))."""
    bottleneck = False

    def __init__(self, channels, stride, downsample=False, in_channels=0, last_gamma=False, use_se=False,
                 norm_layer=nn.BatchNorm, norm_kwargs=None, **kwargs):
        super().__init__(**kwargs)
        norm, last_norm = _norms(norm_layer, norm_kwargs, last_gamma)
        self.body = nn.HybridSequential(prefix='')
        if self.bottleneck:  # the first 1x1 has a bias and the stride: in GluonCV's checkpoints
            mid = channels // 4
            self.body.add(nn.Conv2D(mid, 1, stride), norm(), nn.Activation('relu'),
                          _conv3x3(mid, 1, mid), norm(), nn.Activation('relu'), nn.Conv2D(channels, 1), last_norm())
        else:
            self.body.add(_conv3x3(channels, stride, in_channels), norm(), nn.Activation('relu'),
                          _conv3x3(channels, 1, channels), last_norm())
        self.se = SEGate(channels // 16, channels, dense=True) if use_se else None
        self.downsample = None
        if downsample:
            self.downsample = nn.HybridSequential(prefix='')
            self.downsample.add(nn.Conv2D(channels, 1, stride, use_bias=False, in_channels=in_channels), norm())

    def hybrid_forward(self, F, x):
        residual = self.downsample(x) if self.downsample else x
        out = self.body(x)
        if self.se:
            out = self.se(out)
        return F.Activation(out + residual, act_type='relu')


class BasicBlockV1(_ResidualV1):
    """Two 3x3 convs (ResNet-18/34 v1)."""


class BottleneckV1(_ResidualV1):
    """1x1 (stride), 3x3, 1x1 at 4x the width (ResNet-50+ v1)."""
    bottleneck = True


class _ResidualV2(nn.HybridBlock):
    """Pre-activation residual block: body(relu(bn(x))) [* se] + x, or + conv(relu(bn(x))) when downsampling."""
    bottleneck = False

    def __init__(self, channels, stride, downsample=False, in_channels=0, last_gamma=False, use_se=False,
                 norm_layer=nn.BatchNorm, norm_kwargs=None, **kwargs):
        super().__init__(**kwargs)
        norm, last_norm = _norms(norm_layer, norm_kwargs, last_gamma)
        self.bn1 = norm()
        if self.bottleneck:
            mid = channels // 4
            self.conv1 = nn.Conv2D(mid, 1, use_bias=False)
            self.bn2 = norm()
            self.conv2 = _conv3x3(mid, stride, mid)
            self.bn3 = last_norm()
            self.conv3 = nn.Conv2D(channels, 1, use_bias=False)
        else:
            self.conv1 = _conv3x3(channels, stride, in_channels)
            self.bn2 = last_norm()
            self.conv2 = _conv3x3(channels, 1, channels)
        self.se = SEGate(channels // 16, channels, dense=True) if use_se else None
        self.downsample = nn.Conv2D(channels, 1, stride, use_bias=False, in_channels=in_channels) \
            if downsample else None

    def hybrid_forward(self, F, x):
        residual = x
        x = F.Activation(self.bn1(x), act_type='relu')
        if self.downsample:
            residual = self.downsample(x)
        x = self.conv2(F.Activation(self.bn2(self.conv1(x)), act_type='relu'))
        if self.bottleneck:
            x = self.conv3(F.Activation(self.bn3(x), act_type='relu'))
        if self.se:
            x = self.se(x)
        return x + residual


class BasicBlockV2(_ResidualV2):
    """Two pre-activated 3x3 convs (ResNet-18/34 v2)."""


class BottleneckV2(_ResidualV2):
    """Pre-activated 1x1, 3x3 (stride), 1x1 at 4x the width (ResNet-50+ v2)."""
    bottleneck = True


# -- models: GluonCV's ResNetV1 / ResNetV2 -------------------------------------------------------------------------
# depth -> (bottleneck, blocks per stage, channels: stem then each stage's output)
_SPEC = {18: (False, [2, 2, 2, 2], [64, 64, 128, 256, 512]),
         34: (False, [3, 4, 6, 3], [64, 64, 128, 256, 512]),
         50: (True, [3, 4, 6, 3], [64, 256, 512, 1024, 2048]),
         101: (True, [3, 4, 23, 3], [64, 256, 512, 1024, 2048]),
         152: (True, [3, 8, 36, 3], [64, 256, 512, 1024, 2048])}


class _ResNet(Classifier):
    """`block` stacked `layers[i]` times at `channels[i + 1]` after a stem of `channels[0]` (7x7/2 conv and a 3x3/2
    max pool; `thumbnail`: one 3x3/1 conv, for small images). `in_channels` (ours) is the image's channel count."""
    version = 1

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, last_gamma=False, use_se=False,
                 norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if len(layers) != len(channels) - 1:
            raise BadInputError(f'{type(self).__name__}: {len(layers)} layers need {len(layers) + 1} channels '
                                f'(the stem, then one per stage), got {len(channels)}')
        norm = _norms(norm_layer, norm_kwargs, False)[0]
        # passed only when set: GluonCV's SE_* blocks (and blocks written for them) take neither
        options = {k: v for k, v in dict(last_gamma=last_gamma, use_se=use_se).items() if v}
        v2 = self.version == 2
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            if v2:  # normalizes the raw image; no learnt scale/shift
                self.features.add(norm(scale=False, center=False))
            if thumbnail:
                self.features.add(_conv3x3(channels[0], 1, in_channels))
            else:
                self.features.add(nn.Conv2D(channels[0], 7, 2, 3, use_bias=False, in_channels=in_channels),
                                  norm(), nn.Activation('relu'), nn.MaxPool2D(3, 2, 1))
            stem = len(self.features)
            for i, n in enumerate(layers):
                stage = nn.HybridSequential(prefix=f'stage{i + 1}_')
                with stage.name_scope():
                    for j in range(n):
                        c_in = channels[i] if j == 0 else channels[i + 1]
                        stage.add(block(channels[i + 1], 2 if (i and not j) else 1, j == 0 and c_in != channels[i + 1],
                                        in_channels=c_in, norm_layer=norm_layer, norm_kwargs=norm_kwargs, prefix='',
                                        **options))
                self.features.add(stage)
            if v2:
                self.features.add(norm(), nn.Activation('relu'))
            self.features.add(nn.GlobalAvgPool2D())
            if v2:
                self.features.add(nn.Flatten())
            self.output = nn.Dense(classes, in_units=channels[-1])
        base = 1 if thumbnail else 4
        last = stem + len(layers) - 1 + (2 if v2 else 0)  # v2: after the final BN + ReLU
        self.feature_info = ([] if thumbnail else [Stage(f'features.{stem - 2}', channels[0], 2)]) + \
            [Stage(f'features.{stem + i}', channels[i + 1], base * 2 ** i) for i in range(len(layers) - 1)] + \
            [Stage(f'features.{last}', channels[-1], base * 2 ** (len(layers) - 1))]


class ResNetV1(_ResNet):
    """ResNet v1 (GluonCV's signature): blocks BasicBlockV1 or BottleneckV1."""


class ResNetV2(_ResNet):
    """ResNet v2 (GluonCV's signature): blocks BasicBlockV2 or BottleneckV2."""
    version = 2


# -- GluonCV's se_resnet spellings: the same blocks with the SE gate always on ---------------------------------------
def _always_se(block):
    class SEBlock(block):
        __doc__ = f"{block.__name__} with its squeeze-and-excitation gate (GluonCV's SE_{block.__name__})."

        def __init__(self, channels, stride, downsample=False, in_channels=0, norm_layer=nn.BatchNorm,
                     norm_kwargs=None, **kwargs):
            super().__init__(channels, stride, downsample, in_channels, use_se=True, norm_layer=norm_layer,
                             norm_kwargs=norm_kwargs, **kwargs)
    SEBlock.__name__ = SEBlock.__qualname__ = f'SE_{block.__name__}'
    return SEBlock


SE_BasicBlockV1, SE_BottleneckV1 = _always_se(BasicBlockV1), _always_se(BottleneckV1)
SE_BasicBlockV2, SE_BottleneckV2 = _always_se(BasicBlockV2), _always_se(BottleneckV2)


class SE_ResNetV1(ResNetV1):  # noqa: N801 (GluonCV's name)
    """GluonCV's SE_ResNetV1: ResNetV1 over SE_* blocks (its signature has no last_gamma / use_se)."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, norm_layer=nn.BatchNorm,
                 norm_kwargs=None, **kwargs):
        super().__init__(block, layers, channels, classes, thumbnail, norm_layer=norm_layer, norm_kwargs=norm_kwargs,
                         **kwargs)


class SE_ResNetV2(ResNetV2):  # noqa: N801 (GluonCV's name)
    """GluonCV's SE_ResNetV2: ResNetV2 over SE_* blocks (its signature has no last_gamma / use_se)."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, norm_layer=nn.BatchNorm,
                 norm_kwargs=None, **kwargs):
        super().__init__(block, layers, channels, classes, thumbnail, norm_layer=norm_layer, norm_kwargs=norm_kwargs,
                         **kwargs)


_BLOCKS = {(1, False): BasicBlockV1, (1, True): BottleneckV1, (2, False): BasicBlockV2, (2, True): BottleneckV2}


def ResNet(version, depth, classes=1000, use_se=False, in_channels=3, **kwargs):  # noqa: N802 (a class to callers)
    """ResNet `version` 1 or 2 of `depth` layers; `use_se` adds an SE gate to every block."""
    if depth not in _SPEC or version not in (1, 2):
        raise ValueError(f'ResNet depth {depth!r} / version {version!r}: depth is one of {sorted(_SPEC)}, '
                         f'version 1 or 2')
    bottleneck, layers, channels = _SPEC[depth]
    return (ResNetV1 if version == 1 else ResNetV2)(_BLOCKS[version, bottleneck], layers, channels, classes,
                                                    use_se=use_se, in_channels=in_channels, **kwargs)


# -- weights records (GluonCV 0.10.5 model_store.py; it publishes no SE-ResNet checkpoints) --------------------------
_SHA1 = {
    'resnet18_v1': 'a0666292f0a30ff61f857b0b66efc0228eb6a54b',
    'resnet34_v1': '48216ba99a8b1005d75c0f3a0c422301a0473233',
    'resnet50_v1': 'cc729d95031ca98cf2ff362eb57dee4d9994e4b2',
    'resnet101_v1': 'd988c13d6159779e907140a638c56f229634cb02',
    'resnet152_v1': 'acfd09703b113143af9c33898bad8b6154fd6fb0',
    'resnet18_v2': 'a81db45fd7b7a2d12ab97cd88ef0a5ac48b8f657',
    'resnet34_v2': '9d6b80bbc35169de6b6edecffdd6047c56fdd322',
    'resnet50_v2': 'ecdde35339c1aadbec4f547857078e734a76fb49',
    'resnet101_v2': '18e93e4f48947e002547f50eabbcc9c83e516aa6',
    'resnet152_v2': 'f2695542de38cf7e71ed58f02893d82bb409415e',
}
_PARAMS = {
    'resnet18_v1': 11689512, 'resnet34_v1': 21797672, 'resnet50_v1': 25575912, 'resnet101_v1': 44589800,
    'resnet152_v1': 60252648, 'resnet18_v2': 11687848, 'resnet34_v2': 21796008, 'resnet50_v2': 25549480,
    'resnet101_v2': 44541608, 'resnet152_v2': 60185256,
}
_PAPERS = {1: 'https://arxiv.org/abs/1512.03385', 2: 'https://arxiv.org/abs/1603.05027'}


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


def _weights(arch, version):
    return gluoncv_weights(arch, _SHA1, _PARAMS, _PAPERS[version])


@register_model(weights=_weights('resnet18_v1', 1), **_REG)
def resnet18_v1(classes=1000, in_channels=3):
    """ResNet-18 v1 (arXiv:1512.03385)."""
    return ResNet(1, 18, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnet34_v1', 1), **_REG)
def resnet34_v1(classes=1000, in_channels=3):
    """ResNet-34 v1 (arXiv:1512.03385)."""
    return ResNet(1, 34, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnet50_v1', 1), **_REG)
def resnet50_v1(classes=1000, in_channels=3):
    """ResNet-50 v1 (arXiv:1512.03385)."""
    return ResNet(1, 50, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnet101_v1', 1), **_REG)
def resnet101_v1(classes=1000, in_channels=3):
    """ResNet-101 v1 (arXiv:1512.03385)."""
    return ResNet(1, 101, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnet152_v1', 1), **_REG)
def resnet152_v1(classes=1000, in_channels=3):
    """ResNet-152 v1 (arXiv:1512.03385)."""
    return ResNet(1, 152, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('se_resnet18_v1', 1), **_REG)
def se_resnet18_v1(classes=1000, in_channels=3):
    """SE-ResNet-18 v1 (arXiv:1709.01507)."""
    return ResNet(1, 18, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnet34_v1', 1), **_REG)
def se_resnet34_v1(classes=1000, in_channels=3):
    """SE-ResNet-34 v1 (arXiv:1709.01507)."""
    return ResNet(1, 34, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnet50_v1', 1), **_REG)
def se_resnet50_v1(classes=1000, in_channels=3):
    """SE-ResNet-50 v1 (arXiv:1709.01507)."""
    return ResNet(1, 50, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnet101_v1', 1), **_REG)
def se_resnet101_v1(classes=1000, in_channels=3):
    """SE-ResNet-101 v1 (arXiv:1709.01507)."""
    return ResNet(1, 101, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnet152_v1', 1), **_REG)
def se_resnet152_v1(classes=1000, in_channels=3):
    """SE-ResNet-152 v1 (arXiv:1709.01507)."""
    return ResNet(1, 152, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('resnet18_v2', 2), **_REG)
def resnet18_v2(classes=1000, in_channels=3):
    """ResNet-18 v2 (arXiv:1603.05027)."""
    return ResNet(2, 18, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnet34_v2', 2), **_REG)
def resnet34_v2(classes=1000, in_channels=3):
    """ResNet-34 v2 (arXiv:1603.05027)."""
    return ResNet(2, 34, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnet50_v2', 2), **_REG)
def resnet50_v2(classes=1000, in_channels=3):
    """ResNet-50 v2 (arXiv:1603.05027)."""
    return ResNet(2, 50, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnet101_v2', 2), **_REG)
def resnet101_v2(classes=1000, in_channels=3):
    """ResNet-101 v2 (arXiv:1603.05027)."""
    return ResNet(2, 101, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('resnet152_v2', 2), **_REG)
def resnet152_v2(classes=1000, in_channels=3):
    """ResNet-152 v2 (arXiv:1603.05027)."""
    return ResNet(2, 152, classes, use_se=False, in_channels=in_channels)


@register_model(weights=_weights('se_resnet18_v2', 2), **_REG)
def se_resnet18_v2(classes=1000, in_channels=3):
    """SE-ResNet-18 v2 (arXiv:1709.01507)."""
    return ResNet(2, 18, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnet34_v2', 2), **_REG)
def se_resnet34_v2(classes=1000, in_channels=3):
    """SE-ResNet-34 v2 (arXiv:1709.01507)."""
    return ResNet(2, 34, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnet50_v2', 2), **_REG)
def se_resnet50_v2(classes=1000, in_channels=3):
    """SE-ResNet-50 v2 (arXiv:1709.01507)."""
    return ResNet(2, 50, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnet101_v2', 2), **_REG)
def se_resnet101_v2(classes=1000, in_channels=3):
    """SE-ResNet-101 v2 (arXiv:1709.01507)."""
    return ResNet(2, 101, classes, use_se=True, in_channels=in_channels)


@register_model(weights=_weights('se_resnet152_v2', 2), **_REG)
def se_resnet152_v2(classes=1000, in_channels=3):
    """SE-ResNet-152 v2 (arXiv:1709.01507)."""
    return ResNet(2, 152, classes, use_se=True, in_channels=in_channels)
