"""The training losses GluonCV's scripts construct (`gluoncv.loss`), with GluonCV's arguments, inputs and outputs;
the recipes' own loss functions (vision/train) are built on the same pieces.

Where GluonCV's own class fails or does something else than it says, ours does what it says and
docs/from_gluoncv.md names the difference (SegmentationMultiLosses' axis, MixSoftmaxCrossEntropyLoss' mixup).
"""
from mxnet import gluon
from mxnet.gluon.loss import Loss

__all__ = ['DistillationSoftmaxCrossEntropyLoss', 'FocalLoss', 'HeatmapFocalLoss', 'MaskedL1Loss',
           'MixSoftmaxCrossEntropyLoss', 'SSDMultiBoxLoss', 'SegmentationMultiLosses', 'SoftmaxCrossEntropyLoss',
           'YOLOV3Loss']


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _weighted(loss, weight, sample_weight):
    if sample_weight is not None:
        loss = loss * sample_weight
    return loss if weight is None else loss * weight


# -- detection ----------------------------------------------------------------------------------------------------
def ssd_mined_losses(F, cls_pred, box_pred, cls_target, box_target, negative_mining_ratio=3, rho=1.0,
                     min_hard_negatives=0):
    """SSD's element-wise losses before normalization: the class cross-entropy (B, N) kept on the positives and the
    hardest negatives (`negative_mining_ratio` per positive of the image, at least `min_hard_negatives`), and the
    smooth-L1 box loss (B, N, 4) on the positives (`rho`: where L2 turns to L1)."""
    pos = cls_target > 0
    cls_loss = -F.pick(F.log_softmax(cls_pred, axis=-1), cls_target, axis=-1, keepdims=False)
    # rank of each negative by its loss, largest first (positives rank last: their key is 0)
    rank = (cls_loss * (pos - 1)).argsort(axis=1).argsort(axis=1)
    quota = pos.sum(axis=1) * negative_mining_ratio
    if min_hard_negatives > 0:
        quota = F.maximum(quota, min_hard_negatives)
    hard = rank < quota.expand_dims(-1)
    cls_loss = F.where((pos + hard) > 0, cls_loss, F.zeros_like(cls_loss))
    diff = F.abs(F.reshape_like(box_pred, box_target) - box_target)
    box_loss = F.where(diff > rho, diff - 0.5 * rho, (0.5 / rho) * F.square(diff))
    return cls_loss, box_loss * pos.expand_dims(-1)


class SSDMultiBoxLoss(gluon.Block):
    """GluonCV's SSD loss over the devices' batches (each argument an NDArray or a list, one per device): returns
    (sum, class, box) lists of (B,) losses, each image's sum over its anchors divided by the positives of all
    devices (a batch without positives gives zeros)."""

    def __init__(self, negative_mining_ratio=3, rho=1.0, lambd=1.0, min_hard_negatives=0, **kwargs):
        super().__init__(**kwargs)
        self._ratio, self._rho, self._lambd = max(0, negative_mining_ratio), rho, lambd
        self._min_hard = max(0, min_hard_negatives)

    def forward(self, cls_pred, box_pred, cls_target, box_target):
        from mxnet import nd
        parts = list(zip(*[_as_list(x) for x in (cls_pred, box_pred, cls_target, box_target)]))
        num_pos = sum(float((ct > 0).sum().asscalar()) for _, _, ct, _ in parts)
        if num_pos < 1 and self._min_hard < 1:
            cls = [nd.sum(cp * 0) for cp, _, _, _ in parts]
            box = [nd.sum(bp * 0) for _, bp, _, _ in parts]
            return [c + b for c, b in zip(cls, box)], cls, box
        sums, clss, boxes = [], [], []
        for cp, bp, ct, bt in parts:
            cls_loss, box_loss = ssd_mined_losses(nd, cp, bp, ct, bt, self._ratio, self._rho, self._min_hard)
            clss.append(nd.sum(cls_loss, axis=0, exclude=True) / max(1.0, num_pos))
            boxes.append(nd.sum(box_loss, axis=0, exclude=True) / max(1.0, num_pos))
            sums.append(clss[-1] + self._lambd * boxes[-1])
        return sums, clss, boxes


