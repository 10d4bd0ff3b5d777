"""gluonzoo.nlp.Vocab / gluonzoo.nlp.vocab against GluonNLP 0.10's (the peers venv) on the same inputs: GluonNLP's
positional constructor order, named special tokens, lookups, JSON both ways, set_embedding, the subword functions
(fastText n-gram hashes) and ELMoCharVocab."""
import json
import warnings

import mxnet as mx
import numpy as np
import pytest

import gluonzoo.nlp as nlp
from tests.peers import run_peer

WORDS = 'the cat sat on the mat the cat ran héllo 中文 cat'.split()
PROBE = ['cat', 'héllo', 'zebra', 'the']
EMB_TOKENS = ['<unk>', 'cat', 'the', 'mat', 'héllo']
EMB_VECS = np.arange(15, dtype='float32').reshape(5, 3).tolist()
JOB = {'parts': ['vocab'], 'words': WORDS, 'probe': PROBE, 'emb_tokens': EMB_TOKENS, 'emb_vecs': EMB_VECS,
       'buckets': 2000}


@pytest.fixture(scope='module')
def ref(tmp_path_factory):
    return json.loads(run_peer('gluonnlp_data_api.py', tmp_path_factory.mktemp('nlp_vocab'), JOB))['vocab']


def test_constructor_order_and_lookups_match_gluonnlp(ref):
    counter = nlp.data.count_tokens(WORDS)
    assert sorted(counter.items()) == [tuple(x) for x in ref['counter']]
    assert isinstance(counter, nlp.data.Counter) and type(counter).__name__ == ref['counter_type']
    assert sorted(counter.discard(2, '<unk>').items()) == [tuple(x) for x in ref['discard']]
    # GluonNLP's positional order: counter, max_size, min_freq, unknown, padding, bos, eos, reserved_tokens
    assert nlp.Vocab(counter, 4, 1, '<unk>', '<p>', None, '<e>', ['<r>']).idx_to_token == ref['positional']
    v = nlp.Vocab(counter, cls_token='<cls>', sep_token='<sep>', reserved_tokens=['<r>'])
    r = ref['named']
    assert v.idx_to_token == r['idx_to_token'] and v.reserved_tokens == r['reserved'] and v.cls_token == r['cls']
    assert v.to_indices(PROBE) == r['indices'] and v(PROBE[0]) == r['call'] and v[PROBE] == r['item']
    assert v.to_tokens([1, 2, 3]) == r['tokens'] and v.to_tokens(4) == r['one']
    assert repr(v) == r['repr']
    assert json.loads(v.to_json()) == json.loads(r['json'])
    theirs = nlp.Vocab.from_json(r['json'])  # GluonNLP's JSON read back by ours
    assert theirs.idx_to_token == v.idx_to_token and theirs.sep_token == '<sep>' and theirs['zebra'] == 0
    moved = nlp.Vocab(counter, min_freq=2, unknown_token=None, padding_token=None, bos_token=None, eos_token=None,
                      token_to_idx={WORDS[0]: 0})
    assert moved.idx_to_token == ref['moved']
    assert nlp.vocab.BERTVocab(counter).idx_to_token == ref['bert']


class _Embedding:
    """A token embedding as GluonNLP's set_embedding reads one (idx_to_vec, unknown_token, emb[tokens])."""

    def __init__(self, tokens, vecs):
        self.idx_to_token, self.unknown_token = tokens, '<unk>'
        self.idx_to_vec = mx.nd.array(vecs)

    def __getitem__(self, tokens):
        ids = [self.idx_to_token.index(t) if t in self.idx_to_token else 0 for t in tokens]
        return self.idx_to_vec[mx.nd.array(ids)]


def test_set_embedding_matches_gluonnlp(ref):
    v = nlp.Vocab(nlp.data.count_tokens(WORDS))
    assert v.embedding is None
    emb = _Embedding(EMB_TOKENS, EMB_VECS)
    v.set_embedding(emb, emb)
    np.testing.assert_array_equal(v.embedding.idx_to_vec.asnumpy(), np.array(ref['set_embedding']))
    np.testing.assert_array_equal(v.embedding[PROBE].asnumpy(), np.array(ref['set_embedding_lookup']))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        v.to_json()
    assert any('embedding' in str(w.message) for w in caught)
    v.set_embedding(None)
    assert v.embedding is None
    with pytest.raises(ValueError, match='idx_to_vec'):
        v.set_embedding('glove')


def test_subword_functions_and_elmo_chars_match_gluonnlp(ref):
    ng = nlp.vocab.NGramHashes(num_subwords=JOB['buckets'], special_tokens={'<unk>'})
    assert ng(PROBE + ['<unk>']) == ref['ngrams']
    assert nlp.vocab.create_subword_function('NGramHashes', num_subwords=97, ngrams=[1, 2])(PROBE) == \
        ref['ngrams_2']
    assert ng.subwords_to_indices(['<he', 'llo>', 'é']) == ref['subwords_to_indices']
    assert len(ng) == JOB['buckets']
    with pytest.raises(RuntimeError):
        ng.indices_to_subwords([1])
    assert nlp.vocab.ByteSubwords()(PROBE) == ref['bytes']
    assert sorted(nlp.vocab.list_subword_functions()) == ref['subword_names']
    elmo = nlp.vocab.ELMoCharVocab()
    assert elmo[['<bos>', 'hé', '<eos>', 'x' * 60]] == ref['elmo'] and len(elmo) == ref['elmo_len']
    assert nlp.vocab.subwords.NGramHashes is nlp.vocab.NGramHashes  # GluonNLP's leaf module path


def test_bad_vocab_inputs_say_what_to_do():
    with pytest.raises(ValueError, match='no subword function named'):
        nlp.vocab.create_subword_function('bpe')
    with pytest.raises(ValueError, match='special tokens are keyword arguments'):
        nlp.Vocab(counter=None, mask='[MASK]')
    with pytest.raises(ValueError, match='not an int in'):
        nlp.Vocab().to_tokens(99)
    with pytest.raises(ValueError, match='repeats the unknown token'):
        nlp.Vocab(reserved_tokens=['<unk>'])


def test_checks_raise_and_warn_as_gluonnlps(tmp_path):
    """GluonNLP asserts where its tests (and its users' code) catch AssertionError: ours raise an error of the same
    builtin class (a BadInputError too), warn where it warns, and read its pre-0.7 vocabularies with a repeated
    special token as it does."""
    from ..peers.vocab_check_cases import outcomes
    (tmp_path / 'peer').mkdir()
    (tmp_path / 'ours').mkdir()
    ref = json.loads(run_peer('gluonnlp_vocab_checks.py', tmp_path / 'peer', []))
    ours = outcomes(nlp, str(tmp_path / 'ours'))
    assert sorted(ours) == sorted(ref)
    for name, want in ref.items():
        got = ours[name]
        assert set(want['raised']) <= set(got['raised']), (name, got, want)
        assert bool(got['raised']) == bool(want['raised']) and got['warned'] == want['warned'], (name, got, want)
        assert got['result'] == want['result'], name


def test_gluonnlp_private_constants():
    assert (nlp._constants.UNK_TOKEN, nlp._constants.EOS_TOKEN) == ('<unk>', '<eos>')
    assert nlp.Vocab().unknown_token == nlp._constants.UNK_TOKEN
