"""Decoders against exhaustive search on a known Markov model, and wired to the NMT model and GPT-2."""
import itertools

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.text.decoding import (beam_search, best_span, greedy_search, length_penalty, lm_step_fn, nmt_step_fn,
                                    sample)

EOS, V = 0, 4
TABLE = np.log(np.random.RandomState(0).dirichlet(np.ones(V) * 0.7, size=V))  # next-token log-probs by last token


def step(prefix):
    return TABLE[prefix.asnumpy()[:, -1].astype(int)]


def _exhaustive(prefix, max_length, alpha):
    """Every completion (ending at EOS or at max_length), scored as beam_search scores them."""
    best = []
    for n in range(1, max_length - len(prefix) + 1):
        for tail in itertools.product(range(V), repeat=n):
            if EOS in tail[:-1] or (tail[-1] != EOS and len(prefix) + n < max_length):
                continue
            seq = list(prefix) + list(tail)
            lp = sum(TABLE[a, b] for a, b in zip(seq[:-1], seq[1:]))
            best.append((lp / length_penalty(n, alpha), seq))
    return sorted(best, key=lambda x: -x[0])


@pytest.mark.parametrize('alpha', [0.0, 0.6, 2.0])
def test_wide_beam_is_exhaustive_search(alpha):
    want = _exhaustive([2], 5, alpha)
    got = beam_search(step, [2], EOS, beam_size=V ** 4, max_length=5, alpha=alpha)
    assert got[0].tokens == want[0][1] and got[0].score == pytest.approx(want[0][0])
    assert [h.tokens for h in got[:5]] == [s for _, s in want[:5]]


def test_beam_of_one_is_greedy_and_narrow_beams_never_beat_wide():
    assert beam_search(step, [1], EOS, beam_size=1, max_length=8)[0].tokens == greedy_search(step, [[1]], EOS, 8)[0]
    scores = [beam_search(step, [3], EOS, beam_size=k, max_length=6, alpha=0.6)[0].score for k in (1, 2, 4, 64)]
    assert scores == sorted(scores)


def test_sampling():
    assert sample(step, [[1], [2]], EOS, 6, top_k=1) == greedy_search(step, [[1], [2]], EOS, 6)
    a = sample(step, [[1]] * 5, EOS, 10, seed=3)
    assert a == sample(step, [[1]] * 5, EOS, 10, seed=3) and all(s[-1] == EOS or len(s) == 10 for s in a)
    draws = sample(step, [[2]] * 4000, EOS, 2, temperature=0.5, seed=0)
    freq = np.bincount([s[1] for s in draws], minlength=V) / 4000
    want = np.exp(TABLE[2] / 0.5) / np.exp(TABLE[2] / 0.5).sum()
    assert np.abs(freq - want).max() < 0.03
    top2 = {s[1] for s in sample(step, [[2]] * 200, EOS, 2, top_k=2, seed=1)}
    assert top2 <= set(np.argsort(-TABLE[2])[:2].tolist())


def test_nmt_decoding_agrees_with_the_full_forward():
    net = gz.get_model('transformer_en_de_512', vocab_size=12, units=16, hidden_size=32, num_layers=2, num_heads=4)
    net.initialize()
    src, valid = mx.nd.array([[3, 4, 5, 6, 0]]), mx.nd.array([4])
    fn = nmt_step_fn(net, src, valid)
    out = greedy_search(fn, [[1]], eos_id=2, max_length=7)[0]
    # teacher-forcing the greedy output through forward() gives the same argmax at every step
    logits = net(src, mx.nd.array([out[:-1]]), valid, mx.nd.array([len(out) - 1])).asnumpy()[0]
    assert logits.argmax(axis=-1).tolist() == out[1:]
    hyps = beam_search(fn, [1], eos_id=2, beam_size=3, max_length=7, alpha=0.6)
    assert len(hyps) == 3 and hyps[0].score >= hyps[-1].score


def test_gpt2_is_causal_and_decodes():
    net = gz.get_model('gpt2_117m', vocab_size=30, units=16, num_layers=2, num_heads=4, max_length=12)
    net.initialize()
    a = mx.nd.array([[1, 2, 3, 4, 5, 6]])
    b = mx.nd.array([[1, 2, 3, 9, 9, 9]])
    la, lb = net(a).asnumpy(), net(b).asnumpy()
    np.testing.assert_allclose(la[0, :3], lb[0, :3], rtol=1e-5, atol=1e-6)
    assert np.abs(la[0, 3:] - lb[0, 3:]).max() > 1e-4
    out = greedy_search(lm_step_fn(net), [[1, 2]], eos_id=0, max_length=8)[0]
    assert net(mx.nd.array([out[:-1]])).asnumpy()[0, 1:].argmax(axis=-1).tolist() == out[2:]
    with pytest.raises(BadInputError, match='exceed max_length=12'):
        net(mx.nd.ones((1, 13)))


def test_bad_input():
    with pytest.raises(BadInputError, match='non-empty prefix'):
        greedy_search(step, [[]], EOS, 5)
    with pytest.raises(BadInputError, match='no room'):
        beam_search(step, [1, 2, 3], EOS, max_length=3)
    with pytest.raises(BadInputError, match='temperature'):
        sample(step, [[1]], EOS, 5, temperature=0)
    with pytest.raises(BadInputError, match='beam_size'):
        beam_search(step, [1], EOS, beam_size=0)


def test_best_span_is_the_exhaustive_best_and_reads_the_qa_head():
    rng = np.random.RandomState(3)
    for _ in range(20):
        s, e = rng.randn(12), rng.randn(12)
        cands = [(s[i] + e[j], (i, j)) for i in range(10) for j in range(i, min(i + 4, 10))]
        assert best_span(s, e, max_answer_length=4, valid_length=10) == max(cands)[1]
    net = gz.get_model('bert_12_768_12_qa', vocab_size=20, units=16, hidden_size=32, num_layers=1, num_heads=2)
    net.initialize()
    scores = net(mx.nd.ones((1, 7)), mx.nd.zeros((1, 7)), mx.nd.array([7]))[0]  # (length, 2)
    start, end = best_span(scores[:, 0], scores[:, 1], max_answer_length=3)
    assert 0 <= start <= end < min(start + 3, 7)
    with pytest.raises(BadInputError, match='equally long'):
        best_span([1, 2], [1], 3)
