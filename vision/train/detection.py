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
`voc_data` / `coco_data`; every problem the data has is reported before training starts.
"""
import glob
import os
import warnings

import numpy as np

from ...errors import BadInputError
from ...train.data import epoch_indices
from ..metrics.detection import VOC07MApMetric
from ..transforms import detection as presets

#: the detector families this task trains, by the module their registered builder lives in (darknet's
#: YOLOv3-tiny trains as a YOLOv3: the same outputs, targets and losses)
FAMILIES = {'ssd': 'ssd', 'yolo3': 'yolo3', 'yolo3_tiny': 'yolo3', 'center_net': 'center_net'}
NAMES = {'ssd': 'SSD', 'yolo3': 'YOLOv3', 'center_net': 'CenterNet'}
#: an input side for detectors whose name and records do not give one (GluonCV's defaults)
DEFAULT_SIZE = {'ssd': 300, 'yolo3': 416, 'center_net': 512}


class Draws(np.random.RandomState):
    """A RandomState with the `integers` method the box-aware transforms call (numpy's Generator spelling)."""

    def integers(self, low, high=None, size=None):
        return self.randint(low, high, size)


# -- SSD ----------------------------------------------------------------------------------------------------------
def _rows(label):
    """A label as float32 (N, 5+) rows x1, y1, x2, y2, class id[, ...] (an empty one as (0, 6))."""
    label = np.asarray(label, np.float32)
    return label if label.ndim == 2 else label.reshape(-1, 6)


def _iou(a, b):
    """IoU (N, M) of corner boxes, widths without +1: MXNet's contrib.box_iou, which GluonCV's targets use."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    tl = np.maximum(a[:, None, :2], b[None, :, :2])
    br = np.minimum(a[:, None, 2:4], b[None, :, 2:4])
    inter = np.prod(np.clip(br - tl, 0, None), axis=2)
    area_a = np.prod(np.clip(a[:, 2:4] - a[:, :2], 0, None), axis=1)
    area_b = np.prod(np.clip(b[:, 2:4] - b[:, :2], 0, None), axis=1)
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0).astype(np.float32)


def ssd_match(ious, iou_thresh=0.5, eps=1e-12):
    """GluonCV's SSD matching of anchors to boxes from their IoU (anchors, boxes) -> the box index of each anchor, or
    -1: greedy bipartite matching (pairs by falling IoU, each anchor and box used once), then for unmatched anchors
    the box they overlap most if that IoU is (within eps) the best any anchor has with it, then the box they
    overlap most if that IoU >= iou_thresh."""
    n, m = ious.shape
    match = np.full(n, -1, np.int64)
    if not m:
        return match
    used = np.zeros(m, bool)
    flat = ious.ravel()
    for k in np.argsort(-flat, kind='stable'):
        if flat[k] < eps or used.all():
            break
        a, g = divmod(int(k), m)
        if match[a] < 0 and not used[g]:
            match[a], used[g] = g, True
    best = ious.argmax(axis=1)
    best_iou = ious[np.arange(n), best]
    ties = (match < 0) & (best_iou + eps >= ious.max(axis=0)[best])
    match[ties] = best[ties]
    rest = (match < 0) & (best_iou >= iou_thresh)
    match[rest] = best[rest]
    return match


def ssd_targets(anchors, label, iou_thresh=0.5, stds=(0.1, 0.1, 0.2, 0.2)):
    """SSD training targets of one image: `anchors` (N, 4) corner boxes, `label` (M, 5+) boxes and class ids ->
    class targets (N,) (0 background, id + 1 for a matched anchor) and box targets (N, 4) (normalized center
    offsets of the matched box; 0 elsewhere), float32."""
    label = _rows(label)
    match = ssd_match(_iou(anchors, label[:, :4]), iou_thresh)
    pos = match >= 0
    cls = np.zeros(len(anchors), np.float32)
    cls[pos] = label[match[pos], 4] + 1
    box = np.zeros((len(anchors), 4), np.float32)
    if pos.any():
        g, a = label[match[pos], :4], anchors[pos]
        gw, gh = g[:, 2] - g[:, 0], g[:, 3] - g[:, 1]
        aw, ah = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
        gx, gy = g[:, 0] + gw * 0.5, g[:, 1] + gh * 0.5
        ax, ay = a[:, 0] + aw * 0.5, a[:, 1] + ah * 0.5
        box[pos] = np.stack([(gx - ax) / aw / stds[0], (gy - ay) / ah / stds[1],
                             np.log(gw / aw) / stds[2], np.log(gh / ah) / stds[3]], axis=1)
    return cls, box


def ssd_loss(cls_pred, box_pred, cls_target, box_target, negative_mining_ratio=3, rho=1.0, lambd=1.0):
    """GluonCV's SSDMultiBoxLoss of one batch (NDArrays): (total, class part, box part), scalars over the batch's
    positives. Negatives: the anchors with the largest class loss, `negative_mining_ratio` per positive of their
    image."""
    import mxnet as mx
    nd = mx.nd
    pos = cls_target > 0
    num_pos = float(pos.sum().asscalar())
    if num_pos < 1:  # nothing to learn from (GluonCV's dummy zero losses)
        zero = (cls_pred * 0).sum() + (box_pred * 0).sum()
        return zero, zero, zero
    cls_loss = -nd.pick(nd.log_softmax(cls_pred, axis=-1), cls_target, axis=-1, keepdims=False)
    rank = (cls_loss * (pos - 1)).argsort(axis=1).argsort(axis=1)
    hard = rank < (pos.sum(axis=1) * negative_mining_ratio).expand_dims(-1)
    cls_loss = nd.where((pos + hard) > 0, cls_loss, nd.zeros_like(cls_loss)).sum() / num_pos
    diff = nd.abs(box_pred - box_target)
    box_loss = nd.where(diff > rho, diff - 0.5 * rho, (0.5 / rho) * nd.square(diff))
    box_loss = (box_loss * pos.expand_dims(-1)).sum() / num_pos
    return cls_loss + lambd * box_loss, cls_loss, box_loss


class _SSD:
    """SSD's targets and loss around a net that returns (class predictions, box predictions, anchors) in training
    mode. The backward is of the batch loss times the batch size: GluonCV steps by 1 a normalized loss, the engine
    divides by the batch."""
    train_transform, eval_transform = staticmethod(presets.ssd_train), staticmethod(presets.ssd_eval)

    def prepare(self, net, size, ctx):
        import mxnet as mx
        from mxnet import autograd
        with autograd.train_mode():
            anchors = net(mx.nd.zeros((1, 3, size, size), ctx=ctx))[2]
        a = anchors.reshape((-1, 4)).asnumpy()
        self.anchors = np.concatenate([a[:, :2] - a[:, 2:] / 2, a[:, :2] + a[:, 2:] / 2], axis=1).astype(np.float32)

    def targets(self, labels, size):
        cls, box = zip(*[ssd_targets(self.anchors, label) for label in labels])
        return np.stack(cls), np.stack(box)

    def loss(self, outputs, targets, ctx):
        import mxnet as mx
        cls_t, box_t = (mx.nd.array(t, ctx=ctx) for t in targets)
        total, cls, box = ssd_loss(outputs[0], outputs[1], cls_t, box_t)
        n = cls_t.shape[0]
        return total * n, {'cls': cls, 'box': box}


# -- YOLOv3 -------------------------------------------------------------------------------------------------------
def yolo3_targets(label, anchors, grids, size, num_class):
    """YOLOv3's prefetched targets of one image (GluonCV's YOLOV3PrefetchTargetGenerator): `anchors` a list of
    (A, 2) arrays (w, h) per level in output order, `grids` the (H, W) of each level, `size` (height, width) of the
    input. Returns objectness (N, 1), center (N, 2), scale (N, 2), weight (N, 2), class (N, C) targets, one row per
    (level, cell, anchor); class rows are -1 (ignored) but at positives."""
    counts = [len(a) * h * w for a, (h, w) in zip(anchors, grids)]
    n = sum(counts)
    obj, center, scale, weight = (np.zeros((n, k), np.float32) for k in (1, 2, 2, 2))
    cls = np.full((n, num_class), -1, np.float32)
    label = _rows(label)
    if not len(label):
        return obj, center, scale, weight, cls
    shapes = np.concatenate(anchors, axis=0).astype(np.float32)
    level_of = np.repeat(np.arange(len(anchors)), [len(a) for a in anchors])
    first_anchor = np.concatenate([[0], np.cumsum([len(a) for a in anchors])])
    first_row = np.concatenate([[0], np.cumsum(counts)])
    h_in, w_in = size
    gw, gh = label[:, 2] - label[:, 0], label[:, 3] - label[:, 1]
    gx, gy = label[:, 0] + gw * 0.5, label[:, 1] + gh * 0.5
    centered = np.stack([-0.5 * gw, -0.5 * gh, 0.5 * gw, 0.5 * gh], axis=1)
    anchor_boxes = np.concatenate([-0.5 * shapes, 0.5 * shapes], axis=1)
    best = _iou(anchor_boxes, centered).argmax(axis=0)  # per box, the best anchor shape of all levels
    for m in range(len(label)):
        if (label[m, :4] < 0).any():  # GluonCV stops at the first box with a negative corner (its padding)
            break
        k = int(best[m])
        lvl = int(level_of[k])
        gh_, gw_ = grids[lvl]
        fx, fy = gx[m] / w_in * gw_, gy[m] / h_in * gh_
        lx, ly = min(int(fx), gw_ - 1), min(int(fy), gh_ - 1)
        a = k - first_anchor[lvl]
        row = first_row[lvl] + (ly * gw_ + lx) * len(anchors[lvl]) + a
        center[row] = (fx - lx, fy - ly)
        scale[row] = (np.log(max(gw[m], 1) / shapes[k, 0]), np.log(max(gh[m], 1) / shapes[k, 1]))
        weight[row] = 2.0 - gw[m] * gh[m] / w_in / h_in
        obj[row] = 1
        cls[row] = 0
        cls[row, int(label[m, 4])] = 1
    return obj, center, scale, weight, cls


def yolo3_loss(outputs, targets, labels, ignore_iou_thresh=0.7):
    """GluonCV's YOLOV3Loss per image (objectness, center, scale, class; NDArrays (B,)) of the raw training outputs
    and prefetched targets; a prediction whose decoded box has IoU > ignore_iou_thresh with a box of its image is
    not counted as background."""
    import mxnet as mx
    from mxnet import gluon
    nd = mx.nd
    boxes, centers, scales, objness, class_pred = outputs[:5]
    obj_t, center_t, scale_t, weight_t, cls_t = targets
    pred = boxes.asnumpy()
    ignore = np.zeros(obj_t.shape, np.float32)
    for b, label in enumerate(labels):
        if len(label):
            ignore[b, :, 0] = _iou(pred[b], label[:, :4]).max(axis=1) > ignore_iou_thresh
    obj_t = np.where(obj_t > 0, obj_t, -ignore)
    ctx = boxes.context
    obj_t, center_t, scale_t, weight_t, cls_t = (nd.array(t, ctx=ctx) for t in (obj_t, center_t, scale_t,
                                                                                    weight_t, cls_t))
    bce = gluon.loss.SigmoidBinaryCrossEntropyLoss(from_sigmoid=False)
    l1 = gluon.loss.L1Loss()
    n, c = obj_t.shape[1], cls_t.shape[2]
    weight_t = nd.broadcast_mul(weight_t, obj_t)
    hard = nd.where(obj_t > 0, nd.ones_like(obj_t), obj_t)
    mask = nd.where(obj_t > 0, obj_t, obj_t >= 0)
    obj_loss = bce(objness, hard, mask) * n
    center_loss = bce(centers, center_t, weight_t) * (n * 2)
    scale_loss = l1(scales, scale_t, weight_t) * (n * 2)
    cls_mask = nd.broadcast_mul(nd.tile(obj_t > 0, reps=(1, 1, c)) * (cls_t >= 0), obj_t)
    cls_loss = bce(class_pred, cls_t, cls_mask) * (n * c)
    return obj_loss, center_loss, scale_loss, cls_loss


class _YOLOv3:
    """YOLOv3's targets and loss around a net that returns its raw predictions in training mode (yolo3.py). The
    backward is of the per-image losses' sum: GluonCV steps by the batch size, as the engine does."""
    train_transform, eval_transform = staticmethod(presets.yolo3_train), staticmethod(presets.yolo3_eval)

    def prepare(self, net, size, ctx):
        import mxnet as mx
        from mxnet import autograd
        with autograd.train_mode():
            outs = net(mx.nd.zeros((1, 3, size, size), ctx=ctx))
        self.grids = [tuple(g.shape[2:]) for g in outs[5:]]
        if hasattr(net, 'yolo1'):  # darknet's YOLOv3-tiny: its [yolo] layers hold their anchors as numbers
            self.anchors = [np.array(layer.anchors, np.float32) for layer in (net.yolo1, net.yolo2)]
        else:
            self.anchors = [o.anchors.data().asnumpy().reshape(-1, 2) for o in net.yolo_outputs]
        self.num_class = len(net.classes)

    def targets(self, labels, size):
        parts = zip(*[yolo3_targets(label, self.anchors, self.grids, (size, size), self.num_class)
                      for label in labels])
        return tuple(np.stack(p) for p in parts) + (labels,)

    def loss(self, outputs, targets, ctx):
        obj, center, scale, cls = yolo3_loss(outputs, targets[:5], targets[5])
        n = obj.shape[0]
        parts = {'obj': obj.sum() / n, 'center': center.sum() / n, 'scale': scale.sum() / n, 'cls': cls.sum() / n}
        return (obj + center + scale + cls).sum(), parts


