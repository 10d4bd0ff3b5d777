"""Text metrics: corpus BLEU (sacrebleu's 13a definition), classification scores, correlations, SQuAD, perplexity.

>>> round(corpus_bleu(['the cat sat on the mat'], [['the cat sat on the mat']]), 2)
100.0
>>> round(corpus_bleu(['the cat sat on a mat .'], [['the cat sat on the mat.'], ['a cat sat on the mat .']]), 2)
50.81
>>> accuracy([1, 0, 1, 1], [1, 1, 1, 0])
0.5
>>> round(f1([1, 0, 1, 1], [1, 1, 1, 0]), 4), round(mcc([1, 0, 1, 1], [1, 1, 1, 0]), 4)
(0.6667, -0.3333)
>>> squad_em_f1(['The Eiffel tower'], [['Eiffel Tower', 'the tower']])
{'exact_match': 100.0, 'f1': 100.0}
>>> round(perplexity([2.0, 3.0, 1.0], 3), 4)
7.3891
"""
import collections
import math
import re
import string

import numpy as np

from ..errors import BadInputError

# -- BLEU ---------------------------------------------------------------------------------------------------------
# mteval-v13a's tokenization, as sacrebleu's `13a` tokenizer applies it
_13A = [(re.compile(r'([\{-\~\[-\` -\&\(-\+\:-\@\/])'), r' \1 '),  # punctuation and symbols
        (re.compile(r'([^0-9])([\.,])'), r'\1 \2 '),  # period/comma not preceded by a digit
        (re.compile(r'([\.,])([^0-9])'), r' \1 \2'),  # period/comma not followed by a digit
        (re.compile(r'([0-9])(-)'), r'\1 \2 ')]  # dash after a digit


def tokenize_13a(line):
    """mteval-v13a tokenization of one segment (a list of tokens)."""
    line = line.replace('<skipped>', '').replace('-\n', '').replace('\n', ' ')
    if '&' in line:
        line = line.replace('&quot;', '"').replace('&amp;', '&').replace('&lt;', '<').replace('&gt;', '>')
    line = f' {line} '
    for pattern, repl in _13A:
        line = pattern.sub(repl, line)
    return line.split()


def _ngrams(tokens, max_n):
    return collections.Counter(tuple(tokens[i:i + n]) for n in range(1, max_n + 1)
                               for i in range(len(tokens) - n + 1))


def bleu_statistics(hypotheses, references, max_n=4, lowercase=False):
    """(correct[n], total[n], hypothesis length, closest reference length), summed over the corpus."""
    hypotheses = list(hypotheses)
    references = [list(r) for r in references]
    if not references:
        raise BadInputError('corpus_bleu needs at least one reference set')
    bad = [i for i, r in enumerate(references) if len(r) != len(hypotheses)]
    if bad:
        raise BadInputError(f'reference set {bad[0]} has {len(references[bad[0]])} segments, the hypotheses have '
                            f'{len(hypotheses)}: every reference set needs one segment per hypothesis')
    correct, total = [0] * max_n, [0] * max_n
    sys_len = ref_len = 0

    def prep(s, what):
        if not isinstance(s, str):
            raise BadInputError(f'{what} must be strings, got {type(s).__name__}')
        s = s.rstrip()
        return tokenize_13a(s.lower() if lowercase else s)
    for i, hyp in enumerate(hypotheses):
        h = prep(hyp, 'hypotheses')
        refs = [prep(r[i], 'references') for r in references]
        # the closest reference length; on a tie, the shorter one
        ref_len += min((abs(len(r) - len(h)), len(r)) for r in refs)[1]
        sys_len += len(h)
        best = collections.Counter()
        for r in refs:
            best |= _ngrams(r, max_n)  # per n-gram, the largest count over the references
        for gram, count in _ngrams(h, max_n).items():
            correct[len(gram) - 1] += min(count, best[gram])
        for n in range(1, max_n + 1):
            total[n - 1] += max(len(h) - n + 1, 0)
    return correct, total, sys_len, ref_len


def corpus_bleu(hypotheses, references, max_n=4, lowercase=False, smooth='exp'):
    """Corpus BLEU on a 0-100 scale, equal to sacrebleu.corpus_bleu(hypotheses, references) (13a, exp smoothing).

    `references` is a list of reference sets, each one string per hypothesis (sacrebleu's layout).
    `smooth` is 'exp' (mteval's, sacrebleu's default) or 'none'.
    """
    if smooth not in ('exp', 'none'):
        raise BadInputError(f"smooth={smooth!r}: use 'exp' or 'none'")
    correct, total, sys_len, ref_len = bleu_statistics(hypotheses, references, max_n, lowercase)
    bp = 1.0 if sys_len >= ref_len else (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0)
    if not any(correct):
        return 0.0
    precisions, factor = [0.0] * max_n, 1.0
    for n in range(max_n):
        if total[n] == 0:
            break
        if correct[n]:
            precisions[n] = 100.0 * correct[n] / total[n]
        elif smooth == 'exp':
            factor *= 2
            precisions[n] = 100.0 / (factor * total[n])
    # sacrebleu takes log(0) as -9999999999, which makes the score 0 for an unsmoothed empty order
    logs = [math.log(p) if p > 0 else -9999999999 for p in precisions]
    return bp * math.exp(sum(logs) / max_n)


