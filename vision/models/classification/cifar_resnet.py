"""CIFAR-style ResNets v1/v2 (He et al., arXiv:1512.03385, arXiv:1603.05027) and Wide ResNets (Zagoruyko and
Komodakis, arXiv:1605.07146), parameter-compatible with GluonCV 0.10.5 `cifar_resnet*` / `cifar_wideresnet*`.

Layout: blocks -> models -> weights records -> registered builders.
Three stages of 3x3 basic blocks at 16/32/64 channels (times the width factor for WRN), stride 2 between stages,
global average pooling, one Dense head. The structure (and so every parameter name: `features.2.0.body.0.weight`,
`output.weight`) follows GluonCV, so its .params files load strictly. The one option GluonCV lacks is `in_channels`
(default 3): 1 for grey images such as Fashion-MNIST; it sets the shape of the first convolution.
"""
from mxnet.gluon import nn

from ....registry import register_model
from ....weights import ONE_THREAD, Source, Weights
from ...meta import CIFAR10, CIFAR10_EVAL, FASHION_MNIST, FASHION_MNIST_EVAL
from ._gluoncv import gluoncv
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
def _conv3x3(channels, stride, in_channels):
    return nn.Conv2D(channels, 3, stride, 1, use_bias=False, in_channels=in_channels)


class BasicBlockV1(nn.HybridBlock):
    """conv-BN-ReLU-conv-BN plus the (projected when the shape changes) input, then ReLU."""

    def __init__(self, channels, stride, in_channels, **kwargs):
        super().__init__(**kwargs)
        self.body = nn.HybridSequential(prefix='')
        self.body.add(_conv3x3(channels, stride, in_channels), nn.BatchNorm(), nn.Activation('relu'),
                      _conv3x3(channels, 1, channels), nn.BatchNorm())
        self.downsample = None
        if stride != 1 or channels != in_channels:
            self.downsample = nn.HybridSequential(prefix='')
            self.downsample.add(nn.Conv2D(channels, 1, stride, use_bias=False, in_channels=in_channels),
                                nn.BatchNorm())

    def hybrid_forward(self, F, x):
        residual = self.downsample(x) if self.downsample is not None else x
        return F.Activation(self.body(x) + residual, act_type='relu')


class BasicBlockV2(nn.HybridBlock):
    """Pre-activation: BN-ReLU-conv-BN-ReLU(-dropout)-conv plus the input.

    ResNet v2 projects the raw input on a shape change; WRN (`project_preact`) projects the pre-activated one, as
    GluonCV's two files do.
    """

    def __init__(self, channels, stride, in_channels, drop_rate=0.0, project_preact=False, **kwargs):
        super().__init__(**kwargs)
        self.project_preact = project_preact
        self.drop_rate = drop_rate
        self.bn1 = nn.BatchNorm()
        self.conv1 = _conv3x3(channels, stride, in_channels)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(channels, 1, channels)
        self.downsample = None
        if stride != 1 or channels != in_channels:
            self.downsample = nn.Conv2D(channels, 1, stride, use_bias=False, in_channels=in_channels)

    def hybrid_forward(self, F, x):
        residual = x
        x = F.Activation(self.bn1(x), act_type='relu')
        if self.downsample is not None:
            residual = self.downsample(x if self.project_preact else residual)
        x = F.Activation(self.bn2(self.conv1(x)), act_type='relu')
        if self.drop_rate > 0:
            x = F.Dropout(x, self.drop_rate)
        return self.conv2(x) + residual


def _stage(index, blocks, channels, stride, in_channels, make):
    stage = nn.HybridSequential(prefix=f'stage{index}_')
    with stage.name_scope():
        for i in range(blocks):
            stage.add(make(channels, stride if i == 0 else 1, in_channels if i == 0 else channels))
    return stage


