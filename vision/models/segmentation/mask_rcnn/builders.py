"""GluonCV 0.10.5's predefined Mask R-CNN models (model_zoo/rcnn/mask_rcnn/predefined_models.py): their options,
weights records and one registered builder a name.

A builder takes `classes` (COCO's by default), `pretrained_base` (the ImageNet backbone, GluonCV's default) and any
MaskRCNN / FasterRCNN option by GluonCV's name, which overrides the model's own (GluonCV's builders refuse most of
them), e.g. fewer proposals and detections: `rpn_test_post_nms=100, rcnn_max_dets=50`. GluonCV's SyncBatchNorm
variants (`mask_rcnn_fpn_syncbn_*`) and `custom_mask_rcnn_fpn` have no checkpoint and are not registered.
"""
import inspect

import mxnet as mx
from mxnet.gluon import nn

from .....registry import get_backbone, register_model
from .....weights import GLUONCV_REPO, Source, Weights
from ....meta import COCO, IMAGENET_MEAN, IMAGENET_STD
from ...detection.faster_rcnn.builders import COCO_OPTIONS, FPN_OPTIONS, merge_options
from ...detection.faster_rcnn.fpn import FPN
from ...detection.faster_rcnn.rcnn import FasterRCNN
from .model import MaskRCNN

# -- options (GluonCV's per model; Mask R-CNN clips box offsets at 4.42, Faster R-CNN at 4.14) --------------------
OPTIONS = dict(COCO_OPTIONS, clip=4.42)
FPN18_OPTIONS = dict(FPN_OPTIONS, clip=4.42, num_fcn_convs=2)  # RoIs pooled 7x7: 14x14 masks
FPN_BIG_OPTIONS = dict(FPN18_OPTIONS, roi_size=(14, 14), num_fcn_convs=4)  # pooled 14x14, 28x28 masks
_SETTABLE = [k for k in (*inspect.signature(FasterRCNN).parameters, *inspect.signature(MaskRCNN).parameters)
             if k not in ('features', 'top_features', 'classes', 'box_features', 'kwargs')]


def mask_rcnn(name, backbone, classes, pretrained_base, kwargs):
    """Mask R-CNN on one stride-16 map: the backbone up to layer3; layer4 runs on the pooled RoIs, for the boxes
    and again for the masks."""
    stages = get_backbone(backbone, pretrained=pretrained_base, out_indices=('layer3', 'layer4')).stages
    return MaskRCNN(stages[0], stages[1], classes, **merge_options(name, OPTIONS, kwargs, _SETTABLE))


def mask_rcnn_fpn(name, backbone, symbol_prefix, classes, pretrained_base, options, kwargs):
    """Mask R-CNN with FPN: RPN on P2..P6, RoIs pooled from P2..P5, two 1024-unit dense layers for the boxes (after
    a 3x3 stride-2 average pool when the RoIs are pooled 14x14), the mask head on the pooled RoIs."""
    net = get_backbone(backbone, pretrained=pretrained_base, out_indices=('layer1', 'layer2', 'layer3', 'layer4'))
    options = merge_options(name, options, kwargs, _SETTABLE)
    box_features = nn.HybridSequential()
    if options['roi_size'][0] > 7:
        box_features.add(nn.AvgPool2D(3, 2, 1))
    for _ in range(2):
        box_features.add(nn.Dense(1024, weight_initializer=mx.init.Normal(0.01)), nn.Activation('relu'))
    return MaskRCNN(FPN(net, symbol_prefix), None, classes, box_features=box_features, **options)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_PAPER = 'https://arxiv.org/abs/1703.06870'
_SOURCE = 'GluonCV model zoo table (published, not re-measured)'
_RECIPE = 'GluonCV 0.10.5 scripts/instance/mask_rcnn/train_mask_rcnn.py --network {} --dataset coco'


def _record(arch, network, sha1, num_params, box, mask):
    """GluonCV's COCO checkpoint of `arch` (backbone `network`): its eval preprocessing is presets.rcnn's (short
    side 800, long side at most 1333, bilinear, ImageNet mean/std); input_shape is what it makes of a square
    picture. `box` and `mask` are the table's COCO val2017 AP / AP50 / AP75."""
    return Weights(
        arch=arch, tag='gluoncv', default=True, task='instance-segmentation', sha1=sha1, num_params=num_params,
        classes=COCO, input_shape=(1, 3, 800, 800),
        preprocess=dict(resize=800, max_size=1333, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0,
                        color='RGB', layout='NCHW', interp='linear'),
        source=Source(kind='mirror', url=GLUONCV_REPO), license='Apache-2.0 (GluonCV)',
        recipe=_RECIPE.format(network) + (' --use-fpn' if '_fpn_' in arch else ''), paper=_PAPER,
        metrics=dict(zip(('map', 'map50', 'map75', 'mask_map', 'mask_map50', 'mask_map75'), box + mask),
                     source=_SOURCE))


