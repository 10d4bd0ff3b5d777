"""Word (token) embeddings in GluonNLP 0.10's API: TokenEmbedding, GloVe, FastText, Word2Vec, their pretrained
source records (text/assets/word_embedding_sources.json: GluonNLP 0.10's 499 sources, file name and sha1), and
the similarity / analogy evaluation blocks (`evaluation`).

    >>> emb = TokenEmbedding.from_file('vectors.txt')          # doctest: +SKIP
    >>> emb['hello'].shape                                      # doctest: +SKIP
    (5,)

Pretrained files are fetched with gluonzoo's downloader (zoo.filesystem.download: temp file, sha1 check, rename)
from $GLUONZOO_EMBEDDING_REPO (default: the Apache MXNet S3 bucket GluonNLP uses) into
`embedding_root/<class name>/<file>`; GLUONZOO_OFFLINE=1 refuses to download.
"""
import functools
import io
import json
import os
import warnings

import numpy as np

from ..errors import AssertedInputError, BadInputError
from .vocab import UNK_TOKEN

ENCODING = 'utf8'
UNK_IDX = 0
DEFAULT_REPO = 'https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/'


def _nd():
    import mxnet as mx
    return mx.nd


def _zeros(shape):
    return _nd().zeros(shape)


INIT_UNKNOWN_VEC = _zeros


def default_embedding_root():
    home = os.environ.get('MXNET_HOME') or os.path.join('~', '.mxnet')
    return os.path.join(os.path.expanduser(home), 'embedding')


@functools.lru_cache(maxsize=1)
def source_records():
    """{kind: {source: (file name, sha1)}} for kind in glove, fasttext, fasttext.bin, word2vec (GluonNLP 0.10)."""
    path = os.path.join(os.path.dirname(__file__), 'assets', 'word_embedding_sources.json')
    with open(path, encoding='utf8') as f:
        return {k: {s: tuple(v) for s, v in t.items()} for k, t in json.load(f).items()}


_REGISTRY = {}


def register(embedding_cls):
    """Register a TokenEmbedding subclass under its lower-cased class name (usable as a decorator)."""
    if not (isinstance(embedding_cls, type) and issubclass(embedding_cls, TokenEmbedding)):
        raise BadInputError(f'register takes a TokenEmbedding subclass, got {embedding_cls!r}')
    _REGISTRY[embedding_cls.__name__.lower()] = embedding_cls
    return embedding_cls


def create(embedding_name, **kwargs):
    """An instance of the registered embedding `embedding_name` (e.g. 'glove'), built with `kwargs`."""
    name = str(embedding_name).lower()
    if name not in _REGISTRY:
        raise KeyError(f'Cannot find embedding {embedding_name!r}: use one of {sorted(_REGISTRY)} '
                       '(list_sources() lists them with their sources)')
    return _REGISTRY[name](**kwargs)


def list_sources(embedding_name=None):
    """The pretrained source names of `embedding_name`, or {name: [sources]} for every registered embedding."""
    if embedding_name is not None:
        name = str(embedding_name).lower()
        if name not in _REGISTRY:
            raise KeyError(f'Cannot find embedding {embedding_name!r}: use one of {sorted(_REGISTRY)}')
        return list(_REGISTRY[name].source_file_hash.keys())
    return {name: list(cls.source_file_hash.keys()) for name, cls in _REGISTRY.items()}


class _LookupDict(dict):
    """token -> index with a default index for unknown tokens."""

    def __init__(self, default, *args):
        super().__init__(*args)
        self._default = default

    def __missing__(self, key):
        return self._default


def _as_nd(x):
    nd = _nd()
    return x if isinstance(x, nd.NDArray) else nd.array(np.asarray(x, dtype=np.float32))


