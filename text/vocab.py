"""Token <-> index vocabularies with GluonNLP 0.10's semantics and JSON format.

Index order, as GluonNLP builds it: the unknown token, then the special tokens (named ones such as cls_token in
the order given, then padding, bos, eos), then `reserved_tokens`, then the counter's tokens by descending
frequency, ties alphabetical. Unknown tokens look up as the unknown token's index.

>>> v = Vocab(count_tokens('a b b c c c'.split()))
>>> v.idx_to_token
['<unk>', '<pad>', '<bos>', '<eos>', 'c', 'b', 'a']
>>> v['c'], v['zzz'], v[['a', 'b']]
(4, 0, [6, 5])
>>> v.to_tokens([4, 5]), v.padding_token
(['c', 'b'], '<pad>')
>>> Vocab.from_json(v.to_json()).idx_to_token == v.idx_to_token
True
>>> BERTVocab(count_tokens(['hello'])).idx_to_token
['[UNK]', '[CLS]', '[SEP]', '[MASK]', '[PAD]', 'hello']
"""
import collections
import json

from ..errors import BadInputError


def count_tokens(tokens, to_lower=False, counter=None):
    """Count tokens into a collections.Counter (added to `counter` when given), as gluonnlp.data.count_tokens."""
    counter = collections.Counter() if counter is None else counter
    counter.update(t.lower() if to_lower else t for t in tokens)
    return counter


class Vocab:
    """An indexed vocabulary; `vocab[token]`, `vocab[list]`, `vocab.to_tokens(ids)`, `len(vocab)`.

    Special tokens are keyword arguments ending in `_token` and become attributes (`vocab.padding_token`).
    `token_to_idx` moves the given tokens to the given indices (swapping with what was there), as GluonNLP does.
    """

    def __init__(self, counter=None, max_size=None, min_freq=1, unknown_token='<unk>', reserved_tokens=None,
                 token_to_idx=None, *, padding_token='<pad>', bos_token='<bos>', eos_token='<eos>', **named):
        if min_freq < 1:
            raise BadInputError(f'min_freq={min_freq} must be >= 1')
        for key in named:
            if not key.endswith('_token') or key.startswith('_'):
                raise BadInputError(f'{key}: special tokens are keyword arguments named like cls_token')
        # named special tokens first (in the caller's order), then padding/bos/eos: GluonNLP's index order
        identifiers = dict(named, padding_token=padding_token, bos_token=bos_token, eos_token=eos_token)
        specials = []
        for tok in identifiers.values():
            if tok is not None and tok not in specials:
                specials.append(tok)
        for tok in reserved_tokens or ():
            if tok == unknown_token or tok in specials:
                raise BadInputError(f'reserved token {tok!r} repeats the unknown token or another special token')
            specials.append(tok)
        self._unknown_token = unknown_token
        self._reserved_tokens = specials or None
        self._identifiers_to_tokens = identifiers
        self._idx_to_token = ([unknown_token] if unknown_token is not None else []) + specials
        taken = set(self._idx_to_token)
        if counter:
            freqs = sorted(counter.items(), key=lambda kv: kv[0])
            freqs.sort(key=lambda kv: kv[1], reverse=True)
            cap = len(taken) + (max_size if max_size else len(counter))
            for tok, freq in freqs:
                if freq < min_freq or len(self._idx_to_token) == cap:
                    break
                if tok not in taken:
                    self._idx_to_token.append(tok)
        self._token_to_idx = {t: i for i, t in enumerate(self._idx_to_token)}
        if token_to_idx:
            self._move(token_to_idx)

    def _move(self, token_to_idx):
        unknown = sorted(set(token_to_idx) - set(self._token_to_idx))
        if unknown:
            raise BadInputError(f'token_to_idx names tokens not in the vocabulary: {unknown[:3]}')
        if len(set(token_to_idx.values())) != len(token_to_idx):
            raise BadInputError('token_to_idx gives two tokens the same index')
        bad = [i for i in token_to_idx.values() if not 0 <= i < len(self)]
        if bad:
            raise BadInputError(f'token_to_idx index {bad[0]} is outside 0..{len(self) - 1}')
        for tok, new in token_to_idx.items():
            old = self._token_to_idx[tok]
            ousted = self._idx_to_token[new]
            self._token_to_idx[tok], self._token_to_idx[ousted] = new, old
            self._idx_to_token[old], self._idx_to_token[new] = ousted, tok

    def __getattr__(self, name):
        identifiers = self.__dict__.get('_identifiers_to_tokens', {})
        if name in identifiers:
            return identifiers[name]
        raise AttributeError(f'{type(self).__name__} has no attribute {name!r}')

    @property
    def idx_to_token(self):
        return self._idx_to_token

    @property
    def token_to_idx(self):
        return self._token_to_idx

    @property
    def reserved_tokens(self):
        return self._reserved_tokens

    @property
    def unknown_token(self):
        return self._unknown_token

    def __len__(self):
        return len(self._idx_to_token)

    def __contains__(self, token):
        return token in self._token_to_idx

    def _lookup(self, token):
        idx = self._token_to_idx.get(token)
        if idx is None:
            if self._unknown_token is None:
                raise KeyError(f'{token!r} is not in the vocabulary and it has no unknown_token')
            return self._token_to_idx[self._unknown_token]
        return idx

    def __getitem__(self, tokens):
        if isinstance(tokens, (list, tuple)):
            return [self._lookup(t) for t in tokens]
        return self._lookup(tokens)

    __call__ = to_indices = __getitem__

    def to_tokens(self, indices):
        single = not isinstance(indices, (list, tuple))
        out = []
        for idx in [indices] if single else indices:
            if not isinstance(idx, int) or not 0 <= idx < len(self):
                raise BadInputError(f'token index {idx!r} is not an int in 0..{len(self) - 1}')
            out.append(self._idx_to_token[idx])
        return out[0] if single else out

    def __repr__(self):
        return f'{type(self).__name__}(size={len(self)}, unk={self._unknown_token!r}, ' \
               f'reserved={self._reserved_tokens!r})'

    def to_json(self):
        """GluonNLP 0.10's JSON form; gluonnlp.Vocab.from_json reads it."""
        return json.dumps({'idx_to_token': self._idx_to_token, 'token_to_idx': dict(self._token_to_idx),
                           'reserved_tokens': self._reserved_tokens, 'unknown_token': self._unknown_token,
                           'identifiers_to_tokens': self._identifiers_to_tokens})

    @classmethod
    def from_json(cls, json_str):
        """Read the JSON that to_json or gluonnlp.Vocab.to_json wrote."""
        try:
            d = json.loads(json_str)
            idx_to_token, unknown = d['idx_to_token'], d.get('unknown_token')
        except (ValueError, KeyError, TypeError) as e:
            raise BadInputError(f'not a vocabulary JSON string ({type(e).__name__}: {e})') from None
        identifiers = dict(d.get('identifiers_to_tokens') or {})
        for key in ('padding_token', 'bos_token', 'eos_token', 'mask_token', 'sep_token', 'cls_token'):
            if key in d:  # files from older GluonNLP versions store these at the top level
                identifiers[key] = d[key]
        return cls._from_index(idx_to_token, unknown, identifiers, d.get('reserved_tokens'))

    @classmethod
    def _from_index(cls, idx_to_token, unknown, identifiers, reserved):
        if len(set(idx_to_token)) != len(idx_to_token):
            raise BadInputError('the vocabulary lists a token twice')
        vocab = Vocab.__new__(cls)
        vocab._unknown_token = unknown
        vocab._identifiers_to_tokens = dict(identifiers)
        vocab._reserved_tokens = list(reserved) if reserved else None
        vocab._idx_to_token = list(idx_to_token)
        vocab._token_to_idx = {t: i for i, t in enumerate(idx_to_token)}
        missing = [t for t in [unknown, *identifiers.values()] if t is not None and t not in vocab._token_to_idx]
        if missing:
            raise BadInputError(f'special token {missing[0]!r} is not in the vocabulary')
        return vocab


