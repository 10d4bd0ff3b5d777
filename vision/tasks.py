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
    """GluonCV's detector output: ids (N, K, 1), scores (N, K, 1), boxes (N, K, 4), padded with -1."""
    import numpy as np
    assert len(outputs) == 3, f'a detector returns (ids, scores, bboxes), not {len(outputs)} outputs'
    ids, scores, boxes = (o.asnumpy() for o in outputs)
    n = inputs[0].shape[0]
    assert ids.shape[0] == n and ids.ndim == 3 and ids.shape[2] == 1, f'ids of shape {ids.shape}, want (N, K, 1)'
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


register_command(Command('predict', 'classify images: top-k labels with probabilities', _predict_args, _predict))
register_command(Command('detect', 'find objects: class, score and box of each (and annotated pictures)',
                         _detect_args, _detect))
register_task(Task('image-classification', 'vision', IMAGE_PREPROCESS, _image_inputs, _check_logits,
                   has_classes=True, transforms=_transforms, check_record=_check_image_record, verify=_verify_photos,
                   command='predict'))
register_task(Task('object-detection', 'vision', IMAGE_PREPROCESS, _image_inputs, _check_detections,
                   has_classes=True, transforms=_transforms, check_record=_check_image_record, command='detect'))


def _check_score_maps(outputs, inputs, classes):
    """A semantic segmentation net's per-pixel class scores (N, classes, h, w), h x w the input's size or a stride
    of it (GluonCV's HRNet `_s` score at stride 4)."""
    import numpy as np
    assert len(outputs) == 1, f'a segmentation net returns one score map, not {len(outputs)} outputs'
    y, n = outputs[0], inputs[0].shape[0]
    assert y.ndim == 4 and y.shape[:2] == (n, classes), f'scores of shape {y.shape}, expected ({n}, {classes}, h, w)'
    assert np.isfinite(y.asnumpy()).all(), 'scores are not all finite'


register_task(Task('semantic-segmentation', 'vision', IMAGE_PREPROCESS, _image_inputs, _check_score_maps,
                   has_classes=True, transforms=_transforms, check_record=_check_image_record))