# -- CenterNet ----------------------------------------------------------------------------------------------------
def gaussian_radius(height, width, min_overlap=0.7):
    """CornerNet's radius for a box of height x width: the smallest of the three corner shifts that keep the IoU
    with the box at `min_overlap` (GluonCV's _gaussian_radius)."""
    def root(a, b, c):
        return (b + np.sqrt(b ** 2 - 4 * a * c)) / 2
    r1 = root(1, height + width, width * height * (1 - min_overlap) / (1 + min_overlap))
    r2 = root(4, 2 * (height + width), (1 - min_overlap) * width * height)
    r3 = root(4 * min_overlap, -2 * min_overlap * (height + width), (min_overlap - 1) * width * height)
    return min(r1, r2, r3)


def _draw_gaussian(heatmap, cx, cy, radius):
    """The maximum of `heatmap` and a (2r+1)^2 Gaussian (sigma (2r+1)/6, tails under eps * peak zeroed) at (cx, cy),
    in place; the part outside the map is cut."""
    d = 2 * radius + 1
    sigma = d / 6
    r = np.arange(-radius, radius + 1, dtype=np.float64)
    g = np.exp(-(r[None, :] ** 2 + r[:, None] ** 2) / (2 * sigma * sigma))
    g[g < np.finfo(g.dtype).eps * g.max()] = 0
    h, w = heatmap.shape
    left, right = min(cx, radius), min(w - cx, radius + 1)
    top, bottom = min(cy, radius), min(h - cy, radius + 1)
    region = heatmap[cy - top:cy + bottom, cx - left:cx + right]
    patch = g[radius - top:radius + bottom, radius - left:radius + right]
    if min(region.shape) > 0 and min(patch.shape) > 0:
        np.maximum(region, patch, out=region)


