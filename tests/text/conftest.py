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


@pytest.fixture(scope='session')
def gluonnlp_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluonnlp')
    run_peer('gluonnlp_models.py', out, [{'name': n, 'arch': a, 'kind': k, 'kwargs': GLUONNLP_SMALL}
                                         for n, a, k in CASES])
    return out
