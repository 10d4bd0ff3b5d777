"""Object detection in the training engine (gluonzoo.train.protocol): SSD, YOLOv3 and CenterNet, trained as GluonCV
0.10.5's scripts train them, evaluated every epoch by VOC07 mAP.

Per family (the registered detector's module decides it):

    SSD        train: GluonCV's SSD augmentation (transforms.detection.ssd_train). Targets per image: anchors and
               boxes matched by GluonCV's rule (a bipartite match first, so every box gets its best anchor; then
               anchors that tie that best IoU; then every anchor with IoU >= 0.5), every other anchor a negative;
               classes as id + 1 (0 background), boxes as normalized center offsets (stds 0.1, 0.1, 0.2, 0.2).
               Loss: SSDMultiBoxLoss: softmax cross-entropy on the positives and the hardest negatives (3 per
               positive, by their loss), smooth L1 on the positives' offsets, both over the batch's positives.
    YOLOv3     train: the same augmentation (yolo3_train). Targets: each box goes to the anchor (of all nine) whose
               shape fits it best, in the grid cell of that anchor's level holding its center: center offsets in the
               cell, log-scales against the anchor, weight 2 - box area / image area, one-hot class; predictions
               whose decoded box overlaps some box by IoU > 0.7 are not penalized as background. Loss: YOLOV3Loss
               (sigmoid cross-entropy on objectness, centers and classes, L1 on scales), summed per image.
    CenterNet  train: CenterNet's augmentation (center_net_train: flip, affine crop, color jitter). Targets on the
               stride-4 map: per box a Gaussian bump (CornerNet's radius) on its class's heatmap, its width/height
               and sub-cell offset at its center cell. Loss: the heatmap focal loss + 0.1 L1 on sizes + L1 on
               offsets; heads and biases get no weight decay (GluonCV's script).

Faster R-CNN is not trained here (inference only). Batches come in the engine's order (train.data.epoch_indices);
the augmentation of batch b draws from RandomState([seed, epoch, b, 1 + rank]), image after image, so a run is
reproducible byte for byte on one thread and resumes exactly. Evaluation: the family's eval transform (GluonCV's),
detections clipped to the input, VOC07 mAP at IoU 0.5 over the eval split, difficult objects ignored.

The data: `scenes` (generated, vision/data/scenes.py), `voc:PATH` (a VOC folder) and `coco:PATH` (COCO JSON), see
data.py; every problem the data has is reported before training starts. The families' targets and losses are in
families.py; this module holds the task and what picks the family and input size.
"""
import numpy as np

from ....errors import BadInputError
from ....train.data import epoch_indices
from ...metrics.detection import VOC07MApMetric
from ..classification import refuse_classification_options
from .data import coco_data, files_checksum, pick_classes, voc_data
from .families import (_HEADS, Draws, center_net_loss, center_net_targets, gaussian_radius, ssd_loss, ssd_match,
                       ssd_targets, yolo3_loss, yolo3_targets)

#: the detector families this task trains, by the module their registered builder lives in (darknet's
#: YOLOv3-tiny trains as a YOLOv3: the same outputs, targets and losses)
FAMILIES = {'ssd': 'ssd', 'yolo3': 'yolo3', 'yolo3_tiny': 'yolo3', 'center_net': 'center_net'}
NAMES = {'ssd': 'SSD', 'yolo3': 'YOLOv3', 'center_net': 'CenterNet'}
#: an input side for detectors whose name and records do not give one (GluonCV's defaults)
DEFAULT_SIZE = {'ssd': 300, 'yolo3': 416, 'center_net': 512}



def family_of(model):
    """The detector family ('ssd', 'yolo3', 'center_net') of registered model `model`, from the module its builder
    lives in; anything else is an error naming what is trainable."""
    from ....registry import get_entry
    entry = get_entry(model)
    module = entry.builder.__module__.rsplit('.', 1)[-1]
    if entry.task != 'object-detection':
        raise BadInputError(f'{model} is a {entry.task} model: the detection datasets train object detectors')
    if module not in FAMILIES:
        what = 'Faster R-CNN' if 'rcnn' in entry.builder.__module__ else module
        raise BadInputError(f'{model}: training {what} is not implemented (inference only); gluonzoo trains '
                            f'{", ".join(NAMES.values())} detectors (docs/training.md)')
    return FAMILIES[module]


