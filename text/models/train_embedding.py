"""GluonNLP 0.10's trainable word embedding models (`gluonnlp.model.train.embedding`): `EmbeddingModel`, the
interface (`token in model`, `model[token or tokens]`), `CSREmbeddingModel`, one vector per word, and
`FasttextEmbeddingModel`, a word's vector the mean of its word vector and its subword (character n-gram hash)
vectors, which also reads fastText's binary `.bin` models.

Both take a sparse CSR matrix of shape (batch, rows of `weight`) and return its product with the weight matrix,
so a batch row is any weighted sum of words and subwords; the parameter is `weight`, (words [+ subwords], dim).

>>> import mxnet as mx
>>> model = CSREmbeddingModel({'a': 0, 'b': 1}, 3)
>>> model.initialize()
>>> model['a'].shape, model[['a', 'b']].shape, 'c' in model
((3,), (2, 3), False)
"""
import logging
import struct
import warnings

import numpy as np
from mxnet import cpu, nd
from mxnet.gluon import Block, HybridBlock

from ...errors import BadInputError

__all__ = ['EmbeddingModel', 'CSREmbeddingModel', 'FasttextEmbeddingModel']


class EmbeddingModel(Block):
    """The interface of the trainable embedding models: `token in model` (can a vector be computed) and
    `model[token]` (a 1-D vector) / `model[list of tokens]` (one row per token)."""

    def __contains__(self, token):
        raise NotImplementedError

    def __getitem__(self, tokens):
        raise NotImplementedError


def _as_list(tokens):
    """(tokens as a list, whether one str was given)."""
    if isinstance(tokens, str):
        return [tokens], True
    if not isinstance(tokens, (list, tuple)) or not all(isinstance(t, str) for t in tokens):
        raise BadInputError(f'embedding lookup takes a str or a list of str, got {tokens!r:.80}')
    return list(tokens), False


class _CSRModel(EmbeddingModel, HybridBlock):
    """`weight` (rows, output_dim) and the sparse product forward shared by both models."""

    def _weight(self, rows, output_dim, weight_initializer, sparse_grad, dtype):
        self.weight = self.params.get('weight', shape=(rows, output_dim), init=weight_initializer, dtype=dtype,
                                      allow_deferred_init=True,
                                      grad_stype='row_sparse' if sparse_grad else 'default')

    def hybrid_forward(self, F, words, weight):  # pylint: disable=arguments-differ
        """words: CSR (batch, rows of weight), the weight of each word/subword in each row -> (batch, dim)."""
        return F.sparse.dot(words, weight)

    def _lookup(self, data, row, col, n, dtype, squeeze):
        x = nd.sparse.csr_matrix((data, (row, col)), shape=(n, self.weight.shape[0]), dtype=dtype,
                                 ctx=self.weight.list_ctx()[0])
        vecs = self(x)
        return vecs[0] if squeeze else vecs


class CSREmbeddingModel(_CSRModel):
    """GluonNLP's CSREmbeddingModel: one trainable vector per token of `token_to_idx` (dict token -> row)."""

    def __init__(self, token_to_idx, output_dim, weight_initializer=None, sparse_grad=True, dtype='float32',
                 **kwargs):
        super().__init__(**kwargs)
        if not isinstance(token_to_idx, dict):
            raise BadInputError(f'token_to_idx must be a dict token -> index, got {type(token_to_idx).__name__}')
        self._token_to_idx = token_to_idx
        self._kwargs = dict(input_dim=len(token_to_idx), output_dim=output_dim, dtype=dtype, sparse_grad=sparse_grad)
        self._weight(len(token_to_idx), output_dim, weight_initializer, sparse_grad, dtype)

    def __repr__(self):
        k = self._kwargs
        return f'{type(self).__name__}({k["input_dim"]} -> {k["output_dim"]}, {k["dtype"]})'

    def __contains__(self, token):
        return token in self._token_to_idx

    def __getitem__(self, tokens):
        tokens, squeeze = _as_list(tokens)
        col = [self._token_to_idx[t] for t in tokens]  # KeyError for an unknown token, as a dict
        return self._lookup(np.ones(len(tokens)), np.arange(len(tokens)), np.array(col), len(tokens),
                            self._kwargs['dtype'], squeeze)


