"""Detection metrics: Pascal VOC mean average precision (VOCMApMetric: area under the precision envelope, VOC 2010+;
VOC07MApMetric: the 11-point VOC 2007 one), equal to GluonCV's, and COCO's through pycocotools' COCOeval
(COCODetectionMetric).

Predictions come as GluonCV's detectors give them, batch first: boxes (B, N, 4) x1, y1, x2, y2, class ids and
scores (B, N) or (B, N, 1), padded with class id -1; NDArrays or numpy arrays, or lists of such batches. Ground
truth likewise (a dataset's (N, 6) labels split into boxes, ids and difficult flags).

>>> m = VOC07MApMetric(class_names=['cat', 'dog'])
>>> gt = np.array([[[0, 0, 9, 9], [20, 20, 29, 29]]])
>>> m.update(gt, [[0, 1]], [[0.9, 0.8]], gt, [[0, 0]])
>>> names, values = m.get()  # GluonCV's (names, values): the classes, then mAP
>>> names, [round(v, 4) for v in values]  # cat: 1 of 2 found (6 of 11 points); dog: never in the truth
(['cat', 'dog', 'mAP'], [0.5455, nan, 0.5455])
>>> {k: round(v, 4) for k, v in m.results().items()}
{'mAP': 0.5455, 'cat': 0.5455, 'dog': nan}
"""
import contextlib
import io
import os
import warnings
from collections import defaultdict

import numpy as np

from ...errors import BadInputError
from ..transforms.bbox import iou
from .base import Metric


def _np(x):
    return x.asnumpy() if hasattr(x, 'asnumpy') else np.asarray(x)


def _batches(a):
    """A batch, or a list of batches (arrays with a batch axis, as GluonCV takes), as a list of numpy batches."""
    if a is None:
        return None
    if isinstance(a, (list, tuple)) and a and all(hasattr(b, 'shape') for b in a):
        return [_np(b) for b in a]
    return [_np(a)]


def _images(*arrays):
    """The arrays (batches or lists of batches) zipped image by image; None stays None."""
    lists = [_batches(a) for a in arrays]
    if len({len(x) for x in lists if x is not None}) != 1:
        raise BadInputError('predictions and ground truth come in different numbers of batches')
    for batch in zip(*[x if x is not None else [None] * len(lists[0]) for x in lists]):
        if len({len(b) for b in batch if b is not None}) != 1:
            sizes = [len(b) for b in batch if b is not None]
            raise BadInputError(f'a batch holds different numbers of images in its arrays: {sizes}')
        yield from zip(*[b if b is not None else [None] * len(batch[0]) for b in batch])