def center_net_targets(label, num_class, width, height):
    """CenterNet's targets of one image whose boxes are in heatmap pixels (GluonCV's CenterNetTargetGenerator):
    heatmap (C, H, W), sizes (2, H, W) and their mask, center offsets (2, H, W) and their mask, float32."""
    heat = np.zeros((num_class, height, width), np.float32)
    wh, wh_mask, reg, reg_mask = (np.zeros((2, height, width), np.float32) for _ in range(4))
    for box in _rows(label):
        bh, bw = box[3] - box[1], box[2] - box[0]
        if not (bh > 0 and bw > 0):
            continue
        radius = max(0, int(gaussian_radius(np.ceil(bh), np.ceil(bw))))
        center = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], np.float32)
        cx, cy = center.astype(np.int32)
        cx, cy = min(int(cx), width - 1), min(int(cy), height - 1)
        _draw_gaussian(heat[int(box[4])], cx, cy, radius)
        wh[:, cy, cx] = bw, bh
        wh_mask[:, cy, cx] = 1
        reg[:, cy, cx] = center - np.array([cx, cy], np.float32)
        reg_mask[:, cy, cx] = 1
    return heat, wh, wh_mask, reg, reg_mask


def center_net_loss(outputs, targets, wh_weight=0.1, reg_weight=1.0):
    """GluonCV's CenterNet losses of one batch (scalars): the heatmap focal loss over the batch's centers, and L1 of
    sizes (times wh_weight) and offsets (times reg_weight) over their masked cells."""
    import mxnet as mx
    nd = mx.nd
    heat, wh, reg = outputs
    heat_t, wh_t, wh_m, reg_t, reg_m = targets
    pos = heat_t == 1
    neg_weight = nd.power(1 - heat_t, 4) * (heat_t < 1)
    focal = nd.log(heat) * nd.power(1 - heat, 2) * pos + nd.log(1 - heat) * nd.power(heat, 2) * neg_weight
    heat_loss = -focal.sum() / nd.clip(pos.sum(), 1, 1e30)

    def masked_l1(pred, label, mask, w):
        return (nd.abs(label * mask - pred * mask) * w).sum() / nd.clip(mask.sum(), 1, 1e30)
    return heat_loss, masked_l1(wh, wh_t, wh_m, wh_weight), masked_l1(reg, reg_t, reg_m, reg_weight)


