"""Classification metrics on numpy: top-k accuracy and the confusion matrix, accumulated batch by batch.

>>> m = TopKAccuracy((1, 2))
>>> m.update([0, 1], [[0.9, 0.1, 0.0], [0.5, 0.2, 0.3]])
>>> m.get()  # MXNet's EvalMetric protocol: (names, values)
(['top1', 'top2'], [0.5, 0.5])
>>> m.results()
{'top1': 0.5, 'top2': 0.5}
"""
import numpy as np

from .base import Metric


def _np(x):
    return x.asnumpy() if hasattr(x, 'asnumpy') else np.asarray(x)


class TopKAccuracy(Metric):
    """Fraction of samples whose label is among the k highest scores, for each k in `ks` (an EvalMetric:
    `get()` -> (['top1', ...], [...]), one (name, value) pair for a single k; `results()` the dict)."""

    def __init__(self, ks=(1, 5)):
        self.ks = tuple(ks)
        super().__init__('top_k_accuracy')

    def reset(self):
        self.hits, self.count = {k: 0 for k in self.ks}, 0

    def update(self, labels, scores):
        """Labels (N,) and scores (N, classes), or lists of such (one pair per device, EvalMetric's way)."""
        if isinstance(scores, (list, tuple)) and scores and hasattr(scores[0], 'shape'):
            if len(labels) != len(scores):
                raise ValueError(f'{len(labels)} label arrays for {len(scores)} score arrays')
            for label, score in zip(labels, scores):
                self.update(label, score)
            return
        labels, scores = _np(labels).astype(np.int64).ravel(), _np(scores)
        if scores.ndim != 2 or len(scores) != len(labels):
            raise ValueError(f'scores must be N x classes for N = {len(labels)} labels, got shape {scores.shape}')
        # rank of the true class = how many classes score strictly higher (ties count in the label's favour)
        rank = (scores > scores[np.arange(len(labels)), labels][:, None]).sum(axis=1)
        for k in self.ks:
            self.hits[k] += int((rank < k).sum())
        self.count += len(labels)

    def results(self):
        return {f'top{k}': (self.hits[k] / self.count if self.count else float('nan')) for k in self.ks}


class ConfusionMatrix:
    """`matrix[true, predicted]` counts over `num_classes`; predictions are argmax of scores or given labels.

    >>> c = ConfusionMatrix(2)
    >>> c.update([0, 1, 1], [0, 0, 1])
    >>> c.matrix.tolist(), c.per_class_accuracy().tolist()
    ([[1, 0], [1, 1]], [1.0, 0.5])
    """

    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.matrix = np.zeros((num_classes, num_classes), np.int64)

    def update(self, labels, preds):
        labels, preds = _np(labels).astype(np.int64).ravel(), _np(preds)
        if preds.ndim == 2:
            preds = preds.argmax(axis=1)
        preds = preds.astype(np.int64).ravel()
        if labels.min(initial=0) < 0 or max(labels.max(initial=0), preds.max(initial=0)) >= self.num_classes:
            raise ValueError(f'labels and predictions must be in [0, {self.num_classes})')
        np.add.at(self.matrix, (labels, preds), 1)

    def per_class_accuracy(self):
        """Recall of each class (nan for a class with no samples)."""
        totals = self.matrix.sum(axis=1)
        with np.errstate(invalid='ignore', divide='ignore'):
            return np.diag(self.matrix) / totals

    def accuracy(self):
        return float(np.trace(self.matrix) / max(self.matrix.sum(), 1))
