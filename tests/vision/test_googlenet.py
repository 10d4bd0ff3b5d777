"""GoogLeNet's GluonCV options the registry-wide tests do not reach: the auxiliary heads against GluonCV's,
`reset_class` keeping GluonCV's two names of the last Dense (and the aux heads) in step, and `partial_bn`."""
import mxnet as mx
import numpy as np
from mxnet.gluon import nn

import gluonzoo as gz

from ..peers import run_peer


def test_aux_heads_match_gluoncv(tmp_path):
    run_peer('gluoncv_models.py', tmp_path, [{'name': 'googlenet', 'shape': [1, 3, 224, 224],
                                              'kwargs': {'aux_logits': True}}])
    net = gz.get_model('googlenet', aux_logits=True)
    net.load_parameters(str(tmp_path / 'googlenet.params'))
    ref = np.load(tmp_path / 'googlenet.npz')
    outs = net(mx.nd.array(ref['x']))
    assert len(outs) == 3  # (output, aux2, aux1), GluonCV's order
    for i, out in enumerate(outs):
        assert np.abs(out.asnumpy() - ref[f'y{i}']).max() / np.abs(ref[f'y{i}']).max() <= 1e-5


def test_reset_class_replaces_every_head():
    net = gz.get_model('googlenet', aux_logits=True)
    net.initialize()
    net.reset_class(['cat', 'dog', 'fish'])
    assert net.output is net.head[2]  # GluonCV saves the Dense as head.2 and as output: one layer, two names
    names = net._collect_params_with_prefix()
    assert names['output.weight'] is names['head.2.weight'] and names['output.weight'].shape == (3, 1024)
    assert names['aux1.6.weight'].shape == names['aux2.6.weight'].shape == (3, 1024)
    assert [o.shape for o in net(mx.nd.zeros((1, 3, 224, 224)))] == [(1, 3)] * 3


def test_partial_bn_freezes_all_but_the_first_batchnorm():
    bns = []  # apply() visits children in order: conv1's BatchNorm first
    gz.get_model('googlenet', partial_bn=True).apply(lambda b: bns.append(b) if isinstance(b, nn.BatchNorm) else None)
    assert len(bns) == 57 and [b._kwargs['use_global_stats'] for b in bns] == [False] + [True] * 56
