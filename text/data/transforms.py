"""Sample transforms with GluonNLP 0.10's signatures and outputs: clipping and padding, and the tokenizers it names
(over sacremoses, sentencepiece and the HF `tokenizers` BERT normalizer that gluonzoo depends on).

>>> ClipSequence(2)([1, 2, 3]), PadSequence(4, pad_val=-1)([1, 2])
([1, 2], [1, 2, -1, -1])
>>> BERTBasicTokenizer(lower=True)('Héllo, World!')
['hello', ',', 'world', '!']
"""
import unicodedata

import numpy as np

from ...errors import BadInputError
from .fast_bert_tokenizer import is_control, is_punctuation, is_whitespace


class ClipSequence:
    """Keep the first `length` items of a sample."""

    def __init__(self, length):
        self._length = length

    def __call__(self, sample):
        return sample[:min(len(sample), self._length)]


class PadSequence:
    """Pad a list, numpy array or NDArray along its first axis to `length` with `pad_val` (longer samples are
    clipped when `clip`, else returned as they are)."""

    def __init__(self, length, pad_val=0, clip=True):
        self._length, self._pad_val, self._clip = length, pad_val, clip

    def __call__(self, sample):
        import mxnet as mx
        n = len(sample)
        if n >= self._length:
            return sample[:self._length] if self._clip and n > self._length else sample
        if isinstance(sample, mx.nd.NDArray):
            out = mx.nd.full((self._length,) + sample.shape[1:], self._pad_val, ctx=sample.context,
                             dtype=sample.dtype)
            out[:n] = sample
            return out
        if isinstance(sample, np.ndarray):
            width = [(0, self._length - n)] + [(0, 0)] * (sample.ndim - 1)
            return np.pad(sample, width, mode='constant', constant_values=self._pad_val)
        if isinstance(sample, list):
            return sample + [self._pad_val] * (self._length - n)
        raise BadInputError(f'PadSequence pads a list, numpy array or NDArray, not {type(sample).__name__}')


class SacreMosesTokenizer:
    """Moses tokenization (sacremoses, English rules): `tok(text)` -> tokens, `tok(text, return_str=True)` -> str."""

    def __init__(self):
        from sacremoses import MosesTokenizer
        self._tokenizer = MosesTokenizer()

    def __call__(self, sample, return_str=False):
        return self._tokenizer.tokenize(sample, return_str=return_str)


class SacreMosesDetokenizer:
    """Moses detokenization (sacremoses): tokens -> a str (or the list of detokenized words when not
    `return_str`)."""

    def __init__(self, return_str=True):
        from sacremoses import MosesDetokenizer
        self._return_str = return_str
        self._detokenizer = MosesDetokenizer()

    def __call__(self, sample, return_str=None):
        return self._detokenizer.detokenize(sample, return_str=self._return_str if return_str is None
                                            else return_str)


class _Sentencepiece:
    def __init__(self, path):
        import os

        import sentencepiece
        if not os.path.isfile(os.path.expanduser(path)):
            raise BadInputError(f'sentencepiece model {path} does not exist: pass the path of a .model file')
        self._processor = sentencepiece.SentencePieceProcessor()
        self._processor.Load(os.path.expanduser(path))

    @property
    def tokens(self):
        return [self._processor.IdToPiece(i) for i in range(len(self._processor))]


class SentencepieceTokenizer(_Sentencepiece):
    """Text -> sentencepiece pieces; `num_best` != 0 samples a segmentation (subword regularization, `alpha`)."""

    def __init__(self, path, num_best=0, alpha=1.0):
        super().__init__(path)
        self._path, self._nbest, self._alpha = path, num_best, alpha

    def __call__(self, sample):
        if self._nbest:
            return self._processor.SampleEncodeAsPieces(sample, self._nbest, self._alpha)
        return self._processor.EncodeAsPieces(sample)


class SentencepieceDetokenizer(_Sentencepiece):
    """Sentencepiece pieces -> text."""

    def __call__(self, sample):
        return self._processor.DecodePieces(sample)