def input_spec(cfg):
    """(side, mean, std) of the square input a detector trains and evaluates at. The side: --data-shape, else the
    one its weights record takes (the checkpoint `arch.tag` names, else the default), else the one in an SSD's name,
    else GluonCV's default for the family. Pixels are scaled to 0-1 and normalized by the record's mean and std
    (darknet's YOLOv3-tiny: none), else ImageNet's."""
    from ....registry import get_entry
    from ...meta import IMAGENET_MEAN, IMAGENET_STD
    family = family_of(cfg.model)
    entry = get_entry(cfg.model)
    tag = cfg.model[len(entry.name) + 1:]
    records = [w for w in entry.weights.values() if (w.tag == tag if tag else w.default)]
    pre = records[0].preprocess if records else {}
    mean, std = tuple(pre.get('mean', IMAGENET_MEAN)), tuple(pre.get('std', IMAGENET_STD))
    if cfg.data_shape:
        return int(cfg.data_shape), mean, std
    if records:
        return int(records[0].input_shape[-1]), mean, std
    if family == 'ssd':
        return int(entry.name.split('_')[1]), mean, std
    return DEFAULT_SIZE[family], mean, std


# -- the task -----------------------------------------------------------------------------------------------------
def _pad_labels(labels):
    """(B, M, 6) of a list of (k, 6) labels, padded with -1."""
    m = max([len(lb) for lb in labels] + [1])
    out = np.full((len(labels), m, 6), -1, np.float32)
    for i, lb in enumerate(labels):
        out[i, :len(lb)] = lb[:, :6]
    return out


class ObjectDetection:
    """A detection dataset pair (objects with `sample(i) -> (image, label (N, 6))` and `len`) trained and evaluated
    as the module docstring says; `classes` the class names, `family` the detector's, `size` its square input."""

    def __init__(self, train, val, classes, info, family, size, mean, std, augment=True, eval_split='test',
                 eval_batch_size=32):
        self.train, self.val, self.classes, self.info = train, val, tuple(classes), info
        self.family, self.size, self.augment = family, int(size), augment
        self.norm = {'width': self.size, 'height': self.size, 'mean': tuple(mean), 'std': tuple(std)}
        self.eval_split, self.eval_batch_size = eval_split, eval_batch_size
        self.head = _HEADS[family]()

    def dataset_info(self):
        return dict(self.info, train_size=len(self.train), eval_size=len(self.val), eval_split=self.eval_split,
                    classes=list(self.classes), input_size=self.size, mean=list(self.norm['mean']),
                    std=list(self.norm['std']))

    def settle(self, net, ctx):
        import mxnet as mx
        if tuple(net.classes) != self.classes:
            raise BadInputError(f'the net predicts {len(net.classes)} classes ({", ".join(net.classes[:5])}...), '
                                f'the data has {len(self.classes)} ({", ".join(self.classes[:5])}...)')
        net(mx.nd.zeros((1, 3, self.size, self.size), ctx=ctx))
        self.head.prepare(net, self.size, ctx)

    def num_batches(self, batch_size, workers):
        return len(self.train) // (batch_size * workers)

    def _train_sample(self, i, rng):
        img, label = self.train.sample(i)
        if self.augment:
            return self.head.train_transform(img, label, rng, **self.norm)
        x, boxes = self.head.eval_transform(img, label, **self.norm)
        if self.family == 'center_net':  # its targets live on the heatmap
            boxes = boxes.copy()
            boxes[:, :4] /= self.head.stride
        return x, boxes

    def batches(self, epoch, cfg, rank, workers):
        for b, idx in epoch_indices(len(self.train), epoch, cfg.batch_size, cfg.seed, rank, workers):
            rng = Draws([cfg.seed, epoch, b, 1 + rank])
            xs, labels = zip(*[self._train_sample(i, rng) for i in idx])
            labels = [np.asarray(lb, np.float32).reshape(-1, 6) for lb in labels]
            yield b, (np.stack(xs), self.head.targets(labels, self.size))

    def train_step(self, net, batch, cfg, epoch, ctx):
        import mxnet as mx
        from mxnet import autograd
        x, targets = batch
        with autograd.record():
            outputs = net(mx.nd.array(x, ctx=ctx))
            loss, parts = self.head.loss(outputs, targets, ctx)
        loss.backward()
        n = len(x)
        stats = {k: float(v.asscalar()) * n for k, v in parts.items()}
        stats.update(loss=sum(stats.values()), n=n)  # the families' loss weights are 1 (CenterNet's are inside)
        return stats

    def evaluate(self, net, ctx):
        """VOC07 mAP (IoU 0.5) on the eval split: {'map': mean, 'ap_<class>': AP of each class with objects there}."""
        import mxnet as mx
        metric = VOC07MApMetric(iou_thresh=0.5, class_names=self.classes)
        hybrid = getattr(net, '_active', False)
        if hybrid:  # its cached graph may be the training one: trace the inference graph (and back afterwards)
            net._clear_cached_op()
        for at in range(0, len(self.val), self.eval_batch_size):
            xs, labels = [], []
            for i in range(at, min(at + self.eval_batch_size, len(self.val))):
                img, label = self.val.sample(i)
                x, boxes = self.head.eval_transform(img, label, **self.norm)
                xs.append(x)
                labels.append(np.asarray(boxes, np.float32).reshape(-1, 6))
            ids, scores, bboxes = net(mx.nd.array(np.stack(xs), ctx=ctx))
            gt = _pad_labels(labels)
            metric.update(bboxes.clip(0, self.size), ids, scores, gt[:, :, :4], gt[:, :, 4], gt[:, :, 5])
        if hybrid:
            net._clear_cached_op()
        got = metric.results()
        return dict({'map': float(got['mAP'])}, **{f'ap_{c}': float(got[c]) for c in self.classes
                                                   if not np.isnan(got[c])})




