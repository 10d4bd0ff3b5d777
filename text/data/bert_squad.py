"""The fine-tuning preprocessing helpers of GluonNLP 0.10 (`gluonnlp.data.bert.glue`, `.bert.squad`,
`.xlnet.squad`), with its names, arguments and results: equal-share truncation and separator concatenation for
sentence pairs; SQuAD's word tokens, sliding document windows, position alignment, answer-span tightening and the
"max context" rule; XLNet's index conversion and banded LCS between sentence pieces and the original text.

>>> truncate_seqs_equal([[1, 2, 3], [4, 5, 6]], 3)
[[1, 2], [4]]
>>> concat_sequences([['a', 'b'], ['c']], [['[SEP]'], ['[SEP]']])
(['a', 'b', '[SEP]', 'c', '[SEP]'], [0, 0, 0, 1, 1], [0, 0, 1, 0, 1])
>>> get_doc_spans(list('abcde'), 3, 2)
[(['a', 'b', 'c'], ['c', 'd', 'e']), ((0, 3), (2, 5))]
"""
import collections
import itertools
import unicodedata

import numpy as np

from ...errors import BadInputError

__all__ = ['SquadExample', 'align_position2doc_spans', 'check_is_max_context', 'concat_sequences',
           'convert_index', 'convert_squad_examples', 'get_doc_spans', 'improve_answer_span', 'lcs_match',
           'tokenize_and_align_positions', 'truncate_seqs_equal']


# -- sentence pairs (bert.glue) --------------------------------------------------------------------------------------
def truncate_seqs_equal(sequences, max_len):
    """Cut `sequences` (a list of sequences) to `max_len` tokens in all: sequences shorter than an equal share keep
    every token and hand what they leave to the others; the rest get equal shares, the earlier ones one token more
    when the budget does not divide. Under the budget, `sequences` comes back as it is."""
    if not isinstance(sequences, list):
        raise BadInputError(f'truncate_seqs_equal takes a list of sequences, got {type(sequences).__name__}')
    lengths = [len(s) for s in sequences]
    if sum(lengths) <= max_len:
        return sequences
    cut, budget = list(range(len(lengths))), max_len  # the sequences still to be cut, and the tokens left for them
    while True:
        shortest = min(cut, key=lengths.__getitem__)  # the first of equal lengths, as numpy's argmin
        share, extra = divmod(budget, len(cut))
        if lengths[shortest] > share:
            break
        cut.remove(shortest)
        budget -= lengths[shortest]
    for rank, i in enumerate(cut):
        lengths[i] = share + (rank < extra)
    return [s[:n] for s, n in zip(sequences, lengths)]


def concat_sequences(seqs, separators, seq_mask=0, separator_mask=1):
    """Each sequence followed by its separator list (a separator without a sequence is appended alone): the tokens,
    their segment ids (the pair's index) and the p_mask, whose values come from `seq_mask` / `separator_mask`
    (one int for all, or one list per sequence / separator)."""
    if not isinstance(seqs, collections.abc.Iterable) or len(seqs) == 0:
        raise BadInputError('concat_sequences needs a non-empty list of sequences')
    for what, mask in (('seq_mask', seq_mask), ('separator_mask', separator_mask)):
        if not isinstance(mask, (list, int)):
            raise BadInputError(f'{what} must be an int or a list of lists of ints, got {type(mask).__name__}')
    if isinstance(seq_mask, int):
        seq_mask = [[seq_mask] * len(s) for s in seqs]
    if isinstance(separator_mask, int):
        separator_mask = [[separator_mask] * len(s) for s in separators]
    tokens, segments, p_mask = [], [], []
    parts = itertools.zip_longest(seqs, separators, seq_mask, separator_mask, fillvalue=[])
    for segment, (seq, sep, seq_m, sep_m) in enumerate(parts):
        tokens += list(seq) + list(sep)
        segments += [segment] * (len(seq) + len(sep))
        p_mask += list(seq_m) + list(sep_m)
    return tokens, segments, p_mask


