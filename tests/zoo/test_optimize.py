"""gz.optimize: MXNet's oneDNN subgraph backend where its outputs equal the plain net's, the plain hybridized path
(with one warning or log line) where they would not or the backend is missing. The registry-wide equality check is
in tests/test_registry_models.py; here the API's own promises, against the plain (unfused) MXNet net."""
import logging
import sys

import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import nn

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.optimizing import is_optimized
from gluonzoo.vision import classify


def _net(deferred=False):
    """conv-BN-ReLU twice and a Dense: what the backend fuses. Its weights are drawn after a fixed seed (at the
    first call when `deferred`: shapes unknown until then)."""
    mx.random.seed(0)
    c = 0 if deferred else 8  # 0: Gluon's "infer it"
    net = nn.HybridSequential()
    net.add(nn.Conv2D(8, 3, padding=1, in_channels=c and 3), nn.BatchNorm(in_channels=c), nn.Activation('relu'),
            nn.Conv2D(8, 3, strides=2, in_channels=c), nn.BatchNorm(in_channels=c), nn.Activation('relu'),
            nn.GlobalAvgPool2D(), nn.Dense(5, in_units=c))
    net.initialize(mx.init.Xavier())
    return net


def _rel(a, b):
    return np.abs(a - b).max() / np.abs(a).max()


def test_exported_at_the_top():
    assert 'optimize' in gz.__all__ and callable(gz.optimize)


def test_a_net_never_run_is_run_first_and_fused_outputs_equal_plain_ones_at_other_shapes():
    x, other = mx.nd.random.uniform(shape=(1, 3, 24, 24)), mx.nd.random.uniform(shape=(3, 3, 40, 32))
    want = [_net(deferred=True)(v).asnumpy() for v in (x, other)]  # the same weights, imperative
    net = _net(deferred=True)
    assert gz.optimize(net, x) is net and is_optimized(net)
    ops = {n['op'] for n in __import__('json').loads(net._cached_graph[1].tojson())['nodes']}
    assert '_sg_mkldnn_conv' in ops and 'BatchNorm' not in ops  # really fused, not just hybridized
    assert _rel(want[0], net(x).asnumpy()) < 1e-5
    assert _rel(want[1], net(other).asnumpy()) < 1e-5  # a new shape re-plans memory: still right
    assert _rel(want[0], net(x).asnumpy()) < 1e-5


def test_a_second_call_does_nothing():
    net, x = _net(), mx.nd.random.uniform(shape=(2, 3, 16, 16))
    gz.optimize(net, x)
    op = net._cached_op
    gz.optimize(net, mx.nd.random.uniform(shape=(4, 3, 16, 16)))
    assert net._cached_op is op
    net.hybridize()  # the user's plain hybridize drops the backend: the next call fuses again
    assert not is_optimized(net)
    gz.optimize(net, x)
    assert is_optimized(net)


class _TwoInOut(nn.HybridBlock):
    def __init__(self):
        super().__init__()
        self.conv, self.bn, self.fc = nn.Conv2D(4, 3), nn.BatchNorm(), nn.Dense(3)

    def hybrid_forward(self, F, x, y):
        h = F.relu(self.bn(self.conv(x)))
        return self.fc(h) + y, (h, F.sum(h))


@pytest.mark.parametrize('as_tuple', [False, True])
def test_several_inputs_and_nested_outputs(as_tuple):
    mx.random.seed(1)
    net = _TwoInOut()
    net.initialize()
    x, y = mx.nd.random.uniform(shape=(2, 3, 12, 12)), mx.nd.random.uniform(shape=(2, 3))
    want = net(x, y)
    want = [want[0].asnumpy(), want[1][0].asnumpy(), want[1][1].asnumpy()]
    gz.optimize(net, (x, y)) if as_tuple else gz.optimize(net, x, y)
    assert is_optimized(net)
    got = net(x, y)
    for a, b in zip(want, [got[0], got[1][0], got[1][1]]):
        assert _rel(a, b.asnumpy()) < 1e-5


def test_a_wrong_fusion_keeps_the_plain_path_with_one_warning():
    # MXNet 1.9.1 fuses the pre-activation residual's conv + sum of CIFAR ResNet v2 wrongly
    mx.random.seed(0)
    net = gz.get_model('cifar_resnet20_v2', classes=4)
    net.initialize()
    x = mx.nd.random.uniform(shape=(2, 3, 32, 32))
    want = net(x).asnumpy()
    with pytest.warns(UserWarning, match=r'oneDNN backend cannot take it \(its outputs differ') as caught:
        gz.optimize(net, x)
    assert len([w for w in caught if 'oneDNN' in str(w.message)]) == 1
    assert not is_optimized(net) and net._active
    assert _rel(want, net(x).asnumpy()) < 1e-5
    raw = gz.get_model('cifar_resnet20_v2', classes=4)
    raw.initialize()
    raw = gz.optimize(raw, x, check=False)
    assert is_optimized(raw)  # unchecked, the wrong graph stays: the check is what keeps it off


