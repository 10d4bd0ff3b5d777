"""gluonzoo.nlp's loss, utils, metric, initializer, optimizer and small model blocks against GluonNLP 0.10.0's: the same calls (tests/peers/nlp_train_cases.py)
on the same inputs give the same numbers, files and answers; then what ours does where GluonNLP's cannot be
trusted (partial files, S3, a failing worker)."""
import os
import threading

import mxnet as mx
import numpy as np
import pytest

import gluonzoo.nlp as nlp
from gluonzoo.errors import BadInputError

from ..peers import run_peer_cases
from ..peers.nlp_train_cases import cases, layer_cases


def _inputs(rng):
    dist = np.exp(rng.normal(size=(3, 5, 7)))
    return dict(scores=rng.normal(size=(3, 5, 7)), ids=rng.integers(0, 7, (3, 5)), valid=np.array([5, 2, 3]),
                dist=dist / dist.sum(-1, keepdims=True), h0=rng.normal(size=(4, 3, 6)), h1=rng.normal(size=(4, 3, 6)),
                mask=rng.random((3, 5)) < 0.6, loss=rng.random(3) * 4, w=rng.normal(size=(4, 3)), b=rng.normal(size=4),
                x=rng.normal(size=(2, 3)))


@pytest.fixture(scope='module')
def both(tmp_path_factory):
    """(ours, GluonNLP's), each run in its own empty folder: one peer run for the file."""
    root = tmp_path_factory.mktemp('nlp_train')
    (root / 'peer').mkdir()
    (root / 'ours').mkdir()
    d, ref = run_peer_cases('gluonnlp_train_utils.py', root, _inputs(np.random.default_rng(0)),
                            folder=str(root / 'peer'))
    ours = {**cases(nlp, d, str(root / 'ours')), **{f'layers.{k}': v for k, v in layer_cases(nlp, d).items()}}
    return ours, ref


def test_the_same_calls_give_gluonnlps_answers(both):
    ours, ref = both
    ref = {k: v for k, v in ref.items() if k != 'custom_op_error'}
    assert sorted(ours) == sorted(ref)
    for name, want in ref.items():
        if want.dtype.kind in 'US':
            assert ours[name].tolist() == want.tolist(), name
        else:
            np.testing.assert_allclose(ours[name], want, rtol=1e-5, atol=1e-6, err_msg=name)
    assert ref['versions'].tolist() == ['ok', 'ok', 'raised', 'warned']
    assert ours['clipped_norm'] == pytest.approx(0.5, rel=1e-5) and ours['norm'] > 0.5  # it did clip


def test_dense_label_smoothing_without_units(both):
    """GluonNLP's runs a Python custom operator that MXNet 1.9.1 refuses; ours is the same formula in the graph:
    (1 - eps) x + eps / C, gradient (1 - eps), hybridized too."""
    _, ref = both
    assert ref['custom_op_error'] != ''  # GluonNLP's failed (if it ever runs, compare it instead)
    dist = mx.nd.array(np.random.default_rng(2).dirichlet(np.ones(7), (3, 5)))
    block = nlp.loss.LabelSmoothing(sparse_label=False, epsilon=0.2)
    for hybrid in (False, True):
        if hybrid:
            block.hybridize()
        x = dist.copy()
        x.attach_grad()
        with mx.autograd.record():
            y = block(x)
        y.backward()
        np.testing.assert_allclose(y.asnumpy(), 0.8 * dist.asnumpy() + 0.2 / 7, rtol=1e-6)
        np.testing.assert_allclose(x.grad.asnumpy(), 0.8, rtol=1e-6)