class VOCMApMetric(Metric):
    """Pascal VOC mean average precision over the classes seen, at `iou_thresh` (0.5), GluonCV's: predictions are
    matched greedily by score to the unmatched ground truth they overlap most (pixel-inclusive IoU, +1 on each
    side); a match to a difficult box counts neither way; AP is the area under the precision envelope.
    `get()` -> GluonCV's (class names + ['mAP'], their APs + [mAP]) with `class_names`, ('VOCMeanAP', mAP)
    without; `results()` -> {'mAP': ..., class name: AP, ...}. A class without ground truth (never
    seen, or only predicted) has AP nan and stays out of the mean; one with ground truth but no predictions has
    AP 0. Score ties are broken by arrival order, where GluonCV's order depends on numpy's sort."""

    def __init__(self, iou_thresh=0.5, class_names=None):
        self.iou_thresh = iou_thresh
        if class_names is not None and (isinstance(class_names, str) or
                                        not all(isinstance(n, str) for n in class_names)):
            raise BadInputError(f'class_names must be a list of str, got {class_names!r}')
        self.class_names = list(class_names) if class_names is not None else None
        super().__init__('VOCMeanAP')

    def reset(self):
        self._n_pos, self._score, self._match = defaultdict(int), defaultdict(list), defaultdict(list)

    def update(self, pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_difficults=None):
        """Add a batch (or a list of batches) of predictions and their images' ground truth."""
        for pb, pl, ps, gb, gl, gd in _images(pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels,
                                              gt_difficults):
            self._image(np.asarray(pb, np.float64).reshape(-1, 4), np.asarray(pl).ravel(), np.asarray(ps).ravel(),
                        np.asarray(gb, np.float64).reshape(-1, 4), np.asarray(gl).ravel(),
                        None if gd is None else np.asarray(gd).ravel())

    def _image(self, pb, pl, ps, gb, gl, gd):
        if not len(pb) == len(pl) == len(ps):
            raise BadInputError(f'{len(pb)} predicted boxes, {len(pl)} labels and {len(ps)} scores for one image')
        keep = pl >= 0  # -1: padding
        pb, pl, ps = pb[keep], pl[keep].astype(int), ps[keep]
        keep = gl >= 0
        gb, gl = gb[keep], gl[keep].astype(int)
        gd = np.zeros(len(gb), bool) if gd is None else gd[keep].astype(bool)
        for c in np.unique(np.concatenate([pl, gl])):
            mine = pl == c
            order = np.argsort(-ps[mine], kind='stable')
            boxes, scores = pb[mine][order], ps[mine][order]
            truth, hard = gb[gl == c], gd[gl == c]
            self._n_pos[c] += int((~hard).sum())
            self._score[c].extend(scores)
            if not len(boxes):
                continue
            if not len(truth):
                self._match[c].extend([0] * len(boxes))
                continue
            overlap = iou(boxes, truth, offset=1)
            best = overlap.argmax(axis=1)
            best[overlap.max(axis=1) < self.iou_thresh] = -1
            taken = np.zeros(len(truth), bool)
            for g in best:  # 1 true positive, 0 false positive, -1 ignored (a difficult box)
                if g < 0:
                    self._match[c].append(0)
                    continue
                self._match[c].append(-1 if hard[g] else 0 if taken[g] else 1)
                taken[g] = True

    def _precision_recall(self, c):
        scores, match = np.array(self._score[c]), np.array(self._match[c], np.int32)
        match = match[np.argsort(-scores, kind='stable')]
        tp, fp = np.cumsum(match == 1), np.cumsum(match == 0)
        with np.errstate(divide='ignore', invalid='ignore'):
            prec = tp / (fp + tp)
        return (tp / self._n_pos[c] if self._n_pos[c] > 0 else None), prec

    @staticmethod
    def average_precision(rec, prec):
        """Area under the precision envelope (precision made non-increasing in recall)."""
        if rec is None:
            return np.nan
        mrec = np.concatenate(([0.0], rec, [1.0]))
        mpre = np.maximum.accumulate(np.concatenate(([0.0], np.nan_to_num(prec), [0.0]))[::-1])[::-1]
        i = np.where(mrec[1:] != mrec[:-1])[0]
        return np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1])

    def get(self):
        out = self.results()
        if self.class_names is None:
            return self.name, out['mAP']
        return self.class_names + ['mAP'], [out[n] for n in self.class_names] + [out['mAP']]

    def results(self):
        n = max(list(self._n_pos) + [len(self.class_names or ()) - 1]) + 1
        aps = [self.average_precision(*self._precision_recall(c)) if c in self._n_pos else np.nan for c in range(n)]
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', RuntimeWarning)  # the mean of no class: nan
            out = {'mAP': float(np.nanmean(aps)) if aps else float('nan')}
        for name, ap in zip(self.class_names or (), aps):
            out[name] = float(ap)
        return out


class VOC07MApMetric(VOCMApMetric):
    """VOCMApMetric with VOC 2007's 11-point AP: the mean of the best precision at recall >= 0, 0.1, ..., 1."""

    @staticmethod
    def average_precision(rec, prec):
        if rec is None:
            return np.nan
        prec, ap = np.nan_to_num(prec), 0.0
        for t in np.arange(0.0, 1.1, 0.1):
            ap += (np.max(prec[rec >= t]) if (rec >= t).any() else 0) / 11.0
        return ap


