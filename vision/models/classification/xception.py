"""Xception (Chollet, arXiv:1610.02357) in DeepLab v3+'s modified aligned form (Chen et al., arXiv:1802.02611):
parameter-compatible with GluonCV 0.10.5 `xception` (Xception-65) and `xception71`.

Layout: blocks -> model -> weights records -> registered builders. Every separable conv pads 'same' for its
dilation explicitly, so `output_stride` 16 or 8 can trade the last strides for dilation (DeepLab) without moving
pixels. Names follow GluonCV's attributes (`block1.rep.0.conv1`, `midflow.15.rep.5.bn`, `fc`). GluonCV's
xception71 strides twice in its three-block `block2` and again in `block3` and `block20`: its total stride is
64 at output_stride=32, kept as it is, since its parameter files and outputs are what this matches.
`norm_layer` / `norm_kwargs` are GluonCV's: a BatchNorm class (e.g. SyncBatchNorm) and its keyword arguments.
"""

from mxnet.gluon import nn

from ....registry import register_model
from ...layers import norm_factory
from ...meta import IMAGENET_299
from ._gluoncv import gluoncv_weights
from .base import Classifier, last_per_stride


# -- blocks -------------------------------------------------------------------------------------------------------
class SeparableConv2d(nn.HybridBlock):
    """Depthwise conv -> BN -> pointwise 1x1 conv, no biases, the input zero-padded to keep its size / stride."""

    def __init__(self, inplanes, planes, kernel=3, stride=1, dilation=1, norm=nn.BatchNorm):
        super().__init__(prefix='')
        reach = kernel + (kernel - 1) * (dilation - 1) - 1
        self.pad = (0, 0, 0, 0, reach // 2, reach - reach // 2, reach // 2, reach - reach // 2)
        self.conv1 = nn.Conv2D(inplanes, kernel, stride, 0, dilation, groups=inplanes, use_bias=False,
                               in_channels=inplanes)
        self.bn = norm(in_channels=inplanes)
        self.pointwise = nn.Conv2D(planes, 1, use_bias=False, in_channels=inplanes)

    def hybrid_forward(self, F, x):
        x = F.pad(x, mode='constant', constant_value=0, pad_width=self.pad)
        return self.pointwise(self.bn(self.conv1(x)))


class Block(nn.HybridBlock):
    """`reps` ReLU -> separable conv -> BN units (a last strided one when `stride` > 1, a last plain one when
    `is_last`), plus the input or its 1x1 conv + BN projection when channels or stride change.

    `grow_first` widens to `planes` in the first unit rather than the last; `start_with_relu=False` drops the
    first unit's ReLU (the entry flow's blocks after a ReLU of their own).
    """

    def __init__(self, inplanes, planes, reps, stride=1, dilation=1, norm=nn.BatchNorm, start_with_relu=True,
                 grow_first=True, is_last=False):
        super().__init__(prefix='')
        self.skip = self.skipbn = None
        if planes != inplanes or stride != 1:
            self.skip = nn.Conv2D(planes, 1, stride, use_bias=False, in_channels=inplanes)
            self.skipbn = norm(in_channels=planes)
        # (in, out, stride, dilation, ReLU first) of each unit, in GluonCV's order
        width = planes if grow_first else inplanes
        units = [(inplanes, planes, 1, dilation, start_with_relu)] if grow_first else []
        units += [(width, width, 1, dilation, grow_first or start_with_relu)] * (reps - 1)
        if not grow_first:
            units.append((inplanes, planes, 1, dilation, True))
        if stride != 1:
            units.append((planes, planes, stride, 1, True))
        elif is_last:
            units.append((planes, planes, 1, dilation, True))
        self.rep = nn.HybridSequential(prefix='')
        for cin, cout, s, d, relu in units:
            if relu:
                self.rep.add(nn.Activation('relu'))
            self.rep.add(SeparableConv2d(cin, cout, 3, s, d, norm), norm(in_channels=cout))

    def hybrid_forward(self, F, x):
        shortcut = self.skipbn(self.skip(x)) if self.skip is not None else x
        return self.rep(x) + shortcut


# -- model --------------------------------------------------------------------------------------------------------
#: the entry flow's `block2`: (out channels, stride) of each block; Xception-65 has one block there, not a list
_BLOCK2 = {65: ((256, 2),), 71: ((256, 1), (256, 2), (728, 2))}
#: output_stride -> (block3 stride, block20 stride, middle flow dilation, exit flow dilations)
_OUTPUT_STRIDE = {32: (2, 2, 1, (1, 1)), 16: (2, 1, 1, (1, 2)), 8: (1, 1, 2, (2, 4))}
#: the blocks from the image to the last feature map; the ReLUs are parameter-free (GluonCV reuses one `relu`)
_FLOW = ('conv1', 'bn1', 'relu1', 'conv2', 'bn2', 'relu2', 'block1', 'relu3', 'block2', 'block3', 'midflow',
         'block20', 'relu4', 'conv3', 'bn3', 'relu5', 'conv4', 'bn4', 'relu6', 'conv5', 'bn5', 'relu7')


class Xception(Classifier):
    """Xception-`depth` (65 or 71) with entry, 16-block middle and exit flows of separable convs; any input size."""
    head_name = 'fc'

    def __init__(self, depth=65, classes=1000, output_stride=32, norm_layer=nn.BatchNorm, norm_kwargs=None,
                 in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if depth not in _BLOCK2:
            raise ValueError(f'Xception depth {depth!r} is not one of {sorted(_BLOCK2)}')
        if output_stride not in _OUTPUT_STRIDE:
            raise ValueError(f'Xception output_stride {output_stride!r} is not one of {sorted(_OUTPUT_STRIDE)}')
        stride3, stride20, mid_dilation, exit_dilation = _OUTPUT_STRIDE[output_stride]
        norm = norm_factory(norm_layer, norm_kwargs)
        self.in_channels = in_channels
        with self.name_scope():
            for i in range(1, 8):
                setattr(self, f'relu{i}', nn.Activation('relu'))
            self.conv1 = nn.Conv2D(32, 3, 2, 1, use_bias=False, in_channels=in_channels)
            self.bn1 = norm(in_channels=32)
            self.conv2 = nn.Conv2D(64, 3, 1, 1, use_bias=False, in_channels=32)
            self.bn2 = norm_layer(in_channels=64)  # GluonCV builds this one BN without norm_kwargs
            self.block1 = Block(64, 128, 2, 2, norm=norm, start_with_relu=False)
            blocks, cin = [], 128
            for cout, s in _BLOCK2[depth]:
                blocks.append(Block(cin, cout, 2, s, norm=norm, start_with_relu=False))
                cin = cout
            if len(blocks) == 1:
                self.block2 = blocks[0]
            else:
                self.block2 = nn.HybridSequential(prefix='')
                self.block2.add(*blocks)
            self.block3 = Block(cin, 728, 2, stride3, norm=norm, is_last=True)
            self.midflow = nn.HybridSequential(prefix='')
            for _ in range(16):
                self.midflow.add(Block(728, 728, 3, 1, mid_dilation, norm=norm))
            self.block20 = Block(728, 1024, 2, stride20, exit_dilation[0], norm=norm, grow_first=False, is_last=True)
            self.conv3 = SeparableConv2d(1024, 1536, 3, 1, exit_dilation[1], norm)
            self.bn3 = norm(in_channels=1536)
            self.conv4 = SeparableConv2d(1536, 1536, 3, 1, exit_dilation[1], norm)
            self.bn4 = norm(in_channels=1536)
            self.conv5 = SeparableConv2d(1536, 2048, 3, 1, exit_dilation[1], norm)
            self.bn5 = norm(in_channels=2048)
            self.avgpool = nn.GlobalAvgPool2D()
            self.flat = nn.Flatten()
            self.fc = nn.Dense(classes, in_units=2048)
        s2 = 4 * 2 ** sum(s == 2 for _, s in _BLOCK2[depth])
        s3 = s2 * stride3
        self.feature_info = last_per_stride([('relu2', 64, 2), ('relu3', 128, 4), ('block2', cin, s2),
                                             ('block3', 728, s3), ('midflow', 728, s3),
                                             ('relu7', 2048, s3 * stride20)])

    def stages(self):
        return [(name, getattr(self, name)) for name in _FLOW]

    def hybrid_forward(self, F, x):
        for _, stage in self.stages():
            x = stage(x)
        return self.fc(self.flat(self.avgpool(x)))


class Xception65(Xception):
    """GluonCV's Xception65 class: Xception of depth 65, its signature."""

    def __init__(self, classes=1000, output_stride=32, norm_layer=nn.BatchNorm, norm_kwargs=None, **kwargs):
        super().__init__(65, classes, output_stride, norm_layer, norm_kwargs, **kwargs)


class Xception71(Xception):
    """GluonCV's Xception71 class: Xception of depth 71, its signature."""

    def __init__(self, classes=1000, output_stride=32, norm_layer=nn.BatchNorm, norm_kwargs=None, **kwargs):
        super().__init__(71, classes, output_stride, norm_layer, norm_kwargs, **kwargs)


# -- weights records (GluonCV 0.10.5 model_store.py; xception71 has none) ------------------------------------------
_SHA1 = {'xception': '37c1c90b56800303a66934487fbf017bca8bba00'}
_PARAMS = {'xception': 39916312}
_PAPER = 'https://arxiv.org/abs/1610.02357'


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


def _weights(arch):
    return gluoncv_weights(arch, _SHA1, _PARAMS, _PAPER, preprocess=IMAGENET_299)  # trained at 299 (GluonCV's log)


@register_model(weights=_weights('xception'), **_REG)
def xception(classes=1000, in_channels=3, output_stride=32, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Xception-65, modified aligned (arXiv:1610.02357, arXiv:1802.02611)."""
    return Xception(65, classes, output_stride, norm_layer, norm_kwargs, in_channels)


@register_model(weights=_weights('xception71'), **_REG)
def xception71(classes=1000, in_channels=3, output_stride=32, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Xception-71, modified aligned (arXiv:1610.02357, arXiv:1802.02611)."""
    return Xception(71, classes, output_stride, norm_layer, norm_kwargs, in_channels)
