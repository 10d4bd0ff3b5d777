"""Batchify functions with GluonNLP 0.10's semantics: turn a list of samples into one batch.

>>> Stack()([[1, 2], [3, 4]]).asnumpy().tolist()
[[1, 2], [3, 4]]
>>> Stack(dtype='float32')([np.array([1, 2]), np.array([3, 4])]).dtype
<class 'numpy.float32'>
>>> x, n = Pad(pad_val=0, ret_length=True)([[1, 2, 3], [4], [5, 6]])
>>> x.asnumpy().tolist(), n.asnumpy().tolist()
([[1.0, 2.0, 3.0], [4.0, 0.0, 0.0], [5.0, 6.0, 0.0]], [3, 1, 2])
>>> Pad(pad_val=-1, round_to=4, dtype='int32')([[1, 2, 3], [4]]).asnumpy().tolist()
[[1, 2, 3, -1], [4, -1, -1, -1]]
>>> ids, label = Tuple(Pad(pad_val=0), Stack())([([1, 2], 0), ([3], 1)])
>>> ids.asnumpy().tolist(), label.asnumpy().tolist()
([[1.0, 2.0], [3.0, 0.0]], [0, 1])
>>> List()([[1, 2], [3]])
[[1, 2], [3]]
>>> sorted(Dict({'a': Stack(), 'b': List()})([{'a': 1, 'b': 'x'}, {'a': 2, 'b': 'y'}]).items())[1]
('b', ['x', 'y'])
>>> import collections
>>> S = collections.namedtuple('S', ['data', 'label'])
>>> NamedTuple(S, {'data': Pad(pad_val=0), 'label': Stack()})([S([1], 0), S([2, 3], 1)]).data.shape
(2, 2)

Dtypes as in GluonNLP: Stack keeps the samples' numpy dtype (Python ints: int64); Pad keeps the dtype of numpy
and NDArray samples and gives float32 for lists unless dtype= is set.
"""
import math

import warnings

import numpy as np

from ...errors import BadInputError


def _to_nd(arr, dtype, shared):
    import mxnet as mx
    ctx = mx.Context('cpu_shared', 0) if shared else mx.cpu()
    return mx.nd.array(arr, ctx=ctx, dtype=dtype)


class Stack:
    """Stack same-shaped samples along a new first axis; `dtype` overrides the samples' own."""

    def __init__(self, dtype=None, use_shared_mem=False):
        self._dtype, self._shared = dtype, use_shared_mem

    def __call__(self, data):
        import mxnet as mx
        if not len(data):
            raise BadInputError('Stack got an empty batch')
        if isinstance(data[0], mx.nd.NDArray):
            out = mx.nd.stack(*data)
            return out if self._dtype is None else out.astype(self._dtype)
        shapes = sorted({np.shape(d) for d in data})
        arr = np.asarray(data) if len(shapes) == 1 else None
        if arr is None or arr.dtype == object:
            raise BadInputError(f'Stack needs samples of one shape, got shapes {shapes[:3]}: use Pad for '
                                'variable-length samples')
        return _to_nd(arr, arr.dtype if self._dtype is None else self._dtype, self._shared)


