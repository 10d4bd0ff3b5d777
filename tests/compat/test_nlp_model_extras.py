"""gluonzoo.nlp.model's ConvolutionalEncoder, LSTMPCellWithClip, RNNCellLayer and RoBERTaClassifier: GluonNLP
0.10's parameter files (the peers venv, one run) load strictly into ours and give the same outputs, imperative and
hybridized. GluonNLP's RNNCellLayer fails on MXNet 1.9.1 (it hands the cell its states split into batch rows), so
ours is checked against MXNet's fused LSTM layer on the same weights instead."""
import json

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
import gluonzoo.nlp as nlp
from gluonzoo.errors import BadInputError
from tests.peers import run_peer
from tests.text.conftest import SMALL, assert_outputs_match, saved_case

CONV_CASES = {
    'conv_default': {},
    'conv_masked_projected': dict(embed_size=6, num_filters=(3, 4), ngram_filter_sizes=(2, 3), num_highway=2,
                                  output_size=5, masked=True),
    'conv_no_highway': dict(embed_size=4, num_filters=(2,), ngram_filter_sizes=(4,), num_highway=0,
                            conv_layer_activation='relu'),
    'conv_linear_highway': dict(embed_size=5, num_filters=(3, 3, 2), ngram_filter_sizes=(1, 2, 9),
                                conv_layer_activation=None, highway_layer_activation='tanh',
                                highway_bias=[0.5, 1.0]),
}
LSTMP_CASES = {
    'lstmp_clipped': dict(hidden_size=6, projection_size=3, input_size=4, cell_clip=0.7, projection_clip=0.4),
    'lstmp_unclipped': dict(hidden_size=5, projection_size=2, input_size=3),
}
ROBERTA = dict(SMALL, embed_size=SMALL['units'], dropout=0.1)


@pytest.fixture(scope='module')
def files(tmp_path_factory):
    out = tmp_path_factory.mktemp('model_extras_peer')
    run_peer('gluonnlp_model_extras.py', out,
             [{'conv_cases': CONV_CASES, 'lstmp_cases': LSTMP_CASES, 'roberta': ROBERTA}], timeout=300)
    return out


@pytest.mark.parametrize('case', sorted(CONV_CASES))
def test_convolutional_encoder_is_gluonnlps(files, case):
    kw = {k: v for k, v in CONV_CASES[case].items() if k != 'masked'}
    if 'highway_bias' in kw:
        kw['highway_bias'] = nlp.initializer.HighwayBias(*kw['highway_bias'])
    net = nlp.model.ConvolutionalEncoder(**kw)
    net.load_parameters(str(files / f'{case}.params'))
    assert_outputs_match(net, *saved_case(files / f'{case}.npz'))


@pytest.mark.parametrize('case', sorted(LSTMP_CASES))
def test_lstmp_cell_with_clip_is_gluonnlps(files, case):
    cell = nlp.model.LSTMPCellWithClip(**LSTMP_CASES[case])
    cell.load_parameters(str(files / f'{case}.params'))
    (x,), want = saved_case(files / f'{case}.npz')
    for hybrid in (False, True):
        if hybrid:
            cell.hybridize()
        outputs, states = cell.unroll(x.shape[0], x, layout='TNC', merge_outputs=True)
        for got, w in zip([outputs, *states], want):
            np.testing.assert_allclose(got.asnumpy(), w, rtol=1e-5, atol=1e-6)


def test_roberta_classifier_is_gluonnlps(files):
    vocab_size = json.loads((files / 'vocab_size.json').read_text())
    roberta = gz.get_model('roberta_12_768_12', vocab_size=vocab_size, use_decoder=False, **SMALL)
    net = nlp.model.RoBERTaClassifier(roberta, num_classes=3, dropout=0.1)
    net.load_parameters(str(files / 'roberta_classifier.params'))
    assert_outputs_match(net, *saved_case(files / 'roberta_classifier.npz'))


@pytest.mark.parametrize('layout', ['TNC', 'NTC'])
def test_rnn_cell_layer_equals_mxnets_fused_lstm(layout):
    mx.random.seed(3)
    cell = mx.gluon.rnn.LSTMCell(5, input_size=3)
    layer = nlp.model.RNNCellLayer(cell, layout=layout)
    layer.initialize(mx.init.Normal(0.5))
    fused = mx.gluon.rnn.LSTM(5, input_size=3, layout=layout)
    fused.initialize()
    for name in ('i2h_weight', 'h2h_weight', 'i2h_bias', 'h2h_bias'):  # the fused layer's l0_ names, same layout
        getattr(fused, f'l0_{name}').set_data(getattr(cell, name).data())
    x = mx.nd.random.normal(shape=(4, 2, 3) if layout == 'TNC' else (2, 4, 3))
    states = [mx.nd.random.normal(shape=(2, 5)) for _ in range(2)]
    want, want_states = fused(x, [s.expand_dims(0) for s in states])
    np.testing.assert_allclose(layer(x).asnumpy(), fused(x).asnumpy(), rtol=1e-5, atol=1e-6)
    got, got_states = layer(x, states)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)
    for g, w in zip(got_states, want_states):
        np.testing.assert_allclose(g.asnumpy(), w[0].asnumpy(), rtol=1e-5, atol=1e-6)


def test_bad_inputs():
    with pytest.raises(BadInputError, match='layout'):
        nlp.model.RNNCellLayer(mx.gluon.rnn.LSTMCell(2), layout='NCT')
    layer = nlp.model.RNNCellLayer(mx.gluon.rnn.LSTMCell(2, input_size=3))
    layer.initialize()
    with pytest.raises(BadInputError, match='cell expects'):
        layer(mx.nd.ones((4, 2, 3)), [mx.nd.zeros((3, 2)), mx.nd.zeros((3, 2))])
    with pytest.raises(BadInputError, match='one count per width'):
        nlp.model.ConvolutionalEncoder(num_filters=(2, 3), ngram_filter_sizes=(1,))
