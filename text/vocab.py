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
import warnings

from ..errors import AssertedInputError, BadInputError

# GluonNLP's special tokens, the defaults everywhere a vocabulary, corpus or embedding names one
UNK_TOKEN, PAD_TOKEN, BOS_TOKEN, EOS_TOKEN = '<unk>', '<pad>', '<bos>', '<eos>'


class Counter(collections.Counter):
    """A collections.Counter with GluonNLP's `discard(min_freq, unknown_token)`."""

    def discard(self, min_freq, unknown_token):
        """A new Counter without the tokens counted fewer than `min_freq` times; their counts go to
        `unknown_token`."""
        kept = Counter({t: c for t, c in self.items() if c >= min_freq})
        kept[unknown_token] = kept.get(unknown_token, 0) + sum(c for c in self.values() if c < min_freq)
        return kept


def count_tokens(tokens, to_lower=False, counter=None):
    """Count tokens into a Counter (added to `counter` when given), as gluonnlp.data.count_tokens."""
    counter = Counter() if counter is None else counter
    counter.update(t.lower() if to_lower else t for t in tokens)
    return counter


class Vocab:
    """An indexed vocabulary; `vocab[token]`, `vocab[list]`, `vocab.to_tokens(ids)`, `len(vocab)`.

    Special tokens are keyword arguments ending in `_token` and become attributes (`vocab.padding_token`).
    `token_to_idx` moves the given tokens to the given indices (swapping with what was there), as GluonNLP does.
    """

    def __init__(self, counter=None, max_size=None, min_freq=1, unknown_token=UNK_TOKEN, padding_token=PAD_TOKEN,
                 bos_token=BOS_TOKEN, eos_token=EOS_TOKEN, reserved_tokens=None, token_to_idx=None, **named):
        if min_freq < 1:
            raise AssertedInputError(f'min_freq={min_freq} must be >= 1')
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
                raise AssertedInputError(f'reserved token {tok!r} repeats the unknown token or another special token')
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
        self._embedding = None
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
    def embedding(self):
        """The vectors attached by set_embedding (rows in this vocabulary's index order), or None."""
        return self.__dict__.get('_embedding')

    def set_embedding(self, *embeddings):
        """Attach token embeddings (GluonNLP's TokenEmbedding or anything with `idx_to_vec`, `unknown_token` and
        `emb[list of tokens]` -> vectors): row i of `vocab.embedding.idx_to_vec` is the concatenation of every
        embedding's vector of token i; row 0 takes each embedding's own unknown vector. `set_embedding(None)`
        detaches."""
        import mxnet as mx
        if len(embeddings) == 1 and embeddings[0] is None:
            self._embedding = None
            return
        for e in embeddings:
            if getattr(e, 'idx_to_vec', None) is None or not callable(getattr(e, '__getitem__', None)):
                raise AssertedInputError(f'set_embedding takes token embeddings with idx_to_vec set, got '
                                         f'{type(e).__name__}: load one with gluonzoo.nlp.embedding.create(...), '
                                         'or give an empty one its first vector (emb[emb.unknown_token] = vec)')
        if len({bool(getattr(e, 'unknown_token', None)) for e in embeddings}) > 1:
            raise AssertedInputError('set_embedding: either all or none of the embeddings must have an '
                                     'unknown_token')
        if not len(self):
            raise AssertedInputError('set_embedding: the vocabulary is empty')
        parts = []
        for e in embeddings:
            vecs = e[self._idx_to_token[1:]] if len(self) > 1 else None
            first = e.idx_to_vec[0:1]
            parts.append(first if vecs is None else mx.nd.concat(first, vecs.reshape(len(self) - 1, -1), dim=0))
        idx_to_vec = mx.nd.concat(*parts, dim=1) if len(parts) > 1 else parts[0].copy()
        self._embedding = _attached_embedding(self, idx_to_vec)

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
        unk = f'"{self._unknown_token}"' if self._unknown_token else 'None'
        reserved = f'"{self._reserved_tokens}"' if self._reserved_tokens else 'None'
        return f'Vocab(size={len(self)}, unk={unk}, reserved={reserved})'  # GluonNLP's, for every subclass

    def to_json(self):
        """GluonNLP 0.10's JSON form; gluonnlp.Vocab.from_json reads it. An attached embedding is not stored."""
        if self.embedding is not None:
            warnings.warn('Vocab.to_json does not store the attached embedding: save vocab.embedding separately')
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
        return cls._from_index(idx_to_token, unknown, identifiers, d.get('reserved_tokens'), d.get('token_to_idx'))

    @classmethod
    def _from_index(cls, idx_to_token, unknown, identifiers, reserved, token_to_idx=None):
        if len(set(idx_to_token)) == len(idx_to_token):
            token_to_idx = {t: i for i, t in enumerate(idx_to_token)}
        else:
            # GluonNLP before 0.7 wrote a token twice when two special tokens were the same (eos == padding);
            # its token_to_idx says which index counts, and GluonNLP still reads such files, so we do too
            token_to_idx = dict(token_to_idx or {})
            valid = (set(token_to_idx) == set(idx_to_token)
                     and all(0 <= i < len(idx_to_token) and idx_to_token[i] == t for t, i in token_to_idx.items()))
            if not valid:
                raise BadInputError('the vocabulary lists a token twice: each token needs one index')
            warnings.warn('this vocabulary, written by GluonNLP before 0.7, lists a special token twice (one token '
                          'for two special purposes); it is read with token_to_idx\'s index for each token')
            reserved = [t for t in dict.fromkeys(reserved or ()) if t != unknown and t not in identifiers.values()]
        vocab = Vocab.__new__(cls)
        vocab._unknown_token = unknown
        vocab._identifiers_to_tokens = dict(identifiers)
        vocab._reserved_tokens = list(reserved) if reserved else None
        vocab._idx_to_token = list(idx_to_token)
        vocab._token_to_idx = token_to_idx
        vocab._embedding = None
        missing = [t for t in [unknown, *identifiers.values()] if t is not None and t not in vocab._token_to_idx]
        if missing:
            raise BadInputError(f'special token {missing[0]!r} is not in the vocabulary')
        return vocab


