"""SimplePose's transforms against GluonCV's (peers venv): with the random draws fixed to the same values (no
randomness, then a scaled, turned, mirrored crop), the targets and weights are equal and the crops within one grey
level; the eval crop and the mapping of heatmaps back to image pixels (get_final_preds) too. Bad boxes and joints
outside the crop."""
import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision.meta import IMAGENET_STD
from gluonzoo.vision.pose import heatmap_to_coord
from gluonzoo.vision.transforms.pose import crop_box, pose_crop, simple_pose_eval, simple_pose_train

from ..peers import run_peer

SIZE, HEAT = (64, 48), (16, 12)
BBOX = [20.5, 10.0, 61.0, 70.5]
# (scale z, rotation z, rotation gate, flip gate, flip): GluonCV's draws, in its order
DRAWS = [(0.0, 0.0, 0.9, 0.1, False), (0.0, 0.0, 0.9, 0.9, True), (0.6, -0.5, 0.3, 0.9, True),
         (-1.5, 1.2, 0.5, 0.2, True)]


def _person():
    rng = np.random.RandomState(0)
    img = rng.randint(0, 256, (80, 100, 3)).astype(np.uint8)
    joints = np.zeros((17, 3, 2), np.float32)
    joints[:, 0, 0] = rng.uniform(22, 60, 17)
    joints[:, 1, 0] = rng.uniform(12, 70, 17)
    joints[:, :2, 1] = 1
    joints[3, :, :] = 0  # not labelled
    joints[5, :2, 0] = (40.0, -60.0)  # labelled, far above the box: the crop loses it
    return img, joints


@pytest.fixture(scope='module')
def peer(tmp_path_factory):
    out = tmp_path_factory.mktemp('pose_peer')
    img, joints = _person()
    hm = np.random.RandomState(1).rand(3, 17, *HEAT).astype(np.float32)
    np.savez(out / 'person.npz', img=img, joints_3d=joints, heatmaps=hm)
    common = dict(data='person.npz', bbox=BBOX, image_size=list(SIZE), heatmap_size=list(HEAT), sigma=2,
                  scale_factor=0.25, rotation_factor=30)
    jobs = [dict(common, kind='train', randn=[zs, zr], random=[gr, gf], flip=flip, out=f'train{i}.npz')
            for i, (zs, zr, gr, gf, flip) in enumerate(DRAWS)]
    centers, scales = [[40.0, 40.0], [30.5, 52.0], [10.0, 5.0]], [[48.0, 64.0], [30.0, 40.0], [12.0, 16.0]]
    jobs += [dict(common, kind='val', out='val.npz'),
             dict(kind='preds', data='person.npz', heatmaps='heatmaps', center=centers, scale=scales,
                  out='preds.npz')]
    run_peer('gluoncv_pose_transforms.py', out, jobs)
    return out, img, joints, hm, centers, scales


def _grey_levels(a, b):
    """The largest difference of two normalized crops in 0-255 grey levels."""
    return float((np.abs(a - b) * np.asarray(IMAGENET_STD, np.float32)[:, None, None] * 255).max())


@pytest.mark.parametrize('case', range(len(DRAWS)))
def test_train_crop_targets_and_weights_are_gluoncvs(peer, case):
    out, img, joints, *_ = peer
    zs, zr, gr, gf, flip = DRAWS[case]
    s = float(np.clip(zs * 0.25 + 1, 0.75, 1.25))
    r = float(np.clip(zr * 30, -60, 60)) if gr <= 0.6 else 0.0
    stats = {}
    x, target, weight = pose_crop(img, {'bbox': BBOX, 'joints_3d': joints}, s, r, flip and gf > 0.5, SIZE, HEAT,
                                  stats=stats)
    ref = np.load(out / f'train{case}.npz')
    assert x.shape == (3, *SIZE) and target.shape == (17, *HEAT) and weight.shape == (17, 1, 1)
    np.testing.assert_array_equal(weight, ref['weight'])
    np.testing.assert_allclose(target, ref['target'], atol=1e-6)
    assert _grey_levels(x, ref['x']) <= 1.0001
    flipped = flip and gf > 0.5  # then the left/right pairs (3, 4) and (5, 6) trade places
    assert weight[4 if flipped else 3, 0, 0] == 0  # the unlabelled joint
    assert weight[6 if flipped else 5, 0, 0] == 0  # the one far outside the box: counted
    assert stats['outside'] == 16 - int(weight.sum()) >= 1


def test_the_random_draws_follow_gluoncvs_order():
    img, joints = _person()
    label = {'bbox': BBOX, 'joints_3d': joints}
    got = simple_pose_train(img, label, np.random.default_rng(7), SIZE, HEAT)
    rng = np.random.default_rng(7)
    s = float(np.clip(rng.standard_normal() * 0.25 + 1, 0.75, 1.25))
    r = float(np.clip(rng.standard_normal() * 30, -60, 60)) if rng.random() <= 0.6 else 0.0  # gate, then angle
    want = pose_crop(img, label, s, r, rng.random() > 0.5, SIZE, HEAT)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)


def test_eval_crop_and_heatmaps_to_image_pixels_are_gluoncvs(peer):
    out, img, _, hm, centers, scales = peer
    x, center, scale = simple_pose_eval(img, BBOX, SIZE)
    ref = np.load(out / 'val.npz')
    np.testing.assert_allclose(center, ref['center'], rtol=1e-6)
    np.testing.assert_allclose(scale, ref['scale'], rtol=1e-6)
    assert _grey_levels(x, ref['x']) <= 1.0001
    coords, maxvals = heatmap_to_coord(hm, crop_box(centers, scales), shift=True)
    preds = np.load(out / 'preds.npz')
    np.testing.assert_allclose(coords, preds['coords'], rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(maxvals, preds['maxvals'], rtol=1e-6)


def test_a_zero_area_box_is_refused():
    img, joints = _person()
    with pytest.raises(BadInputError, match='has zero area'):
        simple_pose_train(img, {'bbox': [10, 10, 10, 40], 'joints_3d': joints}, np.random.default_rng(0))
    with pytest.raises(BadInputError, match='has zero area'):
        simple_pose_eval(img, [10, 40, 30, 40])
