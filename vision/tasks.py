"""The vision tasks, as the zoo sees them (gluonzoo.tasks): what an image record's preprocess may say, the example
input and the output contract of each task, the eval transform, the verify check and the command that runs it.

Preprocess keys of an image record (applied by transforms.from_preprocess, the export's in-graph preprocessing and
the C++/Java services alike):
    resize   int: the short side, aspect kept | (h, w): exactly      crop    int | (h, w): center crop after resize
    max_size with an int resize: the long side is capped at this (the short one shrinks with it; GluonCV's detectors)
    mean/std one value per channel (after scaling)                  scale   multiplies the 0-255 pixels (1/255)
    color    'RGB' | 'BGR' | 'grey' (1 channel)                     layout  'NCHW' | 'NHWC'
    interp   'linear' (GluonCV's) | 'area' | 'cubic' | 'nearest' | None (area shrinking, linear growing)
    preset   the training augmentation: 'imagenet' | 'cifar'

An action-recognition record adds how a clip is sampled from a video (GluonCV's names in brackets):
    frames   frames a clip has (new_length)      step     frames between them (new_step)
    segments clips spread over the video that the net averages (num_segments; TSN's frames are (N*segments, 3, H, W))
    slowfast (fast, slow): SlowFast's frames a pathway, the fast ones then the slow ones along T (GluonCV's
             slowfast=True clips)
    test_views (clips, crops): the views GluonCV's published accuracy averages (test_recognizer.py's num_segments
             and --three-crop / --ten-crop), what `recognize` scores by default; without it the record's own
             sampling (frames, step, segments) and the centre crop
"""
from ..tasks import Command, Task, number, numbers, one_of, positive_int, register_command, register_task, size

IMAGE_PREPROCESS = {
    'resize': size('resize'), 'max_size': positive_int('max_size'), 'crop': size('crop'), 'mean': numbers('mean'),
    'std': numbers('std', positive=True),
    'scale': number('scale'), 'color': one_of('color', 'RGB', 'BGR', 'grey'),
    'layout': one_of('layout', 'NCHW', 'NHWC'),
    'interp': one_of('interp', None, 'linear', 'area', 'cubic', 'nearest'),
    'preset': one_of('preset', 'imagenet', 'cifar'),
}


#: crops a frame -> how GluonCV's test_recognizer.py cuts them (scripts/action-recognition): 1 the record's eval
#: transform (resize, centre crop); 3 its --three-crop (short side to the crop side, three squares along the long
#: side); 10 its --ten-crop (the record's resize, centre and four corners, and those mirrored)
TEST_CROPS = (1, 3, 10)


def _test_views(v):
    ok = isinstance(v, (tuple, list)) and len(v) == 2 and positive_int('')(v[0]) is None and v[1] in TEST_CROPS
    return None if ok else f'test_views must be (clips, crops) with crops 1, 3 or 10, not {v!r}'


VIDEO_PREPROCESS = dict(IMAGE_PREPROCESS, frames=positive_int('frames'), step=positive_int('step'),
                        segments=positive_int('segments'), slowfast=size('slowfast'), test_views=_test_views)


def channels(preprocess):
    """How many channels the net takes after a record's preprocess."""
    return 1 if preprocess.get('color') == 'grey' else 3


def _check_image_record(w):
    pre, shape = w.preprocess, w.input_shape
    c = channels(pre)
    if len(shape) != 4:
        return [f'input_shape {shape} is not (N, C, H, W) (or N, H, W, C)']
    nhwc = pre.get('layout') == 'NHWC'
    out = []
    if (shape[3] if nhwc else shape[1]) != c:
        out.append(f'input_shape {shape} does not have the {c} channel(s) color {pre.get("color", "RGB")!r} gives')
    for key in ('mean', 'std'):
        if key in pre and len(pre[key]) != c:
            out.append(f'preprocess {key} has {len(pre[key])} values for {c} channel(s)')
    crop = pre.get('crop')
    if crop is not None:
        hw = (crop, crop) if isinstance(crop, int) else tuple(crop)
        if hw != (tuple(shape[1:3]) if nhwc else tuple(shape[2:])):
            out.append(f'preprocess crop {crop} does not give the input_shape {shape}')
    return out


