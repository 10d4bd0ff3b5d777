"""PSPNet (Zhao et al., Pyramid Scene Parsing Network, CVPR 2017, arXiv:1612.01105) on a dilated ResNet V1s:
parameter-compatible with GluonCV 0.10.5's `psp_resnet*_{voc,coco,ade,citys}`.

The pyramid pools layer4 to 1x1, 2x2, 3x3 and 6x6 bins, reduces each to a quarter of the channels, upsamples them
back and concatenates them with the map (4096 channels) before GluonCV's 3x3-512 classifier block. Structural
names: `head.psp.conv1.0.weight` .. `head.psp.conv4`, `head.block.0.weight`. Layout: blocks -> model -> weights
records -> registered builders.
"""
import mxnet as mx
from mxnet.gluon import nn
from mxnet.gluon.nn import BatchNorm

from ....registry import register_model
from ...meta import ADE20K, CITYSCAPES, VOC_SEGMENTATION
from .base import REG, FCNHead, SegBaseModel, build, conv_bn_relu, norm, resize_like, seg_weights

BINS = (1, 2, 3, 6)


# -- blocks -------------------------------------------------------------------------------------------------------
def adaptive_avg_pool(F, x, bins, size):
    """MXNet's AdaptiveAvgPooling2D to `bins` x `bins`. In a graph (whose map is `size`, fixed by the crop as in
    GluonCV) it is written as per-bin slice means, rows then columns: the ONNX export has no converter for
    output sizes above 1, and a bin's mean is the mean of its rows' means (bin i spans [floor(i*n/b),
    ceil((i+1)*n/b)), MXNet's bins)."""
    if F is mx.nd:  # run imperatively: the op itself, any size
        return F.contrib.AdaptiveAvgPooling2D(x, output_size=bins)
    for axis, n in ((2, size[0]), (3, size[1])):
        x = F.concat(*[F.slice_axis(x, axis=axis, begin=i * n // bins, end=-(-(i + 1) * n // bins)).mean(
            axis=axis, keepdims=True) for i in range(bins)], dim=axis)
    return x


class PyramidPooling(nn.HybridBlock):
    """The map and its four pooled, projected and upsampled versions, concatenated (GluonCV's _PyramidPooling);
    `size` is the map's height and width where the graph needs it fixed."""

    def __init__(self, in_channels, size, norm_layer, norm_kwargs):
        super().__init__()
        self.size = size
        with self.name_scope():
            for i in range(len(BINS)):
                setattr(self, f'conv{i + 1}', conv_bn_relu(in_channels, in_channels // 4, 1, norm_layer, norm_kwargs))

    def hybrid_forward(self, F, x):
        feats = [resize_like(F, getattr(self, f'conv{i + 1}')(adaptive_avg_pool(F, x, b, self.size)), x)
                 for i, b in enumerate(BINS)]
        return F.concat(x, *feats, dim=1)


class PSPHead(nn.HybridBlock):
    """Pyramid pooling, then 3x3 conv to 512 -> norm -> ReLU -> dropout 0.1 -> 1x1 conv to the classes."""

    def __init__(self, in_channels, classes, size, norm_layer=BatchNorm, norm_kwargs=None):
        super().__init__()
        self.psp = PyramidPooling(in_channels, size, norm_layer, norm_kwargs)
        with self.name_scope():
            self.block = nn.HybridSequential(prefix='')
            self.block.add(nn.Conv2D(512, 3, padding=1, use_bias=False, in_channels=in_channels * 2),
                           norm(norm_layer, norm_kwargs, 512), nn.Activation('relu'), nn.Dropout(0.1),
                           nn.Conv2D(classes, 1, in_channels=512))

    def hybrid_forward(self, F, x):
        return self.block(self.psp(x))


# -- model --------------------------------------------------------------------------------------------------------
class PSPNet(SegBaseModel):
    """GluonCV's PSPNet: the pyramid pooling head on the dilated body's last map, the FCN head as auxiliary."""
    fixed_size_graph = True  # the pooling bins' slices are cut for the crop's map

    def __init__(self, nclass, backbone='resnet50', aux=True, ctx=None, pretrained_base=True, base_size=520,
                 crop_size=480, norm_layer=BatchNorm, norm_kwargs=None, init_heads=True, **kwargs):
        super().__init__(nclass, aux, backbone, base_size=base_size, crop_size=crop_size,
                         pretrained_base=pretrained_base, norm_layer=norm_layer, norm_kwargs=norm_kwargs, **kwargs)
        c3, c4 = self.body_channels
        size = (self._up_kwargs['height'] // 8, self._up_kwargs['width'] // 8)  # GluonCV's feature map size
        with self.name_scope():
            self.head = PSPHead(c4, self.nclass, size, norm_layer, norm_kwargs)
            if aux:
                self.auxlayer = FCNHead(c3, self.nclass, norm_layer, norm_kwargs)
        if init_heads:
            self.initialize_heads(ctx)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'psp_resnet101_coco': '09f89cad0e107cb2bffdb1b07706ba31798096f2',
    'psp_resnet101_voc': '2c2f4e1c2b11461b52598a4b2038bccbcfc166eb',
    'psp_resnet50_ade': '3f220f537400dfa607c3d041ed3b172db39b0b01',
    'psp_resnet101_ade': '240a4758b506447faf7c55cd7a7837d66f5039a6',
    'psp_resnet101_citys': 'd0e8603120ab02118a8973d52a26b8296d1b4078',
}
_PARAMS = {'psp_resnet101_coco': 68073706, 'psp_resnet101_voc': 68073706, 'psp_resnet50_ade': 49180908,
    'psp_resnet101_ade': 68173036, 'psp_resnet101_citys': 68072166}
_PAPER = 'https://arxiv.org/abs/1612.01105'


def _weights(arch):
    return seg_weights(arch, _SHA1, _PARAMS, _PAPER)


# -- registered builders ------------------------------------------------------------------------------------------
# Each builder hands its own arguments (`locals()`), GluonCV's options, to the model.
@register_model(weights=_weights('psp_resnet101_voc'), **REG)
def psp_resnet101_voc(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                      height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """PSPNet, dilated ResNet-101 V1s, Pascal VOC (arXiv:1612.01105)."""
    return build(PSPNet, 'resnet101_v1s', locals())


@register_model(weights=_weights('psp_resnet101_coco'), **REG)
def psp_resnet101_coco(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                       height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """PSPNet, dilated ResNet-101 V1s, COCO's VOC classes (arXiv:1612.01105)."""
    return build(PSPNet, 'resnet101_v1s', locals())


@register_model(weights=_weights('psp_resnet50_ade'), **REG)
def psp_resnet50_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                     width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """PSPNet, dilated ResNet-50 V1s, ADE20K (arXiv:1612.01105)."""
    return build(PSPNet, 'resnet50_v1s', locals())


@register_model(weights=_weights('psp_resnet101_ade'), **REG)
def psp_resnet101_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                      width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """PSPNet, dilated ResNet-101 V1s, ADE20K (arXiv:1612.01105)."""
    return build(PSPNet, 'resnet101_v1s', locals())


@register_model(weights=_weights('psp_resnet101_citys'), **REG)
def psp_resnet101_citys(classes=CITYSCAPES, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                        height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """PSPNet, dilated ResNet-101 V1s, Cityscapes (arXiv:1612.01105)."""
    return build(PSPNet, 'resnet101_v1s', locals())
