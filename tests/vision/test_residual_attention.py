"""Residual Attention Networks: the fixed input size of each net, and GluonCV's reach of `norm_layer` (the stem,
the attention modules' branches and the head's BN; not the residual blocks between or inside the modules' skips)."""
import mxnet as mx
import pytest
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import SyncBatchNorm

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.vision.models.classification.residual_attention import ResidualAttentionNet

SYNC = {'momentum': 0.8, 'num_devices': 1}  # one device: SyncBatchNorm warns otherwise


def test_fixed_input_size():
    net = gz.get_model('cifar_residualattentionnet56')
    net.initialize()
    assert net(mx.nd.zeros((2, 3, 32, 32))).shape == (2, 10)
    with pytest.raises(BadInputError, match='Nx3x32x32'):
        net(mx.nd.zeros((1, 3, 64, 64)))


def test_norm_layer_reaches_what_gluoncv_gives_it():
    net = gz.get_model('cifar_residualattentionnet56', norm_layer=SyncBatchNorm, norm_kwargs=SYNC)
    net.initialize()
    module = net.attention_module1[0]
    given = [net.conv1[1], net.mpool2[0], module.first_residual_blocks[0].bn1, module.softmax3_blocks[0].bn3,
             module.softmax4_blocks[0], module.softmax4_blocks[3]]
    kept = [net.residual_block1.bn1, net.residual_block6.bn3, module.skip1_connection_residual_block.bn1,
            module.last_blocks.bn2]
    assert all(type(b) is SyncBatchNorm and b._kwargs['momentum'] == 0.8 for b in given)
    assert all(type(b) is nn.BatchNorm for b in kept)
    assert net(mx.nd.zeros((1, 3, 32, 32))).shape == (1, 10)


def test_bad_stages_or_size():
    with pytest.raises(ValueError, match=r'three stages of m and scale \(p, t, r\), not 224, \(1, 1\)'):
        ResidualAttentionNet((1, 2, 1), (1, 1))
    with pytest.raises(ValueError, match=r'input_size in \[32, 224\]'):
        ResidualAttentionNet((1, 2, 1), (1, 1, 1), 64)
