"""Semantic segmentation metrics on numpy: pixel accuracy and mean IoU, GluonCV's SegmentationMetric.

>>> m = SegmentationMetric(2)
>>> m.update([[0, 1, -1]], [[0, 0, 1]])
>>> [round(v, 4) for v in m.get()]  # GluonCV's: (pixAcc, mIoU)
[0.5, 0.25]
>>> m.get_name_value()
[('pixAcc', 0.5), ('mIoU', 0.25)]
"""
import numpy as np

from ...errors import BadInputError
from .base import Metric


def _np(x):
    return x.asnumpy() if hasattr(x, 'asnumpy') else np.asarray(x)


class SegmentationMetric(Metric):
    """Pixel accuracy and mean IoU over `nclass` classes, accumulated batch by batch; label -1 is ignored.

    `update(labels, preds)` takes labels (N, H, W) and either score maps (N, nclass, H, W), argmaxed over the class
    axis, or predicted labels (N, H, W); NDArrays or numpy, or lists of them (one pair per device, as GluonCV's).
    `get()` -> (pixAcc, mIoU) as GluonCV's (an EvalMetric otherwise: `get_name_value()` pairs them with their
    names, `results()` is the dict); the numbers are GluonCV's arithmetic: pixAcc = correct / labelled pixels, mIoU the mean over all `nclass` classes of
    intersection / union, each with numpy's spacing(1) added to the denominator, so a class absent from both labels
    and predictions counts as IoU 0 (`iou()` gives nan there instead). GluonCV silently counts a label >= nclass as
    labelled but in no class; here a label outside [-1, nclass) is an error.
    """

    def __init__(self, nclass):
        if int(nclass) < 1:
            raise ValueError(f'nclass must be >= 1, not {nclass}')
        self.nclass = int(nclass)
        super().__init__('pixAcc & mIoU')

    def reset(self):
        self.correct = self.labelled = 0
        self.inter, self.union = np.zeros(self.nclass, np.int64), np.zeros(self.nclass, np.int64)

    def update(self, labels, preds):
        if isinstance(preds, (list, tuple)) and (not preds or hasattr(preds[0], 'shape')):
            if len(labels) != len(preds):
                raise ValueError(f'{len(labels)} label arrays for {len(preds)} predictions')
            for label, pred in zip(labels, preds):
                self.update(label, pred)
            return
        labels, preds = _np(labels).astype(np.int64), _np(preds)
        if preds.ndim == labels.ndim + 1:
            if preds.shape[1] != self.nclass:
                raise ValueError(f'score maps of {preds.shape[1]} classes for a metric of {self.nclass}')
            preds = preds.argmax(axis=1)
        preds = preds.astype(np.int64)
        if preds.shape != labels.shape:
            raise ValueError(f'predictions of shape {preds.shape} for labels of shape {labels.shape}')
        if labels.size and (labels.min() < -1 or labels.max() >= self.nclass):
            raise BadInputError(f'labels must lie in [-1, {self.nclass}) (-1: ignored); got '
                                f'{labels.min()}..{labels.max()}')
        if preds.size and (preds.min() < 0 or preds.max() >= self.nclass):
            raise ValueError(f'predicted labels must lie in [0, {self.nclass}); got {preds.min()}..{preds.max()}')
        keep = labels >= 0
        labels, preds = labels[keep], preds[keep]
        hit = labels[labels == preds]
        inter = np.bincount(hit, minlength=self.nclass)
        self.correct += int(hit.size)
        self.labelled += int(labels.size)
        self.inter += inter
        self.union += np.bincount(labels, minlength=self.nclass) + np.bincount(preds, minlength=self.nclass) - inter

    def iou(self):
        """Per-class IoU; nan for a class in neither the labels nor the predictions."""
        with np.errstate(invalid='ignore', divide='ignore'):
            return self.inter / np.where(self.union > 0, self.union, np.nan)

    def get(self):
        """(pixAcc, mIoU), as GluonCV's SegmentationMetric.get() returns them (not (names, values))."""
        out = self.results()
        return out['pixAcc'], out['mIoU']

    def get_name_value(self):
        return list(self.results().items())

    def results(self):
        eps = np.spacing(1)
        return {'pixAcc': float(1.0 * self.correct / (eps + self.labelled)),
                'mIoU': float((1.0 * self.inter / (eps + self.union)).mean())}


# -- GluonCV's per-batch helpers (gluoncv.utils.metrics.segmentation) -----------------------------------------------
def batch_pix_accuracy(output, target):
    """(correct, labelled) pixels of score maps `output` (N, C, H, W) against labels `target` (N, H, W); label -1
    is not labelled."""
    pred, label = _np(output).argmax(1).astype(np.int64), _np(target).astype(np.int64)
    labelled = label >= 0
    return int((labelled & (pred == label)).sum()), int(labelled.sum())


def _areas(pred, label, bins):
    """GluonCV's histograms: ids 1.. (0 = not labelled), `bins` bins over [1, bins], so the top two ids share the
    last bin, as GluonCV counts them."""
    pred = pred * (label > 0)
    inter = pred * (pred == label)
    count = lambda a: np.histogram(a, bins=bins, range=(1, bins))[0]  # noqa: E731
    area_inter = count(inter)
    return area_inter, count(pred) + count(label) - area_inter


def batch_intersection_union(output, target, nclass):
    """(intersection, union) pixel counts per class bin of score maps `output` (N, C, H, W) against `target`
    (N, H, W) (-1 not labelled), GluonCV's binning (_areas)."""
    pred = _np(output).argmax(1).astype(np.int64) + 1
    return _areas(pred, _np(target).astype(np.int64) + 1, nclass)


def pixelAccuracy(imPred, imLab):  # noqa: N802,N803 - GluonCV's names
    """(accuracy, correct, labelled) of predicted and true label maps whose 0 means 'not labelled'."""
    labelled = np.asarray(imLab) > 0
    correct = int((labelled & (np.asarray(imPred) == np.asarray(imLab))).sum())
    return 1.0 * correct / labelled.sum(), correct, int(labelled.sum())


def intersectionAndUnion(imPred, imLab, numClass):  # noqa: N802,N803 - GluonCV's names
    """(intersection, union) of label maps with ids 1..numClass (0 not labelled), GluonCV's binning (_areas)."""
    return _areas(np.asarray(imPred), np.asarray(imLab), numClass)
