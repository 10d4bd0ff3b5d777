"""COCO keypoint AP (object keypoint similarity) and instance mask AP through pycocotools' COCOeval, with GluonCV's
result records (COCOKeyPointsMetric, COCOInstanceMetric) so the numbers are GluonCV's.

Results go to pycocotools as a list in memory (`COCO.loadRes`), never through a file; its printed tables are kept in
`summary`, not printed. Every image of the ground truth is evaluated, as GluonCV does: an image never updated counts
its people or objects as missed.
"""
import os

import numpy as np

from ...errors import BadInputError
from .base import Metric
from .detection import COCO_STATS, run_cocoeval

#: the keys KeypointAP.get returns, in COCOeval's keypoint stats order
KEYPOINT_STATS = ('AP', 'AP50', 'AP75', 'APm', 'APl', 'AR')


def _np(x):
    return x.asnumpy() if hasattr(x, 'asnumpy') else np.asarray(x)


def _ground_truth(coco):
    """A pycocotools COCO from itself, a dataset holding one (`.coco`) or an annotation file."""
    if isinstance(coco, (str, bytes)) or hasattr(coco, '__fspath__'):
        from ..data.detection import load_coco
        return load_coco(os.fspath(coco))
    coco = getattr(coco, 'coco', coco)
    if not hasattr(coco, 'loadRes'):
        raise BadInputError(f'expected a pycocotools COCO, a dataset with .coco or an annotation file, got '
                            f'{type(coco).__name__}')
    return coco


class _COCOMetric(Metric):
    """The ground truth, the result records (`detections`) and COCOeval's run over them; an EvalMetric whose
    `get()` is (names, values) of `results()`."""

    def __init__(self, coco):
        self.coco = _ground_truth(coco)
        self._known = set(self.coco.getImgIds())
        super().__init__(type(self).__name__)

    def reset(self):
        self.detections, self.summary, self.coco_eval = [], '', None

    def _image_ids(self, image_ids):
        ids = _np(image_ids).astype(np.int64).ravel()
        unknown = sorted(set(ids.tolist()) - self._known)
        if unknown:
            raise BadInputError(f'image ids {unknown[:5]} are not images of the ground truth: pass the COCO image '
                                f'ids (e.g. the dataset\'s image_ids)')
        return ids

    def _evaluate(self, iou_type):
        ev, summary = run_cocoeval(self.coco, self.detections, iou_type)
        self.summary += summary
        self.coco_eval = ev
        return [float(s) for s in ev.stats]


class KeypointAP(_COCOMetric):
    """COCO keypoint AP of person poses, GluonCV's COCOKeyPointsMetric: each person's score is its box score times
    the mean confidence of its joints above `in_vis_thresh` (0 when none is), and its keypoints go to COCOeval as
    (x, y, confidence) per joint. `coco`: the ground truth (a pycocotools COCO, a COCOKeyPoints, or a file).

    `update(image_ids (N,), coords (N, J, 2) in image pixels, maxvals (N, J, 1), box_scores (N,))` per batch of
    people; `results()` -> {'AP' (OKS .50:.95), 'AP50', 'AP75', 'APm', 'APl', 'AR'}, zeros when nothing was updated
    (`get()`: the same as (names, values)).
    """

    def __init__(self, coco, in_vis_thresh=0.2):
        super().__init__(coco)
        self.in_vis_thresh = in_vis_thresh
        person = self.coco.getCatIds(catNms=['person']) or self.coco.getCatIds()
        if not person:
            raise BadInputError('the ground truth lists no categories: not a COCO keypoints file')
        self.category_id = person[0]

    def update(self, image_ids, coords, maxvals, box_scores):
        coords = _np(coords).astype(np.float32)
        conf, scores = _np(maxvals).astype(np.float32), _np(box_scores).astype(np.float32).ravel()
        n = len(coords)
        if coords.ndim != 3 or coords.shape[2] != 2 or conf.size != n * coords.shape[1] or len(scores) != n \
                or _np(image_ids).size != n:
            raise BadInputError(f'KeypointAP.update takes image_ids (N,), coords (N, joints, 2), maxvals (N, joints, '
                                f'1) and box_scores (N,) of the same N; got shapes {_np(image_ids).shape}, '
                                f'{coords.shape}, {conf.shape} and {_np(box_scores).shape}')
        ids = self._image_ids(image_ids)
        conf = conf.reshape(coords.shape[:2])
        for image_id, xy, c, score in zip(ids, coords, conf, scores):
            seen = c[c > self.in_vis_thresh]
            # summed in order in doubles, as GluonCV does: the same scores, so the same ranking of ties
            rescore = (sum(float(v) for v in seen) / len(seen) if len(seen) else 0.0) * float(score)
            self.detections.append({'image_id': int(image_id), 'category_id': self.category_id,
                                 'keypoints': np.column_stack([xy, c]).ravel().tolist(), 'score': rescore})

    def results(self):
        if not self.detections:  # loadRes refuses an empty list
            return dict.fromkeys(KEYPOINT_STATS, 0.0)
        self.summary = ''
        return dict(zip(KEYPOINT_STATS, self._evaluate('keypoints')))


