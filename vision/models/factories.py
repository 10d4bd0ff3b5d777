"""GluonCV's family factories (`get_resnet(1, 50)`, `get_fcn('pascal_voc', 'resnet50')`, `get_ssd(...)`) over the
registry: each turns its arguments into the registered model name GluonCV's own factory would load weights for,
and builds that with get_model. A combination with no registered model is one UnknownModelError naming what is
registered for the family.

    from gluonzoo.vision.models.factories import get_resnet, get_fcn
    net = get_resnet(1, 50, classes=10)                 # = get_model('resnet50_v1', classes=10)
    seg = get_fcn(dataset='ade20k', backbone='resnet50')  # = get_model('fcn_resnet50_ade')

The architecture arguments of the low-level factories (get_ssd's features/filters/sizes/ratios/steps, get_yolov3's
stages/filters/anchors/strides) are not used: the registered model of that name has GluonCV's architecture.
"""
from ...errors import UnknownModelError
from ...registry import get_model, list_models

#: GluonCV's segmentation dataset names -> the suffix of the registered models trained on them
_SEG_DATASETS = {'pascal_voc': 'voc', 'pascal_aug': 'voc', 'ade20k': 'ade', 'coco': 'coco', 'citys': 'citys'}


def _registered(call, name, family):
    """`name` if registered (any case), else an UnknownModelError naming the family's registered models."""
    known = list_models(family)
    match = next((k for k in known if k.lower() == name.lower()), None)
    if match is None:
        raise UnknownModelError(f'{call} would build {name!r}, which is not a registered model; the registered '
                                f'{family} models are: {", ".join(known) or "none"}')
    return match


def _build(call, name, family, pretrained, ctx, root, kwargs):
    return get_model(_registered(call, name, family), pretrained=pretrained, ctx=ctx, root=root, **kwargs)


def _num(x):
    """A multiplier as GluonCV's names print it: 1.0 -> '1.0', 0.25 -> '0.25'."""
    return str(float(x))


def _seg_suffix(call, dataset):
    if dataset not in _SEG_DATASETS:
        raise ValueError(f'{call}: unknown dataset {dataset!r}; GluonCV\'s are {", ".join(_SEG_DATASETS)}')
    return _SEG_DATASETS[dataset]


def get_resnet(version, num_layers, pretrained=False, ctx=None, root=None, use_se=False, **kwargs):
    """ResNet V1/V2 (`version` 1 or 2) of `num_layers` layers; SE-ResNet with use_se=True."""
    name = f'{"se_" if use_se else ""}resnet{num_layers}_v{version}'
    family = 'se_resnet*_v[12]' if use_se else 'resnet*_v[12]'
    return _build(f'get_resnet({version!r}, {num_layers!r})', name, family, pretrained, ctx, root, kwargs)


def get_se_resnet(version, num_layers, pretrained=False, ctx=None, root=None, **kwargs):
    """SE-ResNet V1/V2 of `num_layers` layers."""
    return _build(f'get_se_resnet({version!r}, {num_layers!r})', f'se_resnet{num_layers}_v{version}',
                  'se_resnet*', pretrained, ctx, root, kwargs)


def get_vgg(num_layers, pretrained=False, ctx=None, root=None, **kwargs):
    """VGG of `num_layers` layers; batch_norm=True for the _bn variant."""
    bn = '_bn' if kwargs.pop('batch_norm', False) else ''
    return _build(f'get_vgg({num_layers!r})', f'vgg{num_layers}{bn}', 'vgg*', pretrained, ctx, root, kwargs)


def get_mobilenet(multiplier, pretrained=False, ctx=None, root=None, **kwargs):
    """MobileNet V1 of width `multiplier` (1.0, 0.75, 0.5, 0.25)."""
    return _build(f'get_mobilenet({multiplier!r})', f'mobilenet{_num(multiplier)}', 'mobilenet[0-9]*',
                  pretrained, ctx, root, kwargs)


def get_mobilenet_v2(multiplier, pretrained=False, ctx=None, root=None, **kwargs):
    """MobileNet V2 of width `multiplier` (1.0, 0.75, 0.5, 0.25)."""
    return _build(f'get_mobilenet_v2({multiplier!r})', f'mobilenetv2_{_num(multiplier)}', 'mobilenetv2_*',
                  pretrained, ctx, root, kwargs)


