"""GluonCV's training-target generators through gluonzoo.cv (SSD's SSDTargetGenerator, CenterNet's
CenterNetTargetGenerator, SimplePose's SimplePoseGaussianTargetGenerator): the same calls
(tests/peers/cv_target_cases.py) as GluonCV 0.10.5 in the peers venv give the same heatmaps, sizes, offsets, masks
and joint weights; bad shapes get one clear error."""
import numpy as np
import pytest

from gluonzoo.cv import model_zoo
from gluonzoo.errors import BadInputError
from tests.peers import run_peer
from tests.peers.cv_target_cases import cases


def test_targets_are_gluoncvs(tmp_path):
    run_peer('gluoncv_targets.py', tmp_path, [{}], timeout=120)
    want = dict(np.load(tmp_path / 'targets.npz'))
    got = cases(model_zoo)
    assert sorted(got) == sorted(want)
    for key in want:
        assert got[key].shape == want[key].shape, key
        np.testing.assert_allclose(got[key], want[key], atol=1e-6, err_msg=key)
    assert (want['ssd3.0'] > 0).any() and (want['ssd3.0'] == -1).any()  # positives, and ignored anchors
    assert want['center_net5.0'].max() == 1 and want['pose3.target'].any()  # real peaks to compare


def test_bad_shapes_say_what_is_wanted():
    with pytest.raises(BadInputError, match='2 boxes but 1 class ids'):
        model_zoo.center_net.target_generator.CenterNetTargetGenerator(2, 8, 8)(np.zeros((2, 4)), [0])
    gen = model_zoo.simple_pose.pose_target.SimplePoseGaussianTargetGenerator(4, (48, 64), (12, 16))
    with pytest.raises(BadInputError, match='makes 4 heatmaps'):
        gen(np.zeros((3, 3, 2)))
    with pytest.raises(BadInputError, match=r'\(width, height\) each'):
        model_zoo.simple_pose.pose_target.SimplePoseGaussianTargetGenerator(4, (48, 64, 3), (12, 16))
