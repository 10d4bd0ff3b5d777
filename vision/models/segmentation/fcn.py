"""FCN (Long et al., CVPR 2015, arXiv:1411.4038) on a dilated ResNet V1s: parameter-compatible with GluonCV 0.10.5's
`fcn_resnet*_{voc,coco,ade}`. The FCN head reads layer4 (2048 channels), the auxiliary one layer3 (1024); both
scores are resized bilinearly from stride 8. Layout: model -> weights records -> registered builders (the blocks
are base.py's)."""
from mxnet.gluon.nn import BatchNorm

from ....registry import register_model
from ...meta import ADE20K, VOC_SEGMENTATION
from .base import REG, FCNHead, SegBaseModel, build, seg_weights


# -- model --------------------------------------------------------------------------------------------------------
class FCN(SegBaseModel):
    """FCN-8s-style dense scores: GluonCV's FCN, the FCN head on the dilated body's last map."""

    def __init__(self, nclass, backbone='resnet50', aux=True, ctx=None, pretrained_base=True, base_size=520,
                 crop_size=480, norm_layer=BatchNorm, norm_kwargs=None, init_heads=True, **kwargs):
        super().__init__(nclass, aux, backbone, base_size=base_size, crop_size=crop_size,
                         pretrained_base=pretrained_base, norm_layer=norm_layer, norm_kwargs=norm_kwargs, **kwargs)
        c3, c4 = self.body_channels
        with self.name_scope():
            self.head = FCNHead(c4, self.nclass, norm_layer, norm_kwargs)
            if aux:
                self.auxlayer = FCNHead(c3, self.nclass, norm_layer, norm_kwargs)
        if init_heads:
            self.initialize_heads(ctx)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'fcn_resnet101_coco': '766cdf9cc3e5b980b141643f054db5b48863f634',
    'fcn_resnet101_voc': '12c2b9b3be7d4e133e52477150a9b3e616626a82',
    'fcn_resnet50_ade': '3479525af7bdbf345e74e150aaae2e48174c0c5f',
    'fcn_resnet101_ade': 'd544440a35586f662ed1a5405ab9aa89cd750558',
}
_PARAMS = {'fcn_resnet101_coco': 54438122, 'fcn_resnet101_voc': 54438122, 'fcn_resnet50_ade': 35545324,
    'fcn_resnet101_ade': 54537452}
_PAPER = 'https://arxiv.org/abs/1411.4038'


def _weights(arch):
    return seg_weights(arch, _SHA1, _PARAMS, _PAPER)


# -- registered builders ------------------------------------------------------------------------------------------
# Each builder hands its own arguments (`locals()`), GluonCV's options, to the model.
@register_model(**REG)
def fcn_resnet50_voc(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                     height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """FCN, dilated ResNet-50 V1s, Pascal VOC (arXiv:1411.4038)."""
    return build(FCN, 'resnet50_v1s', locals())


@register_model(weights=_weights('fcn_resnet101_voc'), **REG)
def fcn_resnet101_voc(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                      height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """FCN, dilated ResNet-101 V1s, Pascal VOC (arXiv:1411.4038)."""
    return build(FCN, 'resnet101_v1s', locals())


@register_model(weights=_weights('fcn_resnet101_coco'), **REG)
def fcn_resnet101_coco(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                       height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """FCN, dilated ResNet-101 V1s, COCO's VOC classes (arXiv:1411.4038)."""
    return build(FCN, 'resnet101_v1s', locals())


@register_model(weights=_weights('fcn_resnet50_ade'), **REG)
def fcn_resnet50_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                     width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """FCN, dilated ResNet-50 V1s, ADE20K (arXiv:1411.4038)."""
    return build(FCN, 'resnet50_v1s', locals())


@register_model(weights=_weights('fcn_resnet101_ade'), **REG)
def fcn_resnet101_ade(classes=ADE20K, pretrained_base=True, aux=True, base_size=520, crop_size=480, height=None,
                      width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """FCN, dilated ResNet-101 V1s, ADE20K (arXiv:1411.4038)."""
    return build(FCN, 'resnet101_v1s', locals())
