"""gluonzoo.nlp.model.train (text/models/train_lm.py, train_embedding.py) and weight drop (text/models/weight_drop.py)
against GluonNLP 0.10.0's: the same constructors load the parameter files GluonNLP's blocks saved and give the same
outputs, predict and training mode (the same dropout masks under the same seeds), hybridized too; the cache model
over two chunks; the embedding models and fastText .bin files; then the errors."""
import os
import struct
import types

import mxnet as mx
import numpy as np
import pytest

import gluonzoo.nlp as nlp
from gluonzoo.errors import BadInputError
from gluonzoo.text.models import lstm_lm, weight_drop
from gluonzoo.text.vocab import create_subword_function

from ..peers import run_peer_cases
from ..peers.model_train_cases import TOKENS, cases

train = nlp.model.train
LIB = types.SimpleNamespace(model=nlp.model, train=train, apply_weight_drop=weight_drop.apply_weight_drop,
                            create_subword_function=create_subword_function)
FT_WORDS = ['</s>', 'cat', 'dog']


def write_fasttext(path, new_format, bucket=10, dim=3, minn=2, maxn=3):
    """A tiny fastText .bin (FastText::saveModel's layout); the new one also has a label and a pruned index."""
    rng = np.random.default_rng(1 if new_format else 2)
    with open(path, 'wb') as f:
        if new_format:
            f.write(struct.pack('<2i', 793712314, 12))
            f.write(struct.pack('<12id', dim, 5, 5, 1, 5, 1, 1, 2, bucket, minn, maxn, 100, 1e-4))
        else:
            f.write(struct.pack('<2i', dim, 5))
            f.write(struct.pack('<10id', 5, 1, 5, 1, 1, 2, bucket, minn, maxn, 100, 1e-4))
        entries = [(w, 0) for w in FT_WORDS] + ([('__label__x', 1)] if new_format else [])
        f.write(struct.pack('<3i', len(entries), len(FT_WORDS), int(new_format)))
        f.write(struct.pack('<q', 100))
        if new_format:
            f.write(struct.pack('<q', 1))
        for word, kind in entries:
            f.write(word.encode() + b'\x00' + struct.pack('<qb', 7, kind))
        if new_format:
            f.write(struct.pack('<2i', 0, 0))
            f.write(struct.pack('<?', False))
        rows = len(FT_WORDS) + bucket
        f.write(struct.pack('<2q', rows, dim))
        f.write(rng.normal(size=(rows, dim)).astype(np.float32).tobytes())


def _inputs(rng):
    return dict(ids=rng.integers(0, 20, (5, 2)), ids1=rng.integers(0, 20, (9, 1)), x=rng.normal(size=(3, 2, 3)),
                labels=rng.integers(0, 20, (5, 2)), sampled=np.array([3, 7, 11, 19]),
                count_sampled=np.array([0.5, 0.25, 0.4, 0.1]), count_true=rng.uniform(0.1, 1, (5, 2)))


@pytest.fixture(scope='module')
def both(tmp_path_factory):
    folder = tmp_path_factory.mktemp('model_train')
    for fmt in ('new', 'old'):
        write_fasttext(os.path.join(folder, f'tiny_{fmt}.bin'), fmt == 'new')
    d, ref = run_peer_cases('gluonnlp_model_train.py', folder, _inputs(np.random.default_rng(0)), timeout=120)
    with pytest.warns(UserWarning, match='labels'):
        ours = cases(LIB, d, str(folder), save=False)
    return ours, ref, d, folder


def test_outputs_give_gluonnlps_answers(both):
    ours, ref, _, _ = both
    assert sorted(ours) == sorted(ref)
    for name, want in ref.items():
        if want.dtype.kind in 'UO':
            assert ours[name].tolist() == want.tolist(), name
        else:
            np.testing.assert_allclose(ours[name], want, rtol=1e-4, atol=1e-5, err_msg=name)
    assert len([k for k in ref if k.startswith('awd.predict.')]) == 1 + 4 + 2 + 2  # scores, states, raw, dropped
    assert not np.array_equal(ours['wd.train'], ours['wd.train2'])  # fresh masks each call
    assert 'WeightDropParameter wd_lstm_l1_h2h_weight' in str(ours['wd.repr'])


