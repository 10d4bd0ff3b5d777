"""GluonCV 0.10.5's predefined Faster R-CNN models (model_zoo/rcnn/faster_rcnn/predefined_models.py): their options,
weights records and one registered builder a name.

A builder takes `classes` (names; the dataset's by default), `pretrained_base` (the ImageNet backbone, GluonCV's
default) and any FasterRCNN option by GluonCV's name, which overrides the model's own (GluonCV's builders refuse
most of them), e.g. fewer proposals: `rpn_test_post_nms=100`. `*_custom` builders need `classes` and start from
FasterRCNN's defaults, or with `transfer='voc'|'coco'` from that pretrained model with the rows of the classes it
shares kept.
"""
import difflib
import inspect

import mxnet as mx
from mxnet.gluon import nn

from .....registry import get_backbone, get_model, register_model
from .....weights import GLUONCV_REPO, Source, Weights
from ....meta import COCO, IMAGENET_MEAN, IMAGENET_STD, VOC
from .fpn import FPN
from .....heads import class_names
from .rcnn import FasterRCNN

# -- options (GluonCV's per model; anything not named is FasterRCNN's default, which the custom models use) --------
VOC_OPTIONS = dict(short=600, max_size=1000, nms_thresh=0.3, nms_topk=400, post_nms=100, scales=(2, 4, 8, 16, 32),
                   rpn_test_post_nms=300, rpn_min_size=16)
COCO_OPTIONS = dict(short=800, max_size=1333, nms_thresh=0.5, nms_topk=-1, post_nms=-1, clip=4.14,
                    scales=(2, 4, 8, 16, 32), rpn_test_post_nms=1000, rpn_min_size=1)
FPN_OPTIONS = dict(COCO_OPTIONS, min_stage=2, max_stage=6, roi_size=(7, 7), strides=(4, 8, 16, 32, 64),
                   alloc_size=(384, 384))
_SETTABLE = [k for k in inspect.signature(FasterRCNN).parameters
             if k not in ('features', 'top_features', 'classes', 'box_features')]


def merge_options(name, options, kwargs, settable=tuple(_SETTABLE)):
    """`options` overridden by the caller's `kwargs`, each of which must be in `settable` (Mask R-CNN's adds its
    own): an unknown one is a ValueError with the closest name."""
    unknown = sorted(set(kwargs) - set(settable))
    if unknown:
        close = difflib.get_close_matches(unknown[0], settable, n=1)
        hint = f'did you mean {close[0]!r}? ' if close else ''
        raise ValueError(f'{name} has no option {unknown[0]!r}; {hint}its options are classes, pretrained_base, '
                         f'{", ".join(dict.fromkeys(settable))}')
    return dict(options, **kwargs)


def faster_rcnn(name, backbone, classes, pretrained_base, options, kwargs):
    """Faster R-CNN on one stride-16 map: the backbone up to layer3, layer4 run on the pooled RoIs."""
    stages = get_backbone(backbone, pretrained=pretrained_base, out_indices=('layer3', 'layer4')).stages
    return FasterRCNN(stages[0], stages[1], classes, **merge_options(name, options, kwargs))


def faster_rcnn_fpn(name, backbone, symbol_prefix, classes, pretrained_base, options, kwargs):
    """Faster R-CNN with FPN: RPN on P2..P6, RoIs pooled 7x7 from P2..P5, two 1024-unit dense layers."""
    net = get_backbone(backbone, pretrained=pretrained_base, out_indices=('layer1', 'layer2', 'layer3', 'layer4'))
    box_features = nn.HybridSequential()
    for _ in range(2):
        box_features.add(nn.Dense(1024, weight_initializer=mx.init.Normal(0.01)), nn.Activation('relu'))
    return FasterRCNN(FPN(net, symbol_prefix), None, classes, box_features=box_features,
                      **merge_options(name, options, kwargs))


