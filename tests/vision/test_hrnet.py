"""HRNet beyond the registry-wide tests: GluonCV's options (stage_interp_type, num_classes, final_conv_kernel)
against GluonCV itself, where its norm_layer reaches, and one clear error per bad option or input."""
import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import nn

import gluonzoo as gz
from gluonzoo.errors import BadInputError

from ..peers import run_peer

# one job per name: the peer script names its files by model name
JOBS = [
    {'name': 'hrnet_w18_small_v1_c', 'shape': [1, 3, 40, 56],
     'kwargs': {'stage_interp_type': 'bilinear_like', 'num_classes': 10}},
    {'name': 'hrnet_w18_small_v2_c', 'shape': [1, 3, 32, 64], 'kwargs': {'stage_interp_type': 'bilinear'}},
    {'name': 'hrnet_w18_small_v1_s', 'shape': [1, 3, 40, 56], 'kwargs': {'final_conv_kernel': 3}},
]


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_hrnet')
    run_peer('gluoncv_models.py', out, JOBS)
    return out


@pytest.mark.parametrize('job', JOBS, ids=[j['name'] for j in JOBS])
def test_gluoncv_options_match_gluoncv(gluoncv_files, job):
    net = gz.get_model(job['name'], **job['kwargs'])
    net.load_parameters(str(gluoncv_files / f'{job["name"]}.params'))
    ref = np.load(gluoncv_files / f'{job["name"]}.npz')
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert y.shape == ref['y'].shape
    assert np.abs(y - ref['y']).max() / np.abs(ref['y']).max() <= 1e-5


def test_norm_layer_reaches_stem_transitions_and_head_only():
    """GluonCV passes norm_layer / norm_kwargs to the stem, transitions and heads; residual blocks and fuse layers
    keep a plain BatchNorm (its `_s` builders fix momentum 0.99 that way)."""
    class Norm(nn.BatchNorm):
        pass

    net = gz.get_model('hrnet_w18_small_v1_c', norm_layer=Norm, norm_kwargs={'momentum': 0.5})
    net.initialize()
    assert isinstance(net.bn1, Norm) and net.bn2._kwargs['momentum'] == 0.5
    assert isinstance(net.transition1[0][1], Norm) and isinstance(net.final_layer[1], Norm)
    assert type(net.layer1[0].body[1]) is nn.BatchNorm and type(net.stage2[0].fuse_layers[0][1][1]) is nn.BatchNorm
    seg = gz.get_model('hrnet_w18_small_v1_s')
    seg.initialize()
    assert seg.bn1._kwargs['momentum'] == seg.last_layer[1]._kwargs['momentum'] == 0.99
    assert seg.layer1[0].body[1]._kwargs['momentum'] == 0.9


def test_bad_options_and_inputs_get_one_clear_error():
    with pytest.raises(ValueError, match="stage_interp_type 'cubic' is not one of nearest, bilinear, bilinear_like"):
        gz.get_model('hrnet_w18_small_v1_c', stage_interp_type='cubic')
    with pytest.raises(ValueError, match='final_conv_kernel 5 is not 1 or 3'):
        gz.get_model('hrnet_w18_small_v1_s', final_conv_kernel=5)
    with pytest.raises(ValueError, match='classes=7 and num_classes=10 disagree'):
        gz.get_model('hrnet_w18_small_v1_c', classes=7, num_classes=10)
    with pytest.raises(ValueError, match="has no option 'use_se'"):
        gz.get_model('hrnet_w18_small_v1_c', use_se=True)
    with pytest.raises(ValueError, match='num_classes=10 changes parameter shapes'):
        gz.get_model('hrnet_w18_small_v1_c', pretrained=True, num_classes=10)
    net = gz.get_model('hrnet_w18_small_v1_c')
    net.initialize()
    with pytest.raises(BadInputError, match="stage_interp_type='nearest' takes heights and widths that are "
                                            "multiples of 32, got 40x56"):
        net(mx.nd.zeros((1, 3, 40, 56)))
    assert net(mx.nd.zeros((1, 3, 62, 96))).shape == (1, 1000)  # 62 -> 16 at stride 4, as 64 does
