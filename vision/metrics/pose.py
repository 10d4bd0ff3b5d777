"""Pose metric on numpy: HeatmapAccuracy, GluonCV 0.10.5's (gluoncv/utils/metrics/heatmap_accuracy.py), the
training-time accuracy of predicted joint heatmaps against target heatmaps.

>>> label = np.zeros((1, 2, 40, 40), np.float32); label[0, 0, 10, 10] = label[0, 1, 20, 30] = 1
>>> pred = label.copy(); pred[0, 1] = 0; pred[0, 1, 0, 0] = 1  # joint 1 predicted far off
>>> m = HeatmapAccuracy()
>>> m.update(label, pred)
>>> m.get()
('heatmap_accuracy', 0.5)
"""
import numpy as np

from ...errors import BadInputError
from ..pose import get_max_pred
from .base import Metric


def _batches(a):
    return list(a) if isinstance(a, (list, tuple)) else [a]


class HeatmapAccuracy(Metric):
    """Mean over the joints of each batch of the fraction of crops whose predicted maximum lies within
    `threshold` of the target heatmap's maximum, distances in tenths of the heatmap size (x over h / 10 and y over
    w / 10, GluonCV's own pairing), accumulated batch by batch as GluonCV's: `get()` is the sum of the per-joint
    accuracies over the (joint, batch) pairs that had a target. A target whose maximum is not beyond the first
    cell row and column (no positive value: a keypoint outside the crop, or not labelled) is not counted;
    `num_skipped` counts them. An EvalMetric: `get()` -> (name, value), `results()` -> {name: value}. Only GluonCV's 'gaussian' heatmaps are taken (its other mode fails on its own
    normalization)."""

    def __init__(self, axis=1, name='heatmap_accuracy', hm_type='gaussian', threshold=0.5):
        if hm_type != 'gaussian':
            raise ValueError(f"hm_type={hm_type!r}: only 'gaussian' heatmaps are supported (GluonCV's other mode "
                             f"does not run)")
        self.axis, self.hm_type, self.threshold = axis, hm_type, threshold
        super().__init__(name)

    def reset(self):
        self.sum_metric, self.num_inst, self.num_skipped = 0.0, 0, 0

    def update(self, labels, preds):
        """Target heatmaps and predicted ones, (N, joints, h, w) each, or lists of such batches."""
        labels, preds = _batches(labels), _batches(preds)
        if len(labels) != len(preds):
            raise BadInputError(f'{len(labels)} batches of labels but {len(preds)} of predictions')
        for label, pred in zip(labels, preds):
            label, pred = _np(label), _np(pred)
            if label.shape != pred.shape or pred.ndim != 4:
                raise BadInputError(f'target heatmaps {label.shape} and predictions {pred.shape} must both be '
                                    f'(N, joints, h, w)')
            h, w = pred.shape[2:]
            norm = np.array([h, w], np.float64) / 10
            p, t = get_max_pred(pred)[0], get_max_pred(label)[0]
            valid = (t[..., 0] > 1) & (t[..., 1] > 1)  # (N, joints)
            dists = np.linalg.norm(p / norm - t / norm, axis=-1)
            self.num_skipped += int((~valid).sum())
            for j in range(pred.shape[1]):
                counted = valid[:, j]
                if counted.any():
                    self.sum_metric += float((dists[counted, j] < self.threshold).sum()) / counted.sum()
                    self.num_inst += 1

    def results(self):
        return {self.name: self.sum_metric / self.num_inst if self.num_inst else float('nan')}


def _np(x):
    return x.asnumpy() if hasattr(x, 'asnumpy') else np.asarray(x)
