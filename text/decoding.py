"""Sequence decoding: greedy search, sampling and beam search with GNMT's length penalty.

A decoder drives a `step_fn(prefix) -> scores`: prefix is an NDArray of token ids (n, t), scores an NDArray or
numpy array (n, vocab) of unnormalised log-probabilities for the next token. `nmt_step_fn` and `lm_step_fn` make
one for the NMT model and for GPT-2. Bookkeeping is numpy; only step_fn touches the model.

>>> import numpy as np
>>> table = np.log(np.array([[.1, .6, .3], [.1, .2, .7], [.8, .1, .1]]))  # next-token log-probs by last token
>>> step = lambda prefix: table[prefix.asnumpy()[:, -1].astype(int)]
>>> greedy_search(step, [[1]], eos_id=0, max_length=5)
[[1, 2, 0]]
>>> [s.tokens for s in beam_search(step, [1], eos_id=0, beam_size=2, max_length=5)]
[[1, 2, 0], [1, 1, 2, 0]]
"""
import dataclasses
from typing import List

import numpy as np

from ..errors import BadInputError


def _log_softmax(scores):
    scores = scores.asnumpy() if hasattr(scores, 'asnumpy') else np.asarray(scores)
    scores = scores.astype(np.float64)
    scores = scores - scores.max(axis=-1, keepdims=True)
    return scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))


def _nd(rows):
    import mxnet as mx
    return mx.nd.array(np.array(rows, dtype='float32'))


def _check(prefixes, max_length):
    prefixes = [list(map(int, p)) for p in prefixes]
    if not prefixes or any(not p for p in prefixes):
        raise BadInputError('decoding needs at least one non-empty prefix (e.g. [[bos_id]])')
    if max_length <= max(len(p) for p in prefixes):
        raise BadInputError(f'max_length={max_length} leaves no room after prefixes of up to '
                            f'{max(len(p) for p in prefixes)} tokens')
    return prefixes


def greedy_search(step_fn, prefixes, eos_id, max_length):
    """Extend each prefix with its most likely token until EOS (kept) or max_length tokens in all."""
    return sample(step_fn, prefixes, eos_id, max_length, top_k=1)


def sample(step_fn, prefixes, eos_id, max_length, temperature=1.0, top_k=None, seed=None):
    """Random decoding: draw each token from softmax(scores / temperature), optionally from the top_k only.
    top_k=1 is greedy search; `seed` makes the draws repeatable."""
    if temperature <= 0:
        raise BadInputError(f'temperature={temperature} must be > 0 (use greedy_search for the argmax)')
    seqs = _check(prefixes, max_length)
    rng = np.random.RandomState(seed)
    done = [False] * len(seqs)
    while not all(done) and max(len(s) for s in seqs) < max_length:
        live = [i for i, d in enumerate(done) if not d]
        # equal-length rows per call: group the live sequences by length
        for length in sorted({len(seqs[i]) for i in live}):
            group = [i for i in live if len(seqs[i]) == length]
            logp = _log_softmax(step_fn(_nd([seqs[i] for i in group]))) / temperature
            for row, i in zip(logp, group):
                if top_k == 1:
                    tok = int(np.argmax(row))
                else:
                    cand = np.argsort(-row)[:top_k] if top_k else np.arange(len(row))
                    p = np.exp(row[cand] - row[cand].max())
                    tok = int(rng.choice(cand, p=p / p.sum()))
                seqs[i].append(tok)
                done[i] = tok == eos_id or len(seqs[i]) >= max_length
    return seqs


@dataclasses.dataclass
class Hypothesis:
    tokens: List[int]
    log_prob: float  # sum of the generated tokens' log-probabilities
    score: float  # log_prob / length penalty
    finished: bool


def length_penalty(length, alpha, K=5.0):
    """GNMT's ((K + length) / (K + 1)) ** alpha (Wu et al. 2016); alpha=0 ranks by log-probability."""
    return ((K + length) / (K + 1.0)) ** alpha


def beam_search(step_fn, prefix, eos_id, beam_size=4, max_length=50, alpha=0.0, K=5.0):
    """Beam search from one prefix; returns up to beam_size Hypothesis, best first.

    Hypotheses end at EOS (kept in tokens) or at max_length tokens; they are ranked by log_prob divided by
    length_penalty(generated tokens, alpha, K).
    """
    if beam_size < 1:
        raise BadInputError(f'beam_size={beam_size} must be >= 1')
    start = _check([prefix], max_length)[0]
    n0 = len(start)
    beams = [Hypothesis(start, 0.0, 0.0, False)]
    while any(not b.finished for b in beams):
        live = [b for b in beams if not b.finished]
        logp = _log_softmax(step_fn(_nd([b.tokens for b in live])))
        candidates = [b for b in beams if b.finished]
        for b, row in zip(live, logp):
            for tok in np.argsort(-row)[:beam_size]:
                tokens = b.tokens + [int(tok)]
                lp = b.log_prob + float(row[tok])
                gen = len(tokens) - n0
                candidates.append(Hypothesis(tokens, lp, lp / length_penalty(gen, alpha, K),
                                             int(tok) == eos_id or len(tokens) >= max_length))
        candidates.sort(key=lambda h: -h.score)
        beams = candidates[:beam_size]
    return beams


def best_span(start_scores, end_scores, max_answer_length=30, valid_length=None):
    """The (start, end) token span (inclusive) maximising start + end score with start <= end and at most
    max_answer_length tokens, for a span (QA) head's (length,) scores; positions >= valid_length are excluded."""
    s = np.asarray(start_scores.asnumpy() if hasattr(start_scores, 'asnumpy') else start_scores, dtype=np.float64)
    e = np.asarray(end_scores.asnumpy() if hasattr(end_scores, 'asnumpy') else end_scores, dtype=np.float64)
    n = len(s) if valid_length is None else int(valid_length)
    if n < 1 or max_answer_length < 1 or len(s) != len(e):
        raise BadInputError(f'best_span needs equally long score vectors, valid_length >= 1 and '
                            f'max_answer_length >= 1 (got {len(s)}, {len(e)}, {n}, {max_answer_length})')
    total = s[:n, None] + e[None, :n]
    i, j = np.indices(total.shape)
    total[(j < i) | (j - i >= max_answer_length)] = -np.inf
    start, end = np.unravel_index(int(np.argmax(total)), total.shape)
    return int(start), int(end)


# -- step functions for the zoo's models ----------------------------------------------------------------------------
def nmt_step_fn(net, src, src_valid_length=None):
    """step_fn for NMTModel translating one source sentence `src` (1, Ts): memory encoded once, tiled per call."""
    import mxnet as mx
    mem = net.encode(src, src_valid_length)

    def step(prefix):
        n = prefix.shape[0]
        tiled = mx.nd.repeat(mem, repeats=n, axis=0)
        valid = None if src_valid_length is None else mx.nd.repeat(src_valid_length, repeats=n, axis=0)
        return net.decode_step(prefix, tiled, valid)
    return step


def lm_step_fn(net):
    """step_fn for GPT2Model: the scores of the last position."""
    def step(prefix):
        return net(prefix)[:, -1, :]
    return step