class _CenterNet:
    """CenterNet's targets and loss around a net that returns (heatmap, sizes, offsets) in training mode. The
    backward is of the batch loss times the batch size (GluonCV steps by 1 a batch-normalized loss)."""
    eval_transform = staticmethod(presets.center_net_eval)

    def prepare(self, net, size, ctx):
        self.num_class, self.stride = len(net.classes), int(net.scale)
        for p in net.collect_params('.*heads.*|.*bias').values():  # GluonCV's train_center_net.py
            p.wd_mult = 0.0

    def train_transform(self, img, label, rng, **kwargs):
        return presets.center_net_train(img, label, rng, scale_factor=self.stride, **kwargs)

    def targets(self, labels, size):
        out = size // self.stride
        return tuple(np.stack(p) for p in zip(*[center_net_targets(label, self.num_class, out, out)
                                                for label in labels]))

    def loss(self, outputs, targets, ctx):
        import mxnet as mx
        heat, wh, reg = center_net_loss(outputs, [mx.nd.array(t, ctx=ctx) for t in targets])
        n = targets[0].shape[0]
        return (heat + wh + reg) * n, {'heatmap': heat, 'wh': wh, 'offset': reg}


_HEADS = {'ssd': _SSD, 'yolo3': _YOLOv3, 'center_net': _CenterNet}