# -- SQuAD (bert.squad) ----------------------------------------------------------------------------------------------
SquadExample = collections.namedtuple('SquadExample', [
    'qas_id', 'question_text', 'paragraph_text', 'doc_tokens', 'example_id', 'orig_answer_text',
    'start_position', 'end_position', 'start_offset', 'end_offset', 'is_impossible'])


def tokenize_and_align_positions(origin_text, start_position, end_position, tokenizer):
    """Sub-tokens of each word of `origin_text` by `tokenizer`, and the word span [start, end] moved onto them:
    (start, end, tokens, word -> first token index, token -> word index)."""
    orig_to_tok, tok_to_orig, tokens = [], [], []
    for word_index, word in enumerate(origin_text):
        orig_to_tok.append(len(tokens))
        pieces = tokenizer(word)
        tokens += pieces
        tok_to_orig += [word_index] * len(pieces)
    # the span ends on the last piece of its last word: just before the next word's first piece
    end = orig_to_tok[end_position + 1] - 1 if end_position < len(origin_text) - 1 else len(tokens) - 1
    return orig_to_tok[start_position], end, tokens, orig_to_tok, tok_to_orig


def get_doc_spans(full_doc, max_length, doc_stride):
    """Windows of at most `max_length` tokens, `doc_stride` apart, until one reaches the end:
    [(window, ...), ((start, end), ...)] ([] for an empty document)."""
    if max_length < 1 or doc_stride < 1:
        raise BadInputError(f'get_doc_spans needs max_length and doc_stride of at least 1, got {max_length} and '
                            f'{doc_stride}')
    windows, start = [], 0
    while start < len(full_doc):
        end = min(start + max_length, len(full_doc))
        windows.append((full_doc[start:end], (start, end)))
        if end == len(full_doc):
            break
        start += min(end - start, doc_stride)
    return list(zip(*windows))


def align_position2doc_spans(positions, doc_spans_indices, offset=0, default_value=-1, all_in_span=True):
    """`positions` (one or a list) as positions in the span [start, end) plus `offset`; a position outside it is
    `default_value`, and with `all_in_span` one position outside makes them all so."""
    positions = positions if isinstance(positions, list) else [positions]
    start, end = doc_spans_indices
    inside = [start <= p < end for p in positions]
    if all_in_span and not all(inside):
        return [default_value] * len(positions)
    return [p - start + offset if ok else default_value for p, ok in zip(positions, inside)]


def improve_answer_span(doc_tokens, input_start, input_end, tokenizer, orig_answer_text):
    """The tightest [start, end] inside [input_start, input_end] whose tokens spell the tokenized answer (SQuAD's
    answers are character spans, so the word span may hold more, e.g. '(1895-1943).' for '1895'); the input span
    when none does."""
    answer = ' '.join(tokenizer(orig_answer_text))
    for start in range(input_start, input_end + 1):
        for end in range(input_end, start - 1, -1):
            if ' '.join(doc_tokens[start:end + 1]) == answer:
                return start, end
    return input_start, input_end


def check_is_max_context(doc_spans, cur_span_index, position):
    """Whether span `cur_span_index` of `doc_spans` ([start, end) pairs) is the one where the token at `position`
    has the most context: the largest min(left, right) context, plus 0.01 per span token to break ties; the first
    such span wins."""
    best, best_index = None, None
    for index, (start, end) in enumerate(doc_spans):
        if not start <= position < end:
            continue
        score = min(position - start, end - 1 - position) + 0.01 * (end - start)
        if best is None or score > best:
            best, best_index = score, index
    return cur_span_index == best_index


