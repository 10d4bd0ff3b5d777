"""KeypointAP and MaskAP give GluonCV's COCOKeyPointsMetric / COCOInstanceMetric numbers (run in the peers venv) on
perturbed ground truth of tiny generated folders, 1.0 on the ground truth itself, and leave no file behind."""
import json
import os
import re

import mxnet as mx
import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision.data import COCOInstance
from gluonzoo.vision.data.figures import FigureSpec, make_figures
from gluonzoo.vision.data.scenes import SceneSpec, make_scenes
from gluonzoo.vision.metrics import COCOInstanceMetric, COCOKeyPointsMetric, KeypointAP, MaskAP
from gluonzoo.vision.metrics.detection import COCO_STATS

from ..peers import run_peer


def _keypoint_predictions(coco, rng, perfect=False):
    """Per GT person its keypoints moved by a few pixels, random joint confidences and box scores; one person in
    five missed, and one made-up person."""
    anns = coco.loadAnns(coco.getAnnIds())
    kp = np.array([a['keypoints'] for a in anns], np.float32).reshape(-1, 17, 3)
    ids = np.array([a['image_id'] for a in anns])
    if perfect:
        return ids, kp[:, :, :2], np.ones((len(kp), 17, 1), np.float32), np.ones(len(kp), np.float32)
    keep = rng.rand(len(kp)) > 0.2
    coords = kp[keep, :, :2] + rng.normal(0, 1.5, (keep.sum(), 17, 2)).astype(np.float32)
    coords = np.concatenate([coords, rng.uniform(0, 128, (1, 17, 2)).astype(np.float32)])
    maxvals = rng.uniform(0, 1, (len(coords), 17, 1)).astype(np.float32)
    return np.append(ids[keep], ids[0]), coords, maxvals, rng.uniform(0.2, 1, len(coords)).astype(np.float32)


def test_keypoint_ap_matches_gluoncv(tmp_path):
    root = tmp_path / 'figs'
    make_figures(root, FigureSpec(train=0, val=6, test=0, size=128))
    ann = root / 'annotations' / 'person_keypoints_val.json'
    metric = KeypointAP(str(ann))
    ids, coords, maxvals, scores = _keypoint_predictions(metric.coco, np.random.RandomState(0))
    half = len(ids) // 2
    metric.update(ids[:half], coords[:half], maxvals[:half], scores[:half])
    metric.update(ids[half:], coords[half:], maxvals[half:], scores[half:])
    ours = metric.results()
    np.savez(tmp_path / 'kp.npz', image_ids=ids, coords=coords, maxvals=maxvals, scores=scores)
    out = tmp_path / 'peer'
    out.mkdir()
    run_peer('gluoncv_coco.py', out, [{'kind': 'keypoint_metric', 'ann_file': str(ann), 'data': str(tmp_path / 'kp.npz'),
                                       'in_vis_thresh': 0.2, 'out': 'kp'}])
    ref = json.loads((out / 'kp.json').read_text())
    assert 0.1 < ours['AP'] < 0.95 and ours['APm'] > 0  # visible areas of 32² to 96² pixels: COCO's 'medium'
    for key, name in zip(ours, ('AP', 'Ap .5', 'AP .75', 'AP (M)', 'AP (L)', 'AR')):
        assert ours[key] == pytest.approx(ref[name], abs=1e-12), key
    assert 'Average Precision' in metric.summary
    # GluonCV's spelling: its constructor, update(preds, maxvals, score, imgid) and get() -> (OrderedDict, AP)
    gluoncv_style = COCOKeyPointsMetric(metric.coco, str(tmp_path / 'kp_results'), use_time=False, cleanup=True)
    gluoncv_style.update(mx.nd.array(coords), mx.nd.array(maxvals), mx.nd.array(scores), mx.nd.array(ids))
    names_values, ap = gluoncv_style.get()
    assert list(names_values) == list(ref) and ap == pytest.approx(ref['AP'], abs=1e-12)
    assert [names_values[k] for k in ref] == pytest.approx([ref[k] for k in ref], abs=1e-12)
    del gluoncv_style  # cleanup: its results file goes with it
    assert not (tmp_path / 'kp_results.json').exists()

    perfect = KeypointAP(metric.coco)
    perfect.update(*_keypoint_predictions(metric.coco, None, perfect=True))
    assert perfect.results()['AP'] == 1.0 and KeypointAP(metric.coco).results()['AP'] == 0.0
    with pytest.raises(BadInputError, match='same N'):
        perfect.update(ids[:2], coords[:3], maxvals[:3], scores[:3])
    with pytest.raises(BadInputError, match=r'image ids \[999\]'):
        perfect.update([999], coords[:1], maxvals[:1], scores[:1])


