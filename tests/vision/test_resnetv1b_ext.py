"""What the registry-wide tests leave out of the ResNet V1b family: GluonCV's keyword options (dilated, GroupNorm's
norm_kwargs, SyncBatchNorm, last_gamma, use_global_stats), the pruned nets' widths and symbol names against
GluonCV's, and the errors of bad options (the `_custom` video-frame nets: tests/vision/test_action_tsn.py)."""
import json
import os
import subprocess

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.vision.models.classification import resnetv1b
from gluonzoo.vision.models.classification._resnetv1b_pruned import PRUNED

from ..peers import PYTHON

# (peers venv) gluoncv_models.py's jobs, then {symbol name: shape} of each pruned net: the names GluonCV's loader
# reads its published pruned files by.
_PEER = r'''
import json, os, sys
import mxnet as mx
from gluoncv.model_zoo import model_zoo
sys.path.insert(0, sys.argv[3])
import gluoncv_models

gluoncv_models.main(sys.argv[1], json.loads(sys.argv[2]))
names = {}
for name in json.loads(sys.argv[4]):
    net = model_zoo.get_model(name, pretrained=False)
    net.initialize()
    net(mx.nd.zeros((1, 3, 32, 32)))
    names[name] = {p.name.replace(net.name, 'resnetv1d'): p.shape for p in net.collect_params().values()}
json.dump(names, open(os.path.join(sys.argv[1], 'names.json'), 'w'))
'''

# (GluonCV name, input shape, GluonCV's options, ours where they differ)
CASES = [
    ('resnet18_v1b', (1, 3, 32, 32), {'dilated': True}, None),
    ('resnet50_v1d_0.11', (1, 3, 32, 32), {'dilated': True}, None),
    ('resnet50_v1b_gn', (1, 3, 32, 32), {'norm_kwargs': {'ngroups': 16}}, None),
]


@pytest.fixture(scope='module')
def peer(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_v1b')
    jobs = [{'name': n, 'shape': list(s), 'kwargs': kw} for n, s, kw, _ in CASES]
    peers = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'peers')
    p = subprocess.run([PYTHON, '-c', _PEER, str(out), json.dumps(jobs), peers, json.dumps(sorted(PRUNED))],
                       capture_output=True, text=True, timeout=900, env={**os.environ, 'MXNET_HOME': str(out)})
    assert p.returncode == 0, p.stderr[-4000:]
    return out


@pytest.mark.parametrize('name,shape,theirs,ours', CASES)
def test_gluoncv_options_match(peer, name, shape, theirs, ours):
    net = gz.get_model(name, **(ours or theirs))
    net.load_parameters(str(peer / f'{name}.params'))  # strict
    ref = np.load(peer / f'{name}.npz')
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert y.shape == ref['y'].shape
    assert np.abs(y - ref['y']).max() / np.abs(ref['y']).max() <= 1e-5


def test_pruned_widths_and_symbol_names_are_gluoncvs(peer):
    names = json.loads((peer / 'names.json').read_text())
    assert sorted(names) == sorted(PRUNED) == sorted(gz.list_models('resnet*_v1?_0.*'))
    for name, theirs in names.items():
        net = gz.get_model(name)
        net.initialize()
        net(mx.nd.zeros((1, 3, 32, 32)))
        assert {p.name: list(p.shape) for p in net.collect_params().values()} == theirs, name


def test_dilated_keeps_stride_8():
    net = gz.get_model('resnet18_v1b', dilated=True, features_only=True)
    net.initialize()
    assert net.strides == [2, 4, 8, 8, 8]
    assert [y.shape[2] for y in net(mx.nd.zeros((1, 3, 64, 64)))] == [32, 16, 8, 8, 8]


def test_norm_layer_options():
    from mxnet.gluon.contrib.nn import SyncBatchNorm
    plain = gz.get_model('resnet50_v1d_0.11')
    plain.initialize()
    net = gz.get_model('resnet50_v1d_0.11', norm_layer=SyncBatchNorm, norm_kwargs={'num_devices': 1},
                       last_gamma=True, use_global_stats=True)
    net.initialize()
    assert set(net._collect_params_with_prefix()) == set(plain._collect_params_with_prefix())
    block = net.layer1[0]
    assert isinstance(block.bn3, SyncBatchNorm) and block.bn3._kwargs['use_global_stats']
    assert (block.bn3.gamma.data() == 0).asnumpy().all() and (block.bn2.gamma.data() == 1).asnumpy().all()
    gn = gz.get_model('resnet50_v1b_gn', use_global_stats=True)  # no running statistics: accepted, nothing to do
    gn.initialize()
    assert isinstance(gn.bn1, resnetv1b.GroupNorm) and not any('running' in k for k in gn.collect_params())


def test_bad_options():
    with pytest.raises(ValueError, match=r'depth 42 is not one of \[18, 34, 50, 101, 152\]'):
        resnetv1b.blocks_of(42)
    with pytest.raises(ValueError, match=r'does not fit a ResNet V1b of \[3, 4, 6, 3\] bottleneck blocks'):
        resnetv1b.ResNetV1b(*resnetv1b.blocks_of(50), widths=PRUNED['resnet18_v1b_0.89'])
    with pytest.raises(ValueError, match='multiple of ngroups=48'):
        gz.get_model('resnet50_v1b_gn', norm_kwargs={'ngroups': 48})
    with pytest.raises(ValueError, match="has no option 'ngroups'"):
        gz.get_model('resnet50_v1b_gn', ngroups=16)


def test_flat_named_file_loads_through_the_registry_path(tmp_path):
    # GluonCV publishes its pruned checkpoints keyed by full Gluon names (resnetv1d_layers1_conv0_weight), not by
    # structural ones; load_checkpoint maps them as MXNet's own load_parameters does
    from gluonzoo.registry import load_checkpoint
    src = gz.get_model('resnet18_v1b_0.89')
    src.initialize()
    x = mx.nd.random.uniform(shape=(1, 3, 32, 32))
    y = src(x).asnumpy()
    flat = tmp_path / 'resnet18_v1b_2.6x-00000000.params'
    src.collect_params().save(str(flat))
    assert not any('.' in k for k in mx.nd.load(str(flat)))
    dst = gz.get_model('resnet18_v1b_0.89')
    dst.initialize()
    load_checkpoint(dst, flat, mx.cpu())
    assert np.abs(dst(x).asnumpy() - y).max() <= 1e-6 * np.abs(y).max()
    assert gz.get_weights('resnet18_v1b_0.89.gluoncv').file_stem == 'resnet18_v1b_2.6x-54f7742b'  # GluonCV's file