def custom(name, backbone, classes, transfer, pretrained_base, kwargs):
    """A `*_custom` model: FasterRCNN's defaults on `backbone`, or the `transfer` dataset's pretrained model with
    a new head for `classes`, the rows of the classes both name kept (GluonCV's)."""
    if not classes:
        raise ValueError(f'{name} needs classes=[your class names] (GluonCV\'s custom models have no default)')
    classes = class_names(classes)
    if transfer not in (None, 'voc', 'coco'):
        raise ValueError(f"{name}: transfer={transfer!r} names no pretrained model; use None, 'voc' or 'coco'")
    if transfer is None:
        return faster_rcnn(name, backbone, classes, pretrained_base, {}, kwargs)
    arch = name.replace('_custom', f'_{transfer}')
    net = get_model(arch, pretrained=True, **kwargs)
    net.reset_class(classes, reuse_weights=[c for c in classes if c in net.classes])
    return net


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_PAPER = 'https://arxiv.org/abs/1506.01497'
_FPN_PAPER = 'https://arxiv.org/abs/1612.03144'
_SOURCE = 'GluonCV model zoo table (published, not re-measured)'
_RECIPE = 'GluonCV 0.10.5 scripts/detection/faster_rcnn/train_faster_rcnn.py --network {} --dataset {}'


def _record(arch, network, sha1, num_params, metrics, fpn=False):
    """GluonCV's checkpoint of `arch` (backbone `network`): its eval preprocessing is presets.rcnn's (short side
    `short`, long side at most `max_size`, bilinear, ImageNet mean/std); input_shape is what it makes of a square
    picture."""
    voc = arch.endswith('_voc')
    options = VOC_OPTIONS if voc else COCO_OPTIONS
    return Weights(
        arch=arch, tag='gluoncv', default=True, task='object-detection', sha1=sha1, num_params=num_params,
        classes=VOC if voc else COCO, input_shape=(1, 3, options['short'], options['short']),
        preprocess=dict(resize=options['short'], max_size=options['max_size'], mean=IMAGENET_MEAN, std=IMAGENET_STD,
                        scale=1 / 255.0, color='RGB', layout='NCHW', interp='linear'),
        source=Source(kind='mirror', url=GLUONCV_REPO), license='Apache-2.0 (GluonCV)',
        recipe=_RECIPE.format(network, 'voc' if voc else 'coco') + (' --use-fpn' if fpn else ''),
        paper=_FPN_PAPER if fpn else _PAPER, metrics=dict(metrics, source=_SOURCE))


# Figures: GluonCV's docs/model_zoo/csv_tables/Detections/Pascal_Faster-RCNN.csv (VOC 2007 test mAP) and
# MSCOCO_Faster-RCNN.csv (COCO val2017 box AP / AP50 / AP75). The tables name the model, not a hashtag; GluonCV
# publishes one checkpoint a name (these), so the figures are taken as theirs.
_RECORDS = {
    'faster_rcnn_resnet50_v1b_voc': _record(
        'faster_rcnn_resnet50_v1b_voc', 'resnet50_v1b', '447328d89d70ae1e2ca49226b8d834e5a5456df3', 33230064,
        {'map': 78.3}),
    'faster_rcnn_resnet50_v1b_coco': _record(
        'faster_rcnn_resnet50_v1b_coco', 'resnet50_v1b', '5b4690fb7c5b62c44fb36c67d0642b633697f1bb', 33844764,
        {'map': 37.0, 'map50': 57.8, 'map75': 39.6}),
    'faster_rcnn_resnet101_v1d_coco': _record(
        'faster_rcnn_resnet101_v1d_coco', 'resnet101_v1d', 'a465eca35e78aba6ebdf99bf52031a447e501063', 52856124,
        {'map': 40.1, 'map50': 60.9, 'map75': 43.3}),
    'faster_rcnn_fpn_resnet50_v1b_coco': _record(
        'faster_rcnn_fpn_resnet50_v1b_coco', 'resnet50_v1b', '233572743bc537291590f4edf8a0c17c14b234bb', 44124896,
        {'map': 38.4, 'map50': 60.2, 'map75': 41.6}, fpn=True),
    'faster_rcnn_fpn_resnet101_v1d_coco': _record(
        'faster_rcnn_fpn_resnet101_v1d_coco', 'resnet101_v1d', '1194ab4ec6e06386aadd55820add312c8ef59c74', 63136256,
        {'map': 40.8, 'map50': 62.4, 'map75': 44.7}, fpn=True),
}