def check_config(cfg):
    """Refuse, before any data is read, what detection training does not take; return the detector's family."""
    refuse_classification_options(cfg, 'detection training')
    return family_of(cfg.model)


def detection_task(cfg, name, source, data):
    """The ObjectDetection task of `data`, (train, eval, classes, {train_split, eval_split, checksum})."""
    train, val, classes, split_info = data
    info = {'name': name, 'source': source, 'checksum': split_info['checksum'],
            'train_split': split_info['train_split']}
    return ObjectDetection(train, val, classes, info, check_config(cfg), *input_spec(cfg),
                           augment=cfg.augment != 'none', eval_split=split_info['eval_split'])


def build_detector(cfg, classes, ctx=None):
    """The net a detection recipe trains: the registered detector for `classes`. With --pretrained 1 its default
    weights, `reset_class` to `classes` when they differ (the classes both have keep their rows). Otherwise a fresh
    net on its pretrained body (`pretrained_base`, unless model_kwargs turns it off), the rest initialized from the
    seed as the registry does (Gluon's default), an SSD's predictors as GluonCV's (Xavier, magnitude 2; zero
    bias)."""
    import mxnet as mx
    from ....registry import get_model, initialize_unset
    from ....train.engine import _context
    ctx = ctx or _context(cfg)
    mx.random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    classes = list(classes)
    if cfg.pretrained:
        net = get_model(cfg.model, pretrained=True, ctx=ctx, **cfg.model_kwargs)
        if list(net.classes) != classes:
            net.reset_class(classes, reuse_weights=[c for c in classes if c in net.classes])
        return net
    net = get_model(cfg.model, classes=classes, ctx=ctx, **cfg.model_kwargs)
    initialize_unset(net, ctx)  # the draws get_model made before issue 26: the recipes' logs stay reproducible
    if family_of(cfg.model) == 'ssd':
        for block in (net.class_predictors, net.box_predictors):
            block.initialize(mx.init.Xavier(magnitude=2), ctx=ctx, force_reinit=True)
    return net


__all__ = ['ObjectDetection', 'build_detector', 'check_config', 'detection_task', 'family_of', 'input_spec',
           'voc_data', 'coco_data', 'files_checksum', 'pick_classes', 'ssd_match', 'ssd_targets', 'ssd_loss',
           'yolo3_targets', 'yolo3_loss', 'gaussian_radius', 'center_net_targets', 'center_net_loss', 'Draws']
