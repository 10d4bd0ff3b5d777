"""MobileNetV3 large/small (Howard et al., arXiv:1905.02244): parameter-compatible with GluonCV 0.10.5
`mobilenetv3_large` / `mobilenetv3_small`.

Layout: blocks -> model -> weights records -> registered builders. Attribute names follow GluonCV's units
(`expand`, `conv1`, `se`, `conv2`, each with `conv` and `bn`).
"""
import math

from mxnet.gluon import nn

from ....registry import register_model
from ...layers import HardSwish, activation
from ._gluoncv import gluoncv_weights
from .base import Classifier, last_per_stride


def make_divisible(x, divisible_by=8):
    """`x` rounded up to a multiple of `divisible_by` (GluonCV's rule for every channel count here)."""
    return int(math.ceil(x / divisible_by) * divisible_by)


# -- blocks -------------------------------------------------------------------------------------------------------
class _Unit(nn.HybridBlock):
    """conv (no bias) -> BN -> optional activation."""

    def __init__(self, channels, kernel=1, stride=1, groups=1, act='relu'):
        super().__init__(prefix='')
        self.conv = nn.Conv2D(channels, kernel, stride, kernel // 2, groups=groups, use_bias=False)
        self.bn = nn.BatchNorm()
        self.act = activation(act) if act else None

    def hybrid_forward(self, F, x):
        x = self.bn(self.conv(x))
        return self.act(x) if self.act else x


class _SE(nn.HybridBlock):
    """x * hard_sigmoid(conv2(relu(conv1(pool(x))))), squeeze to channels/4 rounded up to a multiple of 8."""

    def __init__(self, channels):
        super().__init__(prefix='')
        self.conv1 = nn.Conv2D(make_divisible(channels // 4), 1)
        self.conv2 = nn.Conv2D(channels, 1)
        self.act1, self.act2 = activation('relu'), activation('hard_sigmoid')

    def hybrid_forward(self, F, x):
        w = self.act2(self.conv2(self.act1(self.conv1(F.contrib.AdaptiveAvgPooling2D(x, output_size=1)))))
        return F.broadcast_mul(x, w)


class _ResUnit(nn.HybridBlock):
    """Inverted residual: 1x1 expand (when the expansion differs from the output), depthwise, SE, 1x1 project."""

    def __init__(self, c_in, c_mid, c_out, kernel, act, use_se, stride):
        super().__init__(prefix='')
        self.expand = _Unit(c_mid, act=act) if c_mid != c_out else None
        self.conv1 = _Unit(c_mid, kernel, stride, groups=c_mid, act=act)
        self.se = _SE(c_mid) if use_se else None
        self.conv2 = _Unit(c_out, act=None)
        self.shortcut = c_in == c_out and stride == 1

    def hybrid_forward(self, F, x):
        out = self.expand(x) if self.expand is not None else x
        out = self.conv1(out)
        if self.se is not None:
            out = self.se(out)
        out = self.conv2(out)
        return x + out if self.shortcut else out


# -- model --------------------------------------------------------------------------------------------------------
# (kernel, expansion channels, output channels, SE, activation, stride), from the paper's Tables 1 and 2
_CFG = {
    'large': ([(3, 16, 16, False, 'relu', 1), (3, 64, 24, False, 'relu', 2), (3, 72, 24, False, 'relu', 1),
               (5, 72, 40, True, 'relu', 2), (5, 120, 40, True, 'relu', 1), (5, 120, 40, True, 'relu', 1),
               (3, 240, 80, False, 'hard_swish', 2), (3, 200, 80, False, 'hard_swish', 1),
               (3, 184, 80, False, 'hard_swish', 1), (3, 184, 80, False, 'hard_swish', 1),
               (3, 480, 112, True, 'hard_swish', 1), (3, 672, 112, True, 'hard_swish', 1),
               (5, 672, 160, True, 'hard_swish', 2), (5, 960, 160, True, 'hard_swish', 1),
               (5, 960, 160, True, 'hard_swish', 1)], 960),
    'small': ([(3, 16, 16, True, 'relu', 2), (3, 72, 24, False, 'relu', 2), (3, 88, 24, False, 'relu', 1),
               (5, 96, 40, True, 'hard_swish', 2), (5, 240, 40, True, 'hard_swish', 1),
               (5, 240, 40, True, 'hard_swish', 1), (5, 120, 48, True, 'hard_swish', 1),
               (5, 144, 48, True, 'hard_swish', 1), (5, 288, 96, True, 'hard_swish', 2),
               (5, 576, 96, True, 'hard_swish', 1), (5, 576, 96, True, 'hard_swish', 1)], 576),
}


class MobileNetV3(Classifier):
    """MobileNetV3 `mode` 'large' or 'small' with width `multiplier`."""

    def __init__(self, mode='large', multiplier=1.0, classes=1000, in_channels=3, final_drop=0.2, **kwargs):
        super().__init__(**kwargs)
        if mode not in _CFG:
            raise ValueError(f'MobileNetV3 mode {mode!r} is not one of {sorted(_CFG)}')
        cfg, squeeze = _CFG[mode]
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            c = make_divisible(16 * multiplier)
            self.features.add(nn.Conv2D(c, 3, 2, 1, use_bias=False, in_channels=in_channels), nn.BatchNorm(),
                              HardSwish())
            stride, candidates = 2, [('features.2', c, 2)]
            for kernel, exp, out, se, act, s in cfg:
                out = make_divisible(out * multiplier)
                self.features.add(_ResUnit(c, make_divisible(exp * multiplier), out, kernel, act, se, s))
                c, stride = out, stride * s
                candidates.append((f'features.{len(self.features) - 1}', c, stride))
            self.features.add(nn.Conv2D(make_divisible(squeeze * multiplier), 1, use_bias=False), nn.BatchNorm(),
                              HardSwish())
            candidates.append((f'features.{len(self.features) - 1}', make_divisible(squeeze * multiplier), stride))
            self.features.add(nn.GlobalAvgPool2D(), nn.Conv2D(1280, 1, use_bias=False), HardSwish())
            if final_drop > 0:
                self.features.add(nn.Dropout(final_drop))
            self.output = nn.HybridSequential(prefix='output_')
            with self.output.name_scope():
                self.output.add(nn.Conv2D(classes, 1, in_channels=1280), nn.Flatten())
        self.feature_info = last_per_stride(candidates)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {'mobilenetv3_large': 'eaa44578554ddffaf2a2630ced9093181ff79688',
         'mobilenetv3_small': '10430433698d18f49991e4a366c9fce8f9286298'}
_PARAMS = {'mobilenetv3_large': 5481752, 'mobilenetv3_small': 2945288}
_PAPER = 'https://arxiv.org/abs/1905.02244'


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


def _weights(arch):
    return gluoncv_weights(arch, _SHA1, _PARAMS, _PAPER)


@register_model(weights=_weights('mobilenetv3_large'), **_REG)
def mobilenetv3_large(classes=1000, in_channels=3, final_drop=0.2):
    """MobileNetV3-Large (arXiv:1905.02244)."""
    return MobileNetV3('large', 1.0, classes, in_channels=in_channels, final_drop=final_drop)


@register_model(weights=_weights('mobilenetv3_small'), **_REG)
def mobilenetv3_small(classes=1000, in_channels=3, final_drop=0.2):
    """MobileNetV3-Small (arXiv:1905.02244)."""
    return MobileNetV3('small', 1.0, classes, in_channels=in_channels, final_drop=final_drop)