def get_mobilenet_v3(model_name, multiplier=1.0, pretrained=False, ctx=None, root=None, **kwargs):
    """MobileNet V3 'large' or 'small' (width 1.0 only: the registered ones)."""
    call = f'get_mobilenet_v3({model_name!r}, multiplier={multiplier!r})'
    if float(multiplier) != 1.0:
        raise UnknownModelError(f'{call}: only multiplier=1.0 is registered (mobilenetv3_large, mobilenetv3_small)')
    return _build(call, f'mobilenetv3_{model_name}', 'mobilenetv3_*', pretrained, ctx, root, kwargs)


def get_cifar_resnet(version, num_layers, pretrained=False, ctx=None, root=None, **kwargs):
    """CIFAR ResNet V1/V2 of `num_layers` layers (20, 56, 110)."""
    return _build(f'get_cifar_resnet({version!r}, {num_layers!r})', f'cifar_resnet{num_layers}_v{version}',
                  'cifar_resnet*', pretrained, ctx, root, kwargs)


def get_cifar_wide_resnet(num_layers, width_factor=1, drop_rate=0.0, pretrained=False, ctx=None, root=None,
                          **kwargs):
    """CIFAR Wide ResNet of `num_layers` layers and `width_factor` (16/10, 28/10, 40/8)."""
    return _build(f'get_cifar_wide_resnet({num_layers!r}, width_factor={width_factor!r})',
                  f'cifar_wideresnet{num_layers}_{width_factor}', 'cifar_wideresnet*', pretrained, ctx, root,
                  dict(kwargs, drop_rate=drop_rate))


def get_cifar_resnext(num_layers, cardinality=16, bottleneck_width=64, pretrained=False, ctx=None, root=None,
                      **kwargs):
    """CIFAR ResNeXt-29 (16x64d, 32x4d)."""
    return _build(f'get_cifar_resnext({num_layers!r}, {cardinality!r}, {bottleneck_width!r})',
                  f'cifar_resnext{num_layers}_{cardinality}x{bottleneck_width}d', 'cifar_resnext*', pretrained,
                  ctx, root, kwargs)


def get_resnext(num_layers, cardinality=32, bottleneck_width=4, use_se=False, deep_stem=False, avg_down=False,
                pretrained=False, ctx=None, root=None, **kwargs):
    """ResNeXt (SE-ResNeXt with use_se=True; the 'e' variant with deep_stem=True and avg_down=True)."""
    call = (f'get_resnext({num_layers!r}, {cardinality!r}, {bottleneck_width!r}, use_se={use_se!r}, '
            f'deep_stem={deep_stem!r}, avg_down={avg_down!r})')
    if bool(deep_stem) != bool(avg_down):
        raise UnknownModelError(f'{call}: the registered ResNeXts have deep_stem and avg_down both off or both on '
                                '(the resnext101e_64x4d variants)')
    name = f'{"se_" if use_se else ""}resnext{num_layers}{"e" if deep_stem else ""}_{cardinality}x{bottleneck_width}d'
    return _build(call, name, '*resnext[0-9]*', pretrained, ctx, root, kwargs)


def get_senet(num_layers, cardinality=64, bottleneck_width=4, avg_down=False, pretrained=False, ctx=None,
              root=None, **kwargs):
    """SENet-154 (num_layers=152, GluonCV's count without the stem; 'senet_154e' with avg_down=True)."""
    call = f'get_senet({num_layers!r}, {cardinality!r}, {bottleneck_width!r}, avg_down={avg_down!r})'
    if (cardinality, bottleneck_width) != (64, 4):
        raise UnknownModelError(f'{call}: the registered SENets (senet_154, senet_154e) are 64x4d')
    return _build(call, f'senet_{num_layers + 2}{"e" if avg_down else ""}', 'senet_*', pretrained, ctx, root,
                  kwargs)


def get_nasnet(repeat=6, penultimate_filters=4032, pretrained=False, ctx=None, root=None, **kwargs):
    """NASNet-A with `repeat` cells a stage and `penultimate_filters` (4@1056, 5@1538, 6@4032, 7@1920)."""
    return _build(f'get_nasnet({repeat!r}, {penultimate_filters!r})', f'nasnet_{repeat}_{penultimate_filters}',
                  'nasnet_*', pretrained, ctx, root, kwargs)


