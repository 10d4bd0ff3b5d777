"""gluonzoo.nlp.embedding against gluonnlp.embedding (peers venv) on the same local files: text, .npz and word2vec
binary loading, lookups, updates, the evaluation blocks, and GluonNLP 0.10's 499 source records; pretrained
download through a real server on 127.0.0.1; bad inputs."""
import glob
import hashlib
import json
import os
import struct

import mxnet as mx
import numpy as np
import pytest

import gluonzoo.nlp as nlp
from gluonzoo.errors import BadInputError
from gluonzoo.text import word_embeddings as we

from ..peers import run_peer

PROBE = ['hello', 'world', 'nope', '<unk>', 'tab']
RNG = np.random.RandomState(3)
VEC = RNG.randn(12, 5).astype('float32').tolist()
Q = {'w1': [1, 4, 7], 'w2': [2, 5, 8], 'w3': [3, 6, 9]}


def w2v_bin(path, words, dim):
    with open(path, 'wb') as f:
        f.write(f'{len(words)} {dim}\n'.encode())
        for i, w in enumerate(words):
            f.write(w.encode() + b' ' + struct.pack(f'<{dim}f', *[i + j / 10 for j in range(dim)]) + b'\n')


JOBS = [
    {'name': 'txt', 'op': 'from_file', 'file': 'a.txt', 'probe': PROBE, 'serialize': 'peer.npz'},
    {'name': 'txt_unk', 'op': 'from_file', 'file': 'unk.txt', 'probe': PROBE},
    {'name': 'txt_nounk', 'op': 'from_file', 'file': 'a.txt', 'probe': ['hello'], 'kwargs': {'unknown_token': None}},
    {'name': 'tsv', 'op': 'from_file', 'file': 'b.tsv', 'probe': PROBE, 'kwargs': {'elem_delim': '\t'}},
    {'name': 'header', 'op': 'from_file', 'file': 'h.vec', 'probe': PROBE},
    {'name': 'ours_npz', 'op': 'deserialize', 'file': 'ours.npz', 'probe': PROBE},
    {'name': 'bin', 'op': 'w2v_bin', 'file': 'w.bin', 'probe': PROBE},
    {'name': 'set', 'op': 'setitem', 'probe': ['a', 'b', 'c', '<unk>'], 'kwargs': {'allow_extend': True},
     'updates': [[['a', 'b'], [[1, 2], [3, 4]]], ['c', [5, 6]], [['a'], [[7, 8]]]]},
    {'name': 'set_unknown', 'op': 'setitem', 'probe': ['a'], 'updates': [['a', [1, 2]]]},
    {'name': 'sim', 'op': 'similarity', 'idx_to_vec': VEC, 'w1': [0, 1, 2, 3], 'w2': [4, 5, 2, 11]},
    {'name': 'mul', 'op': 'analogy', 'idx_to_vec': VEC, **Q, 'kwargs': {'k': 3}},
    {'name': 'mul_incl', 'op': 'analogy', 'idx_to_vec': VEC, **Q, 'kwargs': {'k': 2, 'exclude_question_words': False}},
    {'name': 'add', 'op': 'analogy', 'idx_to_vec': VEC, **Q, 'kwargs': {'analogy_function': 'ThreeCosAdd', 'k': 2}},
    {'name': 'vocab', 'op': 'vocab', 'file': 'a.txt', 'tokens': ['world', 'hello', 'zzz', 'world']},
    {'name': 'lists', 'op': 'lists'},
]


@pytest.fixture(scope='module')
def peer(tmp_path_factory):
    d = tmp_path_factory.mktemp('emb')
    (d / 'a.txt').write_text('hello 0.1 0.2 0.3\nworld 1 2 3\nhello 5 5 5\nfoo -1 0 1.5\n')
    (d / 'unk.txt').write_text('hello 0.1 0.2 0.3\n<unk> 9 8 7\nworld 1 2 3\n')
    (d / 'b.tsv').write_text('hello\t1\t2\ntab\t3\t4\n')
    (d / 'h.vec').write_text('3 2\nhello 1 2\nworld 3 4\ntab 5 6\n')
    w2v_bin(str(d / 'w.bin'), ['hello', 'world', 'tab', 'hello'], 4)
    nlp.embedding.TokenEmbedding.from_file(str(d / 'unk.txt')).serialize(str(d / 'ours.npz'))
    run_peer('gluonnlp_embedding.py', d, JOBS, timeout=300)
    return d, {j['name']: json.load(open(d / (j['name'] + '.json'))) for j in JOBS}


