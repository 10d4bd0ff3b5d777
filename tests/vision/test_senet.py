"""GluonCV's keyword options of senet.py and cifar_resnext.py that the registry-wide tests do not exercise:
`norm_layer` / `norm_kwargs` reach every norm layer, `last_gamma` picks the last BN's initial gamma."""
import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import SyncBatchNorm

import gluonzoo as gz
from gluonzoo.vision.models.classification.cifar_resnext import CIFARResNeXt
from gluonzoo.vision.models.classification.senet import DeepStemResNeXt

SYNC = {'momentum': 0.8, 'num_devices': 1}  # one device: SyncBatchNorm warns otherwise


def _norms(block):
    out = [block] if isinstance(block, nn.BatchNorm) else []
    for child in block._children.values():
        out += _norms(child)
    return out


def test_norm_layer_and_kwargs_reach_every_norm():
    net = gz.get_model('cifar_resnext29_32x4d', norm_layer=SyncBatchNorm, norm_kwargs=SYNC)
    net.initialize()
    norms = _norms(net)
    assert len(norms) == 3 * 3 * 3 + 3 + 1  # three per block, one per projection shortcut, the stem's
    assert all(type(b) is SyncBatchNorm and b._kwargs['momentum'] == 0.8 for b in norms)
    assert net(mx.nd.zeros((1, 3, 32, 32))).shape == (1, 10)


@pytest.mark.parametrize('last_gamma,gamma', [(False, 0.0), (True, 1.0)])
def test_last_gamma(last_gamma, gamma):
    net = DeepStemResNeXt([3, 4, 23, 3], 1, 4, classes=3, avg_down=True, last_gamma=last_gamma)  # resnext101e, 1 group
    net.initialize()
    net(mx.nd.zeros((1, 3, 32, 32)))
    last = net.features[10][0].body[-1]
    assert np.all(last.gamma.data().asnumpy() == gamma)
    assert np.all(net.features[10][0].body[1].gamma.data().asnumpy() == 1.0)


def test_bad_depth():
    with pytest.raises(ValueError, match=r'four stages of layers, not \[3, 4\]'):
        DeepStemResNeXt([3, 4], 64, 4)
    with pytest.raises(ValueError, match='9n \\+ 2'):
        CIFARResNeXt(30, 32, 4)