def convert_squad_examples(record, is_training):
    """One SQuAD record (example_id, qas_id, question, paragraph, answer texts, answer offsets[, is_impossible]) as
    a SquadExample: the paragraph split into whitespace-separated words, and for training the answer's first and
    last word index (-1 when impossible, and when not training)."""
    example_id, qas_id, question, paragraph = record[:4]
    answer = record[4][0] if record[4] else ''
    impossible = record[6] if len(record) == 7 else False
    if record[5]:
        offset = record[5][0]
    elif impossible or not is_training:
        offset = -1
    else:
        raise BadInputError(f'SQuAD record {qas_id!r} has no answer offset: a training record needs one, or '
                            f'is_impossible=True')
    words, word_of_char, after_space = [], [], True
    for ch in paragraph:
        if ch.isspace():
            after_space = True
        else:
            if after_space:
                words.append(ch)
            else:
                words[-1] += ch
            after_space = False
        word_of_char.append(len(words) - 1)
    if is_training and not impossible:
        start, end = word_of_char[offset], word_of_char[offset + len(answer) - 1]
    else:
        start = end = -1
    offset = -1 if impossible else offset
    return SquadExample(qas_id=qas_id, question_text=question, paragraph_text=paragraph, doc_tokens=words,
                        example_id=example_id, orig_answer_text=answer, start_position=start, end_position=end,
                        start_offset=offset, end_offset=offset + len(answer) - 1, is_impossible=impossible)


# -- XLNet (xlnet.squad) ---------------------------------------------------------------------------------------------
def _normalized(text, lower=False):
    """XLNet's text normalization of one token: `` and '' as ", accents dropped (NFKD, no combining marks)."""
    text = text.replace('``', '"').replace("''", '"')
    text = ''.join(c for c in unicodedata.normalize('NFKD', text) if not unicodedata.combining(c))
    return text.lower() if lower else text


def convert_index(index_map, pos, M=None, is_start=True):  # noqa: N803 (GluonNLP's argument name)
    """index_map[pos], or where `pos` falls when it is None: from the nearest mapped indices before and after it,
    the one after the earlier (a start) or before the later (an end), kept within [0, M)."""
    if index_map[pos] is not None:
        return index_map[pos]
    n = len(index_map)
    after = next((i for i in range(pos, n - 1) if index_map[i] is not None), n - 1)
    before = next((i for i in range(pos, 0, -1) if index_map[i] is not None), 0)
    front, rear = index_map[before], index_map[after]
    if front is None and rear is None:
        raise BadInputError(f'convert_index: index_map has no mapped index around position {pos}')
    if front is None:  # nothing mapped before pos
        if rear >= 1:
            return 0 if is_start else rear - 1
        return rear
    if rear is None:  # nothing mapped after pos
        if M is not None and front < M - 1:
            return front + 1 if is_start else M - 1
        return front
    if rear > front + 1:  # a gap between them: pos takes its edge
        return front + 1 if is_start else rear - 1
    return rear if is_start else front


def lcs_match(max_dist, seq1, seq2, max_seq_length=1024, lower=False):
    """The longest common subsequence of `seq1` (tokens, normalized as XLNet does) and `seq2`, over the band
    |i - j| < max_dist around the diagonal (sentence pieces stay close to the text they come from): the score
    matrix f (float32, at least max_seq_length square) and the path g, g[i, j] = 2 where token i matches token j,
    1 where the best comes from (i, j-1), 0 where from (i-1, j)."""
    f = np.zeros((max(len(seq1), max_seq_length), max(len(seq2), max_seq_length)), dtype=np.float32)
    g = {}
    for i, token in enumerate(seq1):
        token = _normalized(token, lower)
        for j in range(max(0, i - max_dist), min(len(seq2), i + max_dist)):
            if i > 0:
                g[i, j], f[i, j] = 0, f[i - 1, j]
            if j > 0 and f[i, j - 1] > f[i, j]:
                g[i, j], f[i, j] = 1, f[i, j - 1]
            diagonal = f[i - 1, j - 1] if i > 0 and j > 0 else 0
            if token == seq2[j] and diagonal + 1 > f[i, j]:
                g[i, j], f[i, j] = 2, diagonal + 1
    return f, g
