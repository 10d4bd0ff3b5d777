"""DLA-34's GluonCV options the registry-wide tests do not reach: `use_feature=True` (GluonCV's CenterNet backbone)
against GluonCV's six level maps, and the input sizes its trees can align."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError

from ..peers import run_peer


def test_use_feature_matches_gluoncv(tmp_path):
    run_peer('gluoncv_models.py', tmp_path, [{'name': 'dla34', 'shape': [1, 3, 64, 32],
                                              'kwargs': {'use_feature': True}}])
    net = gz.get_model('dla34', use_feature=True)
    net.load_parameters(str(tmp_path / 'dla34.params'))  # strict: no head on either side
    ref = np.load(tmp_path / 'dla34.npz')
    outs = net(mx.nd.array(ref['x']))
    assert len(outs) == 6
    for i, (out, stage) in enumerate(zip(outs, net.feature_info)):
        want = ref[f'y{i}']
        assert out.shape == want.shape == (1, stage.channels, 64 // stage.stride, 32 // stage.stride)
        assert np.abs(out.asnumpy() - want).max() / np.abs(want).max() <= 1e-5


def test_sizes_the_trees_cannot_align_are_refused():
    net = gz.get_model('dla34')
    net.initialize()
    with pytest.raises(BadInputError, match='multiples of 32, got 1x3x40x64'):
        net(mx.nd.zeros((1, 3, 40, 64)))
    assert net(mx.nd.zeros((1, 3, 96, 64))).shape == (1, 1000)


def test_a_checkpoint_refuses_use_feature():
    with pytest.raises(ValueError, match='use_feature=True changes parameter shapes'):
        gz.get_model('dla34.gluoncv', pretrained=True, use_feature=True)