def family_of(model):
    """The detector family ('ssd', 'yolo3', 'center_net') of registered model `model`, from the module its builder
    lives in; anything else is an error naming what is trainable."""
    from ...registry import get_entry
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
    from ...registry import get_entry
    from ..meta import IMAGENET_MEAN, IMAGENET_STD
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
        got = metric.get()
        return dict({'map': float(got['mAP'])}, **{f'ap_{c}': float(got[c]) for c in self.classes
                                                   if not np.isnan(got[c])})


# -- the data -----------------------------------------------------------------------------------------------------
def _subset(ds, n):
    """The first n samples of a detection dataset (all when n is 0)."""
    if n and n < len(ds):
        ds.items, ds.labels = ds.items[:n], ds.labels[:n]
    return ds


def _check_images(ds, sizes=None):
    """Decode every image of `ds` once, before training: unreadable ones, and ones whose size differs from what
    the annotations say (their boxes would be in another picture's pixels), are one error naming them."""
    from ..image import read_image
    bad, wrong = [], []
    for i, path in enumerate(ds.items):
        try:
            img = read_image(path)
        except BadInputError:
            bad.append(path)
            continue
        if sizes is not None and sizes[i] is not None and tuple(img.shape[:2]) != sizes[i]:
            wrong.append(f'{path} ({img.shape[1]}x{img.shape[0]}, annotated {sizes[i][1]}x{sizes[i][0]})')
    if bad:
        raise BadInputError(f'{len(bad)} image(s) cannot be decoded: {_names(bad)}')
    if wrong:
        raise BadInputError(f'{len(wrong)} image(s) are not the size their annotation gives: {_names(wrong)}')