# -- classification -----------------------------------------------------------------------------------------------
def _labels(pred, label):
    pred, label = np.asarray(pred).ravel(), np.asarray(label).ravel()
    if pred.shape != label.shape or pred.size == 0:
        raise BadInputError(f'predictions ({pred.size}) and labels ({label.size}) must be equally many, and not none')
    return pred, label


def accuracy(pred, label):
    pred, label = _labels(pred, label)
    return float((pred == label).mean())


def f1(pred, label, average='binary', pos_label=1):
    """F1: 'binary' (of pos_label), 'micro' or 'macro' (unweighted mean over the classes present)."""
    pred, label = _labels(pred, label)

    def one(c):
        tp = np.sum((pred == c) & (label == c))
        fp, fn = np.sum((pred == c) & (label != c)), np.sum((pred != c) & (label == c))
        return 0.0 if tp == 0 else 2.0 * tp / (2 * tp + fp + fn)
    if average == 'binary':
        return one(pos_label)
    if average == 'micro':
        return accuracy(pred, label)  # single-label micro F1 is accuracy
    if average == 'macro':
        classes = np.union1d(pred, label)
        return float(np.mean([one(c) for c in classes]))
    raise BadInputError(f"average={average!r}: use 'binary', 'micro' or 'macro'")


def mcc(pred, label):
    """Matthews correlation coefficient (the multi-class R_K form; the usual MCC for two classes)."""
    pred, label = _labels(pred, label)
    classes = np.union1d(pred, label)
    conf = np.array([[np.sum((label == a) & (pred == b)) for b in classes] for a in classes], dtype=np.float64)
    t, p, c, s = conf.sum(axis=1), conf.sum(axis=0), np.trace(conf), conf.sum()
    denom = math.sqrt((s * s - p @ p) * (s * s - t @ t))
    return 0.0 if denom == 0 else float((c * s - t @ p) / denom)


# -- correlation --------------------------------------------------------------------------------------------------
def pearson(x, y):
    x, y = (np.asarray(v, dtype=np.float64).ravel() for v in (x, y))
    if x.shape != y.shape or x.size < 2:
        raise BadInputError(f'pearson needs two equally long series of >= 2 values, got {x.size} and {y.size}')
    x, y = x - x.mean(), y - y.mean()
    denom = math.sqrt((x @ x) * (y @ y))
    return float('nan') if denom == 0 else float(x @ y / denom)


def _ranks(v):
    """Ranks 1..n with ties sharing their average rank."""
    order = np.argsort(v, kind='mergesort')
    ranks = np.empty(len(v), dtype=np.float64)
    sorted_v = v[order]
    start = 0
    for end in range(1, len(v) + 1):
        if end == len(v) or sorted_v[end] != sorted_v[start]:
            ranks[order[start:end]] = (start + end + 1) / 2.0
            start = end
    return ranks


def spearman(x, y):
    """Spearman's rho: Pearson correlation of the (tie-averaged) ranks."""
    x, y = (np.asarray(v, dtype=np.float64).ravel() for v in (x, y))
    return pearson(_ranks(x), _ranks(y)) if x.shape == y.shape else pearson(x, y)


# -- SQuAD --------------------------------------------------------------------------------------------------------
def normalize_answer(s):
    """SQuAD v1.1's normalisation: lower case, no punctuation, no articles, single spaces."""
    s = ''.join(ch for ch in s.lower() if ch not in set(string.punctuation))
    s = re.sub(r'\b(a|an|the)\b', ' ', s)
    return ' '.join(s.split())


def _squad_f1(pred, truth):
    p, t = normalize_answer(pred).split(), normalize_answer(truth).split()
    common = sum((collections.Counter(p) & collections.Counter(t)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(p), common / len(t)
    return 2 * precision * recall / (precision + recall)


def squad_em_f1(predictions, answers):
    """Exact match and F1 (0-100) of predicted answer strings; `answers` holds the gold answers of each question
    (the best-matching one counts), as SQuAD v1.1's evaluate script."""
    predictions, answers = list(predictions), list(answers)
    if len(predictions) != len(answers) or not predictions:
        raise BadInputError(f'{len(predictions)} predictions for {len(answers)} questions: give one per question')
    if any(not a for a in answers):
        raise BadInputError('every question needs at least one gold answer')
    em = sum(max(float(normalize_answer(p) == normalize_answer(g)) for g in gold)
             for p, gold in zip(predictions, answers))
    f = sum(max(_squad_f1(p, g) for g in gold) for p, gold in zip(predictions, answers))
    return {'exact_match': 100.0 * em / len(predictions), 'f1': 100.0 * f / len(predictions)}


# -- language models ----------------------------------------------------------------------------------------------
def perplexity(nll, num_tokens=None):
    """exp(mean negative log-likelihood): `nll` is a total (with num_tokens) or per-token values (without)."""
    values = np.asarray(nll, dtype=np.float64).ravel()
    n = values.size if num_tokens is None else num_tokens
    if n <= 0:
        raise BadInputError('perplexity needs at least one token')
    return float(math.exp(values.sum() / n))