def test_bad_inputs_are_one_clear_error(tmp_path):
    with pytest.raises(ValueError, match='sparse_label=True needs units'):
        nlp.loss.LabelSmoothing()(mx.nd.array([1, 2]))
    no_pad = nlp.Vocab(nlp.data.count_tokens('a b'.split()), padding_token=None)
    with pytest.raises(BadInputError, match='StreamBPTTBatchify pads with vocab.padding_token'):
        nlp.data.batchify.StreamBPTTBatchify(no_pad, 4, 2)
    with pytest.raises(BadInputError, match="sampler='shuffled': use \"random\" or \"sequential\""):
        nlp.data.batchify.StreamBPTTBatchify(nlp.Vocab(nlp.data.count_tokens('a b'.split())), 4, 2,
                                             sampler='shuffled')
    net = mx.gluon.nn.Dense(2, in_units=2)
    net.initialize()
    net.collect_params().setattr('grad_req', 'null')
    with pytest.raises(BadInputError, match='none of the parameters has a gradient'):
        nlp.utils.grad_global_norm(net.collect_params().values())
    for call in (lambda: nlp.utils.save_parameters(net, 's3://bucket/net.params'),
                 lambda: nlp.utils.mkdir('s3://bucket/folder')):
        with pytest.raises(BadInputError, match='is on S3, which gluonzoo does not reach'):
            call()


def test_a_failed_save_leaves_the_old_file(tmp_path):
    net = mx.gluon.nn.Dense(2, in_units=2)
    net.initialize()
    path = tmp_path / 'net.params'
    nlp.utils.save_parameters(net, str(path))
    before = path.read_bytes()

    class Broken:
        def save_parameters(self, filename):
            with open(filename, 'wb') as f:
                f.write(b'half')
            raise OSError('disk full')
    with pytest.raises(OSError, match='disk full'):
        nlp.utils.save_parameters(Broken(), str(path))
    assert path.read_bytes() == before and os.listdir(tmp_path) == ['net.params']


def test_a_failing_worker_is_raised_in_get():
    class Flaky(nlp.utils.Parallelizable):
        def forward_backward(self, x):
            if x == 3 and threading.current_thread() is not threading.main_thread():
                raise RuntimeError('device 1 out of memory')
            return x
    pool = nlp.utils.Parallel(2, Flaky(), serial_init=False)
    for i in range(4):
        pool.put(i)
    got, errors = [], []
    for _ in range(4):
        try:
            got.append(pool.get())
        except RuntimeError as e:
            errors.append(str(e))
    assert sorted(got) == [0, 1, 2] and errors == ['device 1 out of memory']
    with pytest.raises(NotImplementedError, match='must define forward_backward'):
        nlp.utils.Parallelizable().forward_backward(1)


def test_bertadam_one_parameter_at_a_time_is_the_formula_and_float16_keeps_a_master_copy():
    rng = np.random.default_rng(3)
    w0, g = rng.normal(size=(3, 4)).astype(np.float32), rng.normal(size=(3, 4)).astype(np.float32)
    opt = nlp.optimizer.BERTAdam(learning_rate=0.1, wd=0.01, rescale_grad=0.5)
    opt.aggregate_num = 1  # adamw_update, one parameter a call
    w = mx.nd.array(w0)
    opt.update(0, w, mx.nd.array(g), opt.create_state(0, w))
    m, v = 0.1 * g * 0.5, 0.001 * (g * 0.5) ** 2  # no bias correction
    np.testing.assert_allclose(w.asnumpy(), w0 - 0.1 * (m / (np.sqrt(v) + 1e-6) + 0.01 * w0), atol=1e-5)  # steps ~0.3
    half = mx.nd.array(w0, dtype='float16')
    opt16 = nlp.optimizer.BERTAdam(learning_rate=0.1, wd=0.01, rescale_grad=0.5, multi_precision=True)
    state = opt16.create_state_multi_precision(0, half)
    opt16.update_multi_precision([0], [half], [mx.nd.array(g, dtype='float16')], [state])
    assert state[1].dtype == np.float32 and half.dtype == np.float16
    np.testing.assert_allclose(half.asnumpy(), w.asnumpy(), atol=2e-3)