class FasttextEmbeddingModel(_CSRModel):
    """GluonNLP's FasttextEmbeddingModel: `weight` holds len(token_to_idx) word rows, then len(subword_function)
    subword rows; a token's vector is the mean of its word row (if it is a word) and its subword rows."""

    FASTTEXT_FILEFORMAT_MAGIC = 793712314

    def __init__(self, token_to_idx, subword_function, output_dim, weight_initializer=None, sparse_grad=True,
                 dtype='float32', **kwargs):
        super().__init__(**kwargs)
        self._token_to_idx, self._subword_function = token_to_idx, subword_function
        self._kwargs = dict(num_words=len(token_to_idx), num_subwords=len(subword_function), output_dim=output_dim,
                            dtype=dtype, sparse_grad=sparse_grad)
        self.weight_initializer, self.sparse_grad, self.dtype = weight_initializer, sparse_grad, dtype
        self._weight(len(token_to_idx) + len(subword_function), output_dim, weight_initializer, sparse_grad, dtype)

    def __repr__(self):
        k = self._kwargs
        return f'{type(self).__name__}({k["num_words"]} + {k["num_subwords"]} -> {k["output_dim"]}, {k["dtype"]})'

    def __contains__(self, token):
        return token in self._token_to_idx or bool(self._subword_function([token])[0])

    def __getitem__(self, tokens):
        tokens, squeeze = _as_list(tokens)
        offset = len(self._token_to_idx)
        data, row, col = [], [], []
        for i, (token, subwords) in enumerate(zip(tokens, self._subword_function(tokens))):
            ids = [offset + s for s in subwords]
            if token in self._token_to_idx:
                ids.insert(0, self._token_to_idx[token])
            if not ids:
                raise KeyError(token)  # neither a word nor any subword: no vector
            data += [1.0 / len(ids)] * len(ids)
            row += [i] * len(ids)
            col += ids
        return self._lookup(data, row, col, len(tokens), self.dtype, squeeze)

    # -- fastText's binary format (fastText's FastText::saveModel: args, dictionary, input matrix) ---------------
    @classmethod
    def load_fasttext_format(cls, path, ctx=cpu(), **kwargs):
        """A model with the words, n-gram buckets and input vectors of the fastText `.bin` at `path`, initialized
        on `ctx`; kwargs go to the constructor. Labels in the dictionary are skipped."""
        from ..vocab import create_subword_function
        with open(path, 'rb') as f:
            new_format, dim, bucket, minn, maxn = cls._read_model_params(f)
            idx_to_token = cls._read_vocab(f, new_format)
            dim, matrix = cls._read_vectors(f, new_format, bucket, len(idx_to_token))
        token_to_idx = {token: i for i, token in enumerate(idx_to_token)}
        if len(token_to_idx) != len(idx_to_token):
            # undecodable bytes became U+FFFD and merged tokens (the last row wins): pad with placeholder keys so
            # that the word count still matches the rows
            warnings.warn(f'{len(idx_to_token) - len(token_to_idx)} tokens of {path} are duplicates after decoding '
                          '(invalid bytes replaced by U+FFFD)')
            while len(token_to_idx) < len(idx_to_token):
                token_to_idx[object()] = -1
        subwords = create_subword_function('NGramHashes', num_subwords=matrix.shape[0] - len(idx_to_token),
                                           ngrams=list(range(minn, maxn + 1)), special_tokens={'</s>'})
        model = cls(token_to_idx, subwords, output_dim=dim, **kwargs)
        model.initialize(ctx=ctx)
        model.weight.set_data(nd.array(matrix))
        return model

    @classmethod
    def _struct_unpack(cls, file_handle, fmt):
        size = struct.calcsize(fmt)
        raw = file_handle.read(size)
        if len(raw) != size:
            raise BadInputError(f'fastText file ends early (wanted {size} bytes for {fmt!r}, got {len(raw)})')
        return struct.unpack(fmt, raw)

    @classmethod
    def _read_model_params(cls, file_handle):
        """(new_format, dim, bucket, minn, maxn) from the header and the training arguments."""
        magic, second = cls._struct_unpack(file_handle, '<2i')
        if magic == cls.FASTTEXT_FILEFORMAT_MAGIC:  # magic, version, then dim ws epoch ... t
            args = cls._struct_unpack(file_handle, '<12id')
            return True, args[0], args[8], args[9], args[10]
        args = cls._struct_unpack(file_handle, '<10id')  # old: dim, ws, then epoch ... t
        return False, magic, args[6], args[7], args[8]

    @classmethod
    def _read_vocab(cls, file_handle, new_format, encoding='utf8'):
        size, nwords, nlabels = cls._struct_unpack(file_handle, '<3i')
        if nlabels > 0:
            warnings.warn(f'the fastText model has {nlabels} labels (not a word embedding model?): ignoring them')
        logging.info('Loading %s words from fastText model.', size)
        cls._struct_unpack(file_handle, '<q')  # ntokens
        prune = cls._struct_unpack(file_handle, '<q')[0] if new_format else 0
        words = []
        for _ in range(size):
            raw = bytearray()
            while True:
                c = file_handle.read(1)
                if not c:
                    raise BadInputError('fastText file ends inside its dictionary')
                if c == b'\x00':
                    break
                raw += c
            _, entry_type = cls._struct_unpack(file_handle, '<qb')
            if not entry_type:  # 0: word, 1: label
                words.append(raw.decode(encoding, errors='replace'))
        if len(words) != nwords:
            raise BadInputError(f'fastText dictionary has {len(words)} words, its header says {nwords}')
        for _ in range(max(prune, 0)):
            cls._struct_unpack(file_handle, '<2i')
        return words

    @classmethod
    def _read_vectors(cls, file_handle, new_format, bucket, vocab_len):
        if new_format:
            cls._struct_unpack(file_handle, '<?')  # quantized input: not supported by this reader
        rows, dim = cls._struct_unpack(file_handle, '<2q')
        if rows != bucket + vocab_len:
            raise BadInputError(f'fastText input matrix has {rows} rows, expected words + buckets = '
                                f'{vocab_len} + {bucket}')
        matrix = np.fromfile(file_handle, dtype=np.float32, count=rows * dim)
        if matrix.size != rows * dim:
            raise BadInputError(f'fastText input matrix is cut short: {matrix.size} of {rows * dim} values')
        return dim, matrix.reshape((rows, dim))