#: the names of COCOeval.stats, in its order
COCO_STATS = ('mAP', 'AP50', 'AP75', 'APs', 'APm', 'APl', 'AR1', 'AR10', 'AR100', 'ARs', 'ARm', 'ARl')


def run_cocoeval(coco, results, iou_type, image_ids=None):
    """(COCOeval after evaluate, accumulate and summarize, its printed summary table) of result dicts `results`
    (given to pycocotools in memory) against `coco`, over `image_ids` (default: every image of `coco`)."""
    from pycocotools.cocoeval import COCOeval
    with contextlib.redirect_stdout(io.StringIO()) as printed:  # pycocotools prints its progress
        dt = coco.loadRes([dict(r) for r in results])  # it adds fields to the dicts it gets
        ev = COCOeval(coco, dt, iou_type)
        if image_ids is not None:
            ev.params.imgIds = image_ids
        ev.evaluate()
        ev.accumulate()
        start = printed.tell()
        ev.summarize()
    return ev, printed.getvalue()[start:]


class COCODetectionMetric(Metric):
    """COCO box mAP by pycocotools' COCOeval on the predictions of a COCODetection's images (or of every image of a
    pycocotools COCO or an annotation file, in image-id order).

    Boxes go to COCO as GluonCV sends them: (x1, y1, x2 - x1 + 1, y2 - y1 + 1), the inverse of COCODetection's
    corners; predictions scoring under `score_thresh` (GluonCV's 0.05) or of a class the data lacks are left out.
    `update(..., image_ids=None)` takes the next images in the dataset's order (GluonCV's), or the given COCO ids.
    `results()` -> {'mAP' (AP at IoU .5:.95), 'AP50', ..., 'ARl' (COCOeval.stats), class name: AP, ...}; only the
    images updated are evaluated (all of them after a full pass). `get()` is GluonCV's (names, values) of strings:
    ('~~~~ Summary metrics ~~~~\n', COCOeval's table), (class name, AP in percent '12.3'), then
    ('~~~~ MeanAP @ IoU=[0.50,0.95] ~~~~\n', mAP in percent); (['mAP'], ['0.0']) when nothing was found.
    `detections` holds the COCO result dicts (`save(path)` writes them as JSON), `summary` COCOeval's printed
    table after results().

    GluonCV's arguments: with `save_prefix` the detections are also written to `{save_prefix}{time}.json` at
    each get() (`use_time`: the time stamp; `cleanup` removes the file when the metric is deleted); with
    `data_shape` (height, width) the boxes are in the net's input pixels and are scaled to each image's own size;
    `post_affine(orig_w, orig_h, data_w, data_h)` -> a 2 x 3 matrix maps them instead (CenterNet's).
    """

    def __init__(self, dataset, save_prefix=None, use_time=True, cleanup=False, score_thresh=0.05, data_shape=None,
                 post_affine=None):
        if isinstance(dataset, (str, bytes)) or hasattr(dataset, '__fspath__'):  # an annotation file
            from ..data.detection import load_coco
            dataset = load_coco(os.fspath(dataset))
        if hasattr(dataset, 'contiguous_id_to_json'):
            self.coco, self.image_ids = dataset.coco, list(dataset.image_ids)
            self.classes, self._to_json = dataset.classes, dict(dataset.contiguous_id_to_json)
        else:
            self.coco, self.image_ids = dataset, sorted(dataset.getImgIds())
            cats = sorted(dataset.loadCats(dataset.getCatIds()), key=lambda c: c['id'])
            self.classes, self._to_json = tuple(c['name'] for c in cats), {i: c['id'] for i, c in enumerate(cats)}
        self.score_thresh = score_thresh
        if data_shape is not None and (not isinstance(data_shape, (tuple, list)) or len(data_shape) != 2):
            raise BadInputError(f'data_shape must be (height, width) of the net\'s input, got {data_shape!r}')
        if post_affine is not None and data_shape is None:
            raise BadInputError('post_affine maps boxes from the net\'s input: pass data_shape=(height, width) too')
        self.data_shape, self.post_affine, self.cleanup = data_shape or None, post_affine, cleanup
        self.filename = None
        if save_prefix is not None:
            import datetime
            stamp = datetime.datetime.now().strftime('_%Y_%m_%d_%H_%M_%S') if use_time else ''
            self.filename = os.path.abspath(os.path.expanduser(save_prefix) + stamp + '.json')
            try:
                open(self.filename, 'w').close()
            except OSError as e:
                raise BadInputError(f'cannot write the detections to {self.filename} ({e.strerror}): pass another '
                                    f'save_prefix') from None
        super().__init__('COCOMeanAP')

    def __del__(self):
        if getattr(self, 'cleanup', False) and getattr(self, 'filename', None) and os.path.exists(self.filename):
            os.remove(self.filename)

    def reset(self):
        self.detections, self._seen, self.summary, self.coco_eval = [], [], '', None

    def update(self, pred_bboxes, pred_labels, pred_scores, image_ids=None):
        """Add a batch (or a list of batches) of predictions in the images' own pixels."""
        images = iter(image_ids) if image_ids is not None else None
        for boxes, labels, scores in _images(pred_bboxes, pred_labels, pred_scores):
            if images is not None:
                image_id = int(next(images))
            else:
                if len(self._seen) >= len(self.image_ids):
                    raise BadInputError(f'more predictions than the {len(self.image_ids)} images of the data')
                image_id = self.image_ids[len(self._seen)]
            self._seen.append(image_id)
            boxes = np.array(boxes, np.float64).reshape(-1, 4)
            if self.data_shape is not None:
                entry = self.coco.imgs[image_id]
                if self.post_affine is not None:
                    m = np.asarray(self.post_affine(entry['width'], entry['height'], self.data_shape[1],
                                                    self.data_shape[0]), np.float64)
                    for k in (0, 2):
                        boxes[:, k:k + 2] = boxes[:, k:k + 2] @ m[:, :2].T + m[:, 2]
                else:
                    boxes[:, [0, 2]] *= entry['width'] / self.data_shape[1]
                    boxes[:, [1, 3]] *= entry['height'] / self.data_shape[0]
            for box, label, score in zip(boxes, np.asarray(labels).ravel(), np.asarray(scores).ravel()):
                if label < 0 or int(label) not in self._to_json or score < self.score_thresh:
                    continue
                x1, y1, x2, y2 = (float(v) for v in box)
                self.detections.append({'image_id': image_id, 'category_id': self._to_json[int(label)],
                                     'bbox': [x1, y1, x2 - x1 + 1, y2 - y1 + 1], 'score': float(score)})

    def save(self, path):
        """Write the results as COCO's detection JSON (what loadRes and the COCO server read)."""
        import json
        with open(path, 'w') as f:
            json.dump(self.detections, f)

    def get(self):
        if self.filename is not None:
            self.save(self.filename)
        out = self.results()
        if not self.detections:
            return ['mAP'], ['0.0']
        names = ['~~~~ Summary metrics ~~~~\n'] + list(self.classes) + ['~~~~ MeanAP @ IoU=[0.50,0.95] ~~~~\n']
        values = [self.summary.strip()] + [f'{100 * out[c]:.1f}' for c in self.classes] + [f'{100 * out["mAP"]:.1f}']
        return names, values

    def results(self):
        out = dict.fromkeys(COCO_STATS, 0.0)
        if not self.detections:  # loadRes refuses an empty list; nothing found scores 0, as GluonCV reports
            out.update(dict.fromkeys(self.classes, 0.0))
            return out
        ev, self.summary = run_cocoeval(self.coco, self.detections, 'bbox', sorted(set(self._seen)))
        self.coco_eval = ev
        out.update(zip(COCO_STATS, (float(s) for s in ev.stats)))
        precision = ev.eval['precision'][:, :, :, 0, -1]  # IoU x recall x class, all areas, 100 detections
        for k, name in enumerate(self.classes):
            p = precision[:, :, k]
            out[name] = float(np.mean(p[p > -1])) if (p > -1).any() else float('nan')
        return out