def seen(emb, probe):
    return {'idx_to_token': emb.idx_to_token, 'unknown_token': emb.unknown_token,
            'idx_to_vec': emb.idx_to_vec.asnumpy().tolist(), 'probe': emb[probe].asnumpy().tolist(),
            'contains': [t in emb for t in probe]}


def same(ours, theirs):
    assert set(ours) == set(theirs)
    for k in ours:
        if isinstance(ours[k], list) and ours[k] and not isinstance(ours[k][0], str):
            np.testing.assert_allclose(np.array(ours[k], dtype='float64'), np.array(theirs[k], dtype='float64'),
                                       rtol=1e-6, atol=1e-6, err_msg=k)
        else:
            assert ours[k] == theirs[k], k


def ours_of(d, job):
    path = str(d / job.get('file', ''))
    kw = job.get('kwargs', {})
    if job['op'] == 'from_file':
        return seen(nlp.embedding.TokenEmbedding.from_file(path, **kw), job['probe'])
    if job['op'] == 'deserialize':
        return seen(nlp.embedding.TokenEmbedding.deserialize(path), job['probe'])
    if job['op'] == 'w2v_bin':
        return seen(nlp.embedding.Word2Vec(source=path, **kw), job['probe'])
    if job['op'] == 'vocab':  # the word-embedding tutorial's flow: Vocab.set_embedding(TokenEmbedding)
        vocab = nlp.Vocab(nlp.data.count_tokens(job['tokens']))
        vocab.set_embedding(nlp.embedding.TokenEmbedding.from_file(path))
        return vocab.embedding.idx_to_vec.asnumpy().tolist()
    if job['op'] == 'setitem':
        emb = nlp.embedding.TokenEmbedding(**kw)
        for tokens, vecs in job['updates']:
            emb[tokens] = mx.nd.array(vecs)
        return seen(emb, job['probe'])
    if job['op'] == 'similarity':
        blk = nlp.embedding.evaluation.WordEmbeddingSimilarity(mx.nd.array(job['idx_to_vec']), **kw)
        blk.initialize()
        return blk(mx.nd.array(job['w1']), mx.nd.array(job['w2'])).asnumpy().tolist()
    if job['op'] == 'analogy':
        blk = nlp.embedding.evaluation.WordEmbeddingAnalogy(mx.nd.array(job['idx_to_vec']), **kw)
        blk.initialize()
        blk.hybridize()
        return blk(*[mx.nd.array(job[w]) for w in ('w1', 'w2', 'w3')]).asnumpy().tolist()
    raise ValueError(job['op'])


@pytest.mark.parametrize('job', [j for j in JOBS if j['op'] != 'lists'], ids=lambda j: j['name'])
def test_same_as_gluonnlp(peer, job):
    d, theirs = peer
    want = theirs[job['name']]
    try:
        got = {'ok': ours_of(d, job)}
    except Exception as e:  # noqa: BLE001 - the error type is compared
        got = {'error': type(e).__name__}
    assert list(got) == list(want), (got, want)
    if 'ok' in got:
        if isinstance(got['ok'], dict):
            same(got['ok'], want['ok'])
        else:
            np.testing.assert_allclose(got['ok'], want['ok'], rtol=1e-5, atol=1e-6)


def test_peer_serialized_file_loads(peer):
    d, theirs = peer
    emb = nlp.embedding.TokenEmbedding.deserialize(str(d / 'peer.npz'))
    same(seen(emb, PROBE), theirs['txt']['ok'])


def test_sources_and_functions_are_gluonnlps(peer):
    _, theirs = peer
    lists = theirs['lists']['ok']
    assert nlp.embedding.list_sources() == lists['sources']
    assert sum(len(v) for v in lists['sources'].values()) == 499
    for kind, table in lists['tables'].items():
        assert {k: list(v) for k, v in we.source_records()[kind].items()} == table, kind
    assert nlp.embedding.list_sources('GloVe') == lists['sources']['glove']
    assert nlp.embedding.evaluation.list_evaluation_functions() == lists['functions']
    assert isinstance(nlp.embedding.evaluation.create('similarity', 'CosineSimilarity'),
                      nlp.embedding.evaluation.CosineSimilarity)
    assert nlp.embedding.token_embedding.GloVe is nlp.embedding.GloVe


