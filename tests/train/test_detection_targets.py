"""The detection training targets and losses equal GluonCV 0.10.5's on the same inputs: SSD's matching, encoding and
SSDMultiBoxLoss (hard negative mining), YOLOv3's prefetched and dynamic targets and YOLOV3Loss, CenterNet's heatmap
targets, focal and masked L1 losses. GluonCV runs in the peers venv (.venv-peers) on inputs this test writes."""
import os
import subprocess

import mxnet as mx
import numpy as np
import pytest

from gluonzoo.vision.train.detection import (center_net_loss, center_net_targets, ssd_loss, ssd_targets,
                                             yolo3_loss, yolo3_targets)

from ..peers import PYTHON

# GluonCV's side: its own classes, fed what the test wrote to IN, results to OUT (both .npz)
PEER = r'''
import sys
import mxnet as mx
import numpy as np
from mxnet import nd
from gluoncv.model_zoo.ssd.target import SSDTargetGenerator
from gluoncv.model_zoo.yolo.yolo_target import YOLOV3PrefetchTargetGenerator, YOLOV3TargetMerger
from gluoncv.model_zoo.center_net.target_generator import CenterNetTargetGenerator
from gluoncv.loss import SSDMultiBoxLoss, YOLOV3Loss, HeatmapFocalLoss, MaskedL1Loss

d, out = np.load(sys.argv[1]), {}
B = d['ssd_ids'].shape[0]
cls_t, box_t = [], []
gen = SSDTargetGenerator(negative_mining_ratio=-1)  # what SSDDefaultTrainTransform uses
for b in range(B):
    c, bx, _ = gen(nd.array(d['ssd_anchors']), None, nd.array(d['ssd_boxes'][b:b + 1]), nd.array(d['ssd_ids'][b:b + 1]))
    cls_t.append(c[0].asnumpy()); box_t.append(bx[0].asnumpy())
out['ssd_cls_t'], out['ssd_box_t'] = np.stack(cls_t), np.stack(box_t)
total, cls, box = SSDMultiBoxLoss()(nd.array(d['ssd_cls_pred']), nd.array(d['ssd_box_pred']), nd.array(out['ssd_cls_t']),
                                    nd.array(out['ssd_box_t']))
out['ssd_loss'] = np.array([x.sum().asscalar() for x in (total[0], cls[0], box[0])])

size, grids = int(d['yolo_size']), [tuple(g) for g in d['yolo_grids']]
anchors = [nd.array(d[f'yolo_anchors{i}']).reshape((1, 1, -1, 2)) for i in range(len(grids))]
offsets = []
for h, w in grids:
    ys, xs = np.meshgrid(np.arange(h), np.arange(w), indexing='ij')
    offsets.append(nd.array(np.stack([xs, ys], -1).reshape(1, -1, 1, 2)))
feats = [nd.zeros((1, 1, h, w)) for h, w in grids]
pre = YOLOV3PrefetchTargetGenerator(num_class=int(d['yolo_classes']))
parts = [[] for _ in range(5)]
for b in range(B):
    t = pre(nd.zeros((1, 3, size, size)), feats, anchors, offsets, nd.array(d['yolo_boxes'][b:b + 1]),
            nd.array(d['yolo_ids'][b:b + 1]))
    for k in range(5):
        parts[k].append(t[k][0].asnumpy())
for k, name in enumerate(('obj', 'center', 'scale', 'weight', 'cls')):
    out[f'yolo_{name}'] = np.stack(parts[k])
merged = YOLOV3TargetMerger(int(d['yolo_classes']), 0.7)(nd.array(d['yolo_pred_boxes']), nd.array(d['yolo_boxes']),
                                                          *[nd.array(out[f'yolo_{n}']) for n in ('obj', 'center', 'scale', 'weight', 'cls')])
losses = YOLOV3Loss()(nd.array(d['yolo_objness']), nd.array(d['yolo_centers']), nd.array(d['yolo_scales']),
                      nd.array(d['yolo_class']), *merged)
out['yolo_losses'] = np.stack([x.asnumpy() for x in losses])

heat, wh, wm, reg, rm = [], [], [], [], []
gen = CenterNetTargetGenerator(int(d['cn_classes']), int(d['cn_w']), int(d['cn_h']))
for b in range(B):
    t = gen(d['cn_boxes'][b], d['cn_ids'][b])
    for lst, x in zip((heat, wh, wm, reg, rm), t):
        lst.append(x.asnumpy())
for name, lst in zip(('heat', 'wh', 'wm', 'reg', 'rm'), (heat, wh, wm, reg, rm)):
    out[f'cn_{name}'] = np.stack(lst)
pred = [nd.array(d[f'cn_pred_{k}']) for k in ('heat', 'wh', 'reg')]
out['cn_losses'] = np.array([
    HeatmapFocalLoss(from_logits=True)(pred[0], nd.array(out['cn_heat'])).asscalar(),
    MaskedL1Loss(weight=0.1)(pred[1], nd.array(out['cn_wh']), nd.array(out['cn_wm'])).asscalar(),
    MaskedL1Loss(weight=1.0)(pred[2], nd.array(out['cn_reg']), nd.array(out['cn_rm'])).asscalar()])
np.savez(sys.argv[2], **out)
'''