def _image_inputs(entry):
    import mxnet as mx
    if callable(entry.test_input):
        return tuple(entry.test_input())
    return (mx.nd.random.uniform(shape=entry.test_input),)


def _check_logits(outputs, inputs, classes):
    import numpy as np
    assert len(outputs) == 1, f'a classifier returns one array of logits, not {len(outputs)} outputs'
    want = (inputs[0].shape[0], classes)
    assert outputs[0].shape == want, f'logits of shape {outputs[0].shape}, expected {want} (batch, classes)'
    assert np.isfinite(outputs[0].asnumpy()).all(), 'logits are not all finite'


def _check_detections(outputs, inputs, classes):
    """GluonCV's detector output: ids (N, K, 1), scores (N, K, 1), boxes (N, K, 4), padded with -1; CenterNet's
    ids and scores are (N, K), as GluonCV's."""
    import numpy as np
    assert len(outputs) == 3, f'a detector returns (ids, scores, bboxes), not {len(outputs)} outputs'
    ids, scores, boxes = (o.asnumpy() for o in outputs)
    n = inputs[0].shape[0]
    assert ids.shape[0] == n and (ids.ndim == 2 or ids.ndim == 3 and ids.shape[2] == 1), \
        f'ids of shape {ids.shape}, want (N, K, 1) or (N, K)'
    assert scores.shape == ids.shape, f'scores of shape {scores.shape}, ids {ids.shape}'
    assert boxes.shape == ids.shape[:2] + (4,), f'bboxes of shape {boxes.shape}, want {ids.shape[:2] + (4,)}'
    assert ((ids == -1) | ((ids >= 0) & (ids < classes) & (ids == np.round(ids)))).all(), \
        f'class ids outside [0, {classes}) that are not the -1 padding'
    assert ((ids == -1) == (scores == -1)).all(), 'padding (-1) of ids and scores does not line up'
    for a in (scores, boxes):
        assert np.isfinite(a).all(), 'scores or boxes are not all finite'


def _transforms(w):
    from .transforms import from_preprocess
    return from_preprocess(w.preprocess)


def _verify_photos(w, net):
    """The record's check['top1']: {bundled photo: expected top-1 label}."""
    from importlib import resources
    from .inference import classify
    assets = resources.files(__package__).joinpath('assets')
    out = []
    for image, expected in w.check.get('top1', {}).items():
        label, p = classify(net, [str(assets.joinpath(image))], topk=1)[0][0]
        out.append((f'top1 {image}: {label} ({p:.3f}) {"ok" if label == expected else "expected " + expected}',
                    label == expected))
    return out


def _predict_args(parser):
    parser.add_argument('name', help='an image classifier (arch or arch.tag), e.g. mobilenetv2_1.0')
    parser.add_argument('images', nargs='+', help='image files (anything OpenCV decodes)')
    parser.add_argument('--topk', type=int, default=5)


def _predict(args):
    from .commands import predict
    return predict(args)


def _detect_args(parser):
    parser.add_argument('name', help='an object detector (arch or arch.tag), e.g. yolo3_tiny_darknet_coco')
    parser.add_argument('images', nargs='+', help='image files (anything OpenCV decodes)')
    parser.add_argument('--threshold', type=float, default=0.5, help='the lowest score shown (default 0.5)')
    parser.add_argument('--out', help='a folder for the annotated pictures, one <image stem>.png each')


def _detect(args):
    from .commands import detect
    return detect(args)


def _segment_args(parser):
    parser.add_argument('name', help='a semantic segmentation net (arch or arch.tag), e.g. fcn_resnet101_voc')
    parser.add_argument('images', nargs='+', help='image files (anything OpenCV decodes), each run at its own size')
    parser.add_argument('--out', help='a folder for <image stem>.png (the class map over the picture), '
                        '<stem>.classes.png (class ids, a palette PNG) and <stem>.json')


