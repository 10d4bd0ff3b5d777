"""AWD-LSTM's training-only regularisers: DropConnect on h2h weights and embedding-row dropout."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz

TINY = dict(vocab_size=20, embed_size=8, hidden_size=12, dropout=0, drop_h=0, drop_i=0)


def _train_out(net, x):
    with mx.autograd.record(train_mode=True):
        y, _ = net(x)
    return y.asnumpy()


@pytest.mark.parametrize('hybrid', [False, True])
@pytest.mark.parametrize('which', ['weight_drop', 'drop_e'])
def test_training_only_dropout(hybrid, which):
    mx.random.seed(1)
    x = mx.nd.array(np.random.RandomState(0).randint(0, 20, size=(6, 3)))
    plain = gz.get_model('awd_lstm_lm_600', weight_drop=0, drop_e=0, **TINY)
    plain.initialize()
    net = gz.get_model('awd_lstm_lm_600', **{**TINY, 'weight_drop': 0, 'drop_e': 0, which: 0.5})
    net.initialize()
    same = plain._collect_params_with_prefix()
    for k, p in net._collect_params_with_prefix().items():  # one set of weights for both
        p.set_data(same[k].data())
    if hybrid:
        net.hybridize()
        plain.hybridize()
    infer = net(x)[0].asnumpy()
    scale = np.abs(infer).max()
    np.testing.assert_allclose(infer, plain(x)[0].asnumpy(), atol=1e-5 * scale)  # inference: no dropout at all
    np.testing.assert_allclose(_train_out(plain, x), infer, atol=1e-5 * scale)  # nothing else drops here
    assert np.abs(_train_out(net, x) - infer).max() > 1e-2 * scale
