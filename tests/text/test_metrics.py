"""Text metrics: corpus_bleu equals sacrebleu's on generated corpora; the others against their textbook forms."""
import math
import random

import numpy as np
import pytest
import sacrebleu

from gluonzoo.errors import BadInputError
from gluonzoo.text.metrics import (accuracy, corpus_bleu, f1, mcc, pearson, perplexity, spearman, squad_em_f1,
                                   tokenize_13a)

WORDS = ('the a cat dog sat ran on over mat hill quickly slowly , . ! ? ; : " \' ( ) - 3.14 1,000 42 x-ray '
         'e-mail U.S. don\'t &amp; &quot;quoted&quot; <b> Haus Straße naïve 東京 $5 50% #1').split()


def _sentence(rng, lo=0, hi=25):
    return ' '.join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def _corpus(seed, n, refs, noise):
    rng = random.Random(seed)
    ref_sets = [[] for _ in range(refs)]
    hyps = []
    for _ in range(n):
        base = _sentence(rng, 1, 30).split()
        for r in ref_sets:
            r.append(' '.join(w if rng.random() > noise else rng.choice(WORDS) for w in base))
        hyp = [w if rng.random() > noise else rng.choice(WORDS) for w in base if rng.random() > noise / 2]
        hyps.append(' '.join(hyp) + (' ' if rng.random() < 0.2 else ''))  # trailing blanks: sacrebleu rstrips
    return hyps, ref_sets


@pytest.mark.parametrize('seed,n,refs,noise', [(0, 200, 1, 0.3), (1, 100, 2, 0.5), (2, 50, 4, 0.2),
                                               (3, 300, 1, 0.8), (4, 30, 3, 0.05), (5, 10, 1, 0.95)])
@pytest.mark.parametrize('lowercase', [False, True])
def test_corpus_bleu_equals_sacrebleu(seed, n, refs, noise, lowercase):
    hyps, ref_sets = _corpus(seed, n, refs, noise)
    want = sacrebleu.corpus_bleu(hyps, ref_sets, lowercase=lowercase).score
    assert corpus_bleu(hyps, ref_sets, lowercase=lowercase) == pytest.approx(want, abs=1e-9)


def test_corpus_bleu_edge_cases_equal_sacrebleu():
    cases = [(['a b'], [['a b c d e']]),  # too short for 3/4-grams: smoothing
             ([''], [['some reference']]),  # empty hypothesis
             (['x y z'], [['a b c']]),  # nothing matches
             (['same text here .', 'and again !'], [['same text here .', 'and again !']]),
             (['ties in length'], [['ties in size'], ['ties of length']])]
    for hyps, refs in cases:
        assert corpus_bleu(hyps, refs) == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)
    hyps, refs = _corpus(7, 40, 1, 0.4)
    assert corpus_bleu(hyps, refs, smooth='none') == pytest.approx(
        sacrebleu.corpus_bleu(hyps, refs, smooth_method='none').score, abs=1e-9)


def test_13a_tokenizer_equals_sacrebleu():
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    tok = Tokenizer13a()
    rng = random.Random(9)
    for _ in range(300):
        s = _sentence(rng, 0, 20).replace(' ', rng.choice([' ', '', '\n']))
        assert tokenize_13a(s) == tok(s).split()


def test_bleu_bad_input():
    with pytest.raises(BadInputError, match='reference set 0 has 1 segments, the hypotheses have 2'):
        corpus_bleu(['a', 'b'], [['a']])
    with pytest.raises(BadInputError, match='at least one reference set'):
        corpus_bleu(['a'], [])
    with pytest.raises(BadInputError, match='must be strings'):
        corpus_bleu([3], [['a']])


def test_classification_scores():
    rng = np.random.RandomState(0)
    y, p = rng.randint(0, 2, 500), rng.randint(0, 2, 500)
    tp, tn = np.sum((p == 1) & (y == 1)), np.sum((p == 0) & (y == 0))
    fp, fn = np.sum((p == 1) & (y == 0)), np.sum((p == 0) & (y == 1))
    assert accuracy(p, y) == pytest.approx((tp + tn) / 500)
    assert f1(p, y) == pytest.approx(2 * tp / (2 * tp + fp + fn))
    assert mcc(p, y) == pytest.approx((tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
    assert mcc(y, y) == pytest.approx(1.0) and mcc(1 - y, y) == pytest.approx(-1.0)
    y3, p3 = rng.randint(0, 3, 300), rng.randint(0, 3, 300)
    per_class = [f1((p3 == c).astype(int), (y3 == c).astype(int)) for c in range(3)]
    assert f1(p3, y3, average='macro') == pytest.approx(np.mean(per_class))
    assert f1(p3, y3, average='micro') == pytest.approx(accuracy(p3, y3))
    with pytest.raises(BadInputError, match='equally many'):
        accuracy([1, 0], [1])
    with pytest.raises(BadInputError, match='average='):
        f1([1], [1], average='weighted')


def test_correlations():
    rng = np.random.RandomState(1)
    x, y = rng.randn(100), rng.randn(100)
    assert pearson(x, y) == pytest.approx(np.corrcoef(x, y)[0, 1])
    d = np.argsort(np.argsort(x)) - np.argsort(np.argsort(y))  # no ties: the closed form
    assert spearman(x, y) == pytest.approx(1 - 6 * np.sum(d ** 2) / (100 * (100 ** 2 - 1)))
    assert spearman(x, np.exp(x)) == pytest.approx(1.0)  # rank correlation ignores monotone maps
    ties = [1, 2, 2, 3]
    assert spearman(ties, [1, 2, 3, 4]) == pytest.approx(pearson([1, 2.5, 2.5, 4], [1, 2, 3, 4]))
    with pytest.raises(BadInputError, match='equally long'):
        pearson([1, 2], [1, 2, 3])


def test_squad_and_perplexity():
    r = squad_em_f1(['Denver Broncos', 'the 1990s decade', 'no idea'],
                    [['Denver Broncos', 'The Denver Broncos'], ['1990s'], ['Carolina Panthers']])
    assert r['exact_match'] == pytest.approx(100 / 3)
    assert r['f1'] == pytest.approx(100 * (1 + 2 * 0.5 * 1 / 1.5 + 0) / 3)
    with pytest.raises(BadInputError, match='one per question'):
        squad_em_f1(['a'], [])
    assert perplexity(np.full(10, math.log(50.0))) == pytest.approx(50.0)
    assert perplexity(10 * math.log(7.0), 10) == pytest.approx(7.0)
    with pytest.raises(BadInputError):
        perplexity([], 0)
