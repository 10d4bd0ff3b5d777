"""Shared peer runs for the text tests (one GluonNLP run per session: it writes models and vocab JSON)."""
import pytest

from ..peers import run_peer

SMALL = dict(num_layers=2, units=32, hidden_size=64, num_heads=4, max_length=16)
GLUONNLP_SMALL = dict(SMALL, embed_size=32, dropout=0.1)
# (our registry name, gluonnlp name, kind); our classifier is registered as its own arch
CASES = [('bert_12_768_12', 'bert_12_768_12', 'bert'), ('bert_24_1024_16', 'bert_24_1024_16', 'bert'),
         ('roberta_12_768_12', 'roberta_12_768_12', 'roberta'),
         ('roberta_24_1024_16', 'roberta_24_1024_16', 'roberta'),
         ('distilbert_6_768_12', 'distilbert_6_768_12', 'distilbert'),
         ('bert_12_768_12_classifier', 'bert_12_768_12', 'classifier')]
NMT_SMALL = dict(units=32, hidden_size=64, num_layers=2, num_heads=4)
LM_SMALL = {'standard': dict(embed_size=12, hidden_size=12, dropout=0.2),
            'awd': dict(embed_size=8, hidden_size=12, dropout=0.2)}
LM_CASES = [(n, 'standard' if n.startswith('standard') else 'awd')
            for n in ('standard_lstm_lm_200', 'standard_lstm_lm_650', 'standard_lstm_lm_1500', 'awd_lstm_lm_600',
                      'awd_lstm_lm_1150')]


@pytest.fixture(scope='session')
def gluonnlp_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluonnlp')
    run_peer('gluonnlp_models.py', out, [{'name': n, 'arch': a, 'kind': k, 'kwargs': GLUONNLP_SMALL}
                                         for n, a, k in CASES] +
             [{'name': 'transformer_en_de_512', 'arch': 'transformer_en_de_512', 'kind': 'nmt', 'kwargs': NMT_SMALL}] +
             [{'name': n, 'arch': n, 'kind': 'lm', 'kwargs': LM_SMALL[k]} for n, k in LM_CASES])
    return out


def _flatten(out):
    return [y for o in out for y in _flatten(o)] if isinstance(out, (list, tuple)) else [out]


def saved_case(npz):
    """(inputs as NDArrays, expected outputs) of a peer's .npz: arr_0, arr_1, ... and y0, y1, ... in number order."""
    import mxnet as mx
    import numpy as np
    ref = np.load(npz)

    def numbered(prefix):
        return sorted((k for k in ref.files if k.startswith(prefix)), key=lambda k: int(k[len(prefix):]))
    return [mx.nd.array(ref[k]) for k in numbered('arr_')], [ref[k] for k in numbered('y')]


def assert_outputs_match(net, args, want, rtol=1e-5):
    """`net(*args)`, flattened, equals `want` (a peer's outputs) within `rtol` of each output's largest |value|,
    imperative and then hybridized."""
    import numpy as np
    for hybrid in (False, True):
        if hybrid:
            net.hybridize()
        got = _flatten(net(*args))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape
            assert np.abs(g.asnumpy() - w).max() <= rtol * max(np.abs(w).max(), 1e-30)
