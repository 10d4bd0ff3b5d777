"""SimplePose (Xiao et al., Simple Baselines for Human Pose Estimation and Tracking, arXiv:1804.06208):
parameter-compatible with GluonCV 0.10.5's `simple_pose_resnet*_v1b/v1d`.

A ResNet body (stride 32) then stride-2 transposed convs (each -> BN -> ReLU) and a conv to one heatmap a joint:
for a 256x192 person crop, 17 heatmaps of 64x48. Layout: blocks -> model -> weights records -> registered builders.
Structural names follow GluonCV's (`resnet.0.weight`, `resnet.4.0.conv1.weight`, `deconv_layers.0.weight`,
`final_layer.weight`), so its `.params` files load strictly. The options are GluonCV's: `num_joints`,
`num_deconv_layers` / `num_deconv_filters` / `num_deconv_kernels`, `final_conv_kernel`, `deconv_with_bias`,
`pretrained_base` (off by default, as GluonCV's), `pretrained_ctx`; `joints` names the heatmaps.
"""
import mxnet as mx
from mxnet.gluon import nn

from ....errors import BadInputError
from ....registry import get_backbone, register_model
from ....weights import GLUONCV_REPO, Source, Weights
from ...meta import COCO_KEYPOINTS, IMAGENET_MEAN, IMAGENET_STD

#: (padding, output_padding) that make a stride-2 transposed conv of this kernel size double the map exactly
_DECONV = {4: (1, 0), 3: (1, 1), 2: (0, 0)}


# -- blocks -------------------------------------------------------------------------------------------------------
class PoseNet(nn.HybridBlock):
    """What the top-down pose nets share: the names of their heatmaps (`joints`, one a channel) and the input
    check (N x 3 x H x W person crops, RGB, normalized as the weights record's preprocess says)."""

    def __init__(self, num_joints, joints=None, **kwargs):
        super().__init__(**kwargs)
        if joints is None and num_joints == len(COCO_KEYPOINTS):
            joints = COCO_KEYPOINTS  # GluonCV trains every 17-joint net on COCO's keypoints
        if joints is not None and len(joints) != num_joints:
            raise ValueError(f'joints names {len(joints)} keypoints but num_joints={num_joints}: give one name a '
                             f'heatmap (or leave joints out)')
        self.num_joints, self.joints = num_joints, tuple(joints) if joints is not None else None

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray) and (x.ndim != 4 or x.shape[1] != 3):
            raise BadInputError(f'{type(self).__name__} takes person crops of shape Nx3xHxW (NCHW, RGB), got '
                                f'{"x".join(map(str, x.shape))}; gluonzoo.vision.pose.detector_to_simple_pose '
                                f'makes them from a detector\'s boxes')
        return super().forward(x, *args)


def resnet_body(backbone, pretrained_base, ctx=None):
    """conv1, bn1, relu, maxpool, layer1-4 of registered classifier `backbone` as one HybridSequential (GluonCV's
    indices 0-7), its weights loaded when `pretrained_base`."""
    return get_backbone(backbone, pretrained=pretrained_base, out_indices=('layer4',), ctx=ctx).stages[0]