def _boxes(rng, n, size, min_side=4):
    xy = rng.uniform(0, size - min_side - 1, (n, 2))
    wh = rng.uniform(min_side, size / 2, (n, 2))
    return np.concatenate([xy, np.minimum(xy + wh, size - 1)], 1).astype(np.float32)


def _close(got, want, rtol=1e-5):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert np.abs(got - want).max() <= rtol * max(np.abs(want).max(), 1.0), np.abs(got - want).max()


@pytest.fixture(scope='module')
def cases(tmp_path_factory):
    assert os.path.exists(PYTHON), f'{PYTHON} is missing: run `make peers` (make test does)'
    rng = np.random.RandomState(7)
    tmp = tmp_path_factory.mktemp('targets')
    B, M, size, C = 2, 3, 64, 4
    d = {}
    # SSD: 80 center-form anchors over a 64-pixel input: 60 anywhere, 20 near the boxes (IoU >= 0.5 matches), two of
    # them the same (a tie for the bipartite matching)
    d['ssd_boxes'] = np.stack([_boxes(rng, M, size) for _ in range(B)])
    flat = d['ssd_boxes'].reshape(-1, 4)
    near = flat[rng.randint(0, len(flat), 20)]
    near = np.concatenate([(near[:, :2] + near[:, 2:]) / 2, near[:, 2:] - near[:, :2]], 1)
    near *= rng.uniform(0.93, 1.07, near.shape)
    near[1] = near[0]
    centers = rng.uniform(4, 60, (60, 2))
    anchors = np.concatenate([np.concatenate([centers, rng.uniform(8, 40, (60, 2))], 1), near])
    d['ssd_anchors'] = anchors[rng.permutation(80)][None].astype(np.float32)
    d['ssd_ids'] = rng.randint(0, C, (B, M, 1)).astype(np.float32)
    d['ssd_cls_pred'] = rng.normal(0, 2, (B, 80, C + 1)).astype(np.float32)
    d['ssd_box_pred'] = rng.normal(0, 1, (B, 80, 4)).astype(np.float32)
    # YOLOv3: two levels (4x4 at stride 16, 8x8 at stride 8), three anchors each, deepest first
    grids = [(4, 4), (8, 8)]
    d['yolo_size'], d['yolo_grids'], d['yolo_classes'] = np.array(size), np.array(grids), np.array(C)
    d['yolo_anchors0'] = np.array([[30, 28], [40, 50], [58, 44]], np.float32)
    d['yolo_anchors1'] = np.array([[6, 8], [12, 10], [16, 24]], np.float32)
    d['yolo_boxes'] = np.stack([_boxes(rng, M, size) for _ in range(B)])
    d['yolo_ids'] = rng.randint(0, C, (B, M, 1)).astype(np.float32)
    n = 3 * (16 + 64)
    truth = d['yolo_boxes']
    # predictions: random boxes, some close to the truth so the ignore rule (IoU > 0.7) has work
    pred = np.stack([_boxes(rng, n, size) for _ in range(B)])
    pred[:, :M] = truth + rng.uniform(-1, 1, truth.shape).astype(np.float32)
    d['yolo_pred_boxes'] = pred
    for k, w in (('objness', 1), ('centers', 2), ('scales', 2), ('class', C)):
        d[f'yolo_{k}'] = rng.normal(0, 1, (B, n, w)).astype(np.float32)
    # CenterNet: boxes on a 16x16 heatmap
    d['cn_classes'], d['cn_w'], d['cn_h'] = np.array(C), np.array(16), np.array(16)
    d['cn_boxes'] = np.stack([_boxes(rng, M, 16, min_side=1) for _ in range(B)])
    d['cn_ids'] = rng.randint(0, C, (B, M)).astype(np.float32)
    d['cn_pred_heat'] = rng.uniform(1e-4, 1 - 1e-4, (B, C, 16, 16)).astype(np.float32)
    d['cn_pred_wh'] = rng.uniform(0, 16, (B, 2, 16, 16)).astype(np.float32)
    d['cn_pred_reg'] = rng.uniform(0, 1, (B, 2, 16, 16)).astype(np.float32)
    np.savez(tmp / 'in.npz', **d)
    p = subprocess.run([PYTHON, '-c', PEER, str(tmp / 'in.npz'), str(tmp / 'out.npz')], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return d, dict(np.load(tmp / 'out.npz'))


def test_ssd_targets_and_multibox_loss(cases):
    d, ref = cases
    a = d['ssd_anchors'][0]
    corners = np.concatenate([a[:, :2] - a[:, 2:] / 2, a[:, :2] + a[:, 2:] / 2], 1)
    labels = [np.concatenate([d['ssd_boxes'][b], d['ssd_ids'][b]], 1) for b in range(2)]
    cls, box = zip(*[ssd_targets(corners, lb) for lb in labels])
    assert np.array_equal(np.stack(cls), ref['ssd_cls_t']) and (ref['ssd_cls_t'] > 0).sum() > 12
    _close(np.stack(box), ref['ssd_box_t'])
    got = ssd_loss(*[mx.nd.array(x) for x in (d['ssd_cls_pred'], d['ssd_box_pred'], np.stack(cls), np.stack(box))])
    _close([x.asscalar() for x in got], ref['ssd_loss'])


def test_yolo3_targets_and_loss(cases):
    d, ref = cases
    anchors = [d['yolo_anchors0'], d['yolo_anchors1']]
    labels = [np.concatenate([d['yolo_boxes'][b], d['yolo_ids'][b]], 1) for b in range(2)]
    parts = [np.stack(p) for p in zip(*[yolo3_targets(lb, anchors, [(4, 4), (8, 8)], (64, 64), 4)
                                          for lb in labels])]
    for got, name in zip(parts, ('obj', 'center', 'scale', 'weight', 'cls')):
        _close(got, ref[f'yolo_{name}'])
    outputs = [mx.nd.array(d[k]) for k in ('yolo_pred_boxes', 'yolo_centers', 'yolo_scales', 'yolo_objness',
                                           'yolo_class')]
    losses = yolo3_loss(outputs, parts, labels)
    _close(np.stack([x.asnumpy() for x in losses]), ref['yolo_losses'])


def test_center_net_targets_and_losses(cases):
    d, ref = cases
    labels = [np.concatenate([d['cn_boxes'][b], d['cn_ids'][b][:, None]], 1) for b in range(2)]
    parts = [np.stack(p) for p in zip(*[center_net_targets(lb, 4, 16, 16) for lb in labels])]
    for got, name in zip(parts, ('heat', 'wh', 'wm', 'reg', 'rm')):
        _close(got, ref[f'cn_{name}'])
    pred = [mx.nd.array(d[f'cn_pred_{k}']) for k in ('heat', 'wh', 'reg')]
    got = center_net_loss(pred, [mx.nd.array(p) for p in parts])
    _close([x.asscalar() for x in got], ref['cn_losses'])
