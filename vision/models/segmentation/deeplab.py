"""DeepLabV3 (Chen et al., Rethinking Atrous Convolution for Semantic Image Segmentation, arXiv:1706.05587) on a
dilated ResNet V1s or ResNeSt: parameter-compatible with GluonCV 0.10.5's `deeplab_resnet*_{voc,coco,ade,citys}`
and `deeplab_resnest*_ade`.

ASPP reads layer4 through five parallel branches (1x1; 3x3 at rates 12, 24, 36; image pooling), each to 256
channels, concatenated and projected back to 256 (dropout 0.5), then GluonCV's 3x3-256 classifier block.
Structural names: `head.aspp.concurent.0.0.weight` .. `head.aspp.concurent.4.gap.1.weight` (GluonCV's spelling),
`head.aspp.project.0.weight`, `head.block.0.weight`. Layout: blocks -> model -> weights records -> registered
builders.
"""
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import HybridConcurrent
from mxnet.gluon.nn import BatchNorm

from ....registry import register_model
from ...meta import ADE20K, CITYSCAPES, VOC_SEGMENTATION
from .base import REG, ASPPPooling, FCNHead, SegBaseModel, build, conv_bn_relu, norm, seg_weights

RATES = (12, 24, 36)


# -- blocks -------------------------------------------------------------------------------------------------------
class ASPP(nn.HybridBlock):
    """Atrous spatial pyramid pooling to `channels`, GluonCV's _ASPP: the five branches in `concurent`, then
    1x1 conv -> norm -> ReLU -> dropout 0.5 in `project`."""

    def __init__(self, in_channels, norm_layer, norm_kwargs, channels=256):
        super().__init__()
        with self.name_scope():
            self.concurent = HybridConcurrent(axis=1)
            with self.concurent.name_scope():
                self.concurent.add(conv_bn_relu(in_channels, channels, 1, norm_layer, norm_kwargs))
                for rate in RATES:
                    self.concurent.add(conv_bn_relu(in_channels, channels, 3, norm_layer, norm_kwargs, rate))
                self.concurent.add(ASPPPooling(in_channels, channels, norm_layer, norm_kwargs))
            self.project = nn.HybridSequential()
            self.project.add(nn.Conv2D(channels, 1, use_bias=False, in_channels=5 * channels),
                             norm(norm_layer, norm_kwargs, channels), nn.Activation('relu'), nn.Dropout(0.5))

    def hybrid_forward(self, F, x):
        return self.project(self.concurent(x))


class DeepLabHead(nn.HybridBlock):
    """ASPP, then 3x3 conv -> norm -> ReLU -> dropout 0.1 -> 1x1 conv to the classes (GluonCV's _DeepLabHead)."""

    def __init__(self, in_channels, classes, norm_layer=BatchNorm, norm_kwargs=None):
        super().__init__()
        with self.name_scope():
            self.aspp = ASPP(in_channels, norm_layer, norm_kwargs)
            self.block = nn.HybridSequential()
            self.block.add(nn.Conv2D(256, 3, padding=1, use_bias=False, in_channels=256),
                           norm(norm_layer, norm_kwargs, 256), nn.Activation('relu'), nn.Dropout(0.1),
                           nn.Conv2D(classes, 1, in_channels=256))

    def hybrid_forward(self, F, x):
        return self.block(self.aspp(x))


# -- model --------------------------------------------------------------------------------------------------------
class DeepLabV3(SegBaseModel):
    """GluonCV's DeepLabV3: the ASPP head on the dilated body's last map, the FCN head as auxiliary."""

    def __init__(self, nclass, backbone='resnet50', aux=True, ctx=None, pretrained_base=True, base_size=520,
                 crop_size=480, norm_layer=BatchNorm, norm_kwargs=None, init_heads=True, **kwargs):
        super().__init__(nclass, aux, backbone, base_size=base_size, crop_size=crop_size,
                         pretrained_base=pretrained_base, norm_layer=norm_layer, norm_kwargs=norm_kwargs, **kwargs)
        c3, c4 = self.body_channels
        with self.name_scope():
            self.head = DeepLabHead(c4, self.nclass, norm_layer, norm_kwargs)
            if aux:
                self.auxlayer = FCNHead(c3, self.nclass, norm_layer, norm_kwargs)
        if init_heads:
            self.initialize_heads(ctx)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'deeplab_resnet101_coco': 'ed817f76086abb4c3404af62ec1b5487c67642b7',
    'deeplab_resnet101_voc': '311ed22c63f3ac28b5f1e1663c458f26600e62da',
    'deeplab_resnet152_coco': '83247aaeeded6988790cd93ac93151514094846f',
    'deeplab_resnet152_voc': 'd35bea8817935d1ab310ef1e6dd06bb18c2d5f0d',
    'deeplab_resnet50_ade': 'c7789b237adc7253405bee57c84d53b15db45942',
    'deeplab_resnet101_ade': 'bf1584dfcec12063eff3075ee643e181c0f6d443',
    'deeplab_resnest50_ade': 'a8312db6e30a464151580f2bda83479786455724',
    'deeplab_resnest101_ade': '6d05c630fb7acb38615f7f4d360fb90f47b25042',
    'deeplab_resnest200_ade': '9134a6f7d1399b549d5803d8faed3dfc74efc0d8',
    'deeplab_resnest269_ade': 'd45b33dedf4cca13b8147213c5360e30f93685bd',
    'deeplab_resnet50_citys': 'cf6a7bb3d55360933de647a8505f7936003902a4',
    'deeplab_resnet101_citys': 'eb8477a91efc244c85b364c0736664078aaf0e65',
}
_PARAMS = {'deeplab_resnet101_coco': 61119978, 'deeplab_resnet101_voc': 61119978, 'deeplab_resnet152_coco': 76763626,
    'deeplab_resnet152_voc': 76763626, 'deeplab_resnet50_ade': 42194156, 'deeplab_resnet101_ade': 61186284,
    'deeplab_resnest50_ade': 43996588, 'deeplab_resnest101_ade': 64788364, 'deeplab_resnest200_ade': 86714892,
    'deeplab_resnest269_ade': 127442828, 'deeplab_resnet50_citys': 42126822, 'deeplab_resnet101_citys': 61118950}
