"""Parameter files saved from GluonNLP 0.10.0's BERT-family models load strictly into gluonzoo's, outputs match.

GluonNLP's builders accept reduced hyper-parameters (hparam_allow_override=True), so every registered name is
checked with the same small config on both sides: the structure (names, nesting, tying) is the arch's own.
"""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz

from ..peers import run_peer

SMALL = dict(num_layers=2, units=32, hidden_size=64, num_heads=4, max_length=16)
GLUONNLP_SMALL = dict(SMALL, embed_size=32, dropout=0.1)
# (our registry name, gluonnlp name, kind); our classifier is registered as its own arch
CASES = [('bert_12_768_12', 'bert_12_768_12', 'bert'), ('bert_24_1024_16', 'bert_24_1024_16', 'bert'),
         ('roberta_12_768_12', 'roberta_12_768_12', 'roberta'),
         ('roberta_24_1024_16', 'roberta_24_1024_16', 'roberta'),
         ('distilbert_6_768_12', 'distilbert_6_768_12', 'distilbert'),
         ('bert_12_768_12_classifier', 'bert_12_768_12', 'classifier')]


@pytest.fixture(scope='module')
def gluonnlp_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluonnlp')
    print(run_peer('gluonnlp_models.py', out, [{'name': n, 'arch': a, 'kind': k, 'kwargs': GLUONNLP_SMALL}
                                              for n, a, k in CASES]))
    return out


def _vocab_size(files, kind):
    import json
    with open(files / ('bertvocab.json' if kind in ('bert', 'classifier') else 'vocab.json')) as f:
        return len(json.load(f)['idx_to_token'])


@pytest.mark.parametrize('name,arch,kind', CASES)
def test_gluonnlp_params_load_strictly_and_match(gluonnlp_files, name, arch, kind):
    kwargs = dict(SMALL, vocab_size=_vocab_size(gluonnlp_files, kind))
    if kind == 'classifier':
        kwargs['classes'] = 3
    net = gz.get_model(name, **kwargs)
    net.load_parameters(str(gluonnlp_files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    ref = np.load(gluonnlp_files / f'{name}.npz')
    args = [mx.nd.array(ref[f'arr_{i}']) for i in range(len([k for k in ref.files if k.startswith('arr_')]))]
    want = [ref[k] for k in sorted(k for k in ref.files if k.startswith('y'))]
    for hybrid in (False, True):
        if hybrid:
            net.hybridize()
        got = net(*args)
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape
            assert np.abs(g.asnumpy() - w).max() / np.abs(w).max() <= 1e-5