def test_awd_hybridized_training_drops(both):
    """GluonNLP draws a hybridized AWDRNN's masks in another order than ours, so here the masks' statistics: the
    weight-dropped, embedding-dropped model differs from predict mode, from call to call, and its dropped output
    has about `dropout` of its (shared over time) entries zeroed."""
    _, _, d, folder = both
    net = train.AWDRNN('lstm', 20, 8, 12, 2, True, 0.3, 0.4, 0.2, 0.3, 0.1)
    net.load_parameters(os.path.join(folder, 'awd.params'))
    ids = mx.nd.array(np.random.default_rng(3).integers(0, 20, (4, 64)))
    want = net(ids)[0].asnumpy()
    net.hybridize()
    np.testing.assert_allclose(net(ids)[0].asnumpy(), want, rtol=1e-5, atol=1e-6)
    mx.random.seed(1)
    with mx.autograd.train_mode():
        a, _, raw, dropped = net(ids)
        b = net(ids)[0]
    assert not np.allclose(a.asnumpy(), want) and not np.allclose(a.asnumpy(), b.asnumpy())
    last = dropped[-1].asnumpy()
    zeros = (last == 0).all(axis=0).mean()  # a mask shared along time zeroes whole columns
    assert 0.2 < zeros < 0.4, zeros
    assert raw[-1].shape == dropped[-1].shape == (4, 64, 8)


def test_inference_models_load_training_files(both):
    _, _, d, folder = both
    big = lstm_lm.BigRNN(20, 6, 8, 2, 5, encode_dropout=0.2)
    big.load_parameters(os.path.join(folder, 'big_False.params'))
    awd = lstm_lm.AWDRNN('lstm', 20, 8, 12, 2, True, 0.3, 0.4, 0.2, 0.3, 0.1)
    awd.load_parameters(os.path.join(folder, 'awd.params'))
    ours = train.AWDRNN('lstm', 20, 8, 12, 2, True, 0.3, 0.4, 0.2, 0.3, 0.1)
    ours.load_parameters(os.path.join(folder, 'awd.params'))
    np.testing.assert_allclose(awd(d['ids'])[0].asnumpy(), ours(d['ids'])[0].asnumpy(), rtol=1e-6)
    # the cache runs the inference class too, as GluonNLP's get_cache_model does
    cell = train.CacheCell(awd, 20, 3, 0.6, 0.2)
    p, *_ = cell(d['ids1'][:4], d['ids1'][1:5], None, None)
    assert p.shape == (4,) and (p.asnumpy() > 0).all()


def test_spellings_and_small_behaviour(monkeypatch, tmp_path):
    import gluonzoo.nlp.model.train.cache as cache
    import gluonzoo.nlp.model.train.embedding as embedding
    import gluonzoo.nlp.model.train.language_model as language_model
    assert cache.CacheCell is train.CacheCell and embedding.CSREmbeddingModel is train.CSREmbeddingModel
    assert language_model.BigRNN is train.BigRNN
    # GluonNLP's gluonnlp.model.language_model binds the training models' package as `train` (`from . import train`)
    assert nlp.model.language_model.train is train and nlp.model.language_model.BigRNN is lstm_lm.BigRNN
    assert issubclass(train.FasttextEmbeddingModel, train.EmbeddingModel)
    csr = train.CSREmbeddingModel(TOKENS, 3)
    csr.initialize()
    assert 'a' in csr and 'zz' not in csr and csr['a'].shape == (3,)
    with pytest.raises(KeyError):
        csr['zz']
    dense = mx.gluon.nn.Dense(4, in_units=3)
    dense.initialize(mx.init.One())
    weight_drop.apply_weight_drop(dense, 'weight', 0.5, weight_dropout_mode='always')
    path = str(tmp_path / 'always.params')
    dense.save_parameters(path)  # the weight itself, not a dropped draw
    assert (mx.nd.load(path)['weight'].asnumpy() == 1).all()
    assert isinstance(dense.weight, weight_drop.WeightDropParameter) and dense.collect_params()[dense.weight.name] \
        is dense.weight
    lm = train.StandardRNN('lstm', 7, 4, 4, 1)
    vocab = ['w%d' % i for i in range(7)]
    monkeypatch.setattr('gluonzoo.text.gluonnlp_api.get_model', lambda name, **kw: (lm, vocab))
    cell = train.get_cache_model('standard_lstm_lm_200', window=5)
    assert isinstance(cell, train.CacheCell) and cell.lm_model is lm and cell._vocab_size == 7


