"""MobilePose, GluonCV's pose estimation for mobile devices: parameter-compatible with GluonCV 0.10.5's
`mobile_pose_*` on a ResNet V1b, MobileNet, MobileNetV2 or MobileNetV3 body.

The body's stride-32 features (a classifier without its pooling and head) go through a 1x1 conv to 256 channels,
three DUC upsamplings (dense upsampling convolution, Wang et al., arXiv:1702.08502: a conv whose channels a pixel
shuffle turns into twice the resolution) and a 1x1 conv to one heatmap a joint, at a quarter of the input size.
Layout: blocks -> model -> weights records -> registered builders. Structural names follow GluonCV's: a ResNet body
is `features.0`-`features.7` (conv1 ... layer4), a MobileNet's `features.0.<its classifier index>`; the head is
`upsampling.0` - `upsampling.4`. The options are GluonCV's: `num_joints`, `pretrained_base` (off by default, as
GluonCV's), `pretrained_ctx`; `joints` names the heatmaps.
"""
import mxnet as mx
from mxnet.gluon import nn

from ....registry import get_backbone, register_model
from ....weights import ONE_THREAD, Source, Weights
from ...layers import DUC
from ...meta import COCO_KEYPOINTS
from .simple_pose import POSE_PREPROCESS, PoseNet, pose_weights

# -- blocks -------------------------------------------------------------------------------------------------------
def mobile_body(backbone, pretrained_base, ctx=None):
    """The stride-32 body of registered classifier `backbone`, nested as GluonCV nests it: a MobileNet's
    classifier up to its last feature stage is GluonCV's `features[:-k]` (no pooling, no MobileNetV3 last conv)."""
    body = get_backbone(backbone, pretrained=pretrained_base, out_indices=(-1,), ctx=ctx)
    if backbone.startswith('resnet'):
        return body.stages[0]  # conv1, bn1, relu, maxpool, layer1-4 as features.0-7
    seq = nn.HybridSequential(prefix='')
    seq.add(body.stages[0])
    return seq


# -- model --------------------------------------------------------------------------------------------------------
class MobilePose(PoseNet):
    """GluonCV's MobilePose: the stride-32 `features` of classifier `base_name` (its ImageNet weights with
    `pretrained_base`, on `pretrained_ctx`), then a 1x1 conv to 256 channels, DUC 512 / 256 / 128 (each x2) and a
    1x1 conv to `num_joints` heatmaps at stride 4. `base_attrs` is GluonCV's (its ResNets' `features`), which the
    registered bodies make unneeded: the body is the same whatever it names."""

    def __init__(self, base_name, base_attrs=('features',), num_joints=17, pretrained_base=False,
                 pretrained_ctx=None, joints=None, **kwargs):
        del base_attrs
        super().__init__(num_joints, joints, **kwargs)
        with self.name_scope():
            self.features = mobile_body(base_name, pretrained_base, pretrained_ctx)
            self.upsampling = nn.HybridSequential(prefix='upsampling_')
            with self.upsampling.name_scope():
                self.upsampling.add(nn.Conv2D(256, 1, use_bias=False), DUC(512, 2), DUC(256, 2), DUC(128, 2),
                                    nn.Conv2D(num_joints, 1, use_bias=False, weight_initializer=mx.init.Normal(0.001)))

    def hybrid_forward(self, F, x):
        return self.upsampling(self.features(x))


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'mobile_pose_resnet18_v1b': 'dd6644ebca0d320eb460342d1ed6e1f0793e3946',
    'mobile_pose_resnet50_v1b': 'ec8809df9adbeefc022e5977fda60c4e4a58c3ac',
    'mobile_pose_mobilenet1.0': 'b399bac75ebbd1b9d04a16906bddc64f1e33496b',
    'mobile_pose_mobilenetv2_1.0': '4acdc130ebee695b1181fb7e4eee8f2c4d91a614',
    'mobile_pose_mobilenetv3_large': '1ca004dc5ab2bd0e10d782734d3efbefff23180c',
    'mobile_pose_mobilenetv3_small': 'c2a11fae8970c2c2e79e2b77a4c4d62e3d3e054f',
}
_PARAMS = {
    'mobile_pose_resnet18_v1b': 12858208, 'mobile_pose_resnet50_v1b': 25582944,
    'mobile_pose_mobilenet1.0': 5019744, 'mobile_pose_mobilenetv2_1.0': 4102176,
    'mobile_pose_mobilenetv3_large': 4768336, 'mobile_pose_mobilenetv3_small': 2625088,
}
#: COCO val2017 keypoint OKS AP / AP50 / AP75 without and with flip test, GluonCV's docs/model_zoo/csv_tables/
#: Poses/MSCOCO_Mobile-Pose.csv; its mobilenetv3_small row names b1b148a9, model_store.py c2a11fae: left out
OKS_AP = {
    'mobile_pose_resnet18_v1b': ('dd6644eb', (66.2, 89.2, 74.3), (67.9, 90.3, 75.7)),
    'mobile_pose_resnet50_v1b': ('ec8809df', (71.1, 91.3, 78.7), (72.4, 92.3, 79.8)),
    'mobile_pose_mobilenet1.0': ('b399bac7', (64.1, 88.1, 71.2), (65.7, 89.2, 73.4)),
    'mobile_pose_mobilenetv2_1.0': ('4acdc130', (63.7, 88.1, 71.0), (65.0, 89.2, 72.3)),
    'mobile_pose_mobilenetv3_large': ('1ca004dc', (63.7, 88.9, 70.8), (64.5, 89.0, 72.0)),
    'mobile_pose_mobilenetv3_small': ('b1b148a9', (54.3, 83.7, 59.4), (55.6, 84.7, 61.7)),
}
_PAPER = 'https://arxiv.org/abs/1702.08502'


