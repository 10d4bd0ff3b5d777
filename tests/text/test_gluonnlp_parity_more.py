"""GluonNLP 0.10.0's ELMo biLMs, big LSTMP LM and ERNIE: its files load strictly into gluonzoo's, outputs match.

GluonNLP's ELMo builders refuse other sizes, so its ELMoBiLM is built with each builder's own hyper-parameters
(read from the builder) and only the widths shrunk: every filter width, highway layer, LSTM layer, clip and so every
parameter name of the arch is kept. The big LM and ERNIE go through their builders (hparam_allow_override).
"""
import inspect
import json

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.registry import get_entry

from ..peers import run_peer
from .conftest import GLUONNLP_SMALL, SMALL, assert_outputs_match, saved_case

ELMO = ('elmo_2x1024_128_2048cnn_1xhighway', 'elmo_2x2048_256_2048cnn_1xhighway', 'elmo_2x4096_512_2048cnn_2xhighway')
# the sizes shrunk; 8 characters a token so the 7-wide filter fits
ELMO_SMALL = dict(filters=[[w, 2 + w] for w in range(1, 8)], output_size=8, input_size=8, hidden_size=12,
                  proj_size=8, char_embed_size=4, max_chars_per_token=8)
BIG_SMALL = dict(embed_size=6, hidden_size=10, projection_size=6)
# (file name, our arch, peer kind, peer kwargs, our kwargs beyond the peer's)
CASES = ([(a, a, 'elmo', ELMO_SMALL, {}) for a in ELMO] +
         [('elmo_mask', ELMO[2], 'elmo_mask', ELMO_SMALL, {}),
          ('big_rnn_lm_2048_512', 'big_rnn_lm_2048_512', 'bigrnn', BIG_SMALL, {}),
          ('big_rnn_2layer', 'big_rnn_lm_2048_512', 'bigrnn', dict(BIG_SMALL, num_layers=2), {}),
          ('ernie_12_768_12', 'ernie_12_768_12', 'bert', GLUONNLP_SMALL, SMALL)])


@pytest.fixture(scope='module')
def files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluonnlp_more')
    run_peer('gluonnlp_more.py', out, [{'name': n, 'arch': a, 'kind': k, 'kwargs': kw} for n, a, k, kw, _ in CASES])
    return out


def _vocab_size(files, kind):
    with open(files / ('bertvocab.json' if kind == 'bert' else 'vocab.json')) as f:
        return len(json.load(f)['idx_to_token'])


@pytest.mark.parametrize('name,arch,kind,peer_kwargs,kwargs', CASES, ids=[c[0] for c in CASES])
def test_gluonnlp_params_load_strictly_and_match(files, name, arch, kind, peer_kwargs, kwargs):
    if kind.startswith('elmo'):
        kwargs = dict(peer_kwargs, filters=tuple(map(tuple, peer_kwargs['filters'])))
    else:
        kwargs = dict(kwargs or peer_kwargs, vocab_size=_vocab_size(files, kind))
    net = gz.get_model(arch, **kwargs)
    net.load_parameters(str(files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    args, want = saved_case(files / f'{name}.npz')
    if kind == 'elmo_mask':
        args.insert(1, None)  # (inputs, states, mask): zero states made inside
    elif kind == 'elmo':  # GluonNLP's calling convention: zero states from begin_state
        args.append(net.begin_state(mx.nd.zeros, batch_size=args[0].shape[0]))
    elif kind == 'bigrnn':
        args.append(net.begin_state(batch_size=args[0].shape[1], func=mx.nd.zeros))
    assert_outputs_match(net, args, want)


@pytest.mark.parametrize('arch', ELMO + ('big_rnn_lm_2048_512', 'ernie_12_768_12'))
def test_builder_defaults_are_gluonnlps(files, arch):
    with open(files / 'hparams.json') as f:
        theirs = json.load(f)[arch]
    ours = {k: p.default for k, p in inspect.signature(get_entry(arch).builder).parameters.items()}
    ours['filters'] = [list(f) for f in ours.get('filters', ())]
    # GluonNLP's other keys build the net outside the hyper-parameters: embed_size is units, word_embed None;
    # ERNIE's activation and LayerNorm eps are fixed in our builder and shown by the parity test (ReLU, 1e-5)
    skip = {'embed_size', 'word_embed', 'activation', 'layer_norm_eps'} if arch.startswith('ernie') else set()
    assert {k: v for k, v in theirs.items() if k not in skip} == {k: ours[k] for k in theirs if k not in skip}


def test_elmo_retraces_for_another_length():
    """The unrolled graph is of one length: a hybridized net called on another length is traced again."""
    entry = get_entry(ELMO[0])
    net = gz.get_model(ELMO[0], **entry.test_kwargs)
    net.initialize()
    x = entry.example_inputs()[0]
    short = x[:, :2]
    want = net(short)[0][-1].asnumpy()
    net.hybridize()
    net(x)
    np.testing.assert_allclose(net(short)[0][-1].asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_elmo_refuses_ids_that_are_not_characters():
    from gluonzoo.errors import BadInputError
    net = gz.get_model(ELMO[0], **get_entry(ELMO[0]).test_kwargs)
    net.initialize()
    with pytest.raises(BadInputError, match=r'character ids of shape \(batch, length, 8\), got \(2, 4\)'):
        net(mx.nd.ones((2, 4)))