def _segment(args):
    from .commands import segment
    return segment(args)


def _pose_args(parser):
    parser.add_argument('detector', help='a detector with a person class (arch or arch.tag), e.g. '
                        'yolo3_mobilenet1.0_coco')
    parser.add_argument('pose', help='a pose estimation net (arch or arch.tag), e.g. simple_pose_resnet18_v1b')
    parser.add_argument('images', nargs='+', help='image files (anything OpenCV decodes)')
    parser.add_argument('--threshold', type=float, default=0.5, help='the lowest person score kept (default 0.5)')
    parser.add_argument('--out', help='a folder for <image stem>.png (boxes and skeletons) and <stem>.json')


def _pose(args):
    from .commands import pose
    return pose(args)


register_command(Command('predict', 'classify images: top-k labels with probabilities', _predict_args, _predict))
register_command(Command('detect', 'find objects: class, score and box of each (and annotated pictures)',
                         _detect_args, _detect))
register_command(Command('segment', 'label every pixel: the classes in each image (and class-map pictures)',
                         _segment_args, _segment))
register_command(Command('pose', 'find people and their 17 joints (and skeleton pictures)', _pose_args, _pose))
register_task(Task('image-classification', 'vision', IMAGE_PREPROCESS, _image_inputs, _check_logits,
                   has_classes=True, transforms=_transforms, check_record=_check_image_record, verify=_verify_photos,
                   command='predict'))
register_task(Task('object-detection', 'vision', IMAGE_PREPROCESS, _image_inputs, _check_detections,
                   has_classes=True, transforms=_transforms, check_record=_check_image_record, command='detect'))


def _check_score_maps(outputs, inputs, classes):
    """A semantic segmentation net's per-pixel class scores (N, classes, h, w), h x w the input's size, GluonCV's
    `crop_size` or a stride of it (HRNet `_s` scores at stride 4); GluonCV's FCN/PSPNet/DeepLab built with
    `aux=True` return the auxiliary head's map of the same shape after the main one."""
    import numpy as np
    assert len(outputs) in (1, 2), f'a segmentation net returns a score map (and an auxiliary one), not ' \
                                   f'{len(outputs)} outputs'
    n = inputs[0].shape[0]
    for y in outputs:
        assert y.ndim == 4 and y.shape[:2] == (n, classes), \
            f'scores of shape {y.shape}, expected ({n}, {classes}, h, w)'
        assert np.isfinite(y.asnumpy()).all(), 'scores are not all finite'
    assert len({y.shape for y in outputs}) == 1, f'main and auxiliary maps differ: {[y.shape for y in outputs]}'


def _check_heatmaps(outputs, inputs, classes):
    """A top-down pose net's joint heatmaps (N, joints, h, w) for N person crops (GluonCV's SimplePose/MobilePose:
    h x w a quarter of the crop); the joint names are the record's `config['joints']` (vision/meta.py)."""
    import numpy as np
    assert len(outputs) == 1, f'a pose net returns one heatmap array, not {len(outputs)} outputs'
    y, n = outputs[0], inputs[0].shape[0]
    assert y.ndim == 4 and y.shape[0] == n, f'heatmaps of shape {y.shape}, expected ({n}, joints, h, w)'
    assert np.isfinite(y.asnumpy()).all(), 'heatmaps are not all finite'


register_task(Task('semantic-segmentation', 'vision', IMAGE_PREPROCESS, _image_inputs, _check_score_maps,
                   has_classes=True, transforms=_transforms, check_record=_check_image_record, command='segment'))
register_task(Task('pose-estimation', 'vision', IMAGE_PREPROCESS, _image_inputs, _check_heatmaps,
                   transforms=_transforms, check_record=_check_image_record, command='pose'))


def frame_preprocess(preprocess):
    """What of a video record's preprocess transforms each frame (resize, crop, mean/std, ...): all but how the clip
    is sampled (frames, step, segments, ...)."""
    return {k: v for k, v in preprocess.items() if k in IMAGE_PREPROCESS}