class BERTVocab(Vocab):
    """GluonNLP's BERTVocab: [UNK], then [CLS], [SEP], [MASK], [PAD] (no bos/eos by default)."""

    def __init__(self, counter=None, max_size=None, min_freq=1, unknown_token='[UNK]', padding_token='[PAD]',
                 bos_token=None, eos_token=None, mask_token='[MASK]', sep_token='[SEP]', cls_token='[CLS]',
                 reserved_tokens=None, token_to_idx=None):
        super().__init__(counter, max_size, min_freq, unknown_token, padding_token=padding_token,
                         bos_token=bos_token, eos_token=eos_token, reserved_tokens=reserved_tokens,
                         token_to_idx=token_to_idx, cls_token=cls_token, sep_token=sep_token, mask_token=mask_token)

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


class _Vectors:
    """The embedding set_embedding attaches when no TokenEmbedding class is at hand: idx_to_token, token_to_idx,
    idx_to_vec and `emb[tokens]` lookups (unknown tokens get row 0 when the vocabulary has an unknown token)."""

    def __init__(self, vocab, idx_to_vec):
        self.idx_to_token, self.token_to_idx = list(vocab.idx_to_token), dict(vocab.token_to_idx)
        self.unknown_token, self.idx_to_vec = vocab.unknown_token, idx_to_vec

    def __len__(self):
        return len(self.idx_to_token)

    def __contains__(self, token):
        return token in self.token_to_idx

    def __getitem__(self, tokens):
        import mxnet as mx
        single = not isinstance(tokens, (list, tuple))
        ids = []
        for t in [tokens] if single else tokens:
            if t not in self.token_to_idx and self.unknown_token is None:
                raise KeyError(f'{t!r} has no vector and the embedding has no unknown_token')
            ids.append(self.token_to_idx.get(t, 0))
        vecs = self.idx_to_vec[mx.nd.array(ids, dtype='int64')] if ids else self.idx_to_vec[0:0]
        return vecs[0] if single else vecs


def _attached_embedding(vocab, idx_to_vec):
    try:  # GluonNLP attaches a TokenEmbedding; ours when the embedding module provides one
        from .word_embeddings import TokenEmbedding
        return TokenEmbedding(vocab.unknown_token, init_unknown_vec=None, allow_extend=False,
                              idx_to_token=list(vocab.idx_to_token), idx_to_vec=idx_to_vec)
    except (ImportError, TypeError):
        return _Vectors(vocab, idx_to_vec)


class ELMoCharVocab:
    """GluonNLP's ELMoCharVocab: each token -> 50 character ids (its UTF-8 bytes, at most 48, between
    begin-of-word 258 and end-of-word 259, padded with 260); the bos/eos tokens are the single ids 256/257."""
    max_word_length, max_word_chars = 50, 48
    bos_id, eos_id, bow_id, eow_id, pad_id = 256, 257, 258, 259, 260

    def __init__(self, bos_token='<bos>', eos_token='<eos>'):
        self._bos_token, self._eos_token = bos_token, eos_token
        self._special = {bos_token: [self.bos_id], eos_token: [self.eos_id]}

    def _chars(self, token):
        if not isinstance(token, str):
            raise BadInputError(f'ELMoCharVocab looks up str tokens, got {type(token).__name__}')
        body = self._special.get(token) or list(token.encode('utf-8', 'ignore')[:self.max_word_chars])
        ids = [self.bow_id] + body + [self.eow_id]
        return ids + [self.pad_id] * (self.max_word_length - len(ids))

    def __getitem__(self, tokens):
        if isinstance(tokens, (list, tuple)):
            return [self._chars(t) for t in tokens]
        return self._chars(tokens)

    __call__ = __getitem__

    def __len__(self):
        return 262