class YOLOV3Loss(Loss):
    """GluonCV's YOLOv3 loss of the raw training outputs and their targets: (objectness, center, scale, class),
    each (B,), the sigmoid cross-entropies (L1 for the scales) summed over the predictions (GluonCV's mean times
    the count). Objectness targets are 1 (or a mixup weight), 0, or -1 (ignored)."""

    def __init__(self, batch_axis=0, weight=None, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._bce = gluon.loss.SigmoidBinaryCrossEntropyLoss(from_sigmoid=False)
        self._l1 = gluon.loss.L1Loss()

    def hybrid_forward(self, F, objness, box_centers, box_scales, cls_preds, objness_t, center_t, scale_t,
                       weight_t, class_t, class_mask):
        def count(x):  # the predictions per image: the mean over them becomes their sum
            return F.cast(F.shape_array(x).slice_axis(axis=0, begin=1, end=None).prod(), 'float32')
        n = count(objness_t)
        weight_t = F.broadcast_mul(weight_t, objness_t)
        hard = F.where(objness_t > 0, F.ones_like(objness_t), objness_t)
        obj_mask = F.where(objness_t > 0, objness_t, objness_t >= 0)
        obj = F.broadcast_mul(self._bce(objness, hard, obj_mask), n)
        center = F.broadcast_mul(self._bce(box_centers, center_t, weight_t), n * 2)
        scale = F.broadcast_mul(self._l1(box_scales, scale_t, weight_t), n * 2)
        cls = F.broadcast_mul(self._bce(cls_preds, class_t, F.broadcast_mul(class_mask, objness_t)),
                              count(class_t))
        return obj, center, scale, cls


class HeatmapFocalLoss(Loss):
    """CenterNet's focal loss of a heatmap against its Gaussian-splatted target (1 at the centers): a scalar, the
    sum over the batch divided by the number of centers (at least 1). `from_logits=False` applies the sigmoid."""

    def __init__(self, from_logits=False, batch_axis=0, weight=None, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits

    def hybrid_forward(self, F, pred, label):
        if not self._from_logits:
            pred = F.sigmoid(pred)
        pos = label == 1
        neg_weight = F.power(1 - label, 4) * (label < 1)
        focal = F.log(pred) * F.power(1 - pred, 2) * pos + F.log(1 - pred) * F.power(pred, 2) * neg_weight
        return -F.sum(focal) / F.clip(F.sum(pos), 1, 1e30)


class MaskedL1Loss(Loss):
    """sum |label * mask - pred * mask| (times `weight`) / sum mask (at least 1): a scalar."""

    def __init__(self, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, mask, sample_weight=None):
        label = F.reshape_like(label, pred)
        loss = _weighted(F.abs(label * mask - pred * mask), self._weight, sample_weight)
        return F.sum(loss) / F.clip(F.sum(mask), 1, 1e30)


# -- classification -----------------------------------------------------------------------------------------------
class FocalLoss(Loss):
    """The sigmoid focal loss (Lin et al. 2017) over `axis`: -alpha_t (1 - p_t)^gamma log p_t, averaged
    (`size_average`) or summed over every axis but the batch's. Sparse labels need `num_class`."""

    def __init__(self, axis=-1, alpha=0.25, gamma=2, sparse_label=True, from_logits=False, batch_axis=0,
                 weight=None, num_class=None, eps=1e-12, size_average=True, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        if sparse_label and (not isinstance(num_class, int) or num_class < 1):
            raise ValueError(f'FocalLoss with sparse_label=True needs num_class, a positive int, not {num_class!r}')
        self._axis, self._alpha, self._gamma, self._eps = axis, alpha, gamma, eps
        self._sparse, self._num_class, self._from_logits, self._mean = sparse_label, num_class, from_logits, \
            size_average

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        p = pred if self._from_logits else F.sigmoid(pred)
        is_true = F.one_hot(label, self._num_class) if self._sparse else label > 0
        p_t = F.where(is_true, p, 1 - p)
        alpha_t = F.where(is_true, F.ones_like(p) * self._alpha, F.ones_like(p) * (1 - self._alpha))
        loss = -alpha_t * F.power(1 - p_t, self._gamma) * F.log(F.minimum(p_t + self._eps, 1))
        loss = _weighted(loss, self._weight, sample_weight)
        reduce = F.mean if self._mean else F.sum
        return reduce(loss, axis=self._batch_axis, exclude=True)


class DistillationSoftmaxCrossEntropyLoss(gluon.HybridBlock):
    """Knowledge distillation: (1 - hard_weight) T^2 CE(output / T, soft_target) + hard_weight CE(output, label),
    soft_target the teacher's probabilities at temperature T."""

    def __init__(self, temperature=1, hard_weight=0.5, sparse_label=True, **kwargs):
        super().__init__(**kwargs)
        self._t, self._hard_weight = temperature, hard_weight
        with self.name_scope():
            self.soft_loss = gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False, **kwargs)
            self.hard_loss = gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=sparse_label, **kwargs)

    def hybrid_forward(self, F, output, label, soft_target):
        if self._hard_weight == 1:
            return self.hard_loss(output, label)
        soft = (self._t ** 2) * self.soft_loss(output / self._t, soft_target)
        if self._hard_weight == 0:
            return soft
        return (1 - self._hard_weight) * soft + self._hard_weight * self.hard_loss(output, label)


# -- segmentation -------------------------------------------------------------------------------------------------
class SoftmaxCrossEntropyLoss(Loss):
    """Per-pixel softmax cross-entropy over axis 1 with `ignore_label`, (B,): the mean over the image's pixels,
    ignored ones counting 0. Its gradient is MXNet's SoftmaxOutput's, (softmax - one-hot) divided by the batch's
    valid pixels (`size_average`), whatever the head gradient: GluonCV trains with exactly that."""

    def __init__(self, sparse_label=True, batch_axis=0, ignore_label=-1, size_average=True, **kwargs):
        super().__init__(None, batch_axis, **kwargs)
        self._sparse, self._ignore, self._mean = sparse_label, ignore_label, size_average

    def hybrid_forward(self, F, pred, label):
        prob = F.SoftmaxOutput(pred, label.astype('float32'), ignore_label=self._ignore, multi_output=self._sparse,
                               use_ignore=True, normalization='valid' if self._mean else 'null')
        if self._sparse:
            loss = -F.pick(F.log(prob), label, axis=1, keepdims=True)
        else:
            loss = -F.sum(F.log(prob) * F.reshape_like(label, pred), axis=-1, keepdims=True)
        loss = F.where(label.expand_dims(axis=1) == self._ignore, F.zeros_like(loss), loss)
        return F.mean(loss, axis=self._batch_axis, exclude=True)


class SegmentationMultiLosses(SoftmaxCrossEntropyLoss):
    """The sum of SoftmaxCrossEntropyLoss over three score maps (DANet's heads): call with (pred1, pred2, pred3,
    label)."""

    def __init__(self, size_average=True, ignore_label=-1, **kwargs):
        super().__init__(ignore_label=ignore_label, size_average=size_average, **kwargs)

    def hybrid_forward(self, F, pred1, pred2, pred3, label):
        one = super().hybrid_forward
        return one(F, pred1, label) + one(F, pred2, label) + one(F, pred3, label)


class MixSoftmaxCrossEntropyLoss(SoftmaxCrossEntropyLoss):
    """SoftmaxCrossEntropyLoss of the main scores plus `aux_weight` x that of the auxiliary ones: call with (pred,
    aux_pred, label) when `aux`, else (pred, label). `mixup`: labels (label1, label2, lam), the loss lam * CE(label1)
    + (1 - lam) * CE(label2) of the log-softmax over the classes (axis 1)."""

    def __init__(self, aux=True, mixup=False, aux_weight=0.2, ignore_label=-1, **kwargs):
        super().__init__(ignore_label=ignore_label, **kwargs)
        self.aux, self.mixup, self.aux_weight = aux, mixup, aux_weight

    def _mixed(self, F, pred, label1, label2, lam):
        logp = F.log_softmax(pred, axis=1)
        loss = lam * -F.pick(logp, label1, axis=1, keepdims=True) + (1 - lam) * -F.pick(logp, label2, axis=1,
                                                                                     keepdims=True)
        return F.mean(loss, axis=self._batch_axis, exclude=True)

    def hybrid_forward(self, F, *inputs):
        one = self._mixed if self.mixup else super().hybrid_forward
        if not self.aux:
            return one(F, *inputs)
        pred, aux_pred, labels = inputs[0], inputs[1], inputs[2:]
        return one(F, pred, *labels) + self.aux_weight * one(F, aux_pred, *labels)
