"""The pose helpers (gluonzoo.vision.pose, vision.metrics.pose) give GluonCV 0.10.5's numbers on the same inputs
(its functions run in the peers venv), refuse or count bad input, and run a detector-then-pose chain."""
import dataclasses
import warnings

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.optimizing import is_optimized
from gluonzoo.errors import BadInputError
from gluonzoo.vision.meta import COCO_FLIP_PAIRS, COCO_KEYPOINTS
from gluonzoo.vision.metrics.pose import HeatmapAccuracy
from gluonzoo.vision.pose import (detector_to_simple_pose, estimate_poses, flip_heatmap, get_max_pred,
                                  heatmap_to_coord, upscale_bbox_fn)

from ..peers import run_peer

H, W = 16, 12  # heatmap size; boxes below keep its 4:3 aspect, so GluonCV's affine get_final_preds is comparable


def _blobs(rng, n, joints, visible=0.8):
    """Gaussian target heatmaps at random cells; invisible joints (outside the crop) are all zero."""
    ys, xs = np.mgrid[:H, :W]
    out = np.zeros((n, joints, H, W), np.float32)
    for i, j in np.ndindex(n, joints):
        if rng.uniform() < visible:
            cx, cy = rng.uniform(0, W - 1), rng.uniform(0, H - 1)
            out[i, j] = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / 2)
    return out


@pytest.fixture(scope='module')
def case(tmp_path_factory):
    out = tmp_path_factory.mktemp('pose')
    rng = np.random.default_rng(0)
    hm = rng.normal(size=(3, 17, H, W)).astype(np.float32)
    hm[0, 3] = -np.abs(hm[0, 3]) - 0.1  # no positive maximum: GluonCV puts the joint at (0, 0)
    widths = np.array([48.0, 30.5, 96.0])
    x0y0 = np.array([[10.0, 20.0], [0.5, 3.25], [40.0, 7.0]])
    boxes = np.concatenate([x0y0, x0y0 + np.stack([widths, widths * H / W], 1)], 1)
    center = x0y0 + np.stack([widths, widths * H / W], 1) / 2
    scale = np.stack([widths, widths * H / W], 1)
    img = rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8)
    ids = np.array([[[0], [0], [1], [0], [0], [-1]]], np.float32)
    scores = np.array([[[0.9], [0.6], [0.95], [0.3], [0.8], [-1]]], np.float32)
    bboxes = np.array([[[20, 10, 60, 90], [100.3, 40.7, 170, 130], [5, 5, 50, 50], [0, 0, 30, 30],
                        [-10, 60, 25.5, 119], [-1, -1, -1, -1]]], np.float32)
    labels = {f'labels{b}': _blobs(rng, 4, 17) for b in range(2)}
    preds = {f'preds{b}': np.roll(labels[f'labels{b}'], rng.integers(-2, 3), axis=3)
             + rng.normal(scale=0.05, size=(4, 17, H, W)).astype(np.float32) for b in range(2)}
    inputs = dict(hm=hm, boxes=boxes, center=center, scale=scale, img=img, ids=ids, scores=scores, bboxes=bboxes,
                  output_shape=np.array([64, 48]), pairs=np.array(COCO_FLIP_PAIRS), **labels, **preds)
    np.savez(out / 'pose_in.npz', **inputs)
    run_peer('gluoncv_pose.py', out, [])
    return inputs, dict(np.load(out / 'pose_out.npz'))


def test_max_pred_and_coords_equal_gluoncv(case):
    a, ref = case
    coords, maxvals = get_max_pred(mx.nd.array(a['hm']))
    np.testing.assert_array_equal(coords, ref['max_coords'])
    np.testing.assert_array_equal(maxvals, ref['max_vals'])
    assert (coords[0, 3] == 0).all()
    kp, conf = heatmap_to_coord(a['hm'], a['boxes'].tolist())
    np.testing.assert_allclose(kp, ref['coords'], rtol=1e-6, atol=1e-4)
    np.testing.assert_array_equal(conf, ref['conf'])


def test_quarter_shift_equals_gluoncv_final_preds(case):
    a, ref = case
    kp, _ = heatmap_to_coord(a['hm'], a['boxes'], shift=True)
    np.testing.assert_allclose(kp, ref['final'], atol=1e-3)  # GluonCV's float32 affine matrix
    plain, _ = heatmap_to_coord(a['hm'], a['boxes'])
    assert np.abs(kp - plain).max() > 0.1  # the shift did move joints


def test_flip_heatmap_equals_gluoncv(case):
    a, ref = case
    hm = a['hm'].copy()
    np.testing.assert_array_equal(flip_heatmap(mx.nd.array(hm)), ref['flipped'])
    np.testing.assert_array_equal(flip_heatmap(hm, shift=True), ref['flipped_shift'])
    np.testing.assert_array_equal(hm, a['hm'])  # GluonCV's writes into its input; ours leaves it


def test_person_crops_equal_gluoncv(case):
    a, ref = case
    up = [upscale_bbox_fn(b, a['img']) for b in a['bboxes'][0].tolist()]
    np.testing.assert_allclose(up, ref['upscaled'], rtol=1e-6)
    x, kept = detector_to_simple_pose(a['img'], mx.nd.array(a['ids']), mx.nd.array(a['scores']),
                                      mx.nd.array(a['bboxes']), output_shape=(64, 48))
    np.testing.assert_allclose(kept, ref['kept'], rtol=1e-6)
    assert x.shape == ref['pose_input'].shape == (3, 3, 64, 48)
    # MXNet's fixed_crop resizes with its own OpenCV build (float32 bicubic)
    diff = np.abs(x.asnumpy() - ref['pose_input'])
    assert diff.max() <= 1e-3, diff.max()