def _weights(arch):
    return [_RECORDS[arch]] if arch in _RECORDS else []


# -- registered builders ------------------------------------------------------------------------------------------
# the registry-wide tests: no ImageNet download, few proposals on a small picture
_REG = dict(task='object-detection', test_input=(1, 3, 64, 64),
            test_kwargs={'pretrained_base': False, 'rpn_test_pre_nms': 200, 'rpn_test_post_nms': 8})


@register_model(weights=_weights('faster_rcnn_resnet50_v1b_voc'), **_REG)
def faster_rcnn_resnet50_v1b_voc(classes=VOC, pretrained_base=True, **kwargs):
    """Faster R-CNN, ResNet-50 V1b, Pascal VOC (arXiv:1506.01497)."""
    return faster_rcnn('faster_rcnn_resnet50_v1b_voc', 'resnet50_v1b', classes, pretrained_base, VOC_OPTIONS, kwargs)


@register_model(weights=_weights('faster_rcnn_resnet50_v1b_coco'), **_REG)
def faster_rcnn_resnet50_v1b_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Faster R-CNN, ResNet-50 V1b, COCO (arXiv:1506.01497)."""
    return faster_rcnn('faster_rcnn_resnet50_v1b_coco', 'resnet50_v1b', classes, pretrained_base, COCO_OPTIONS,
                       kwargs)


@register_model(**_REG)
def faster_rcnn_resnet50_v1b_custom(classes=(), transfer=None, pretrained_base=True, **kwargs):
    """Faster R-CNN, ResNet-50 V1b, your classes (arXiv:1506.01497)."""
    return custom('faster_rcnn_resnet50_v1b_custom', 'resnet50_v1b', classes, transfer, pretrained_base, kwargs)


@register_model(weights=_weights('faster_rcnn_resnet101_v1d_voc'), **_REG)
def faster_rcnn_resnet101_v1d_voc(classes=VOC, pretrained_base=True, **kwargs):
    """Faster R-CNN, ResNet-101 V1d, Pascal VOC (arXiv:1506.01497)."""
    return faster_rcnn('faster_rcnn_resnet101_v1d_voc', 'resnet101_v1d', classes, pretrained_base, VOC_OPTIONS,
                       kwargs)


@register_model(weights=_weights('faster_rcnn_resnet101_v1d_coco'), **_REG)
def faster_rcnn_resnet101_v1d_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Faster R-CNN, ResNet-101 V1d, COCO (arXiv:1506.01497)."""
    return faster_rcnn('faster_rcnn_resnet101_v1d_coco', 'resnet101_v1d', classes, pretrained_base, COCO_OPTIONS,
                       kwargs)


@register_model(**_REG)
def faster_rcnn_resnet101_v1d_custom(classes=(), transfer=None, pretrained_base=True, **kwargs):
    """Faster R-CNN, ResNet-101 V1d, your classes (arXiv:1506.01497)."""
    return custom('faster_rcnn_resnet101_v1d_custom', 'resnet101_v1d', classes, transfer, pretrained_base, kwargs)


@register_model(weights=_weights('faster_rcnn_fpn_resnet50_v1b_coco'), **_REG)
def faster_rcnn_fpn_resnet50_v1b_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Faster R-CNN with FPN, ResNet-50 V1b, COCO (arXiv:1612.03144)."""
    return faster_rcnn_fpn('faster_rcnn_fpn_resnet50_v1b_coco', 'resnet50_v1b', 'resnetv1b_', classes,
                           pretrained_base, FPN_OPTIONS, kwargs)


@register_model(weights=_weights('faster_rcnn_fpn_resnet101_v1d_coco'), **_REG)
def faster_rcnn_fpn_resnet101_v1d_coco(classes=COCO, pretrained_base=True, **kwargs):
    """Faster R-CNN with FPN, ResNet-101 V1d, COCO (arXiv:1612.03144)."""
    return faster_rcnn_fpn('faster_rcnn_fpn_resnet101_v1d_coco', 'resnet101_v1d', 'resnetv1d_', classes,
                           pretrained_base, FPN_OPTIONS, kwargs)