class BERTVocab(Vocab):
    """GluonNLP's BERTVocab: [UNK], then [CLS], [SEP], [MASK], [PAD] (no bos/eos by default)."""

    def __init__(self, counter=None, max_size=None, min_freq=1, unknown_token='[UNK]', padding_token='[PAD]',
                 bos_token=None, eos_token=None, mask_token='[MASK]', sep_token='[SEP]', cls_token='[CLS]',
                 reserved_tokens=None, token_to_idx=None):
        super().__init__(counter, max_size, min_freq, unknown_token, reserved_tokens, token_to_idx,
                         padding_token=padding_token, bos_token=bos_token, eos_token=eos_token,
                         cls_token=cls_token, sep_token=sep_token, mask_token=mask_token)

    @classmethod
    def from_vocab_file(cls, path, unknown_token='[UNK]', padding_token='[PAD]', mask_token='[MASK]',
                        sep_token='[SEP]', cls_token='[CLS]'):
        """A WordPiece vocab.txt (one token a line, the line number is the index), e.g. HF BERT's."""
        try:
            with open(path, encoding='utf-8') as f:
                tokens = [line.rstrip('\n') for line in f]
        except FileNotFoundError:
            raise BadInputError(f'vocab file {path} does not exist') from None
        while tokens and tokens[-1] == '':
            tokens.pop()
        identifiers = dict(cls_token=cls_token, sep_token=sep_token, mask_token=mask_token,
                           padding_token=padding_token, bos_token=None, eos_token=None)
        try:
            return cls._from_index(tokens, unknown_token, identifiers, [cls_token, sep_token, mask_token,
                                                                        padding_token])
        except BadInputError as e:
            raise BadInputError(f'{path}: {e}; pass the special tokens this vocab uses') from None