def _weights(arch):
    return pose_weights(arch, _SHA1, _PARAMS, OKS_AP, _PAPER,
                        'GluonCV 0.10.5 scripts/pose/simple_pose/train_simple_pose.py (the shell script linked from '
                        'the table)')


# Trained by gluonzoo (scripts/vision/pose, its README has the numbers) on the generated stick figures, 128x96
# crops; 16 MB, so rebuilt by its recipe, not shipped. Its preprocess is a person crop at 128x96 (the eval transform
# cuts the box's 1.25x window at 3:4; detector_to_simple_pose's resize of the widened box is the same for a 3:4 box).
MOBILE_POSE_MOBILENETV2_1_0_FIGURES = Weights(
    arch='mobile_pose_mobilenetv2_1.0', tag='figures', default=False, task='pose-estimation',
    sha1='534ddf0176a9dba586a56153a76fa3cc24132b73', num_params=_PARAMS['mobile_pose_mobilenetv2_1.0'],
    metrics={'oks_ap': 47.04, 'oks_ap50': 93.73, 'oks_ap75': 41.08,
             'split': 'generated figures (gluonzoo.vision.data.figures v1, default spec), test split: 300 scenes, '
                      '622 people; COCO keypoint OKS AP of the ground-truth person boxes (score 1), no flip test',
             'source': 'logs/mobile_pose_mobilenetv2_1.0.figures.jsonl'},
    recipe=f'{ONE_THREAD} scripts/vision/pose/train.py --progress 0 --out out/pose_figures '
           '--log out/mobile_pose_mobilenetv2_1.0.figures.jsonl',
    log='logs/mobile_pose_mobilenetv2_1.0.figures.jsonl', check={'log': {'AP': 0.003, 'heatmap_accuracy': 0.003},
                                                               'rerun': {'AP': 0.02, 'heatmap_accuracy': 0.02}},
    config={'num_joints': 17, 'joints': COCO_KEYPOINTS},
    preprocess=dict(POSE_PREPROCESS, resize=(128, 96)), input_shape=(1, 3, 128, 96), source=Source(kind='recipe'),
    license="Apache-2.0 (OpenCV's sample photos: Debian opencv-doc)", paper=_PAPER)


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='pose-estimation', protected=('num_joints',), test_input=(1, 3, 64, 64))


def _mobile_pose(backbone, num_joints, joints, pretrained_base, pretrained_ctx):
    return MobilePose(backbone, num_joints=num_joints, pretrained_base=pretrained_base,
                      pretrained_ctx=pretrained_ctx, joints=joints)


@register_model(weights=_weights('mobile_pose_resnet18_v1b'), **_REG)
def mobile_pose_resnet18_v1b(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None):
    """MobilePose, ResNet-18 V1b body + DUC upsampling (GluonCV; DUC: arXiv:1702.08502)."""
    return _mobile_pose('resnet18_v1b', **locals())


@register_model(weights=_weights('mobile_pose_resnet50_v1b'), **_REG)
def mobile_pose_resnet50_v1b(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None):
    """MobilePose, ResNet-50 V1b body + DUC upsampling (GluonCV; DUC: arXiv:1702.08502)."""
    return _mobile_pose('resnet50_v1b', **locals())


@register_model('mobile_pose_mobilenet1.0', weights=_weights('mobile_pose_mobilenet1.0'), **_REG)
def mobile_pose_mobilenet1_0(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None):
    """MobilePose, MobileNet 1.0 body + DUC upsampling (GluonCV; DUC: arXiv:1702.08502)."""
    return _mobile_pose('mobilenet1.0', **locals())


@register_model('mobile_pose_mobilenetv2_1.0',
                weights=_weights('mobile_pose_mobilenetv2_1.0') + [MOBILE_POSE_MOBILENETV2_1_0_FIGURES], **_REG)
def mobile_pose_mobilenetv2_1_0(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None):
    """MobilePose, MobileNetV2 1.0 body + DUC upsampling (GluonCV; DUC: arXiv:1702.08502)."""
    return _mobile_pose('mobilenetv2_1.0', **locals())


@register_model(weights=_weights('mobile_pose_mobilenetv3_small'), **_REG)
def mobile_pose_mobilenetv3_small(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None):
    """MobilePose, MobileNetV3-Small body + DUC upsampling (GluonCV; DUC: arXiv:1702.08502)."""
    return _mobile_pose('mobilenetv3_small', **locals())


@register_model(weights=_weights('mobile_pose_mobilenetv3_large'), **_REG)
def mobile_pose_mobilenetv3_large(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None):
    """MobilePose, MobileNetV3-Large body + DUC upsampling (GluonCV; DUC: arXiv:1702.08502)."""
    return _mobile_pose('mobilenetv3_large', **locals())
