"""ShuffleNet beyond the registry-wide tests: the options GluonCV accepts and ignores take effect here (V1's
`groups` with the paper's widths, `norm_kwargs`); a group count the widths cannot take is refused."""
import mxnet as mx
import pytest
from mxnet.gluon import nn

import gluonzoo as gz


@pytest.mark.parametrize('groups,width', [(1, 576), (2, 800)])  # 3, GluonCV's: the registry-wide tests
def test_v1_groups(groups, width):
    net = gz.get_model('shufflenet_v1', groups=groups, classes=5)
    net.initialize()
    assert net(mx.nd.zeros((1, 3, 32, 32))).shape == (1, 5)
    unit = net.features[4][1]
    assert unit.groups == groups and unit.conv_aftershuffle[1][0]._kwargs['num_group'] == groups
    assert net.feature_info[-1].channels == width


def test_norm_kwargs_reach_every_batchnorm():
    for name in ('shufflenet_v1', 'shufflenet_v2'):
        net = gz.get_model(name, norm_kwargs={'epsilon': 1e-3})
        net.initialize()
        bns = []
        net.apply(lambda b: bns.append(b) if isinstance(b, nn.BatchNorm) else None)
        assert bns and all(b._kwargs['eps'] == 1e-3 for b in bns)


def test_bad_groups():
    with pytest.raises(ValueError, match=r'groups 8 is not one of \[1, 2, 3\]'):
        gz.get_model('shufflenet_v1', groups=8)