def _frame_transforms(w):
    from .transforms import from_preprocess
    return from_preprocess(frame_preprocess(w.preprocess))


def _check_video_record(w):
    """A clip model takes (N, 3, T, H, W) (SlowFast: T = fast + slow frames); a TSN-style frame model (N * segments,
    3, H, W) frames, segments of them a video."""
    pre, shape = w.preprocess, tuple(w.input_shape)
    if len(shape) == 4:
        return _check_image_record(w)
    if len(shape) != 5 or shape[1] != 3:
        return [f'input_shape {shape} is neither (N, 3, T, H, W) clips nor (N * segments, 3, H, W) frames']
    want_t = sum(pre['slowfast']) if 'slowfast' in pre else pre.get('frames', shape[2])
    out = [] if want_t == shape[2] else [f'input_shape {shape} has {shape[2]} frames, its preprocess {want_t}']
    crop = pre.get('crop')
    if crop is not None and ((crop, crop) if isinstance(crop, int) else tuple(crop)) != shape[3:]:
        out.append(f'preprocess crop {crop} does not give the input_shape {shape}')
    return out


def _check_actions(outputs, inputs, classes):
    """An action recognizer's class scores (N, classes): one row a video, whether it took (N, 3, T, H, W) clips or
    (N * segments, 3, H, W) frames that it averages (GluonCV's TSN consensus); `feat_ext=True` nets return the
    features (N, C) instead, which their tests check."""
    import numpy as np
    assert len(outputs) == 1, f'an action recognizer returns one array of scores, not {len(outputs)} outputs'
    y = outputs[0]
    assert y.ndim == 2 and y.shape[1] == classes, f'scores of shape {y.shape}, expected (videos, {classes})'
    assert np.isfinite(y.asnumpy()).all(), 'scores are not all finite'


def _recognize_args(parser):
    parser.add_argument('name', help='an action recognizer (arch or arch.tag), e.g. i3d_resnet50_v1_kinetics400')
    parser.add_argument('videos', nargs='+', help='video files (anything FFmpeg decodes)')
    parser.add_argument('--topk', type=int, default=5)
    parser.add_argument('--views', metavar='CLIPSxCROPS', default=None,
                        help="clips a video (TSN: frames) and crops a frame (1, 3 or 10) to average, e.g. 10x3 "
                             "(GluonCV's 3D test); 0x1: the record's own clip sampling, the centre crop (what the "
                             "C++ and Java services score); default: the record's test_views, else 0x1")
    parser.add_argument('--out', help="a folder for <video stem>.png (the clip's frames and its top-k) and <stem>.json")


def _recognize(args):
    from .commands import recognize
    return recognize(args)


register_command(Command('recognize', 'name the actions in videos: top-k classes with probabilities',
                         _recognize_args, _recognize))
register_task(Task('action-recognition', 'vision', VIDEO_PREPROCESS, _image_inputs, _check_actions,
                   has_classes=True, transforms=_frame_transforms, check_record=_check_video_record,
                   command='recognize'))


def _check_instances(outputs, inputs, classes):
    """GluonCV's Mask R-CNN output: a detector's (ids, scores, boxes), padded with -1, then masks (N, K, M, M), each
    detection's M x M mask probabilities over its box."""
    assert len(outputs) == 4, f'an instance segmentation net returns (ids, scores, bboxes, masks), not ' \
                              f'{len(outputs)} outputs'
    _check_detections(outputs[:3], inputs, classes)
    masks, ids = outputs[3].asnumpy(), outputs[0]
    assert masks.ndim == 4 and masks.shape[:2] == ids.shape[:2] and masks.shape[2] == masks.shape[3], \
        f'masks of shape {masks.shape}, want {ids.shape[:2]} + (M, M)'
    assert ((masks >= 0) & (masks <= 1)).all(), 'mask probabilities outside [0, 1] (or not finite)'


register_task(Task('instance-segmentation', 'vision', IMAGE_PREPROCESS, _image_inputs, _check_instances,
                   has_classes=True, transforms=_transforms, check_record=_check_image_record))
