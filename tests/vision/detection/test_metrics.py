"""Detection metrics: VOC mAP (11-point and area) equal to GluonCV 0.10.5's on the same random predictions and
ground truth (difficult boxes, padding, classes only predicted or only true), and COCODetectionMetric equal to
calling pycocotools' COCOeval directly on the same detections."""
import contextlib
import io
import json

import mxnet as mx
import numpy as np
import pytest
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

from gluonzoo.errors import BadInputError
from gluonzoo.vision.metrics import COCODetectionMetric, TopKAccuracy, VOC07MApMetric, VOCMApMetric
from gluonzoo.vision.metrics.detection import COCO_STATS

from ...peers import run_peer

NAMES = ['cat', 'dog', 'car', 'bus', 'cow', 'owl']  # owl (5): neither predicted nor true


def _boxes(rng, n, size=100):
    xy = rng.uniform(0, size * 0.7, (n, 2))
    return np.concatenate([xy, xy + rng.uniform(5, size * 0.3, (n, 2))], 1)


def random_batches(seed, batches=3, images=4, most=6):
    """Batches of padded ground truth (classes 0-3, some difficult) and predictions near it or anywhere (classes
    0-4: class 4 is never true), scores distinct."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(batches):
        gb, gl, gd = np.zeros((images, most, 4)), -np.ones((images, most)), np.zeros((images, most))
        pb, pl, ps = np.zeros((images, 2 * most, 4)), -np.ones((images, 2 * most)), -np.ones((images, 2 * most))
        for i in range(images):
            n = rng.integers(0, most + 1)
            gb[i, :n], gl[i, :n], gd[i, :n] = _boxes(rng, n), rng.integers(0, 4, n), rng.random(n) < 0.2
            near = gb[i, :n] + rng.normal(0, 4, (n, 4))
            m = rng.integers(0, most + 1)
            pb[i, :n + m] = np.concatenate([near, _boxes(rng, m)])
            pl[i, :n + m] = np.concatenate([np.where(rng.random(n) < 0.8, gl[i, :n], rng.integers(0, 5, n)),
                                            rng.integers(0, 5, m)])
            ps[i, :n + m] = rng.random(n + m)
        out.append(dict(pred_bboxes=pb, pred_labels=pl, pred_scores=ps, gt_bboxes=gb, gt_labels=gl,
                        gt_difficults=gd))
    return out


@pytest.fixture(scope='module')
def gluoncv(tmp_path_factory):
    out = tmp_path_factory.mktemp('detmetrics')
    jobs = []
    for seed, thresh, names in ((0, 0.5, NAMES), (1, 0.7, NAMES[:3]), (2, 0.5, NAMES)):
        data = {f'{k}_{b}': v for b, batch in enumerate(random_batches(seed)) for k, v in batch.items()}
        np.savez(out / f'data{seed}.npz', **data)
        jobs.append(dict(data=str(out / f'data{seed}.npz'), out=f'r{seed}', iou_thresh=thresh, class_names=names))
    run_peer('gluoncv_detection_metrics.py', out, jobs)
    return out, jobs


@pytest.mark.parametrize('job', [0, 1, 2])
def test_voc_metrics_equal_gluoncv(gluoncv, job):
    out, jobs = gluoncv
    spec = jobs[job]
    ref = json.loads((out / f'r{job}.json').read_text())
    batches = random_batches(job)
    for key, cls in (('voc', VOCMApMetric), ('voc07', VOC07MApMetric)):
        metric = cls(iou_thresh=spec['iou_thresh'], class_names=spec['class_names'])
        for b, batch in enumerate(batches):
            if b == 1:  # NDArrays and a list of batches work as numpy arrays do
                metric.update(*[[mx.nd.array(batch[k])] for k in ('pred_bboxes', 'pred_labels', 'pred_scores',
                                                                  'gt_bboxes', 'gt_labels', 'gt_difficults')])
            else:
                metric.update(**batch)
        got = metric.results()
        names, values = ref[key]
        want = dict(zip(names[:-1], values[:-1]))
        assert got['mAP'] == pytest.approx(values[-1], rel=1e-12)
        for name, value in want.items():
            assert got[name] == pytest.approx(value, rel=1e-12, nan_ok=True), (key, name)
        assert len(got) == len(names)
        if len(spec['class_names']) == len(NAMES):
            assert np.isnan(got['owl']) and np.isnan(got['cow'])  # never seen; only predicted: no recall, nan
            assert all(0 < got[n] < 1 for n in NAMES[:4])


def test_voc_metric_edges():
    m = VOCMApMetric()
    assert np.isnan(m.results()['mAP'])  # nothing seen yet
    box = np.array([[[0, 0, 9, 9]]])
    m.update(box, [[0]], [[0.9]], box, [[0]], [[1]])  # a hit on a difficult box counts neither way
    assert np.isnan(m.results()['mAP'])
    m.update(box, [[0]], [[0.8]], box, [[0]])
    assert m.results()['mAP'] == 1.0
    m.reset()
    m.update(box, [[-1]], [[-1]], box, [[0]])  # padding only: the truth is missed
    assert m.results()['mAP'] == 0.0
    with pytest.raises(BadInputError, match='different numbers of batches'):
        m.update([box, box], [[[0]]], [[[1]]], box, [[0]])
    assert TopKAccuracy  # the classification metrics still come from gluonzoo.vision.metrics


def coco_truth(tmp_path, rng):
    """A COCO annotation file: 5 images, categories with ids 3, 7, 11 (non-contiguous), a crowd box."""
    cats = [{'id': c, 'name': n} for c, n in ((3, 'car'), (7, 'train'), (11, 'hydrant'))]
    images, anns = [], []
    for image_id in (10, 20, 30, 40, 50):
        images.append({'id': image_id, 'file_name': f'{image_id}.jpg', 'width': 120, 'height': 100})
        for box in _boxes(rng, rng.integers(1, 5)):
            x1, y1, x2, y2 = box.tolist()
            anns.append({'id': len(anns) + 1, 'image_id': image_id, 'category_id': int(rng.choice([3, 7, 11])),
                         'bbox': [x1, y1, x2 - x1, y2 - y1], 'area': (x2 - x1) * (y2 - y1),
                         'iscrowd': int(len(anns) == 3)})
    path = tmp_path / 'truth.json'
    path.write_text(json.dumps({'images': images, 'annotations': anns, 'categories': cats}))
    return path, anns


def test_coco_metric_equals_pycocotools(tmp_path):
    rng = np.random.default_rng(5)
    path, anns = coco_truth(tmp_path, rng)
    metric = COCODetectionMetric(str(path))
    direct = []
    to_json = {0: 3, 1: 7, 2: 11}
    for image_id in (10, 20, 30, 40, 50):  # the truth jittered, plus noise; GluonCV's corners (x2 = x + w - 1)
        truth = [a for a in anns if a['image_id'] == image_id]
        xywh = np.array([a['bbox'] for a in truth] + [list(b[:2]) + list(b[2:] - b[:2]) for b in _boxes(rng, 3)])
        xywh += rng.normal(0, 2, xywh.shape)
        boxes = np.concatenate([xywh[:, :2], xywh[:, :2] + xywh[:, 2:] - 1], 1)
        labels = np.array([[3, 7, 11].index(a['category_id']) for a in truth] + list(rng.integers(0, 3, 3)))
        scores = rng.random(len(boxes))
        metric.update(boxes[None], labels[None, :, None], scores[None, :, None])
        direct += [{'image_id': image_id, 'category_id': to_json[int(c)], 'bbox': [float(v) for v in b],
                    'score': float(s)} for b, c, s in zip(xywh, labels, scores) if s >= 0.05]
    got = metric.results()
    gt = COCO(str(path))
    ev = COCOeval(gt, gt.loadRes(direct), 'bbox')
    with contextlib.redirect_stdout(io.StringIO()):
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    assert [got[k] for k in COCO_STATS] == pytest.approx(ev.stats.tolist(), abs=1e-12)
    assert 0.05 < got['mAP'] < 1.0 and 'Average Precision' in metric.summary
    for k, name in enumerate(('car', 'train', 'hydrant')):
        p = ev.eval['precision'][:, :, k, 0, -1]
        assert got[name] == pytest.approx(float(np.mean(p[p > -1])))
    metric.save(tmp_path / 'dets.json')
    assert len(json.loads((tmp_path / 'dets.json').read_text())) == len(direct)
    empty = COCODetectionMetric(gt)
    empty.update(np.zeros((1, 1, 4)), -np.ones((1, 1, 1)), -np.ones((1, 1, 1)), image_ids=[20])
    assert empty.results()['mAP'] == 0.0  # nothing found
    with pytest.raises(BadInputError, match='more predictions than the 5 images'):
        metric.update(np.zeros((6, 1, 4)), np.zeros((6, 1, 1)), np.ones((6, 1, 1)))