class TokenEmbedding:
    """Token embedding: a list of tokens and their vectors (GluonNLP 0.10's gluonnlp.embedding.TokenEmbedding).

    Row 0 is the unknown token's vector when `unknown_token` is set; lookups of unknown tokens get it (or
    `unknown_lookup[token]` when an unknown_lookup, e.g. a subword model, is given)."""

    source_file_hash = {}

    def __init__(self, unknown_token=UNK_TOKEN, init_unknown_vec=INIT_UNKNOWN_VEC, allow_extend=False,
                 unknown_lookup=None, idx_to_token=None, idx_to_vec=None):
        nd = _nd()
        unknown_index = None
        if idx_to_vec is not None or idx_to_token is not None:
            if idx_to_vec is None or idx_to_token is None:
                raise ValueError('Must specify either none or both of idx_to_token and idx_to_vec.')
            idx_to_token = list(idx_to_token)
            idx_to_vec = _as_nd(idx_to_vec)
            if idx_to_vec.shape[0] != len(idx_to_token):
                raise ValueError(f'idx_to_token has {len(idx_to_token)} tokens but idx_to_vec has '
                                 f'{idx_to_vec.shape[0]} rows: they must match')
            if unknown_token is not None:
                if unknown_token in idx_to_token:
                    unknown_index = idx_to_token.index(unknown_token)
                elif init_unknown_vec is not None:
                    idx_to_token.insert(0, unknown_token)
                    idx_to_vec = nd.concat(init_unknown_vec((1, idx_to_vec.shape[1])), idx_to_vec, dim=0)
                    unknown_index = 0
                else:
                    raise ValueError(f'unknown_token "{unknown_token}" is not part of idx_to_vec but '
                                     'init_unknown_vec is None. You must provide either of them.')
        else:
            if unknown_token is not None:
                unknown_index = UNK_IDX
            idx_to_token = [unknown_token] if unknown_token else []
            idx_to_vec = None
        self._unknown_token = unknown_token
        self._init_unknown_vec = init_unknown_vec
        self._allow_extend = allow_extend
        self._unknown_lookup = unknown_lookup
        self._idx_to_token = idx_to_token
        self._idx_to_vec = idx_to_vec
        self._token_to_idx = _LookupDict(unknown_index) if unknown_token else {}
        self._token_to_idx.update((t, i) for i, t in enumerate(self._idx_to_token))

    # --- loading -------------------------------------------------------------------------------------------
    @staticmethod
    def _load_embedding(pretrained_file_path, elem_delim, unknown_token, init_unknown_vec, encoding=ENCODING):
        path = os.path.expanduser(pretrained_file_path)
        if not os.path.isfile(path):
            raise ValueError(f'`pretrained_file_path` must be a valid path to the pre-trained token embedding '
                             f'file: {path} does not exist')
        if path.endswith('.npz'):
            return TokenEmbedding._load_embedding_serialized(path, unknown_token, init_unknown_vec)
        return TokenEmbedding._load_embedding_txt(path, elem_delim, unknown_token, init_unknown_vec, encoding)

    @staticmethod
    def _load_embedding_txt(path, elem_delim, unknown_token, init_unknown_vec, encoding=ENCODING):
        """Tokens and vectors of a text file 'token v1 v2 ...' per line; the first vector of a repeated token
        wins; a first line of one number (a word2vec/fastText header 'count dim') is skipped."""
        tokens, rows, seen = [], [], set()
        unk_vec, dim = None, None
        with open(path, 'rb') as f:
            for line_num, raw in enumerate(f):
                try:
                    line = raw.decode(encoding)
                except ValueError:
                    warnings.warn(f'line {line_num} in {path}: failed to decode. Skipping.')
                    continue
                elems = line.rstrip().split(elem_delim)
                if len(elems) <= 1:
                    raise AssertedInputError(f'line {line_num} in {path}: expected a token and its vector '
                                             f'separated by {elem_delim!r}, got {line.strip()[:60]!r}')
                token = elems[0]
                try:
                    vec = [float(v) for v in elems[1:]]
                except ValueError:
                    raise BadInputError(f'line {line_num} in {path}: the vector of "{token}" has a value that '
                                        'is not a number (is elem_delim right?)') from None
                if unk_vec is None and token == unknown_token:
                    unk_vec = vec
                    seen.add(token)
                elif token in seen:
                    warnings.warn(f'line {line_num} in {path}: duplicate embedding found for token "{token}". '
                                  'Skipped.')
                elif len(vec) == 1 and line_num == 0:
                    warnings.warn(f'line {line_num} in {path}: skipped likely header line.')
                else:
                    if dim is None:
                        dim = len(vec)
                    elif len(vec) != dim:
                        raise AssertedInputError(f'line {line_num} in {path}: found vector of inconsistent '
                                                 f'dimension for token "{token}". expected dim: {dim}, found: '
                                                 f'{len(vec)}; fix or drop that line')
                    rows.append(vec)
                    tokens.append(token)
                    seen.add(token)
        if dim is None:
            raise BadInputError(f'{path} holds no token vectors')
        if unk_vec is not None and len(unk_vec) != dim:
            raise BadInputError(f'{path}: the vector of "{unknown_token}" has {len(unk_vec)} values, the others '
                                f'{dim}')
        nd = _nd()
        mat = np.asarray(rows, dtype=np.float32).reshape(-1, dim)
        if unknown_token:
            tokens = [unknown_token] + tokens
            mat = np.concatenate([np.zeros((1, dim), np.float32), mat])
        idx_to_vec = nd.array(mat)
        if unknown_token:
            idx_to_vec[UNK_IDX] = nd.array(unk_vec) if unk_vec is not None else init_unknown_vec(shape=dim)
        return tokens, idx_to_vec, unknown_token

    @staticmethod
    def _load_embedding_serialized(path, unknown_token, init_unknown_vec):
        nd = _nd()
        emb = TokenEmbedding.deserialize(path)
        idx_to_token = list(emb.idx_to_token)
        if len(set(idx_to_token)) != len(idx_to_token):
            raise ValueError('Serialized embedding contains duplicate tokens.')
        vecs = emb.idx_to_vec.asnumpy()
        loaded_unk = False
        if emb.unknown_token:
            unk_idx = idx_to_token.index(emb.unknown_token)
            if not unknown_token:
                del idx_to_token[unk_idx]
                vecs = np.delete(vecs, unk_idx, axis=0)
            else:
                idx_to_token[unk_idx] = unknown_token
                loaded_unk = True
        elif unknown_token and unknown_token not in idx_to_token:
            idx_to_token = [unknown_token] + idx_to_token
            vecs = np.concatenate([np.zeros((1, vecs.shape[1]), vecs.dtype), vecs])
        elif unknown_token:
            loaded_unk = True
            unk_idx = idx_to_token.index(unknown_token)
            if unk_idx > 0:
                idx_to_token[0], idx_to_token[unk_idx] = idx_to_token[unk_idx], idx_to_token[0]
                vecs[[0, unk_idx]] = vecs[[unk_idx, 0]]
        idx_to_vec = nd.array(vecs)
        if unknown_token and init_unknown_vec and not loaded_unk:
            idx_to_vec[idx_to_token.index(unknown_token)] = init_unknown_vec(shape=vecs.shape[1])
        return idx_to_token, idx_to_vec, unknown_token

    @staticmethod
    def from_file(file_path, elem_delim=' ', encoding=ENCODING, **kwargs):
        """A TokenEmbedding from a text file ('token v1 v2 ...' lines) or a serialized .npz."""
        unknown_token = kwargs.pop('unknown_token', UNK_TOKEN)
        init_unknown_vec = kwargs.pop('init_unknown_vec', INIT_UNKNOWN_VEC)
        idx_to_token, idx_to_vec, unknown_token = TokenEmbedding._load_embedding(
            file_path, elem_delim=elem_delim, unknown_token=unknown_token, init_unknown_vec=init_unknown_vec,
            encoding=encoding)
        return TokenEmbedding(unknown_token=unknown_token, init_unknown_vec=None, idx_to_token=idx_to_token,
                              idx_to_vec=idx_to_vec, **kwargs)

    def serialize(self, file_path, compress=True):
        """Write unknown_token, idx_to_token and idx_to_vec to an .npz file (GluonNLP's layout)."""
        if self.unknown_lookup is not None:
            warnings.warn('Serialization of `unknown_lookup` is not supported. Save it manually and pass the '
                          'loaded lookup object during deserialization.')
        save = np.savez_compressed if compress else np.savez
        save(file=file_path, unknown_token=np.array(self.unknown_token or ''),
             idx_to_token=np.array(self.idx_to_token, dtype='O'), idx_to_vec=self.idx_to_vec.asnumpy())

    @staticmethod
    def deserialize(file_path, **kwargs):
        """A TokenEmbedding from a file written by serialize (ours or GluonNLP's)."""
        nd = _nd()
        npz = np.load(file_path, allow_pickle=True)
        unknown_token = npz['unknown_token']
        if unknown_token.dtype.kind == 'S':
            unknown_token = unknown_token.tobytes().decode()
        else:
            unknown_token = str(unknown_token)
        return TokenEmbedding(unknown_token=unknown_token or None, init_unknown_vec=None,
                              idx_to_token=npz['idx_to_token'].tolist(), idx_to_vec=nd.array(npz['idx_to_vec']),
                              **kwargs)

    # --- pretrained sources --------------------------------------------------------------------------------
    @classmethod
    def _check_source(cls, source_file_hash, source):
        if source not in source_file_hash:
            name = cls.__name__.lower()
            raise KeyError(f'Cannot find pre-trained source {source} for token embedding {name}. Valid '
                           f'pre-trained file names for embedding {name}: {", ".join(source_file_hash)}')

    @classmethod
    def _get_file_path(cls, source_file_hash, embedding_root, source):
        from ..filesystem import check_sha1, download
        name = cls.__name__.lower()
        fname, sha1 = source_file_hash[source]
        path = os.path.join(os.path.expanduser(embedding_root), name, fname)
        if os.path.isfile(path) and check_sha1(path, sha1):
            return path
        repo = os.environ.get('GLUONZOO_EMBEDDING_REPO') or DEFAULT_REPO
        url = f'{repo.rstrip("/")}/gluon/embeddings/{name}/{fname}'
        try:
            return download(url, path, sha1_hash=sha1)
        except (BadInputError, RuntimeError) as e:
            raise BadInputError(f'{e} (embedding {name} source {source}: put {fname} at {path})') from None

    # --- properties ----------------------------------------------------------------------------------------
    @property
    def idx_to_token(self):
        return self._idx_to_token

    @property
    def token_to_idx(self):
        return self._token_to_idx

    @property
    def idx_to_vec(self):
        return self._idx_to_vec

    @property
    def unknown_token(self):
        return self._unknown_token

    @property
    def allow_extend(self):
        return self._allow_extend

    @property
    def unknown_lookup(self):
        return self._unknown_lookup

    @unknown_lookup.setter
    def unknown_lookup(self, unknown_lookup):
        self._unknown_lookup = unknown_lookup

    def __len__(self):
        return len(self._idx_to_token)

    def __contains__(self, token):
        return token in self._token_to_idx

    def __eq__(self, other):
        if not isinstance(other, TokenEmbedding):
            return NotImplemented
        same_vec = (self.idx_to_vec is None and other.idx_to_vec is None) or (
            self.idx_to_vec is not None and other.idx_to_vec is not None
            and self.idx_to_vec.shape == other.idx_to_vec.shape
            and bool((self.idx_to_vec.asnumpy() == other.idx_to_vec.asnumpy()).all()))
        return (self.unknown_token == other.unknown_token and self.idx_to_token == other.idx_to_token
                and same_vec and dict(self._token_to_idx) == dict(other._token_to_idx))

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def __getitem__(self, tokens):
        """The vector of a token (1-D NDArray) or of a list of tokens (2-D, (len(tokens), dim))."""
        nd = _nd()
        single = not isinstance(tokens, (list, tuple))
        if single:
            tokens = [tokens]
        if self.unknown_lookup is not None:
            if self.idx_to_vec is None:
                vecs = self.unknown_lookup[tokens]
            else:
                vecs = nd.stack(*[self.idx_to_vec[self.token_to_idx[t]]
                                  if (t in self.token_to_idx or t not in self.unknown_lookup)
                                  else self.unknown_lookup[t] for t in tokens], axis=0)
        else:
            if self.idx_to_vec is None:
                raise BadInputError('this TokenEmbedding has no vectors yet: assign some with emb[tokens] = '
                                    'vectors (allow_extend=True) or load a file with TokenEmbedding.from_file')
            idx = []
            for t in tokens:
                i = self._token_to_idx.get(t, None) if not self.unknown_token else self._token_to_idx[t]
                if i is None:
                    raise KeyError(f'Token "{t}" is unknown and this embedding has no unknown_token')
                idx.append(i)
            vecs = nd.take(self.idx_to_vec, nd.array(idx, dtype='int64'), axis=0)
        return vecs[0] if single else vecs

    def __setitem__(self, tokens, new_embedding):
        """Update the vectors of `tokens`; with allow_extend, new tokens are appended."""
        nd = _nd()
        if not isinstance(tokens, (list, tuple)):
            tokens = [tokens]
        new_embedding = _as_nd(new_embedding)
        if self._idx_to_vec is None and (self.allow_extend or all(t in self.token_to_idx for t in tokens)):
            self._idx_to_vec = self._init_unknown_vec(shape=(1, new_embedding.shape[-1]))
        if self._idx_to_vec is None:
            raise AssertedInputError('`idx_to_vec` has not been initialized: create the embedding with '
                                     'allow_extend=True to add tokens')
        if new_embedding.ndim == 1 and len(tokens) == 1:
            new_embedding = new_embedding.expand_dims(0)
        if new_embedding.ndim != 2 or new_embedding.shape != (len(tokens), self._idx_to_vec.shape[1]):
            raise AssertedInputError(f'new_embedding has shape {new_embedding.shape}, expected '
                                     f'({len(tokens)}, {self._idx_to_vec.shape[1]}): one row per token, of the '
                                     'embedding\'s dimension')
        if self.allow_extend:
            before = len(self._idx_to_token)
            for t in tokens:
                if t not in self._token_to_idx:
                    self._token_to_idx[t] = len(self._idx_to_token)
                    self._idx_to_token.append(t)
            if len(self._idx_to_token) == before + 1:
                warnings.warn('TokenEmbedding[token] = vector added one new token, which copies the whole '
                              'vector matrix: add new tokens together (emb[list_of_tokens] = vectors)')
            if len(self._idx_to_token) > before:
                grown = nd.zeros((len(self._idx_to_token), self._idx_to_vec.shape[1]))
                grown[:self._idx_to_vec.shape[0]] = self._idx_to_vec
                self._idx_to_vec = grown
        idx = []
        for t in tokens:
            if t not in self._token_to_idx:
                if self.unknown_token:
                    raise KeyError(f'Token "{t}" is unknown. To update the embedding vector for an unknown token, '
                                   f'please explicitly include "{self.unknown_token}" as the `unknown_token` in '
                                   '`tokens`. This is to avoid unintended updates.')
                raise KeyError(f'Token "{t}" is unknown. Updating the embedding vector for an unknown token is '
                               'not allowed because `unknown_token` is not specified.')
            idx.append(self._token_to_idx[t])
        self._idx_to_vec[nd.array(idx)] = new_embedding