def get_darknet(darknet_version, num_layers, pretrained=False, ctx=None, root=None, **kwargs):
    """DarkNet ('v3', 53)."""
    call = f'get_darknet({darknet_version!r}, {num_layers!r})'
    if darknet_version != 'v3':
        raise UnknownModelError(f'{call}: only darknet_version=\'v3\' is registered (darknet53)')
    return _build(call, f'darknet{num_layers}', 'darknet*', pretrained, ctx, root, kwargs)


def get_dla(layers, pretrained=False, ctx=None, root=None, **kwargs):
    """DLA of `layers` layers (34)."""
    return _build(f'get_dla({layers!r})', f'dla{layers}', 'dla*', pretrained, ctx, root, kwargs)


def get_shufflenet_v1(pretrained=False, root=None, ctx=None, **kwargs):
    """ShuffleNet V1."""
    return _build('get_shufflenet_v1()', 'shufflenet_v1', 'shufflenet_*', pretrained, ctx, root, kwargs)


def get_shufflenet_v2(pretrained=False, root=None, ctx=None, **kwargs):
    """ShuffleNet V2."""
    return _build('get_shufflenet_v2()', 'shufflenet_v2', 'shufflenet_*', pretrained, ctx, root, kwargs)


def get_hrnet(model_name, stage_interp_type='nearest', purpose='cls', pretrained=False, ctx=None, root=None,
              **kwargs):
    """HRNet `model_name` ('w18', 'w18_small_v1', ...) for classification (purpose='cls') or segmentation ('seg')."""
    call = f'get_hrnet({model_name!r}, purpose={purpose!r})'
    if purpose not in ('cls', 'seg'):
        raise ValueError(f'{call}: purpose is \'cls\' or \'seg\'')
    if purpose == 'cls':
        kwargs['stage_interp_type'] = stage_interp_type
    return _build(call, f'hrnet_{model_name}_{purpose[0]}', 'hrnet_*', pretrained, ctx, root, kwargs)


def get_fcn(dataset='pascal_voc', backbone='resnet50', pretrained=False, root=None, ctx=None, pretrained_base=True,
            **kwargs):
    """FCN on `backbone` for `dataset` (pascal_voc, pascal_aug, ade20k, coco, citys)."""
    call = f'get_fcn({dataset!r}, {backbone!r})'
    return _build(call, f'fcn_{backbone}_{_seg_suffix(call, dataset)}', 'fcn_*', pretrained, ctx, root,
                  dict(kwargs, pretrained_base=pretrained_base))


def get_psp(dataset='pascal_voc', backbone='resnet50', pretrained=False, root=None, ctx=None, pretrained_base=True,
            **kwargs):
    """PSPNet on `backbone` for `dataset`."""
    call = f'get_psp({dataset!r}, {backbone!r})'
    return _build(call, f'psp_{backbone}_{_seg_suffix(call, dataset)}', 'psp_*', pretrained, ctx, root,
                  dict(kwargs, pretrained_base=pretrained_base))


def get_deeplab(dataset='pascal_voc', backbone='resnet50', pretrained=False, root=None, ctx=None, **kwargs):
    """DeepLabV3 on `backbone` for `dataset`."""
    call = f'get_deeplab({dataset!r}, {backbone!r})'
    return _build(call, f'deeplab_{backbone}_{_seg_suffix(call, dataset)}', 'deeplab_res*', pretrained, ctx, root,
                  kwargs)


def get_deeplab_plus(dataset='pascal_voc', backbone='xception', pretrained=False, root=None, ctx=None, **kwargs):
    """DeepLabV3+ on `backbone` for `dataset`."""
    call = f'get_deeplab_plus({dataset!r}, {backbone!r})'
    return _build(call, f'deeplab_plus_{backbone}_{_seg_suffix(call, dataset)}', 'deeplab_plus_*', pretrained, ctx,
                  root, kwargs)


def get_deeplabv3b_plus(dataset='citys', backbone='wideresnet', pretrained=False, root=None, ctx=None, **kwargs):
    """DeepLabV3+ (the V3B wide-ResNet variant) on `backbone` for `dataset`."""
    call = f'get_deeplabv3b_plus({dataset!r}, {backbone!r})'
    return _build(call, f'deeplab_v3b_plus_{backbone}_{_seg_suffix(call, dataset)}', 'deeplab_v3b_plus_*',
                  pretrained, ctx, root, kwargs)