class Pad:
    """Pad variable-length samples along `axis` to the longest (rounded up to a multiple of `round_to`) with
    `pad_val` (0 when None, as GluonNLP); `ret_length=True` also returns the original lengths (int32)."""

    def __init__(self, axis=0, pad_val=None, ret_length=False, dtype=None, round_to=None, use_shared_mem=False):
        if not isinstance(axis, int):
            raise BadInputError(f'Pad axis must be an int, got {axis!r}')
        if pad_val is None:  # GluonNLP's warnings, which its users (and its tests) expect
            warnings.warn('Pad: no pad_val given, padding with 0; pass pad_val= (e.g. the vocabulary\'s padding '
                          'id) to say so', stacklevel=2)
        self._axis, self._pad = axis, 0 if pad_val is None else pad_val
        self._ret_length, self._dtype, self._round_to, self._shared = ret_length, dtype, round_to, use_shared_mem
        self._warned = False

    def __call__(self, data):
        import mxnet as mx
        if not len(data):
            raise BadInputError('Pad got an empty batch')
        dtype = self._dtype
        if isinstance(data[0], mx.nd.NDArray):
            if not self._warned:
                self._warned = True
                warnings.warn('Pad of NDArrays copies each to numpy first: pad lists or numpy arrays, before they '
                              'become NDArrays, for speed', stacklevel=2)
            dtype = dtype or data[0].dtype
            arrs = [d.asnumpy() for d in data]
        elif isinstance(data[0], np.ndarray):
            dtype, arrs = dtype or data[0].dtype, list(data)
        elif isinstance(data[0], (list, tuple)):
            arrs = [np.asarray(d) for d in data]
        else:
            raise BadInputError(f'Pad pads lists, numpy arrays or NDArrays, not {type(data[0]).__name__}')
        ndim = arrs[0].ndim
        if not -ndim <= self._axis < max(ndim, 1) or any(a.ndim != ndim for a in arrs):
            raise BadInputError(f'Pad axis={self._axis} does not fit samples of {sorted({a.ndim for a in arrs})} '
                                'dimensions (all samples need the same number)')
        axis = self._axis % ndim
        lengths = [a.shape[axis] for a in arrs]
        longest = max(lengths)
        if self._round_to:
            longest = self._round_to * math.ceil(longest / self._round_to)
        shape = list(arrs[0].shape)
        shape[axis] = longest
        out = np.full([len(arrs)] + shape, self._pad, dtype=dtype if dtype is not None else arrs[0].dtype)
        for i, a in enumerate(arrs):
            other = [s for k, s in enumerate(a.shape) if k != axis]
            if other != [s for k, s in enumerate(shape) if k != axis]:
                raise BadInputError(f'Pad: sample {i} has shape {a.shape}; only axis {axis} may differ')
            index = [i] + [slice(None)] * ndim
            index[axis + 1] = slice(0, a.shape[axis])
            out[tuple(index)] = a
        # list samples without dtype= come out float32 (MXNet's default), as in GluonNLP
        padded = _to_nd(out, dtype, self._shared)
        if self._ret_length:
            return padded, _to_nd(np.array(lengths), 'int32', self._shared)
        return padded


class Tuple:
    """Apply one batchify function per field of tuple samples: Tuple(A, B) or Tuple([A, B])."""

    def __init__(self, fn, *args):
        self._fns = tuple(fn) if isinstance(fn, (list, tuple)) and not args else (fn,) + args
        bad = [i for i, f in enumerate(self._fns) if not callable(f)]
        if bad:
            raise BadInputError(f'Tuple field {bad[0]} is {self._fns[bad[0]]!r}, not a batchify function')

    def __call__(self, data):
        if any(len(d) != len(self._fns) for d in data):
            raise BadInputError(f'Tuple has {len(self._fns)} functions but a sample has '
                                f'{sorted({len(d) for d in data})} fields')
        return tuple(fn([d[i] for d in data]) for i, fn in enumerate(self._fns))


class List:
    """Keep the samples as a plain list (for strings, ragged metadata)."""

    def __call__(self, data):
        return list(data)


class Dict:
    """Apply one batchify function per key of dict samples."""

    def __init__(self, fn_dict):
        if not isinstance(fn_dict, dict) or not all(callable(f) for f in fn_dict.values()):
            raise BadInputError('Dict takes a dict of key -> batchify function')
        self._fns = fn_dict

    def __call__(self, data):
        missing = sorted({k for k in self._fns for d in data if k not in d})
        if missing:
            raise BadInputError(f'Dict: samples lack the key(s) {missing}')
        return {k: fn([d[k] for d in data]) for k, fn in self._fns.items()}


class NamedTuple:
    """Apply one batchify function per field of namedtuple samples; returns the same namedtuple type.
    `fn_info` is a list in field order or a dict by field name."""

    def __init__(self, container, fn_info):
        fields = container._fields
        if isinstance(fn_info, dict):
            if set(fn_info) != set(fields):
                raise BadInputError(f'NamedTuple fields are {list(fields)}, the functions are for '
                                    f'{list(fn_info)}')
            fn_info = [fn_info[f] for f in fields]
        if len(fn_info) != len(fields) or not all(callable(f) for f in fn_info):
            raise BadInputError(f'NamedTuple needs one batchify function per field of {list(fields)}')
        self._container, self._fns = container, list(fn_info)

    def __call__(self, data):
        if not isinstance(data[0], self._container):
            raise BadInputError(f'NamedTuple samples must be {self._container.__name__}, '
                                f'got {type(data[0]).__name__}')
        return self._container(*[fn([d[i] for d in data]) for i, fn in enumerate(self._fns)])


# -- language-model batchify (GluonNLP's batchify.language_model) ---------------------------------------------------
class CorpusBatchify:
    """A token list -> a SimpleDataset of its ids as `batch_size` columns (the tail that does not fill a row of
    all columns dropped): sample t is the NDArray row of the t-th token of every column."""

    def __init__(self, vocab, batch_size):
        self._vocab, self._batch_size = vocab, batch_size

    def __call__(self, data):
        import mxnet as mx
        n = len(data) // self._batch_size
        if n == 0:
            raise BadInputError(f'CorpusBatchify: {len(data)} tokens do not fill one row of batch_size='
                                f'{self._batch_size}')
        ids = self._vocab[list(data[:n * self._batch_size])]
        return mx.gluon.data.SimpleDataset(mx.nd.array(ids).reshape(self._batch_size, -1).T)