def _names(items, limit=5):
    more = f' and {len(items) - limit} more' if len(items) > limit else ''
    return ', '.join(str(i) for i in items[:limit]) + more


def pick_classes(found, wanted, where):
    """The class list to train: `wanted` (names from --classes; each must be one of `found`, compared without
    case) or all of `found`."""
    if wanted is None:
        return tuple(found)
    if isinstance(wanted, int):
        raise BadInputError(f'--classes for a detection dataset takes class names (a,b,c), not a count; {where} '
                            f'has {len(found)}: {", ".join(found)}')
    lower = {c.lower(): c for c in found}
    unknown = [c for c in wanted if c.lower() not in lower]
    if unknown:
        raise BadInputError(f'--classes names {len(unknown)} class(es) that {where} does not have: '
                            f'{", ".join(unknown)} (it has: {", ".join(found)})')
    if len({c.lower() for c in wanted}) != len(wanted):
        raise BadInputError(f'--classes lists a class twice: {", ".join(wanted)}')
    return tuple(lower[c.lower()] for c in wanted)


def _splits(names, where):
    """(train split, eval split) among the split names a folder has: trainval or train -> test, else train -> val
    (never an eval split inside the training one)."""
    if 'test' in names:
        train = next((s for s in ('trainval', 'train') if s in names), None)
        if train:
            return train, 'test'
    if 'train' in names and 'val' in names:
        return 'train', 'val'
    raise BadInputError(f'{where} has splits {sorted(names) or "none"}: training needs train (or trainval) and an '
                        'evaluation split, test (or val, with train)')


def _warn_empty(ds, split, where):
    empty = sum(1 for lb in ds.labels if not len(lb) or (lb[:, 4] < 0).all())
    if empty:
        warnings.warn(f'{where}: {empty} of {len(ds)} {split} image(s) have no object of the classes trained '
                      '(they train as background)', stacklevel=3)
    if all((not len(lb) or (lb[:, 4] < 0).all()) for lb in ds.labels):
        raise BadInputError(f'{where}: the {split} split has no object of the classes trained')


