"""A parameter file saved from GluonCV 0.10.5's action recognizer loads strictly into gluonzoo's and gives the same
scores, one case a family variant (its smallest member), registry-driven as tests/vision/test_gluoncv_parity.py.

Each case runs at the registry's tiny test config: `test_input` (a short, small clip) and `test_kwargs`, which use
GluonCV's builder options only (num_segments, num_frames, ...), so the same call builds GluonCV's model.
"""
import collections
import re

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.registry import get_entry
from gluonzoo.vision.models.action.base import dataset_of

from ..peers import run_peer
from .test_gluoncv_parity import variant

TASK = 'action-recognition'
#: ResNet depths by what changes in the net: basic blocks (18, 34), bottlenecks, and the deep ones whose SlowFast
#: laterals and I3D stages differ from ResNet-50's
_DEPTH = {'18': 'basic', '34': 'basic', '50': '50', '101': 'deep', '152': 'deep'}


def action_variant(name):
    """'r2plus1d_resnet34_kinetics400' -> 'r2plus1d_resnet<basic>': variant() without the dataset, ResNet depths kept
    as the kind of net they build."""
    depth = re.search(r'resnet(\d+)', name)
    ds = dataset_of(name)
    key = variant(name[:-len(ds) - 1] if ds else name)  # the datasets change the class count only
    return key.replace('resnet#', f'resnet<{_DEPTH[depth.group(1)]}>', 1) if depth else key


def _cases():
    best = collections.OrderedDict()
    for name in gz.list_models(task=TASK):
        entry = get_entry(name)
        if name.endswith('_custom'):
            continue  # GluonCV builds those on a downloaded Kinetics-400 checkpoint
        if name.endswith('_int8'):
            continue  # GluonCV's INT8 graphs over these checkpoints: tests/vision/test_quantized_records.py
        key = (entry.builder.__module__, action_variant(name))
        size = np.prod(entry.test_input)
        if key not in best or size < best[key][1]:
            best[key] = (name, size)
    return [name for name, _ in best.values()]


CASES = _cases()


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_action')
    run_peer('gluoncv_models.py', out, [{'name': n, 'shape': list(get_entry(n).test_input),
                                         'kwargs': get_entry(n).test_kwargs} for n in CASES])
    return out


def test_every_action_family_is_covered():
    modules = {get_entry(n).builder.__module__ for n in gz.list_models(task=TASK) if not n.endswith('_int8')}
    assert modules and modules <= {get_entry(n).builder.__module__ for n in CASES}


@pytest.mark.parametrize('name', CASES)
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, name):
    net = gz.get_model(name, **get_entry(name).test_kwargs)  # random init, GluonCV's shapes
    net.load_parameters(str(gluoncv_files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    ref = np.load(gluoncv_files / f'{name}.npz')
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert y.shape == ref['y'].shape
    assert np.abs(y - ref['y']).max() / np.abs(ref['y']).max() <= 1e-5
