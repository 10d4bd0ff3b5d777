"""FCN (Long et al., CVPR 2015, arXiv:1411.4038) on MobileNetV2 1.0 (arXiv:1801.04381): gluonzoo's own small
segmentation net, named in GluonCV's style (`fcn_<backbone>`); GluonCV 0.10.5 has no such arch, so there is no
checkpoint of its to load. It trains in minutes on 2 CPU cores (scripts/vision/segmentation).

MobileNetV2 cannot be dilated as GluonCV's ResNets are, so the heads read its own maps: the FCN head the last
stride-16 block (96 channels), the auxiliary head the last stride-8 one (32 channels); both scores are resized
bilinearly to `height` x `width` (default the crop), as base.py's nets. The body's blocks keep the classifier's
indices (`features.0` ... `features.15`); the stride-32 blocks are not built. Layout: model -> weights records ->
registered builder (the blocks are base.py's and the registry's MobileNetV2).
"""
from mxnet.gluon import nn

from ....heads import class_names
from ....registry import get_backbone, register_model
from ....weights import ONE_THREAD, Source, Weights
from ...meta import DIGITS, VOC_SEGMENTATION
from .base import PREPROCESS, REG, FCNHead, Segmenter, resize_to

#: MobileNetV2's last blocks at strides 8 and 16 (the auxiliary and the main head read them)
_TAPS = ('features.8', 'features.15')


# -- model --------------------------------------------------------------------------------------------------------
class FCNMobileNet(Segmenter):
    """FCN heads on a registered MobileNetV2 (`backbone`, its ImageNet weights with `pretrained_base`). `classes`
    is a count or the class names; `base_size` / `crop_size` are what GluonCV's training and multi-scale evaluation
    read; outputs are resized to `height` x `width` (default the crop)."""

    def __init__(self, backbone, classes, aux=True, pretrained_base=True, base_size=520, crop_size=480, height=None,
                 width=None, **kwargs):
        super().__init__(**kwargs)
        names = class_names(classes)
        self.classes = names if not isinstance(classes, int) else None
        self.nclass, self.aux = len(names), aux
        self.base_size, self.crop_size = base_size, crop_size
        self._up_kwargs = {'height': height or crop_size, 'width': width or crop_size}
        body = get_backbone(backbone, pretrained=pretrained_base, out_indices=_TAPS)
        c8, c16 = body.channels
        self._tap = len(body.stages[0]) - 1  # the index of the stride-8 block in `features`
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            for stage in body.stages:
                for block in stage:
                    self.features.add(block)
            self.head = FCNHead(c16, self.nclass)
            if aux:
                self.auxlayer = FCNHead(c8, self.nclass)

    def _scores(self, F, x, size):
        for i, block in enumerate(self.features):
            x = block(x)
            if i == self._tap:
                c8 = x
        outputs = [resize_to(F, self.head(x), size)]
        if self.aux:
            outputs.append(resize_to(F, self.auxlayer(c8), size))
        return tuple(outputs)


# -- weights records ----------------------------------------------------------------------------------------------
# Trained by gluonzoo (scripts/vision/segmentation, its README has the numbers) on the generated digit scenes, shipped
# in vision/weights/ (2.3 MB: the services' /segment check in `make deploy-test` needs it without an 11-minute run). Its preprocess is the segmentation records' (base.py): the picture as it is, normalized,
# so that `gluonzoo segment` labels every pixel of any picture (the scenes it learned on are 128x128).
FCN_MOBILENETV2_1_0_DIGITS = Weights(
    arch='fcn_mobilenetv2_1.0', tag='digits', default=True, task='semantic-segmentation',
    sha1='e5b9f6957ca997aad4f185cbf3afb908757b8808', num_params=566006, classes=('background',) + tuple(DIGITS),
    metrics={'pixAcc': 91.07, 'mIoU': 50.56,
             'split': "generated scenes (gluonzoo.vision.data.scenes v1, default spec, OpenCV's digits), test split: "
                      '500 scenes; GluonCV SegmentationMetric at 128x128, the band around each object ignored',
             'source': 'logs/fcn_mobilenetv2_1.0.digits.jsonl'},
    recipe=f'{ONE_THREAD} scripts/vision/segmentation/train.py --progress 0 --out out/seg_digits '
           '--log out/fcn_mobilenetv2_1.0.digits.jsonl',
    log='logs/fcn_mobilenetv2_1.0.digits.jsonl', check={'log': {'mIoU': 0.002, 'pixAcc': 0.002}},
    config={'crop_size': 128, 'base_size': 128},
    preprocess=PREPROCESS,
    input_shape=(1, 3, 128, 128),
    source=Source(kind='file', package='gluonzoo.vision', file='weights/fcn_mobilenetv2_1.0-e5b9f695.params'),
    license="Apache-2.0 (OpenCV's digits and sample photos: Debian opencv-doc)",
    paper='https://arxiv.org/abs/1411.4038')


# -- registered builders ------------------------------------------------------------------------------------------
@register_model('fcn_mobilenetv2_1.0', weights=[FCN_MOBILENETV2_1_0_DIGITS], **REG)
def fcn_mobilenetv2_1_0(classes=VOC_SEGMENTATION, pretrained_base=True, aux=True, base_size=520, crop_size=480,
                        height=None, width=None):
    """FCN on MobileNetV2 1.0, gluonzoo's (no GluonCV arch), Pascal VOC classes (arXiv:1411.4038)."""
    return FCNMobileNet('mobilenetv2_1.0', **locals())
