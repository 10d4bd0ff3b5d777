"""A parameter file saved from GluonCV 0.10.5's model loads strictly into gluonzoo's and gives the same output.

Registry-driven: every family (model file) with a GluonCV checkpoint is covered by its smallest such member.
"""
import collections

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.registry import get_entry

from ..peers import run_peer


def _smallest_per_family():
    best = collections.OrderedDict()
    for name in gz.list_models(pretrained=True, tags=True):
        if not name.endswith('.gluoncv'):
            continue
        w = gz.get_weights(name)
        family = get_entry(w.arch).builder.__module__
        if family not in best or w.num_params < best[family].num_params:
            best[family] = w
    return [(w.arch, get_entry(w.arch).test_input) for w in best.values()]


CASES = _smallest_per_family()


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv')
    run_peer('gluoncv_models.py', out, [{'name': n, 'shape': list(s)} for n, s in CASES])
    return out


def test_every_gluoncv_family_is_covered():
    assert 'mobilenetv2_0.25' in [n for n, _ in CASES]


@pytest.mark.parametrize('name,shape', CASES)
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, name, shape):
    net = gz.get_model(f'{name}.gluoncv')  # the shape of GluonCV's checkpoint, random init
    net.load_parameters(str(gluoncv_files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    ref = np.load(gluoncv_files / f'{name}.npz')
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert np.abs(y - ref['y']).max() / np.abs(ref['y']).max() <= 1e-5