#: get_segmentation_model's model keys -> the factory (GluonCV's keys that another issue adds are left out)
_SEGMENTATION = {'fcn': get_fcn, 'psp': get_psp, 'deeplab': get_deeplab, 'deeplabplus': get_deeplab_plus,
                 'deeplabplusv3b': get_deeplabv3b_plus}


def get_segmentation_model(model, **kwargs):
    """The segmentation factory `model` ('fcn', 'psp', 'deeplab', 'deeplabplus', 'deeplabplusv3b') with kwargs."""
    if model not in _SEGMENTATION:
        raise UnknownModelError(f'get_segmentation_model: unknown model {model!r}; the registered families are '
                                f'{", ".join(_SEGMENTATION)}')
    return _SEGMENTATION[model](**kwargs)


def _detector(call, name, family, classes, pretrained, ctx, root, kwargs):
    if classes is not None:
        kwargs['classes'] = list(classes) if not isinstance(classes, int) else classes
    return _build(call, name, family, pretrained, ctx, root, kwargs)


def get_ssd(name, base_size, features, filters, sizes, ratios, steps, classes, dataset, pretrained=False,
            pretrained_base=True, ctx=None, root=None, **kwargs):
    """The registered SSD `ssd_{base_size}_{name}_{dataset}` with `classes` (features..steps: GluonCV's for it)."""
    kwargs.pop('anchor_generator', None)
    return _detector(f'get_ssd({name!r}, {base_size!r}, dataset={dataset!r})', f'ssd_{base_size}_{name}_{dataset}',
                     'ssd_*', classes, pretrained, ctx, root, dict(kwargs, pretrained_base=pretrained_base))


def get_yolov3(name, stages, filters, anchors, strides, classes, dataset, pretrained=False, ctx=None, root=None,
               **kwargs):
    """The registered YOLOv3 `yolo3_{name}_{dataset}` with `classes` (stages..strides: GluonCV's for it)."""
    return _detector(f'get_yolov3({name!r}, dataset={dataset!r})', f'yolo3_{name}_{dataset}', 'yolo3_*', classes,
                     pretrained, ctx, root, kwargs)


def get_faster_rcnn(name, dataset, pretrained=False, ctx=None, root=None, **kwargs):
    """The registered Faster R-CNN `faster_rcnn_{name}_{dataset}` (name e.g. 'resnet50_v1b', 'fpn_resnet50_v1b')."""
    return _detector(f'get_faster_rcnn({name!r}, {dataset!r})', f'faster_rcnn_{name}_{dataset}', 'faster_rcnn_*',
                     kwargs.pop('classes', None), pretrained, ctx, root, kwargs)


def get_mask_rcnn(name, dataset, pretrained=False, ctx=None, root=None, **kwargs):
    """The registered Mask R-CNN `mask_rcnn_{name}_{dataset}`."""
    return _detector(f'get_mask_rcnn({name!r}, {dataset!r})', f'mask_rcnn_{name}_{dataset}', 'mask_rcnn_*',
                     kwargs.pop('classes', None), pretrained, ctx, root, kwargs)


def get_center_net(name, dataset, pretrained=False, ctx=None, root=None, **kwargs):
    """The registered CenterNet `center_net_{name}_{dataset}`."""
    return _detector(f'get_center_net({name!r}, {dataset!r})', f'center_net_{name}_{dataset}', 'center_net_*',
                     kwargs.pop('classes', None), pretrained, ctx, root, kwargs)


def get_simple_pose_resnet(base_name, pretrained=False, ctx=None, root=None, **kwargs):
    """The registered Simple Pose `simple_pose_{base_name}` (base_name e.g. 'resnet50_v1b')."""
    return _build(f'get_simple_pose_resnet({base_name!r})', f'simple_pose_{base_name}', 'simple_pose_*',
                  pretrained, ctx, root, kwargs)


def get_mobile_pose(base_name, ctx=None, pretrained=False, root=None, **kwargs):
    """The registered Mobile Pose `mobile_pose_{base_name}` (base_name e.g. 'mobilenetv2_1.0')."""
    return _build(f'get_mobile_pose({base_name!r})', f'mobile_pose_{base_name}', 'mobile_pose_*', pretrained, ctx,
                  root, kwargs)


__all__ = sorted(n for n in globals() if n.startswith('get_') and n != 'get_model')