class BERTBasicTokenizer:
    """BERT's basic tokenization: clean control characters, split CJK characters, punctuation and whitespace,
    strip accents (always, as GluonNLP 0.10 does, also when not `lower`); `lower` lowercases. The HF `tokenizers`
    BERT normalizer and pre-tokenizer do the work."""

    def __init__(self, lower=True):
        from tokenizers import normalizers, pre_tokenizers
        self.lower = lower
        self._norm = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=True,
                                                lowercase=lower)
        self._pre = pre_tokenizers.BertPreTokenizer()

    def __call__(self, sample):
        if not isinstance(sample, str):
            raise BadInputError(f'BERTBasicTokenizer takes a str, got {type(sample).__name__}')
        return [t for t, _ in self._pre.pre_tokenize_str(self._norm.normalize_str(sample))]

    # GluonNLP's character predicates, which code written for it (its own tests included) calls on the tokenizer:
    # BERT's rules as text/data/fast_bert_tokenizer.py has them, given the character's Unicode category
    def _is_control(self, char):
        return is_control(char, unicodedata.category(char))

    def _is_punctuation(self, char):
        return is_punctuation(char, unicodedata.category(char))

    def _is_whitespace(self, char):
        return is_whitespace(char, unicodedata.category(char))


class BERTSPTokenizer:
    """BERT basic tokenization, then sentencepiece pieces of each word (GluonNLP's BERTSPTokenizer); ids come
    from `vocab`."""
    _special_prefix = '\u2581'

    def __init__(self, path, vocab, num_best=0, alpha=1.0, lower=True, max_input_chars_per_word=200):
        self._path, self._num_best, self._alpha = path, num_best, alpha
        self.vocab, self.max_input_chars_per_word = vocab, max_input_chars_per_word
        self.basic_tokenizer = BERTBasicTokenizer(lower=lower)
        self.sentencepiece = SentencepieceTokenizer(path, num_best, alpha)

    def __call__(self, sample):
        return [piece for word in self.basic_tokenizer(sample) for piece in self.sentencepiece(word)]

    def convert_tokens_to_ids(self, tokens):
        return self.vocab.to_indices(tokens)

    @staticmethod
    def is_first_subword(token):
        return token.startswith(BERTSPTokenizer._special_prefix)


class BERTSentenceTransform:
    """(text_a[, text_b]) -> (input ids, valid length, segment ids), numpy int32 like GluonNLP's: [CLS] a [SEP]
    (b [SEP]), the longer text trimmed first to fit `max_seq_length`, padded with the padding token when `pad`."""

    def __init__(self, tokenizer, max_seq_length, vocab=None, pad=True, pair=True):
        self._tokenizer, self._max_seq_length, self._pad, self._pair = tokenizer, max_seq_length, pad, pair
        self._vocab = tokenizer.vocab if vocab is None else vocab
        self._cls_token = getattr(self._vocab, 'cls_token', None) or self._vocab.bos_token
        self._sep_token = getattr(self._vocab, 'sep_token', None) or self._vocab.eos_token
        self._padding_token = self._vocab.padding_token

    def __call__(self, line):
        if self._pair and len(line) != 2:
            raise BadInputError(f'BERTSentenceTransform(pair=True) takes (text_a, text_b), got {len(line)} '
                                'field(s): pass pair=False for single texts')
        tokens_a = list(self._tokenizer(line[0]))
        tokens_b = list(self._tokenizer(line[1])) if self._pair else None
        if tokens_b:
            while len(tokens_a) + len(tokens_b) > self._max_seq_length - 3:
                (tokens_a if len(tokens_a) > len(tokens_b) else tokens_b).pop()
        else:
            tokens_a = tokens_a[:self._max_seq_length - 2]
        tokens = [self._cls_token, *tokens_a, self._sep_token]
        segments = [0] * len(tokens)
        if tokens_b:
            tokens += [*tokens_b, self._sep_token]
            segments += [1] * (len(tokens_b) + 1)
        ids = list(self._vocab[tokens])
        valid = len(ids)
        if self._pad:
            missing = self._max_seq_length - valid
            ids += [self._vocab[self._padding_token]] * missing
            segments += [0] * missing
        return np.array(ids, dtype='int32'), np.array(valid, dtype='int32'), np.array(segments, dtype='int32')