def _voc_names(folder, ids):
    import xml.etree.ElementTree as ET
    names = set()
    for image_id in ids:
        xml = os.path.join(folder, 'Annotations', f'{image_id}.xml')
        try:
            root = ET.parse(xml).getroot()
        except FileNotFoundError:
            raise BadInputError(f'{xml} is missing: every id in ImageSets/Main needs an annotation') from None
        except (OSError, ET.ParseError) as e:
            raise BadInputError(f'cannot read VOC annotation {xml} (empty or not XML?): {e}') from None
        names.update((o.findtext('name') or '').strip() for o in root.iter('object'))
    return names - {''}


def voc_data(path, cfg):
    """(train, eval, classes, info) of a VOC folder `path` (Annotations/, ImageSets/Main/<split>.txt,
    JPEGImages/): splits by `_splits`, classes from path/classes.txt (one a line) when there is one, else the
    object names of both splits, sorted; `cfg.classes` picks some of them."""
    from ..data.detection import VOCDetection
    import xml.etree.ElementTree as ET
    where = f'VOC folder {path}'
    if not os.path.isdir(os.path.join(path, 'ImageSets', 'Main')):
        raise BadInputError(f'{where} has no ImageSets/Main/: --dataset voc:PATH takes a folder holding '
                            'Annotations/, ImageSets/Main/ and JPEGImages/')
    names = [os.path.basename(p)[:-4] for p in glob.glob(os.path.join(glob.escape(path), 'ImageSets', 'Main',
                                                                         '*.txt'))]
    train_split, eval_split = _splits(names, where)
    ids = {}
    for split in (train_split, eval_split):
        with open(os.path.join(path, 'ImageSets', 'Main', f'{split}.txt')) as f:
            ids[split] = [line.split()[0] for line in f if line.strip()]
        if not ids[split]:
            raise BadInputError(f'{where}: ImageSets/Main/{split}.txt lists no image')
    listed = os.path.join(path, 'classes.txt')
    if os.path.isfile(listed):
        with open(listed) as f:
            found = tuple(line.strip() for line in f if line.strip())
    else:
        found = tuple(sorted(_voc_names(path, ids[train_split] + ids[eval_split]), key=str.lower))
    if not found:
        raise BadInputError(f'{where}: its annotations name no object class')
    classes = pick_classes(found, cfg.classes, where)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        train = VOCDetection(path, [(None, train_split)], classes=classes)
        val = VOCDetection(path, [(None, eval_split)], classes=classes)
    for w in caught:  # clipped / dropped boxes, objects of other classes: counted, once, before training
        if cfg.classes is None or 'skipped' not in str(w.message):
            warnings.warn(str(w.message), stacklevel=2)
    # the checksum covers both splits whole (before any --*-limit cut): their lists, annotations and images
    files = [os.path.join(path, 'ImageSets', 'Main', f'{s}.txt') for s in (train_split, eval_split)]
    files += [listed] if os.path.isfile(listed) else []
    for ds in (train, val):
        files += [p for (folder, image_id), item in zip(ds.ids, ds.items)
                  for p in (os.path.join(folder, 'Annotations', f'{image_id}.xml'), item)]
    checksum = files_checksum(files, path)
    train, val = _subset(train, cfg.train_limit), _subset(val, cfg.val_limit)

    def sizes(ds):
        out = []
        for folder, image_id in ds.ids[:len(ds)]:
            size = ET.parse(os.path.join(folder, 'Annotations', f'{image_id}.xml')).getroot().find('size')
            out.append((int(float(size.findtext('height'))), int(float(size.findtext('width')))))
        return out
    for ds, split in ((train, train_split), (val, eval_split)):
        _check_images(ds, sizes(ds))
        _warn_empty(ds, split, where)
    return train, val, classes, {'train_split': train_split, 'eval_split': eval_split, 'checksum': checksum}