def test_errors(tmp_path):
    with pytest.raises(BadInputError, match=r'\[0, 1\)'):
        weight_drop.apply_weight_drop(mx.gluon.nn.Dense(2), 'weight', 1.5)
    with pytest.raises(BadInputError, match="'training' or 'always'"):
        weight_drop.apply_weight_drop(mx.gluon.nn.Dense(2), 'weight', 0.5, weight_dropout_mode='sometimes')
    with pytest.raises(BadInputError, match='sparse_grad=True'):
        train.BigRNN(20, 6, 8, 1, 5, 4, sparse_weight=True, sparse_grad=False)
    big = train.BigRNN(20, 6, 8, 1, 5, 4, sparse_weight=False)
    big.initialize()
    sampled = (mx.nd.array([1, 2, 3, 4]), mx.nd.ones(4), mx.nd.ones((3, 2)))
    with pytest.raises(BadInputError, match=r'shape \(length, batch\)'):
        big(mx.nd.zeros((3, 2)), mx.nd.zeros((3,)), big.begin_state(batch_size=2), sampled)
    with pytest.raises(BadInputError, match='gluon Block'):
        weight_drop.apply_weight_drop('dense', 'weight', 0.5)
    with pytest.raises(BadInputError, match='token_to_idx must be a dict'):
        train.CSREmbeddingModel(['a'], 3)
    lm = train.AWDRNN('lstm', 20, 4, 6, 1)
    lm.initialize()
    cell = train.CacheCell(lm, 20, 3, 0.6, 0.2)
    with pytest.raises(BadInputError, match=r'shape \(length, 1\)'):
        cell(mx.nd.zeros((3, 2)), mx.nd.zeros((3, 2)), None, None)
    cell.hybridize()
    with pytest.raises(BadInputError, match='imperatively only'):
        cell(mx.nd.zeros((3, 1)), mx.nd.zeros((3, 1)), None, None)
    with pytest.raises(BadInputError, match='AWDRNN or StandardRNN'):
        train.CacheCell(mx.gluon.nn.Dense(2), 20, 3, 0.6, 0.2)
    with pytest.raises(ValueError, match="only mode='lstm'"):
        train.AWDRNN('gru', 20)
    path = tmp_path / 'cut.bin'
    write_fasttext(path, True)
    path.write_bytes(path.read_bytes()[:-20])
    with pytest.raises(BadInputError, match='cut short'), pytest.warns(UserWarning):
        train.FasttextEmbeddingModel.load_fasttext_format(str(path))
    ft = train.FasttextEmbeddingModel(TOKENS, create_subword_function('NGramHashes', num_subwords=5,
                                                                      special_tokens={'</s>'}), 2)
    ft.initialize()
    with pytest.raises(KeyError):
        ft['</s>']  # neither a word nor any subword
    with pytest.raises(BadInputError, match='str or a list of str'):
        ft[3]


def test_eval_model_shares_the_training_parameters():
    """GluonNLP's AWD-LSTM script: an inference model built with params=the training model's collect_params()
    runs on the very same Parameters, the tied decoder's bias included."""
    x = mx.nd.array(np.random.default_rng(4).integers(0, 20, (3, 2)))
    for make in (lambda m, **kw: m.AWDRNN('lstm', 20, 4, 6, 2, **kw),
                 lambda m, **kw: m.StandardRNN('lstm', 20, 4, 4, 2, tie_weights=True, **kw)):
        net = make(train)
        net.initialize()
        evaluating = make(nlp.model, params=net.collect_params())
        assert set(evaluating.collect_params().values()) == set(net.collect_params().values())
        np.testing.assert_array_equal(evaluating(x)[0].asnumpy(), net(x)[0].asnumpy())