# -- model --------------------------------------------------------------------------------------------------------
class SimplePoseResNet(PoseNet):
    """GluonCV's SimplePoseResNet: the stride-32 body of classifier `base_name` (its ImageNet weights with
    `pretrained_base`, loaded on `pretrained_ctx`), then per entry of `num_deconv_filters` / `num_deconv_kernels` a
    stride-2 transposed conv -> BN -> ReLU, then a `final_conv_kernel` conv to `num_joints` heatmaps at a quarter
    of the input size."""

    def __init__(self, base_name='resnet50_v1b', pretrained_base=False, pretrained_ctx=None, num_joints=17,
                 num_deconv_layers=3, num_deconv_filters=(256, 256, 256), num_deconv_kernels=(4, 4, 4),
                 final_conv_kernel=1, deconv_with_bias=False, joints=None, **kwargs):
        super().__init__(num_joints, joints, **kwargs)
        filters, kernels = tuple(num_deconv_filters), tuple(num_deconv_kernels)
        if not num_deconv_layers == len(filters) == len(kernels):
            raise ValueError(f'num_deconv_layers={num_deconv_layers} needs as many num_deconv_filters {filters} '
                             f'and num_deconv_kernels {kernels}')
        bad = [k for k in kernels if k not in _DECONV]
        if bad or final_conv_kernel not in (1, 3):
            raise ValueError(f'num_deconv_kernels take {sorted(_DECONV)} (got {kernels}), final_conv_kernel 1 or 3 '
                             f'(got {final_conv_kernel}): other sizes do not keep the maps at stride 4')
        normal = mx.init.Normal(0.001)
        with self.name_scope():
            self.resnet = resnet_body(base_name, pretrained_base, pretrained_ctx)
            self.deconv_layers = nn.HybridSequential(prefix='deconv_')
            with self.deconv_layers.name_scope():
                for planes, k in zip(filters, kernels):
                    pad, out_pad = _DECONV[k]
                    self.deconv_layers.add(
                        nn.Conv2DTranspose(planes, k, 2, pad, out_pad, use_bias=deconv_with_bias,
                                           weight_initializer=normal, bias_initializer='zeros'),
                        nn.BatchNorm(), nn.Activation('relu'))
            self.final_layer = nn.Conv2D(num_joints, final_conv_kernel, padding=final_conv_kernel // 2,
                                         weight_initializer=normal, bias_initializer='zeros')

    def hybrid_forward(self, F, x):
        return self.final_layer(self.deconv_layers(self.resnet(x)))


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'simple_pose_resnet18_v1b': 'f63d42ac8f83b239d4e08b636b888b8e50cd066d',
    'simple_pose_resnet50_v1b': 'e2c7b1adea31264bc9220511308b4efa89c6fc50',
    'simple_pose_resnet101_v1b': 'b7ec0de1a34eb718efd4a84339cc1547ead88cbe',
    'simple_pose_resnet152_v1b': 'ef4e033612a5fca6fc69e54c87da3ba3866d533e',
    'simple_pose_resnet50_v1d': 'ba2675b6a43fc31601f0e99311b0bb115369bc82',
    'simple_pose_resnet101_v1d': '1f8f48fd49a23bcc73c1cd736bdc639cd1434489',
    'simple_pose_resnet152_v1d': '3ca502ea8eaaa15f4f972d5cf139167d15ffa798',
}
_PARAMS = {
    'simple_pose_resnet18_v1b': 15376721, 'simple_pose_resnet50_v1b': 33999697,
    'simple_pose_resnet101_v1b': 52991825, 'simple_pose_resnet152_v1b': 68635473,
    'simple_pose_resnet50_v1d': 34018929, 'simple_pose_resnet101_v1d': 53011057,
    'simple_pose_resnet152_v1d': 68654705,
}
#: COCO val2017 keypoint OKS AP / AP50 / AP75 (person boxes from a detector), without and with flip test:
#: GluonCV's docs/model_zoo/csv_tables/Poses/MSCOCO_Simple-Pose.csv, the 256x192 rows, whose hashtags are these
#: checkpoints' sha1[:8] (its 128x96 and 384x288 rows are checkpoints model_store.py does not list)
OKS_AP = {
    'simple_pose_resnet18_v1b': ('f63d42ac', (66.3, 89.2, 73.4), (68.4, 90.3, 75.7)),
    'simple_pose_resnet50_v1b': ('e2c7b1ad', (71.0, 91.2, 78.6), (72.2, 92.2, 79.9)),
    'simple_pose_resnet50_v1d': ('ba2675b6', (71.6, 91.3, 78.7), (73.3, 92.4, 80.8)),
    'simple_pose_resnet101_v1b': ('b7ec0de1', (72.4, 92.2, 79.8), (73.7, 92.3, 81.1)),
    'simple_pose_resnet101_v1d': ('1f8f48fd', (73.0, 92.2, 80.8), (74.2, 92.4, 82.0)),
    'simple_pose_resnet152_v1b': ('ef4e0336', (72.4, 92.1, 79.6), (74.2, 92.3, 82.1)),
    'simple_pose_resnet152_v1d': ('3ca502ea', (73.4, 92.3, 80.7), (74.6, 93.4, 82.1)),
}
#: a person crop as GluonCV's detector_to_simple_pose feeds it: the (upscaled) box resized to 256x192 by
#: mx.image.fixed_crop (bicubic), to_tensor, ImageNet normalization
POSE_PREPROCESS = dict(resize=(256, 192), mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, color='RGB',
                       layout='NCHW', interp='cubic')
_PAPER = 'https://arxiv.org/abs/1804.06208'


def oks_metrics(table, arch, sha1):
    """A record's metrics from a GluonCV pose table {arch: (hashtag, (AP, AP50, AP75), flip (AP, AP50, AP75))},
    only where the row's hashtag is this checkpoint's."""
    row = table.get(arch)
    if row is None or row[0] != sha1[:8]:
        return {}
    (ap, ap50, ap75), (fap, fap50, fap75) = row[1], row[2]
    return {'oks_ap': ap, 'oks_ap50': ap50, 'oks_ap75': ap75, 'oks_ap_flip': fap, 'oks_ap50_flip': fap50,
            'oks_ap75_flip': fap75, 'source': 'GluonCV model zoo table (published, not re-measured)'}


