"""ResNeSt's GluonCV options the registry-wide tests do not reach: the dilated variants (GluonCV's segmentation
backbones) against GluonCV's own, and the options that only change BatchNorm or initialization."""
import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import nn

import gluonzoo as gz
from gluonzoo.vision.models.classification.resnest import ResNeSt

from ..peers import run_peer

DILATED = [('dilation2', {'dilation': 2}), ('dilation3', {'dilation': 3}), ('dilated', {'dilated': True})]


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('resnest')
    run_peer('gluoncv_models.py', out, [{'name': 'resnest14', 'shape': [1, 3, 64, 48], 'kwargs': kw, 'file': f}
                                        for f, kw in DILATED])
    return out


@pytest.mark.parametrize('file,kwargs', DILATED)
def test_dilated_variants_match_gluoncv(gluoncv_files, file, kwargs):
    net = gz.get_model('resnest14', **kwargs)
    net.load_parameters(str(gluoncv_files / f'{file}.params'))
    ref = np.load(gluoncv_files / f'{file}.npz')
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert np.abs(y - ref['y']).max() / np.abs(ref['y']).max() <= 1e-5


@pytest.mark.parametrize('kwargs,strides', [({}, [2, 4, 8, 16, 32]), ({'dilation': 2}, [2, 4, 8, 16, 16]),
                                            ({'dilation': 3}, [2, 4, 8, 8, 16]), ({'dilated': True}, [2, 4, 8, 8, 8])])
def test_dilation_keeps_the_resolution_feature_info_says(kwargs, strides):
    net = gz.get_model('resnest14', features_only=True, **kwargs)
    net.initialize()
    assert net.strides == strides
    for out, stride in zip(net(mx.nd.zeros((1, 3, 64, 64))), strides):
        assert out.shape[2:] == (64 // stride, 64 // stride)


def test_norm_options_reach_every_batchnorm():
    norm_kwargs = {'momentum': 0.8}
    net = gz.get_model('resnest14', use_global_stats=True, last_gamma=True, norm_kwargs=norm_kwargs)
    net.initialize()
    assert norm_kwargs == {'momentum': 0.8}  # the caller's dict is not changed
    bns = []
    net.apply(lambda b: bns.append(b) if isinstance(b, nn.BatchNorm) else None)
    assert len(bns) == 23 and all(b._kwargs['use_global_stats'] and b._kwargs['momentum'] == 0.8 for b in bns)
    zero = {name for name, p in net.collect_params().items() if p.data().abs().sum().asscalar() == 0}
    assert {n for n in zero if n.endswith('gamma')} == {p.name for layer in (net.layer1, net.layer2, net.layer3,
                                                                             net.layer4) for p in [layer[0].bn3.gamma]}


def test_bad_depth_or_dilation_is_refused():
    with pytest.raises(ValueError, match=r'depth 18 is not one of \[14, 26, 50, 101, 200, 269\]'):
        ResNeSt(18)
    with pytest.raises(ValueError, match=r'dilation 5 is not one of \[1, 2, 3, 4\]'):
        gz.get_model('resnest14', dilation=5)