def coco_data(path, cfg):
    """(train, eval, classes, info) of a COCO folder `path`: annotations/instances_<split>.json, the images of a
    split in path/<split>/ (COCO's layout), else path/images/ or path/JPEGImages/; splits by `_splits` on the
    <split> names (a name starting with train, val or test counts as that, e.g. train2017); classes are the
    categories, `cfg.classes` picks some (the other objects are left out)."""
    from ..data.detection import COCODetection
    where = f'COCO folder {path}'
    files = sorted(glob.glob(os.path.join(glob.escape(path), 'annotations', 'instances_*.json')))
    by_kind = {}
    for f in files:
        name = os.path.basename(f)[len('instances_'):-len('.json')]
        kind = next((k for k in ('trainval', 'train', 'val', 'test') if name.startswith(k)), None)
        if kind and kind not in by_kind:
            by_kind[kind] = name
    if not by_kind:
        raise BadInputError(f'{where} has no annotations/instances_<split>.json (train, val or test)')
    train_kind, eval_kind = _splits(by_kind, where)
    data = {}
    for kind in (train_kind, eval_kind):
        name = by_kind[kind]
        images = next((d for d in (os.path.join(path, name), os.path.join(path, 'images'),
                                   os.path.join(path, 'JPEGImages')) if os.path.isdir(d)), path)
        ann = os.path.join(path, 'annotations', f'instances_{name}.json')
        ds = COCODetection(images, ann, skip_empty=False)
        if ds.dropped:
            warnings.warn(f'{ann}: dropped {ds.dropped} box(es) empty after clipping to their image', stacklevel=2)
        data[kind] = ds
    found = data[train_kind].classes
    if data[eval_kind].classes != found:
        raise BadInputError(f'{where}: {by_kind[train_kind]} and {by_kind[eval_kind]} list other categories')
    classes = pick_classes(found, cfg.classes, where)
    keep = {found.index(c): i for i, c in enumerate(classes)}
    for ds in data.values():  # only the classes trained, renumbered; GluonCV's -1 placeholder rows stay out
        relabeled = []
        for lb in ds.labels:
            lb = lb[np.isin(lb[:, 4], list(keep))].copy()
            lb[:, 4] = [keep[int(c)] for c in lb[:, 4]]
            relabeled.append(lb)
        ds.labels, ds.classes = relabeled, classes
    files = [ds.annotation_file for ds in data.values()] + [p for ds in data.values() for p in ds.items]
    checksum = files_checksum(files, path)
    train = _subset(data[train_kind], cfg.train_limit)
    val = _subset(data[eval_kind], cfg.val_limit)
    for ds, kind in ((train, train_kind), (val, eval_kind)):
        entries = {e['id']: e for e in ds.coco.dataset['images']}
        _check_images(ds, [(entries[i]['height'], entries[i]['width']) for i in ds.image_ids[:len(ds)]])
        _warn_empty(ds, by_kind[kind], where)
    return train, val, classes, {'train_split': by_kind[train_kind], 'eval_split': by_kind[eval_kind],
                                 'checksum': checksum}


def files_checksum(paths, root):
    """sha256 over files (their path relative to `root`, size and bytes) in the given order."""
    import hashlib
    h = hashlib.sha256()
    for p in paths:
        with open(p, 'rb') as f:
            data = f.read()
        h.update(f'{os.path.relpath(p, root)}\0{len(data)}\0'.encode())
        h.update(data)
    return h.hexdigest()


def check_config(cfg):
    """Refuse, before any data is read, what detection training does not take; return the detector's family."""
    problems = [f'--{k.replace("_", "-")}' for k in ('mixup', 'label_smoothing') if getattr(cfg, k)]
    if problems:
        raise BadInputError(f'{" and ".join(problems)} are image-classification options; detection training '
                            'does not take them')
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
    from ...registry import get_model
    from ...train.engine import _context
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
    if family_of(cfg.model) == 'ssd':
        for block in (net.class_predictors, net.box_predictors):
            block.initialize(mx.init.Xavier(magnitude=2), ctx=ctx, force_reinit=True)
    return net