# Figures: GluonCV's docs/model_zoo/csv_tables/Segmentations/IS_MS-COCO.csv (box AP, mask AP; each /AP50/AP75).
# The table names the model, not a hashtag; GluonCV's history has one checkpoint a name (these, unchanged since
# each was added, as the table rows), so the figures are taken as theirs.
_RECORDS = {
    'mask_rcnn_resnet18_v1b_coco': _record(
        'mask_rcnn_resnet18_v1b_coco', 'resnet18_v1b', 'e071cf1550bc0331c218a9072b59e9550595d1e7', 14364524,
        (31.2, 51.1, 33.1), (28.4, 48.1, 29.8)),
    'mask_rcnn_fpn_resnet18_v1b_coco': _record(
        'mask_rcnn_fpn_resnet18_v1b_coco', 'resnet18_v1b', '14a922c38b0b196fdb1f7141be4666c10476f426', 32519216,
        (34.9, 56.4, 37.4), (30.4, 52.2, 31.4)),
    'mask_rcnn_resnet50_v1b_coco': _record(
        'mask_rcnn_resnet50_v1b_coco', 'resnet50_v1b', 'a3527fdc2cee5b1f32a61e5fd7cda8fb673e86e5', 35962732,
        (38.3, 58.7, 41.4), (33.1, 54.8, 35.0)),
    'mask_rcnn_fpn_resnet50_v1b_coco': _record(
        'mask_rcnn_fpn_resnet50_v1b_coco', 'resnet50_v1b', '1364d0afe4de575af5d4389d50c2dbf22449ceac', 46768176,
        (39.2, 61.2, 42.2), (35.4, 57.5, 37.3)),
    'mask_rcnn_resnet101_v1d_coco': _record(
        'mask_rcnn_resnet101_v1d_coco', 'resnet101_v1d', '4a3249c584f81c2a9b5d852b742637cd692ebdcb', 54974092,
        (41.3, 61.7, 44.4), (35.2, 57.8, 36.9)),
    'mask_rcnn_fpn_resnet101_v1d_coco': _record(
        'mask_rcnn_fpn_resnet101_v1d_coco', 'resnet101_v1d', '89c7d8669b677a05c6eaa25375ead9a174109c69', 65779536,
        (42.3, 63.9, 46.2), (37.7, 60.5, 40.0)),
}


def _weights(arch):
    return [_RECORDS[arch]]


# -- registered builders ------------------------------------------------------------------------------------------
# the registry-wide tests: no ImageNet download, few proposals on a small picture
_REG = dict(task='instance-segmentation', test_input=(1, 3, 64, 64),
            test_kwargs={'pretrained_base': False, 'rpn_test_pre_nms': 200, 'rpn_test_post_nms': 8})


@register_model(weights=_weights('mask_rcnn_resnet18_v1b_coco'), **_REG)
def mask_rcnn_resnet18_v1b_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Mask R-CNN, ResNet-18 V1b, COCO (arXiv:1703.06870)."""
    return mask_rcnn('mask_rcnn_resnet18_v1b_coco', 'resnet18_v1b', classes, pretrained_base, kwargs)


@register_model(weights=_weights('mask_rcnn_resnet50_v1b_coco'), **_REG)
def mask_rcnn_resnet50_v1b_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Mask R-CNN, ResNet-50 V1b, COCO (arXiv:1703.06870)."""
    return mask_rcnn('mask_rcnn_resnet50_v1b_coco', 'resnet50_v1b', classes, pretrained_base, kwargs)


@register_model(weights=_weights('mask_rcnn_resnet101_v1d_coco'), **_REG)
def mask_rcnn_resnet101_v1d_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Mask R-CNN, ResNet-101 V1d, COCO (arXiv:1703.06870)."""
    return mask_rcnn('mask_rcnn_resnet101_v1d_coco', 'resnet101_v1d', classes, pretrained_base, kwargs)


@register_model(weights=_weights('mask_rcnn_fpn_resnet18_v1b_coco'), **_REG)
def mask_rcnn_fpn_resnet18_v1b_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Mask R-CNN with FPN, ResNet-18 V1b, COCO (arXiv:1703.06870)."""
    return mask_rcnn_fpn('mask_rcnn_fpn_resnet18_v1b_coco', 'resnet18_v1b', 'resnetv1b_', classes, pretrained_base,
                         FPN18_OPTIONS, kwargs)


@register_model(weights=_weights('mask_rcnn_fpn_resnet50_v1b_coco'), **_REG)
def mask_rcnn_fpn_resnet50_v1b_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Mask R-CNN with FPN, ResNet-50 V1b, COCO (arXiv:1703.06870)."""
    return mask_rcnn_fpn('mask_rcnn_fpn_resnet50_v1b_coco', 'resnet50_v1b', 'resnetv1b_', classes, pretrained_base,
                         FPN_BIG_OPTIONS, kwargs)


@register_model(weights=_weights('mask_rcnn_fpn_resnet101_v1d_coco'), **_REG)
def mask_rcnn_fpn_resnet101_v1d_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Mask R-CNN with FPN, ResNet-101 V1d, COCO (arXiv:1703.06870)."""
    return mask_rcnn_fpn('mask_rcnn_fpn_resnet101_v1d_coco', 'resnet101_v1d', 'resnetv1d_', classes,
                         pretrained_base, FPN_BIG_OPTIONS, kwargs)