def test_a_failing_partition_keeps_the_plain_path_with_one_warning():
    # MXNet 1.9.1 hands SE-ResNet's fused convs parameters of the wrong shape
    mx.random.seed(0)
    net = gz.get_model('se_resnet18_v1', classes=4)
    net.initialize()
    x = mx.nd.random.uniform(shape=(1, 3, 32, 32))
    want = net(x).asnumpy()
    with pytest.warns(UserWarning, match=r'oneDNN backend cannot take it \(it fails: .*Shape inconsistent') as caught:
        gz.optimize(net, x)
    assert len([w for w in caught if 'oneDNN' in str(w.message)]) == 1
    assert not is_optimized(net) and net._active
    assert _rel(want, net(x).asnumpy()) < 1e-5


def _static_shape_fails_on_second_run(net, x):
    """Whether this CPU's oneDNN fails resnet18_v1's static_shape fused graph on its second run (AMD EPYC: "can't
    generate TBlob for MKLDNN data"; CI's Intel Xeon runs it): asked of MXNet directly, on a copy of the net."""
    net.optimize_for(x, backend='MKLDNN', clear=True, static_alloc=True, static_shape=True)
    try:
        for _ in range(2):
            net(x).wait_to_read()
    except mx.base.MXNetError as e:
        assert "can't generate TBlob" in str(e), e
        return True
    return False


def test_static_shape_failing_on_the_second_run_falls_back_to_dynamic_shapes():
    def build():
        mx.random.seed(0)
        net = gz.get_model('resnet18_v1', classes=4)
        net.initialize()
        return net
    x = mx.nd.random.uniform(shape=(1, 3, 32, 32))
    fails = _static_shape_fails_on_second_run(build(), x)
    net = build()
    want = net(x).asnumpy()
    gz.optimize(net, x)
    # where static_shape fails, optimize keeps the fusion without it; where it runs, it keeps static_shape
    assert is_optimized(net) and dict(net._flags)['static_shape'] is (not fails)
    for _ in range(3):
        assert _rel(want, net(x).asnumpy()) < 1e-5


def test_no_backend_hybridizes_with_one_log_line(monkeypatch, caplog):
    monkeypatch.setattr(sys.modules['gluonzoo.optimizing'], 'backend_available', lambda ctx: False)
    net, x = _net(), mx.nd.random.uniform(shape=(1, 3, 16, 16))
    want = _net()(x).asnumpy()
    with caplog.at_level(logging.INFO, logger='gluonzoo.optimizing'):
        gz.optimize(net, x)
    assert [r.getMessage() for r in caplog.records if 'oneDNN' in r.getMessage()] == [
        'HybridSequential: no oneDNN backend for cpu(0) in this MXNet build: hybridize(static_alloc=True) instead']
    assert net._active and not is_optimized(net) and dict(net._flags)['static_alloc']
    assert _rel(want, net(x).asnumpy()) < 1e-5


def test_bad_input_is_one_clear_error():
    net = _net()
    with pytest.raises(BadInputError, match='needs the NDArray'):
        gz.optimize(net)
    with pytest.raises(BadInputError, match='needs the NDArray'):
        gz.optimize(net, np.zeros((1, 3, 8, 8), 'float32'))
    bare = nn.Dense(3, in_units=4)  # never initialized
    with pytest.raises(BadInputError, match='call net.initialize'):
        gz.optimize(bare, mx.nd.zeros((1, 4)))


def test_classify_runs_the_fused_net_and_gives_the_plain_results():
    pre = {'resize': 40, 'crop': 32, 'mean': [0.485, 0.456, 0.406], 'std': [0.229, 0.224, 0.225]}
    rng = np.random.RandomState(0)
    images = [rng.randint(0, 256, (48, 64, 3), dtype=np.uint8) for _ in range(3)]
    nets = []
    for _ in range(2):
        mx.random.seed(0)
        nets.append(gz.get_model('mobilenetv2_0.25', classes=5))
        nets[-1].initialize()
        nets[-1](mx.nd.zeros((1, 3, 32, 32)))  # weights drawn now, after the seed
    plain, fused = nets
    want = classify(plain, images, topk=5, batch_size=2, preprocess=pre, optimize=False)
    got = classify(fused, images, topk=5, batch_size=2, preprocess=pre)
    assert is_optimized(fused) and not is_optimized(plain)
    for w, g in zip(want, got):
        assert [n for n, _ in w] == [n for n, _ in g]
        assert np.allclose([p for _, p in w], [p for _, p in g], rtol=0, atol=1e-6)