class MaskAP(_COCOMetric):
    """COCO instance segmentation AP (and the box AP of the same detections), GluonCV's COCOInstanceMetric: boxes go
    to COCO as (x1, y1, x2 - x1, y2 - y1) rounded to 2 decimals, scores to 3, masks as RLE; detections with class
    id < 0 (padding), a class the data lacks or a score under `score_thresh` are left out. Class ids are indices
    into the categories in id order (COCOInstance's ids). `coco`: the ground truth (a pycocotools COCO, a
    COCOInstance, or a file).

    `update(image_ids, boxes, ids, scores, masks)`: one image (an int id, boxes (N, 4) x1, y1, x2, y2, ids (N,),
    scores (N,), masks (N, H, W) at the image's size, pixels >= 0.5 inside) or lists of such, one entry an image.
    `results()` -> {'bbox_mAP', 'bbox_AP50', ..., 'segm_mAP', ..., 'segm_ARl'} (COCOeval's 12 stats each,
    detection's COCO_STATS names), zeros when nothing was found (`get()`: the same as (names, values)).
    """

    def __init__(self, coco, score_thresh=1e-3):
        super().__init__(coco)
        self.score_thresh = score_thresh
        self._to_json = dict(enumerate(sorted(self.coco.getCatIds())))

    def update(self, image_ids, boxes, ids, scores, masks):
        if np.ndim(_np(image_ids)) == 0:
            image_ids, boxes, ids, scores, masks = [image_ids], [boxes], [ids], [scores], [masks]
        if not len(image_ids) == len(boxes) == len(ids) == len(scores) == len(masks):
            raise BadInputError(f'MaskAP.update takes one entry an image: got {len(image_ids)} image ids, '
                                f'{len(boxes)} box arrays, {len(ids)} id arrays, {len(scores)} score arrays and '
                                f'{len(masks)} mask arrays')
        from pycocotools import mask as mask_utils
        for image_id, b, c, s, m in zip(self._image_ids(image_ids), boxes, ids, scores, masks):
            b, c, s, m = _np(b).astype(np.float32), _np(c).ravel(), _np(s).astype(np.float32).ravel(), _np(m)
            entry = self.coco.imgs[int(image_id)]
            size = (entry['height'], entry['width'])
            if b.shape != (len(c), 4) or len(s) != len(c) or m.shape != (len(c),) + size:
                raise BadInputError(f'image {image_id} ({size[1]}x{size[0]}): boxes (N, 4), ids (N,), scores (N,) '
                                    f'and masks (N, {size[0]}, {size[1]}) must agree; got {b.shape}, {c.shape}, '
                                    f'{s.shape} and {m.shape}')
            for box, label, score, mask in zip(b, c, s, m):
                if label < 0 or int(label) not in self._to_json or score < self.score_thresh:
                    continue
                box[2:] -= box[:2]
                rle = mask_utils.encode(np.asfortranarray((mask >= 0.5).astype(np.uint8)))
                self.detections.append({'image_id': int(image_id), 'category_id': self._to_json[int(label)],
                                     'bbox': [float(round(v, 2)) for v in box], 'score': float(round(score, 3)),
                                     'segmentation': {'size': rle['size'], 'counts': rle['counts'].decode('ascii')}})

    def results(self):
        out = {f'{kind}_{name}': 0.0 for kind in ('bbox', 'segm') for name in COCO_STATS}
        if not self.detections:
            return out
        self.summary = ''
        for kind in ('bbox', 'segm'):
            out.update(zip((f'{kind}_{name}' for name in COCO_STATS), self._evaluate(kind)))
        return out


#: GluonCV's names of COCOeval's 10 keypoint stats, in order (COCOKeyPointsMetric.get)
GLUONCV_KEYPOINT_STATS = ('AP', 'Ap .5', 'AP .75', 'AP (M)', 'AP (L)', 'AR', 'AR .5', 'AR .75', 'AR (M)', 'AR (L)')


