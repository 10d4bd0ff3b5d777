"""BERT's text cleaning and WordPiece rules in plain Python, with the names and signatures of GluonNLP 0.10's
`gluonnlp.data.fast_bert_tokenizer` (a Cython module there). The character predicates take the character and its
`unicodedata.category`, as GluonNLP's do. Unlike the HF normalizer behind BERTBasicTokenizer, private-use and
unassigned characters are kept, as GluonNLP keeps them.

>>> BasicTokenizer().tokenize('Héllo, 中文!')
['hello', ',', '中', '文', '!']
>>> WordpieceTokenizer({'un', '##aff', '##able'}).tokenize('unaffable unknown')
['un', '##aff', '##able', '[UNK]']
"""
import unicodedata
from typing import List

__all__ = ['BasicTokenizer', 'WordpieceTokenizer', 'is_chinese_char', 'is_control', 'is_punctuation',
           'is_whitespace', 'whitespace_tokenize']

# the CJK Unified Ideographs blocks (and compatibility ideographs); Hangul, Hiragana and Katakana are not in them
_CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
        (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _code(ch):
    if isinstance(ch, int):
        return ch
    if len(ch) != 1:  # GluonNLP's Cython signature (Py_UCS4) raises ValueError too
        raise ValueError(f'only single character unicode strings can be converted to Py_UCS4, got length {len(ch)}')
    return ord(ch)


def whitespace_tokenize(text):
    """Strip, then split on whitespace."""
    return text.strip().split()


def is_punctuation(cp, cat):
    """Unicode punctuation (category P*), and every ASCII symbol that is not a letter or digit ('$', '^', '`'
    too, as BERT counts them)."""
    c = _code(cp)
    return 33 <= c <= 47 or 58 <= c <= 64 or 91 <= c <= 96 or 123 <= c <= 126 or cat.startswith('P')


def is_control(ch, cat):
    """Control and format characters (Cc, Cf), except tab, newline and carriage return (whitespace to BERT)."""
    return _code(ch) not in (9, 10, 13) and cat in ('Cc', 'Cf')


def is_whitespace(ch, cat):
    """Space, tab, newline, carriage return and the space separators (Zs)."""
    return _code(ch) in (32, 9, 10, 13) or cat == 'Zs'


def is_chinese_char(cp):
    c = _code(cp)
    return any(lo <= c <= hi for lo, hi in _CJK)


class BasicTokenizer:
    """BERT's basic tokenization: drop NUL, U+FFFD and control characters, turn whitespace into spaces, put spaces
    around CJK ideographs, lowercase when `lower`, strip accents (always: NFD, then drop the non-spacing marks),
    split punctuation off and split on whitespace."""

    def __init__(self, lower=True):
        self.lower = lower

    def tokenize(self, text) -> List[str]:
        out = []
        for ch in text:
            cat = unicodedata.category(ch)
            if ch in ('\x00', '\ufffd') or is_control(ch, cat):
                continue
            if is_whitespace(ch, cat):
                out.append(' ')
            elif is_chinese_char(ch):
                out.append(f' {ch} ')
            else:
                out.append(ch)
        text = ''.join(out).strip()
        # lowercase before NFD, as GluonNLP does (it matters for a few letters, e.g. U+0130)
        text = unicodedata.normalize('NFD', text.lower() if self.lower else text)
        out = []
        for ch in text:
            cat = unicodedata.category(ch)
            if cat == 'Mn':
                continue
            out.append(f' {ch} ' if is_punctuation(ch, cat) else ch)
        return ''.join(out).split()


class WordpieceTokenizer:
    """Greedy longest-match-first WordPiece over `vocab` (anything supporting `in`): each whitespace-separated word
    becomes its pieces ('##' marks a piece inside a word), or `unk_token` when it cannot be covered or is longer
    than `max_input_chars_per_word`."""

    def __init__(self, vocab, unk_token='[UNK]', max_input_chars_per_word=200):
        self.vocab, self.unk_token, self.max_input_chars_per_word = vocab, unk_token, max_input_chars_per_word

    def _pieces(self, word):
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else '##' + word[start:end]
                if piece in self.vocab:
                    break
            else:
                return None
            pieces.append(piece)
            start = end
        return pieces

    def tokenize(self, text) -> List[str]:
        out = []
        for word in whitespace_tokenize(text):
            pieces = self._pieces(word) if len(word) <= self.max_input_chars_per_word else None
            out.extend(pieces if pieces is not None else [self.unk_token])
        return out
