"""Every GluonNLP 0.10 checkpoint and vocabulary is a gluonzoo record whose sha1, file name and mirror URL are the
ones the installed gluonnlp uses: its tables (`_model_sha1`, `_vocab_sha1`) and URL formats are read in the peers
venv (tests/peers/gluonnlp_checkpoints.py), never copied here."""
import json

import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.registry import get_entry
from gluonzoo.text.models import _gluonnlp

from ..peers import run_peer


@pytest.fixture(scope='module')
def tables(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluonnlp_tables')
    run_peer('gluonnlp_checkpoints.py', out, [{'tables': True}])
    with open(out / 'tables.json') as f:
        return json.load(f)


def _shipped():
    """The registered records that come from GluonNLP's model store."""
    records = [gz.get_weights(n) for n in gz.list_models(task='text', pretrained=True, tags=True)]
    return [w for w in records if w.source.kind == 'mirror' and w.source.url == _gluonnlp.GLUONNLP_REPO]


def test_every_gluonnlp_checkpoint_is_a_registered_record(tables):
    theirs = {name: m['sha1'] for name, m in tables['models'].items()}
    assert {f'{a}_{d}': s for a, d, s, _ in _gluonnlp.CHECKPOINTS} == theirs
    ours = {w.store_name: w.sha1 for w in _shipped()}
    assert ours == theirs, f'missing {sorted(set(theirs) - set(ours))}, unexpected {sorted(set(ours) - set(theirs))}'
    for arch in {m['arch'] for m in tables['models'].values()}:
        assert sum(w.default for w in get_entry(arch).weights.values()) == 1


def test_records_name_and_fetch_their_files_as_gluonnlp_does(tables):
    for w in _shipped():
        m = tables['models'][w.store_name]
        assert (w.arch, _gluonnlp.dataset_of(w)) == (m['arch'], m['dataset'])
        assert w.tag == _gluonnlp.tag_of(m['dataset']) and w.name == f'{m["arch"]}.{w.tag}'
        assert w.file_stem + '.params' == m['member']
        assert store._url(_gluonnlp.GLUONNLP_REPO, w) == m['url']
        for name in _gluonnlp.vocab_names(w.arch, m['dataset']):
            v = _gluonnlp.VOCABULARIES[name]
            assert v.file_name in w.preprocess['vocab']
            assert w.config['vocab_size'] == v.size


def test_every_gluonnlp_vocabulary_is_a_record(tables):
    assert sorted(_gluonnlp.VOCABULARIES) == sorted(tables['vocabs'])
    for name, t in tables['vocabs'].items():
        v = _gluonnlp.VOCABULARIES[name]
        assert (v.sha1, v.ext, dict(v.special_tokens)) == (t['sha1'], t['ext'], t['special_tokens'])
        assert v.file_name == t['member']
        assert _gluonnlp.vocab_url(v) == t['url']