def _pretrained(cls, self, source, embedding_root, kwargs, unknown_lookup=None, table=None):
    table = cls.source_file_hash if table is None else table
    cls._check_source(table, source)
    path = cls._get_file_path(table, embedding_root, source)
    unknown_token = kwargs.pop('unknown_token', UNK_TOKEN)
    init_unknown_vec = kwargs.pop('init_unknown_vec', INIT_UNKNOWN_VEC)
    encoding = kwargs.pop('encoding', ENCODING)
    idx_to_token, idx_to_vec, unknown_token = cls._load_embedding(path, ' ', unknown_token, init_unknown_vec,
                                                                  encoding)
    TokenEmbedding.__init__(self, unknown_token=unknown_token, init_unknown_vec=None, idx_to_token=idx_to_token,
                            idx_to_vec=idx_to_vec, unknown_lookup=unknown_lookup, **kwargs)


class _Sources:
    """A class attribute read from the source records on first use."""

    def __init__(self, kind):
        self.kind = kind

    def __get__(self, obj, owner):
        return source_records()[self.kind]


@register
class GloVe(TokenEmbedding):
    """GloVe vectors (GluonNLP 0.10's sources, e.g. 'glove.6B.50d', 'glove.840B.300d')."""
    source_file_hash = _Sources('glove')

    def __init__(self, source='glove.6B.50d', embedding_root=None, **kwargs):
        _pretrained(GloVe, self, source, embedding_root or default_embedding_root(), kwargs)