def test_heatmap_accuracy_equals_gluoncv(case):
    a, ref = case
    for thr in (0.5, 0.1):
        m = HeatmapAccuracy(threshold=thr)
        m.update([a['labels0'], mx.nd.array(a['labels1'])], [a['preds0'], mx.nd.array(a['preds1'])])
        assert m.results()['heatmap_accuracy'] == pytest.approx(float(ref[f'acc_{thr}']), abs=1e-12)
        assert 0 < m.num_skipped < 2 * 4 * 17  # invisible joints are counted, not scored


def test_bad_inputs_are_refused_or_counted():
    hm = np.zeros((1, 17, H, W), np.float32)
    with pytest.raises(BadInputError, match='zero or negative area'):
        heatmap_to_coord(hm, [[10, 10, 10, 50]])
    with pytest.raises(BadInputError, match='1 heatmaps but 2 boxes'):
        heatmap_to_coord(hm, [[0, 0, 4, 4]] * 2)
    img = np.zeros((50, 40, 3), np.uint8)
    ids, scores = mx.nd.zeros((1, 2, 1)), mx.nd.ones((1, 2, 1))
    boxes = mx.nd.array([[[60, 10, 80, 30], [5, 5, 20, 30]]])  # the first lies right of the image
    with pytest.warns(UserWarning, match='1 person box'):
        x, kept = detector_to_simple_pose(img, ids, scores, boxes, output_shape=(32, 24))
    assert x.shape == (1, 3, 32, 24) and len(kept) == 1
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert detector_to_simple_pose(img, ids, scores * 0.1, boxes) == (None, [])  # nobody: GluonCV's None
    m = HeatmapAccuracy()
    with pytest.raises(BadInputError, match='must both be'):
        m.update(hm, hm[:, :5])
    m.update(hm, hm)  # every joint outside the crop: nothing scored
    assert np.isnan(m.results()['heatmap_accuracy']) and m.num_skipped == 17
    with pytest.raises(ValueError, match="only 'gaussian'"):
        HeatmapAccuracy(hm_type='coords')


def test_joint_names_and_flip_pairs():
    assert len(COCO_KEYPOINTS) == 17 and COCO_KEYPOINTS[0] == 'nose'
    for left, right in COCO_FLIP_PAIRS:
        assert COCO_KEYPOINTS[left].replace('left', 'right') == COCO_KEYPOINTS[right]
    w = gz.get_weights('simple_pose_resnet18_v1b')
    assert w.config['joints'] == COCO_KEYPOINTS and w.config['num_joints'] == 17
    with pytest.raises(ValueError, match='num_joints=5'):
        gz.get_model('mobile_pose_mobilenetv3_small', num_joints=5, joints=COCO_KEYPOINTS)


class _People(mx.gluon.Block):
    """A stand-in detector: the same two boxes (a person and a dog) in its 512x512 input, whatever the picture."""

    def __init__(self):
        super().__init__()
        self.unused = self.params.get('unused', shape=(1,))  # where inference looks for the net's context
        self.initialize()
        w = gz.get_weights('center_net_resnet18_v1b_coco')
        pre = {k: v for k, v in w.preprocess.items() if k != 'max_size'}
        self.weights, self.classes = dataclasses.replace(w, preprocess=dict(pre, resize=(512, 512))), list(w.classes)

    def forward(self, x):
        assert x.shape == (1, 3, 512, 512)
        return (mx.nd.array([[[0], [1]]]), mx.nd.array([[[0.9], [0.8]]]),
                mx.nd.array([[[128, 64, 256, 448], [0, 0, 100, 100]]]))


@pytest.mark.filterwarnings('ignore:_People is a _People, not a HybridBlock')  # the stand-in detector
def test_detector_then_pose():
    detector = _People()
    net = gz.get_model('mobile_pose_mobilenetv3_small')
    net.initialize()
    net.weights = gz.get_weights('mobile_pose_mobilenetv3_small')
    img = np.random.default_rng(0).integers(0, 256, size=(200, 100, 3), dtype=np.uint8)
    plain = estimate_poses(detector, net, img, optimize=False)
    people = estimate_poses(detector, net, img)
    assert is_optimized(net)  # the default: the pose net's fused graph, with the plain one's answers
    np.testing.assert_allclose(people[0]['keypoints'], plain[0]['keypoints'], rtol=1e-5)
    assert len(people) == 1  # the dog is no person
    p = people[0]
    # the 512x512 box (128, 64, 256, 448) is (25, 25, 50, 175) of the 100x200 picture, widened 1.25x
    np.testing.assert_allclose(p['box'], [21.875, 6.25, 53.125, 193.75])
    assert p['keypoints'].shape == (17, 2) and p['confidence'].shape == (17,) and p['score'] == pytest.approx(0.9)
    assert (p['keypoints'] >= [21.875, 6.25]).all() and (p['keypoints'] < [53.125, 193.75]).all()
    detector.classes = ['cat', 'dog']
    with pytest.raises(BadInputError, match='no class "person"'):
        estimate_poses(detector, net, img)