_PAPER = 'https://arxiv.org/abs/1706.05587'
_RESNEST_PAPER = 'https://arxiv.org/abs/2004.08955'


def _weights(arch):
    return seg_weights(arch, _SHA1, _PARAMS, _RESNEST_PAPER if 'resnest' in arch else _PAPER)


# -- registered builders ------------------------------------------------------------------------------------------
# Each builder hands its own arguments (`locals()`), GluonCV's options, to the model.
@register_model(weights=_weights('deeplab_resnet101_voc'), **REG)
def deeplab_resnet101_voc(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                          height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNet-101 V1s, Pascal VOC (arXiv:1706.05587)."""
    return build(DeepLabV3, 'resnet101_v1s', locals())


@register_model(weights=_weights('deeplab_resnet152_voc'), **REG)
def deeplab_resnet152_voc(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                          height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNet-152 V1s, Pascal VOC (arXiv:1706.05587)."""
    return build(DeepLabV3, 'resnet152_v1s', locals())


@register_model(weights=_weights('deeplab_resnet101_coco'), **REG)
def deeplab_resnet101_coco(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                           height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNet-101 V1s, COCO's VOC classes (arXiv:1706.05587)."""
    return build(DeepLabV3, 'resnet101_v1s', locals())


@register_model(weights=_weights('deeplab_resnet152_coco'), **REG)
def deeplab_resnet152_coco(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                           height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNet-152 V1s, COCO's VOC classes (arXiv:1706.05587)."""
    return build(DeepLabV3, 'resnet152_v1s', locals())


@register_model(weights=_weights('deeplab_resnet50_ade'), **REG)
def deeplab_resnet50_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                         width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNet-50 V1s, ADE20K (arXiv:1706.05587)."""
    return build(DeepLabV3, 'resnet50_v1s', locals())


@register_model(weights=_weights('deeplab_resnet101_ade'), **REG)
def deeplab_resnet101_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                          width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNet-101 V1s, ADE20K (arXiv:1706.05587)."""
    return build(DeepLabV3, 'resnet101_v1s', locals())


@register_model(weights=_weights('deeplab_resnet50_citys'), **REG)
def deeplab_resnet50_citys(classes=CITYSCAPES, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                           height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNet-50 V1s, Cityscapes (arXiv:1706.05587)."""
    return build(DeepLabV3, 'resnet50_v1s', locals())


@register_model(weights=_weights('deeplab_resnet101_citys'), **REG)
def deeplab_resnet101_citys(classes=CITYSCAPES, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                            height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNet-101 V1s, Cityscapes (arXiv:1706.05587)."""
    return build(DeepLabV3, 'resnet101_v1s', locals())


@register_model(weights=_weights('deeplab_resnest50_ade'), **REG)
def deeplab_resnest50_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                          width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNeSt-50, ADE20K (arXiv:2004.08955)."""
    return build(DeepLabV3, 'resnest50', locals())


@register_model(weights=_weights('deeplab_resnest101_ade'), **REG)
def deeplab_resnest101_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                           width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNeSt-101, ADE20K (arXiv:2004.08955)."""
    return build(DeepLabV3, 'resnest101', locals())


@register_model(weights=_weights('deeplab_resnest200_ade'), **REG)
def deeplab_resnest200_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                           width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNeSt-200, ADE20K (arXiv:2004.08955)."""
    return build(DeepLabV3, 'resnest200', locals())


@register_model(weights=_weights('deeplab_resnest269_ade'), **REG)
def deeplab_resnest269_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                           width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3, dilated ResNeSt-269, ADE20K (arXiv:2004.08955)."""
    return build(DeepLabV3, 'resnest269', locals())