@register
class FastText(TokenEmbedding):
    """fastText vectors (GluonNLP 0.10's sources, e.g. 'wiki.simple', 'crawl-300d-2M').

    load_ngrams=True (the .bin subword model) is not provided: pass a subword lookup as unknown_lookup."""
    source_file_hash = _Sources('fasttext')
    source_bin_file_hash = _Sources('fasttext.bin')

    def __init__(self, source='wiki.simple', embedding_root=None, load_ngrams=False, ctx=None, **kwargs):
        if load_ngrams:
            raise BadInputError('FastText(load_ngrams=True) is not provided by gluonzoo (reading fastText .bin '
                                'n-gram models); load the .vec vectors and pass unknown_lookup= instead')
        _pretrained(FastText, self, source, embedding_root or default_embedding_root(), kwargs)


@register
class Word2Vec(TokenEmbedding):
    """word2vec vectors: GluonNLP 0.10's sources ('GoogleNews-vectors-negative300', ...) or a local binary
    word2vec file given as a source ending in .bin."""
    source_file_hash = _Sources('word2vec')

    def __init__(self, source='GoogleNews-vectors-negative300', embedding_root=None, encoding=ENCODING,
                 **kwargs):
        if source.endswith('.bin'):
            unknown_token = kwargs.pop('unknown_token', UNK_TOKEN)
            init_unknown_vec = kwargs.pop('init_unknown_vec', INIT_UNKNOWN_VEC)
            idx_to_token, idx_to_vec, unknown_token = self._load_w2v_binary(
                os.path.expanduser(source), unknown_token, init_unknown_vec, encoding)
            TokenEmbedding.__init__(self, unknown_token=unknown_token, init_unknown_vec=None,
                                    idx_to_token=idx_to_token, idx_to_vec=idx_to_vec, **kwargs)
        else:
            kwargs['encoding'] = encoding
            _pretrained(Word2Vec, self, source, embedding_root or default_embedding_root(), kwargs)

    @classmethod
    def _load_w2v_binary(cls, path, unknown_token, init_unknown_vec=INIT_UNKNOWN_VEC, encoding=ENCODING):
        """word2vec's binary format: a header line 'count dim', then per word its bytes, a space and dim
        little-endian float32 values (newlines before a word are ignored)."""
        if not os.path.isfile(path):
            raise BadInputError(f'{path} does not exist: give the path of a word2vec .bin file')
        tokens, rows, seen, unk_vec = [], [], set(), None
        with open(path, 'rb') as f:
            header = f.readline().decode(encoding).split()
            try:
                count, dim = (int(x) for x in header)
            except ValueError:
                raise BadInputError(f'{path}: the first line should be "<word count> <dimension>", got '
                                    f'{" ".join(header)[:60]!r}: not a word2vec binary file') from None
            nbytes = 4 * dim
            for line_num in range(count):
                word = bytearray()
                while True:
                    ch = f.read(1)
                    if ch == b' ':
                        break
                    if ch == b'':
                        raise BadInputError(f'{path}: ended after {line_num} of {count} words: the file is cut '
                                            'short or its header count is wrong')
                    if ch != b'\n':
                        word += ch
                buf = f.read(nbytes)
                if len(buf) != nbytes:
                    raise BadInputError(f'{path}: ended inside the vector of word {line_num}: the file is cut '
                                        'short or its header dimension is wrong')
                try:
                    token = word.decode(encoding)
                except ValueError:
                    warnings.warn(f'line {line_num} in {path}: failed to decode. Skipping.')
                    continue
                vec = np.frombuffer(buf, dtype='<f4')
                if token == unknown_token and unk_vec is None:
                    unk_vec = vec
                    seen.add(token)
                elif token in seen:
                    warnings.warn(f'line {line_num} in {path}: duplicate embedding found for token "{token}". '
                                  'Skipped.')
                else:
                    rows.append(vec)
                    tokens.append(token)
                    seen.add(token)
        nd = _nd()
        mat = np.asarray(rows, dtype=np.float32).reshape(-1, dim)
        if unknown_token:
            tokens = [unknown_token] + tokens
            mat = np.concatenate([np.zeros((1, dim), np.float32), mat])
        idx_to_vec = nd.array(mat)
        if unknown_token:
            idx_to_vec[UNK_IDX] = nd.array(unk_vec) if unk_vec is not None else init_unknown_vec(shape=dim)
        return tokens, idx_to_vec, unknown_token

    @classmethod
    def from_w2v_binary(cls, pretrained_file_path, encoding=ENCODING):
        """A TokenEmbedding from a binary word2vec file."""
        idx_to_token, idx_to_vec, unknown_token = cls._load_w2v_binary(
            os.path.expanduser(pretrained_file_path), UNK_TOKEN, encoding=encoding)
        return TokenEmbedding(unknown_token=unknown_token, init_unknown_vec=None, idx_to_token=idx_to_token,
                              idx_to_vec=idx_to_vec)
