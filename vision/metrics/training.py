"""Training-time metrics of GluonCV's scripts, as MXNet EvalMetrics (`update(labels, preds)` with lists, `get()`
-> (name, value)): accuracy with ignored labels, and the running RPN / R-CNN / mask-head accuracies and smooth-L1
losses that train_faster_rcnn.py and train_mask_rcnn.py print.

>>> import mxnet as mx
>>> m = Accuracy(ignore_labels=[-1])
>>> m.update([mx.nd.array([0, 1, -1])], [mx.nd.array([[0.9, 0.1], [0.8, 0.2], [0.1, 0.9]])])
>>> m.get()
('accuracy', 0.5)
"""
import mxnet as mx
import numpy as np


class Accuracy(mx.metric.EvalMetric):
    """Classification accuracy (scores argmaxed over `axis`, or labels given) that leaves out the samples whose
    label is one of `ignore_labels` (segmentation's -1, say)."""

    def __init__(self, axis=1, name='accuracy', output_names=None, label_names=None, ignore_labels=None):
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names)
        self.axis = axis
        self.ignore_labels = np.array(ignore_labels).flatten()

    def update(self, labels, preds):
        labels, preds = mx.metric.check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            if pred.shape != label.shape:
                pred = mx.nd.argmax(pred, axis=self.axis)
            pred = pred.asnumpy().astype('int32').ravel()
            label = label.asnumpy().astype('int32').ravel()
            mx.metric.check_label_shapes(label, pred)
            keep = ~np.isin(label, self.ignore_labels[self.ignore_labels != None])  # noqa: E711 - None: nothing
            self.sum_metric += int(((pred == label) & keep).sum())
            self.num_inst += int(keep.sum())


def _scalar(x):
    return float(x.asscalar())


class _Running(mx.metric.EvalMetric):
    """sum_metric / num_inst, each update adding `_counts(labels, preds)`."""

    NAME = None

    def __init__(self):
        super().__init__(self.NAME)

    def update(self, labels, preds):
        hits, count = self._counts(labels, preds[0])
        self.sum_metric += _scalar(hits)
        self.num_inst += _scalar(count) if hasattr(count, 'asscalar') else count


class RPNAccMetric(_Running):
    """RPN objectness accuracy: sigmoid(logits) >= 0.5 against labels (rpn_label, rpn_weight), weighted."""
    NAME = 'RPNAcc'

    def _counts(self, labels, logits):
        label, weight = labels
        return mx.nd.sum(((mx.nd.sigmoid(logits) >= 0.5) == label) * weight), mx.nd.sum(weight)


class RPNL1LossMetric(_Running):
    """RPN box loss: weighted smooth L1 (sigma 3) over the weighted boxes, labels (target, weight)."""
    NAME = 'RPNL1Loss'

    def _counts(self, labels, reg):
        target, weight = labels
        return mx.nd.sum(weight * mx.nd.smooth_l1(reg - target, scalar=3)), mx.nd.sum(weight) / 4


class RCNNAccMetric(_Running):
    """R-CNN head accuracy: argmax of the class scores against labels [rcnn_label]."""
    NAME = 'RCNNAcc'

    def _counts(self, labels, scores):
        return mx.nd.sum(mx.nd.argmax(scores, axis=-1) == labels[0]), labels[0].size


class RCNNL1LossMetric(_Running):
    """R-CNN box loss: weighted smooth L1 (sigma 1) over the weighted boxes, labels (target, weight)."""
    NAME = 'RCNNL1Loss'

    def _counts(self, labels, reg):
        target, weight = labels
        return mx.nd.sum(weight * mx.nd.smooth_l1(reg - target, scalar=1)), mx.nd.sum(weight) / 4


class MaskAccMetric(_Running):
    """Mask head pixel accuracy: sigmoid(logits) >= 0.5 against target >= 0.5, weighted; labels (target, weight)."""
    NAME = 'MaskAcc'

    def _counts(self, labels, logits):
        target, weight = labels
        return mx.nd.sum(((mx.nd.sigmoid(logits) >= 0.5) == (target >= 0.5)) * weight), mx.nd.sum(weight)


class MaskFGAccMetric(_Running):
    """Mask head accuracy on the foreground pixels of the target; labels (target, weight)."""
    NAME = 'MaskFGAcc'

    def _counts(self, labels, logits):
        target = labels[0]
        fg = target >= 0.5
        return mx.nd.sum(((mx.nd.sigmoid(logits) >= 0.5) == fg) * fg), mx.nd.sum(target)