def _result_file(save_prefix, use_time):
    import datetime
    stamp = datetime.datetime.now().strftime('_%Y_%m_%d_%H_%M_%S') if use_time else ''
    name = os.path.abspath(os.path.expanduser(save_prefix) + stamp + '.json')
    try:
        open(name, 'w').close()
    except OSError as e:
        raise BadInputError(f'cannot write the results to {name} ({e.strerror}): pass another save_prefix') from None
    return name


class COCOKeyPointsMetric(KeypointAP):
    """KeypointAP with GluonCV's arguments and calls: `COCOKeyPointsMetric(dataset, save_prefix, use_time=True,
    cleanup=False, in_vis_thresh=0.2, data_shape=None)`, `update(preds (N, J, 2), maxvals (N, J, 1), score (N,),
    imgid (N,))`, and `get()` -> (OrderedDict of COCOeval's 10 keypoint stats by GluonCV's names, AP). The result
    records are written to `{save_prefix}{time}.json` at each get(); `cleanup` removes the file with the metric.
    `data_shape` is taken and checked, and unused (as in GluonCV)."""

    def __init__(self, dataset, save_prefix, use_time=True, cleanup=False, in_vis_thresh=0.2, data_shape=None):
        if data_shape is not None and (not isinstance(data_shape, (tuple, list)) or len(data_shape) != 2):
            raise BadInputError(f'data_shape must be (height, width), got {data_shape!r}')
        self.filename, self.cleanup = _result_file(save_prefix, use_time), cleanup
        super().__init__(dataset, in_vis_thresh=in_vis_thresh)
        self.name = 'COCOMeanAP'

    def __del__(self):
        if getattr(self, 'cleanup', False) and os.path.exists(self.filename):
            os.remove(self.filename)

    def update(self, preds, maxvals, score, imgid, *args, **kwargs):
        super().update(imgid, preds, maxvals, score)

    def get(self):
        import collections
        import json
        with open(self.filename, 'w') as f:
            json.dump(self.detections, f)
        stats = self._evaluate('keypoints') if self.detections else [0.0] * len(GLUONCV_KEYPOINT_STATS)
        names = collections.OrderedDict(zip(GLUONCV_KEYPOINT_STATS, stats))
        return names, names['AP']

    def get_name_value(self):
        return list(self.get()[0].items())


class COCOInstanceMetric(MaskAP):
    """MaskAP with GluonCV's arguments and calls: `COCOInstanceMetric(dataset, save_prefix, use_time=True,
    cleanup=False, use_ext=False, starting_id=0, score_thresh=1e-3)`, `update(pred_bboxes (N, 4), pred_labels (N,),
    pred_scores (N,), pred_masks (N, H, W))` once an image, in the dataset's image-id order from `starting_id`,
    and `get()` -> GluonCV's (names, values): for 'bbox' then 'segm', ('~~~~ Summary {kind} metrics ~~~~\\n',
    COCOeval's table) and ('~~~~ Mean AP for {kind} ~~~~\\n', AP in percent). Without `cleanup` the result records
    are written to `{save_prefix}{time}.json` at get(). `use_ext` (NVIDIA's COCO API) is not supported."""

    def __init__(self, dataset, save_prefix, use_time=True, cleanup=False, use_ext=False, starting_id=0,
                 score_thresh=1e-3):
        if use_ext:
            raise BadInputError("use_ext=True needs NVIDIA's COCO API extension, which gluonzoo does not use: "
                                "pass use_ext=False (pycocotools' evaluation, the same numbers)")
        self.filename = _result_file(save_prefix, use_time) if not cleanup else None
        self.starting_id = starting_id
        super().__init__(dataset, score_thresh=score_thresh)
        self.name = 'COCOInstance'
        self._order = sorted(self.coco.getImgIds())

    def reset(self):
        super().reset()
        self.current_id = getattr(self, 'starting_id', 0)

    def update(self, pred_bboxes, pred_labels, pred_scores, pred_masks, *args, **kwargs):
        if self.current_id >= len(self._order):
            raise BadInputError(f'more images updated than the {len(self._order)} of the data')
        image_id = self._order[self.current_id]
        self.current_id += 1
        super().update(image_id, pred_bboxes, pred_labels, pred_scores, pred_masks)

    def get(self):
        import json
        if self.filename is not None:
            with open(self.filename, 'w') as f:
                json.dump(self.detections, f)
        names, values = [], []
        for kind in ('bbox', 'segm'):
            ev, summary = run_cocoeval(self.coco, self.detections, kind) if self.detections else (None, '')
            names += [f'~~~~ Summary {kind} metrics ~~~~\n', f'~~~~ Mean AP for {kind} ~~~~\n']
            values += [summary.strip(), f'{100 * (ev.stats[0] if ev is not None else 0.0):.1f}']
        return names, values