# -- subword functions (GluonNLP's gluonnlp.vocab.subwords) -------------------------------------------------------
_SUBWORD_FUNCTIONS = {}


def register_subword_function(subword_cls):
    """Register a SubwordFunction subclass under its lower-cased class name (a class decorator)."""
    if not (isinstance(subword_cls, type) and issubclass(subword_cls, SubwordFunction)):
        raise BadInputError(f'register_subword_function takes a SubwordFunction subclass, got {subword_cls!r}')
    _SUBWORD_FUNCTIONS[subword_cls.__name__.lower()] = subword_cls
    return subword_cls


def create_subword_function(subword_function_name, **kwargs):
    """An instance of the registered subword function named `subword_function_name` (any case)."""
    cls = _SUBWORD_FUNCTIONS.get(str(subword_function_name).lower())
    if cls is None:
        raise BadInputError(f'no subword function named {subword_function_name!r}; valid names: '
                            f'{", ".join(list_subword_functions())}')
    return cls(**kwargs)


def list_subword_functions():
    """The registered subword function names."""
    return list(_SUBWORD_FUNCTIONS)


class SubwordFunction:
    """Maps words to lists of subword indices: `f(words)` -> one list per word; `len(f)` subwords."""

    def __call__(self, words):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def indices_to_subwords(self, subwordindices):
        raise NotImplementedError

    def subwords_to_indices(self, subwords):
        raise NotImplementedError


@register_subword_function
class ByteSubwords(SubwordFunction):
    """A word's subwords are its bytes in `encoding` (256 subwords)."""

    def __init__(self, encoding='utf-8'):
        self.encoding = encoding

    def __call__(self, words):
        return [list(w.encode(self.encoding)) for w in words]

    def __len__(self):
        return 256

    def __repr__(self):
        return f'ByteSubwords(encoding={self.encoding})'

    def indices_to_subwords(self, subwordindices):
        return subwordindices

    def subwords_to_indices(self, subwords):
        return subwords


def _fnv1a_signed_bytes(data):
    """fastText's hash: 32-bit FNV-1a over the bytes read as signed chars (so bytes >= 128 sign-extend)."""
    h = 2166136261
    for b in data:
        h = (h ^ ((b - 256 if b >= 128 else b) & 0xFFFFFFFF)) * 16777619 & 0xFFFFFFFF
    return h


@register_subword_function
class NGramHashes(SubwordFunction):
    """fastText's character n-gram hashes of `<word>` (n in `ngrams`, counted in UTF-8 characters) modulo
    `num_subwords`; words in `special_tokens` have none."""

    def __init__(self, num_subwords, ngrams=(3, 4, 5, 6), special_tokens=None):
        if isinstance(special_tokens, str):
            raise BadInputError('special_tokens is a set of words, not one str')
        self.num_subwords, self.ngrams = num_subwords, ngrams
        self.special_tokens = set() if special_tokens is None else special_tokens

    @staticmethod
    def fasttext_hash_asbytes(ngram, encoding='utf-8'):
        return _fnv1a_signed_bytes(ngram.encode(encoding))

    def _word_to_hashes(self, word):
        if word in self.special_tokens:
            return []
        chars = [c.encode('utf-8') for c in '<' + word + '>']
        wanted, longest, out = set(self.ngrams), max(self.ngrams), []
        for i in range(len(chars)):
            for n in range(1, min(longest, len(chars) - i) + 1):
                if n in wanted and not (n == 1 and i == 0):  # GluonNLP keeps the 1-gram '>'
                    out.append(_fnv1a_signed_bytes(b''.join(chars[i:i + n])) % self.num_subwords)
        return out

    def __call__(self, words):
        return [self._word_to_hashes(w) for w in words]

    def __len__(self):
        return self.num_subwords

    def __repr__(self):
        return f'NGramHashes(num_subwords={self.num_subwords}, ngrams={self.ngrams})'

    def indices_to_subwords(self, subwordindices):
        raise RuntimeError('ngram hash function is not invertible.')

    def subwords_to_indices(self, subwords):
        return [self.fasttext_hash_asbytes(s) % self.num_subwords for s in subwords]