def test_pretrained_download_from_local_server(http_server, tmp_path, monkeypatch):
    src = tmp_path / 'src'
    src.mkdir()
    nlp.embedding.TokenEmbedding.from_file(_write(src / 'v.txt', 'the 1 2\ncat 3 4\n')).serialize(str(src / 'x.npz'))
    data = (src / 'x.npz').read_bytes()
    fname = we.source_records()['glove']['glove.6B.50d'][0]
    http_server.files[f'/gluon/embeddings/glove/{fname}'] = data
    monkeypatch.setattr(we.GloVe, 'source_file_hash',
                        {**we.source_records()['glove'], 'glove.6B.50d': (fname, hashlib.sha1(data).hexdigest())})
    monkeypatch.setenv('GLUONZOO_EMBEDDING_REPO', http_server.base)
    root = tmp_path / 'root'
    emb = nlp.embedding.create('glove', source='glove.6B.50d', embedding_root=str(root))
    assert emb.idx_to_token == ['<unk>', 'the', 'cat']
    np.testing.assert_array_equal(emb['cat'].asnumpy(), [3, 4])
    assert os.listdir(root / 'glove') == [fname]
    hits = len(http_server.hits)
    nlp.embedding.GloVe('glove.6B.50d', embedding_root=str(root))  # cached and verified: no second download
    assert len(http_server.hits) == hits


def _write(path, text):
    path.write_text(text)
    return str(path)


def one_line(excinfo):
    msg = str(excinfo.value)
    assert msg and '\n' not in msg
    return msg


def test_bad_inputs(tmp_path, monkeypatch, http_server):
    with pytest.raises(BadInputError) as e:
        nlp.embedding.TokenEmbedding.from_file(_write(tmp_path / 'bad.txt', 'a 1 2 3\nb 1 2\n'))
    assert 'inconsistent dimension' in one_line(e) and 'line 1' in str(e.value)
    with pytest.raises(BadInputError) as e:
        nlp.embedding.TokenEmbedding.from_file(_write(tmp_path / 'nan.txt', 'a 1 x\n'))
    assert 'not a number' in one_line(e)
    with pytest.raises(KeyError) as e:
        nlp.embedding.GloVe('glove.nope')
    assert 'glove.6B.50d' in str(e.value)
    with pytest.raises(KeyError):
        nlp.embedding.create('nope')
    with pytest.raises(BadInputError) as e:
        nlp.embedding.Word2Vec(source=str(tmp_path / 'missing.bin'))
    assert 'does not exist' in one_line(e)
    w2v_bin(str(tmp_path / 'cut.bin'), ['a', 'b'], 3)
    (tmp_path / 'cut.bin').write_bytes((tmp_path / 'cut.bin').read_bytes()[:-8])
    with pytest.raises(BadInputError) as e:
        nlp.embedding.Word2Vec(source=str(tmp_path / 'cut.bin'))
    assert 'cut short' in one_line(e)
    root = tmp_path / 'root'
    monkeypatch.setenv('GLUONZOO_OFFLINE', '1')
    with pytest.raises(BadInputError) as e:
        nlp.embedding.GloVe('glove.6B.50d', embedding_root=str(root))
    assert 'GLUONZOO_OFFLINE' in one_line(e) and 'glove.6B.50d' in str(e.value)
    monkeypatch.delenv('GLUONZOO_OFFLINE')
    monkeypatch.setenv('GLUONZOO_EMBEDDING_REPO', http_server.base)  # serves nothing: 404
    with pytest.raises(BadInputError) as e:
        nlp.embedding.Word2Vec('GoogleNews-vectors-negative300', embedding_root=str(root))
    assert '404' in one_line(e)
    assert glob.glob(str(root / '**' / '*'), recursive=True) in ([], [str(root / 'glove'), str(root / 'word2vec')],
                                                                 [str(root / 'word2vec')])
    assert not glob.glob(str(root / '**' / '*.*'), recursive=True)