def pose_weights(arch, sha1s, params, table, paper, recipe):
    """[the GluonCV record of `arch`]: COCO's 17 keypoints on 256x192 crops, from GluonCV's mirror."""
    sha1 = sha1s[arch]
    return [Weights(
        arch=arch, tag='gluoncv', default=True, task='pose-estimation', sha1=sha1, num_params=params[arch],
        preprocess=POSE_PREPROCESS, input_shape=(1, 3, 256, 192), config={'num_joints': 17, 'joints': COCO_KEYPOINTS},
        source=Source(kind='mirror', url=GLUONCV_REPO), metrics=oks_metrics(table, arch, sha1),
        license='Apache-2.0 (GluonCV)', paper=paper, recipe=recipe)]


def _weights(arch):
    return pose_weights(arch, _SHA1, _PARAMS, OKS_AP, _PAPER,
                        f'GluonCV 0.10.5 scripts/pose/simple_pose/train_simple_pose.py ({arch}_coco.sh, linked '
                        f'from the table)')


# -- registered builders ------------------------------------------------------------------------------------------
PROTECTED = ('num_joints', 'num_deconv_layers', 'num_deconv_filters', 'num_deconv_kernels', 'final_conv_kernel',
             'deconv_with_bias')
_REG = dict(task='pose-estimation', protected=PROTECTED, test_input=(1, 3, 64, 64))


def _simple_pose(backbone, **kwargs):
    return SimplePoseResNet(backbone, **kwargs)


@register_model(weights=_weights('simple_pose_resnet18_v1b'), **_REG)
def simple_pose_resnet18_v1b(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None,
                             num_deconv_layers=3, num_deconv_filters=(256, 256, 256), num_deconv_kernels=(4, 4, 4),
                             final_conv_kernel=1, deconv_with_bias=False):
    """SimplePose, ResNet-18 V1b body (Simple Baselines for Human Pose Estimation, arXiv:1804.06208)."""
    return _simple_pose('resnet18_v1b', **locals())


@register_model(weights=_weights('simple_pose_resnet50_v1b'), **_REG)
def simple_pose_resnet50_v1b(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None,
                             num_deconv_layers=3, num_deconv_filters=(256, 256, 256), num_deconv_kernels=(4, 4, 4),
                             final_conv_kernel=1, deconv_with_bias=False):
    """SimplePose, ResNet-50 V1b body (Simple Baselines for Human Pose Estimation, arXiv:1804.06208)."""
    return _simple_pose('resnet50_v1b', **locals())


@register_model(weights=_weights('simple_pose_resnet101_v1b'), **_REG)
def simple_pose_resnet101_v1b(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None,
                              num_deconv_layers=3, num_deconv_filters=(256, 256, 256), num_deconv_kernels=(4, 4, 4),
                              final_conv_kernel=1, deconv_with_bias=False):
    """SimplePose, ResNet-101 V1b body (Simple Baselines for Human Pose Estimation, arXiv:1804.06208)."""
    return _simple_pose('resnet101_v1b', **locals())


@register_model(weights=_weights('simple_pose_resnet152_v1b'), **_REG)
def simple_pose_resnet152_v1b(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None,
                              num_deconv_layers=3, num_deconv_filters=(256, 256, 256), num_deconv_kernels=(4, 4, 4),
                              final_conv_kernel=1, deconv_with_bias=False):
    """SimplePose, ResNet-152 V1b body (Simple Baselines for Human Pose Estimation, arXiv:1804.06208)."""
    return _simple_pose('resnet152_v1b', **locals())


@register_model(weights=_weights('simple_pose_resnet50_v1d'), **_REG)
def simple_pose_resnet50_v1d(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None,
                             num_deconv_layers=3, num_deconv_filters=(256, 256, 256), num_deconv_kernels=(4, 4, 4),
                             final_conv_kernel=1, deconv_with_bias=False):
    """SimplePose, ResNet-50 V1d body (Simple Baselines for Human Pose Estimation, arXiv:1804.06208)."""
    return _simple_pose('resnet50_v1d', **locals())


@register_model(weights=_weights('simple_pose_resnet101_v1d'), **_REG)
def simple_pose_resnet101_v1d(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None,
                              num_deconv_layers=3, num_deconv_filters=(256, 256, 256), num_deconv_kernels=(4, 4, 4),
                              final_conv_kernel=1, deconv_with_bias=False):
    """SimplePose, ResNet-101 V1d body (Simple Baselines for Human Pose Estimation, arXiv:1804.06208)."""
    return _simple_pose('resnet101_v1d', **locals())


@register_model(weights=_weights('simple_pose_resnet152_v1d'), **_REG)
def simple_pose_resnet152_v1d(num_joints=17, joints=None, pretrained_base=False, pretrained_ctx=None,
                              num_deconv_layers=3, num_deconv_filters=(256, 256, 256), num_deconv_kernels=(4, 4, 4),
                              final_conv_kernel=1, deconv_with_bias=False):
    """SimplePose, ResNet-152 V1d body (Simple Baselines for Human Pose Estimation, arXiv:1804.06208)."""
    return _simple_pose('resnet152_v1d', **locals())