def _instance_predictions(ds, rng, perfect=False):
    """Per image (every one, in id order) its objects' masks shifted by a pixel or eroded, boxes jittered, random
    scores, one object in five missed and one made-up object."""
    import cv2
    out = []
    by_id = dict(zip(ds.image_ids, range(len(ds))))
    for image_id in sorted(ds.coco.getImgIds()):
        if image_id not in by_id:
            out.append((image_id, np.zeros((0, 4), np.float32), np.zeros(0), np.zeros(0), np.zeros((0, 48, 48))))
            continue
        target = ds.sample(by_id[image_id])[1]
        boxes, ids, masks = target['boxes'], target['ids'], target['masks']
        if perfect:
            out.append((image_id, boxes, ids, np.ones(len(ids), np.float32), masks))
            continue
        keep = rng.rand(len(ids)) > 0.2
        masks = np.stack([np.roll(m, rng.randint(-1, 2), axis=1) if rng.rand() < 0.5 else
                          cv2.erode(m, np.ones((2, 2), np.uint8)) for m in masks[keep]] + [np.eye(48, dtype=np.uint8)])
        boxes = np.concatenate([boxes[keep] + rng.normal(0, 1, (keep.sum(), 4)), [[0, 0, 47, 47]]]).astype(np.float32)
        out.append((image_id, boxes, np.append(ids[keep], 0), rng.uniform(0, 1, len(boxes)).astype(np.float32),
                    masks))
    return out


def test_mask_ap_matches_gluoncv(tmp_path):
    root = tmp_path / 'scenes'
    make_scenes(root, SceneSpec(train=0, val=5, test=0, size=48))
    ann = root / 'annotations' / 'instances_val.json'
    ds = COCOInstance(root / 'JPEGImages', ann)
    preds = _instance_predictions(ds, np.random.RandomState(1))
    metric = MaskAP(ds)
    metric.update(*zip(*preds[:2]))  # lists, one entry an image
    for p in preds[2:]:
        metric.update(*p)  # one image
    ours = metric.results()
    np.savez(tmp_path / 'inst.npz', **{f'{name}_{k}': v for k, p in enumerate(preds)
                                       for name, v in zip(('image_id', 'boxes', 'ids', 'scores', 'masks'), p)})
    out = tmp_path / 'peer'
    out.mkdir()
    run_peer('gluoncv_coco.py', out, [{'kind': 'instance_metric', 'ann_file': str(ann),
                                       'data': str(tmp_path / 'inst.npz'), 'out': 'inst'}])
    ref = json.loads((out / 'inst.json').read_text())
    assert 0.1 < ours['segm_mAP'] < 0.9 and 0.1 < ours['bbox_mAP'] < 0.9
    for kind in ('bbox', 'segm'):
        assert [ours[f'{kind}_{name}'] for name in COCO_STATS] == pytest.approx(ref[kind], abs=5.1e-4)
        assert f'{100 * ours[kind + "_mAP"]:.1f}' == ref[f'{kind}_mean']
    assert sorted(os.listdir(tmp_path)) == ['inst.npz', 'peer', 'scenes']  # no results file of ours
    # GluonCV's spelling: one image an update, in id order, get() -> its (names, values) of strings
    gluoncv_style = COCOInstanceMetric(ds, str(tmp_path / 'inst_results'), use_time=False, cleanup=True)
    for p in preds:
        gluoncv_style.update(*p[1:])
    names, values = gluoncv_style.get()
    assert names == ['~~~~ Summary bbox metrics ~~~~\n', '~~~~ Mean AP for bbox ~~~~\n',
                     '~~~~ Summary segm metrics ~~~~\n', '~~~~ Mean AP for segm ~~~~\n']
    assert [values[1], values[3]] == [ref['bbox_mean'], ref['segm_mean']]
    for kind, summary in (('bbox', values[0]), ('segm', values[2])):
        assert [float(v) for v in re.findall(r'= (-?\d+\.\d+)', summary)] == pytest.approx(ref[kind], abs=5.1e-4)
    with pytest.raises(BadInputError, match='use_ext'):
        COCOInstanceMetric(ds, str(tmp_path / 'x'), use_ext=True)

    perfect = MaskAP(ds.coco)
    for p in _instance_predictions(ds, None, perfect=True):
        perfect.update(*p)
    assert perfect.results()['segm_mAP'] == perfect.results()['bbox_mAP'] == 1.0
    image_id, boxes, ids, scores, masks = preds[0]
    with pytest.raises(BadInputError, match='must agree'):
        perfect.update(image_id, boxes, ids, scores, masks[:, :40])
    with pytest.raises(BadInputError, match=r'image ids \[999\]'):
        perfect.update(999, boxes, ids, scores, masks)