class CorpusBPTTBatchify:
    """A token list -> a SimpleDataset of (data, target) pairs of shape (seq_len, batch_size), target shifted by
    one token; last_batch='keep' pads the corpus with the vocabulary's padding token, 'discard' drops the tail."""

    def __init__(self, vocab, seq_len, batch_size, last_batch='keep'):
        if last_batch not in ('keep', 'discard'):
            raise BadInputError(f'last_batch={last_batch!r}: use "keep" or "discard"')
        if last_batch == 'keep' and not getattr(vocab, 'padding_token', None):
            raise BadInputError('last_batch="keep" pads with vocab.padding_token: build the vocabulary with one '
                                'or pass last_batch="discard"')
        self._vocab, self._seq_len, self._batch_size, self._last_batch = vocab, seq_len, batch_size, last_batch

    def __call__(self, corpus):
        import mxnet as mx
        from .datasets import _pad_length
        b = self._batch_size
        if self._last_batch == 'keep':
            ids = self._vocab[list(corpus)]
            per_col = math.ceil(len(ids) / b)
            extra = _pad_length(per_col, self._seq_len + 1, 1) * b + per_col * b - len(ids)
            ids += [self._vocab[self._vocab.padding_token]] * int(extra)
        else:
            ids = self._vocab[list(corpus[:len(corpus) // b * b])]
        cols = mx.nd.array(ids).reshape((b, -1)).T
        n = cols.shape[0]
        out = [(cols[s:s + self._seq_len], cols[s + 1:s + self._seq_len + 1])
               for s in range(0, n - self._seq_len, self._seq_len)]
        return mx.gluon.data.SimpleDataset(out)


class StreamBPTTBatchify:
    """A stream of corpora (datasets of token lists, e.g. sentences) -> a stream of (data, target) pairs of shape
    (seq_len, batch_size), target shifted by one token. Each batch column reads sentences one after another (within
    a corpus in `sampler` order, 'random' or 'sequential'), carrying over what did not fit; the last batch is padded
    with the vocabulary's padding token ('keep') or dropped when it is all padding past the stream ('discard')."""

    def __init__(self, vocab, seq_len, batch_size, sampler='random', last_batch='keep'):
        if not getattr(vocab, 'padding_token', None):
            raise BadInputError('StreamBPTTBatchify pads with vocab.padding_token: build the vocabulary with one')
        if last_batch not in ('keep', 'discard'):
            raise BadInputError(f'last_batch={last_batch!r}: use "keep" or "discard"')
        if sampler not in ('random', 'sequential'):
            raise BadInputError(f'sampler={sampler!r}: use "random" or "sequential"')
        self._vocab, self._seq_len, self._batch_size = vocab, seq_len, batch_size
        self._sampler, self._last_batch = sampler, last_batch

    def __call__(self, corpus):
        from .datasets import SimpleDataStream
        return SimpleDataStream(_ReiterableBPTT(self, corpus))


class _ReiterableBPTT:
    def __init__(self, spec, corpus):
        self._spec, self._corpus = spec, corpus

    def __iter__(self):
        import mxnet as mx
        s = self._spec
        order = mx.gluon.data.RandomSampler if s._sampler == 'random' else mx.gluon.data.SequentialSampler
        sentences = (part[i] for part in self._corpus for i in order(len(part)))
        pad = s._vocab[s._vocab.padding_token]
        waiting = [[] for _ in range(s._batch_size)]  # each column's ids not yet written
        ended = False
        while True:
            data = np.full((s._batch_size, s._seq_len), pad, np.float32)
            target = np.full((s._batch_size, s._seq_len), pad, np.float32)
            carried = False
            for col, ids in enumerate(waiting):
                filled = 0
                try:
                    while filled < s._seq_len:
                        if len(ids) <= 1:  # a target needs the next token: read on
                            ids.extend(s._vocab[next(sentences)])
                        n = min(len(ids) - 1, s._seq_len - filled)
                        data[col, filled:filled + n], target[col, filled:filled + n] = ids[:n], ids[1:n + 1]
                        del ids[:n]
                        carried = carried or bool(ids)
                        filled += n
                except StopIteration:
                    ended = True
            if carried or s._last_batch == 'keep':
                yield mx.nd.array(data).T, mx.nd.array(target).T
            if ended and not carried:
                return