# -- models -------------------------------------------------------------------------------------------------------
class CIFARResNet(Classifier):
    """ResNet-(6n+2) for 32x32 inputs; `version` 1 (post-activation) or 2 (pre-activation)."""

    def __init__(self, version, blocks, classes=10, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        self.in_channels = in_channels
        widths = [16, 16, 32, 64]
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            if version == 1:
                # GluonCV's stem has no ReLU after its BN; kept, or its checkpoints would compute something else
                self.features.add(nn.Conv2D(widths[0], 3, 1, 1, use_bias=False, in_channels=in_channels),
                                  nn.BatchNorm())
                make = lambda c, s, i: BasicBlockV1(c, s, i, prefix='')  # noqa: E731
            else:
                # a parameter-free BN normalizes the raw input (only running statistics)
                self.features.add(nn.BatchNorm(scale=False, center=False),
                                  nn.Conv2D(widths[0], 3, 1, 1, use_bias=False, in_channels=in_channels))
                make = lambda c, s, i: BasicBlockV2(c, s, i, prefix='')  # noqa: E731
            for i in range(3):
                self.features.add(_stage(i + 1, blocks, widths[i + 1], 1 if i == 0 else 2, widths[i], make))
            if version == 2:
                self.features.add(nn.BatchNorm(), nn.Activation('relu'))
            self.features.add(nn.GlobalAvgPool2D())
            if version == 2:
                self.features.add(nn.Flatten())
            self.output = nn.Dense(classes, in_units=widths[-1])
        # the three stages (v2: the last one after its final BN + ReLU)
        self.feature_info = [Stage('features.2', widths[1], 1), Stage('features.3', widths[2], 2),
                             Stage('features.4' if version == 1 else 'features.6', widths[3], 4)]


class CIFARWideResNet(Classifier):
    """WRN-(6n+4)-k: pre-activation blocks k times wider than ResNet's, optional dropout inside each block."""

    def __init__(self, blocks, width, drop_rate=0.0, classes=10, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        self.in_channels = in_channels
        widths = [16, 16 * width, 32 * width, 64 * width]
        make = lambda c, s, i: BasicBlockV2(c, s, i, drop_rate, project_preact=True, prefix='')  # noqa: E731
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(nn.BatchNorm(scale=False, center=False),
                              nn.Conv2D(widths[0], 3, 1, 1, use_bias=False, in_channels=in_channels),
                              nn.BatchNorm())
            for i in range(3):
                self.features.add(_stage(i + 1, blocks, widths[i + 1], 1 if i == 0 else 2, widths[i], make))
            self.features.add(nn.BatchNorm(), nn.Activation('relu'), nn.GlobalAvgPool2D(), nn.Flatten())
            self.output = nn.Dense(classes, in_units=widths[-1])
        self.feature_info = [Stage('features.3', widths[1], 1), Stage('features.4', widths[2], 2),
                             Stage('features.7', widths[3], 4)]


# -- weights records ----------------------------------------------------------------------------------------------
# GluonCV 0.10.5's published CIFAR-10 checkpoints: sha1 from its model_store.py, fetched from its mirror layout.
_GLUONCV = {  # arch: (sha1, trainable parameters, paper)
    'cifar_resnet20_v1': ('121e1579d811b091940b3b1fa033e1f0d1dca40f', 272474, '1512.03385'),
    'cifar_resnet56_v1': ('2fb251e60babdceb103e9659b3baa0dea20a14d7', 855770, '1512.03385'),
    'cifar_resnet110_v1': ('a0e1f860475bf5369f6da07e0c2e03a4ae9cff9c', 1730714, '1512.03385'),
    'cifar_resnet20_v2': ('4f2d18804c94f2d283b8b45256d048bd3d6dd479', 272282, '1603.05027'),
    'cifar_resnet56_v2': ('0a3e74104ec7bcfffefe2d9d5cc1f8e74311ec51', 855578, '1603.05027'),
    'cifar_resnet110_v2': ('bf160f8b3cb3884a1ea871739f3c8e151e114159', 1730522, '1603.05027'),
    'cifar_wideresnet16_10': ('7c07b5ba6e850f9c37ca1e57c0a2e529455cc2e4', 17116666, '1605.07146'),
    'cifar_wideresnet28_10': ('4a3466aadd4c3ddbcb968bca862d0e59d6f15ec1', 36479226, '1605.07146'),
    'cifar_wideresnet40_8': ('085ca2afabbe0ddfe87d0edc5408bcfcfbffd414', 35748346, '1605.07146'),
}


def _gluoncv_record(arch):
    sha1, num_params, paper = _GLUONCV[arch]
    return gluoncv(arch, sha1, num_params, f'https://arxiv.org/abs/{paper}', preprocess=CIFAR10_EVAL, classes=CIFAR10,
                   recipe='GluonCV scripts/classification/cifar/train_cifar10.py')


# Trained by gluonzoo: scripts/vision/classification (its README has the command), shipped in vision/weights/.
# `gluonzoo verify` re-measures test top-1 against the log; 0.002 = 20 of 10,000 images of float-rounding room.
CIFAR_RESNET20_V1_FMNIST = Weights(
    arch='cifar_resnet20_v1', tag='fmnist', task='image-classification',
    sha1='5b2526ffae0b2d42da3f382a392927fcda4b7834', num_params=272186, classes=FASHION_MNIST,
    metrics={'top1': 92.72, 'split': 'Fashion-MNIST test (10,000)', 'source': 'logs/cifar_resnet20_v1.fmnist.jsonl'},
    recipe=f'{ONE_THREAD} scripts/vision/classification/train.py --progress 0 --model cifar_resnet20_v1 --epochs 6 '
           '--warmup-epochs 1 --out out/fmnist --log out/cifar_resnet20_v1.fmnist.jsonl',
    log='logs/cifar_resnet20_v1.fmnist.jsonl', config={'in_channels': 1}, check={'log': {'top1': 0.002}},
    preprocess=FASHION_MNIST_EVAL, input_shape=(1, 1, 28, 28),
    source=Source(kind='file', package='gluonzoo.vision', file='weights/cifar_resnet20_v1-5b2526ff.params'),
    license='MIT (the Fashion-MNIST data)', paper='https://arxiv.org/abs/1512.03385')


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


def _records(arch, *trained):
    """GluonCV's CIFAR-10 checkpoint (the default) and any gluonzoo trained."""
    return [_gluoncv_record(arch), *trained]


@register_model(weights=_records('cifar_resnet20_v1', CIFAR_RESNET20_V1_FMNIST), **_REG)
def cifar_resnet20_v1(classes=10, in_channels=3):
    """ResNet-20 v1 for 32x32 images (arXiv:1512.03385)."""
    return CIFARResNet(1, 3, classes, in_channels)


@register_model(weights=_records('cifar_resnet56_v1'), **_REG)
def cifar_resnet56_v1(classes=10, in_channels=3):
    """ResNet-56 v1 for 32x32 images (arXiv:1512.03385)."""
    return CIFARResNet(1, 9, classes, in_channels)


@register_model(weights=_records('cifar_resnet110_v1'), **_REG)
def cifar_resnet110_v1(classes=10, in_channels=3):
    """ResNet-110 v1 for 32x32 images (arXiv:1512.03385)."""
    return CIFARResNet(1, 18, classes, in_channels)


@register_model(weights=_records('cifar_resnet20_v2'), **_REG)
def cifar_resnet20_v2(classes=10, in_channels=3):
    """ResNet-20 v2 (pre-activation) for 32x32 images (arXiv:1603.05027)."""
    return CIFARResNet(2, 3, classes, in_channels)


@register_model(weights=_records('cifar_resnet56_v2'), **_REG)
def cifar_resnet56_v2(classes=10, in_channels=3):
    """ResNet-56 v2 (pre-activation) for 32x32 images (arXiv:1603.05027)."""
    return CIFARResNet(2, 9, classes, in_channels)


@register_model(weights=_records('cifar_resnet110_v2'), **_REG)
def cifar_resnet110_v2(classes=10, in_channels=3):
    """ResNet-110 v2 (pre-activation) for 32x32 images (arXiv:1603.05027)."""
    return CIFARResNet(2, 18, classes, in_channels)


@register_model(weights=_records('cifar_wideresnet16_10'), **_REG)
def cifar_wideresnet16_10(classes=10, in_channels=3, drop_rate=0.0):
    """Wide ResNet 16-10 for 32x32 images (arXiv:1605.07146)."""
    return CIFARWideResNet(2, 10, drop_rate, classes, in_channels)


@register_model(weights=_records('cifar_wideresnet28_10'), **_REG)
def cifar_wideresnet28_10(classes=10, in_channels=3, drop_rate=0.0):
    """Wide ResNet 28-10 for 32x32 images (arXiv:1605.07146)."""
    return CIFARWideResNet(4, 10, drop_rate, classes, in_channels)


@register_model(weights=_records('cifar_wideresnet40_8'), **_REG)
def cifar_wideresnet40_8(classes=10, in_channels=3, drop_rate=0.0):
    """Wide ResNet 40-8 for 32x32 images (arXiv:1605.07146)."""
    return CIFARWideResNet(6, 8, drop_rate, classes, in_channels)
