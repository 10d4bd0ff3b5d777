"""NASNet beyond the registry-wide tests: with GluonCV's auxiliary head (`use_aux=True`, GluonCV's default) and
without it (ours), a parameter file GluonCV saved loads strictly and gives GluonCV's outputs; `reset_class` swaps
both heads; sizes the cells cannot pair up and bad shapes are refused with one clear error."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.vision.models.classification.nasnet import NASNet

from ..peers import run_peer

CASES = [('nasnet_aux', {'use_aux': True}), ('nasnet_noaux', {'use_aux': False})]


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_nasnet')
    run_peer('gluoncv_models.py', out, [{'name': 'nasnet_4_1056', 'shape': [1, 3, 32, 32], 'kwargs': kwargs,
                                         'file': tag} for tag, kwargs in CASES])
    return out


@pytest.mark.parametrize('tag,kwargs', CASES)
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, tag, kwargs):
    net = gz.get_model('nasnet_4_1056', **kwargs)
    net.load_parameters(str(gluoncv_files / f'{tag}.params'))  # strict: no missing, no extra, same shapes
    ref = np.load(gluoncv_files / f'{tag}.npz')
    outs = net(mx.nd.array(ref['x']))
    outs = outs if isinstance(outs, tuple) else (outs,)
    assert len(outs) == 1 + kwargs['use_aux'] and f'y{len(outs)}' not in ref
    for i, y in enumerate(outs):
        want = ref[f'y{i}']
        assert np.abs(y.asnumpy() - want).max() / np.abs(want).max() <= 1e-5


def test_reset_class_and_bad_inputs():
    net = gz.get_model('nasnet_4_1056', use_aux=True)
    net.initialize()
    net.reset_class(['cat', 'dog', 'fox'])  # the auxiliary head predicts the same classes
    logits, aux = net(mx.nd.zeros((2, 3, 48, 48)))
    assert logits.shape == aux.shape == (2, 3) and net.classes == ['cat', 'dog', 'fox']
    with pytest.raises(BadInputError, match='even size .* got 40x40'):
        net(mx.nd.zeros((1, 3, 40, 40)))  # stride 8: 5x5, which the next reduction and first cell split unevenly
    with pytest.raises(BadInputError, match='Nx3xHxW'):
        net(mx.nd.zeros((1, 1, 32, 32)))
    with pytest.raises(ValueError, match='repeat >= 2'):
        NASNet(1, 1056)
    with pytest.raises(ValueError, match='even'):
        NASNet(4, 1080)  # 45 filters: the first cells' two halves would not add up
