"""GluonCV's detection batchify functions (gluoncv.data.batchify): Stack, Pad, Append and Tuple (not
FasterRCNNTrainBatchify: it batches RPN targets, which gluonzoo's transforms do not make). GluonCV's Stack and Pad
differ from GluonNLP's (text/data/batchify.py): Stack makes float32 of numpy and list samples, Pad keeps the first
sample's dtype, takes a tuple of axes and pads into `num_shards` separately padded shards, and both build their
batches in shared memory for DataLoader workers.

>>> Pad(pad_val=-1)([[1, 2, 3], [4]]).asnumpy().tolist()
[[1, 2, 3], [4, -1, -1]]
>>> Stack()([[1, 2], [3, 4]]).dtype
<class 'numpy.float32'>
"""
import logging

import numpy as np

from ...errors import BadInputError


def _shared():
    import mxnet as mx
    return mx.Context('cpu_shared', 0)


class Stack:
    """Stack same-shaped samples along a new first axis (NDArrays keep their dtype, the rest become float32)."""

    def __call__(self, data):
        import mxnet as mx
        if not len(data):
            raise BadInputError('Stack got an empty batch')
        if isinstance(data[0], mx.nd.NDArray):
            out = mx.nd.empty((len(data),) + data[0].shape, dtype=data[0].dtype, ctx=_shared())
            return mx.nd.stack(*data, out=out)
        arr = np.asarray(data)
        if arr.dtype == object:
            raise BadInputError(f'Stack needs samples of one shape, got {sorted({np.shape(d) for d in data})[:3]}:'
                                ' use Pad or Append for variable-size samples')
        return mx.nd.array(arr, ctx=_shared())


def _pad(arrs, axes, pad_val, num_shards):
    import mxnet as mx
    if not isinstance(arrs[0], (mx.nd.NDArray, np.ndarray)):
        arrs = [np.asarray(a) for a in arrs]
    axes = list(axes) if isinstance(axes, (tuple, list)) else [axes]
    lengths = np.array([[a.shape[ax] for ax in axes] for a in arrs])
    if len(arrs) % num_shards:
        logging.warning('Batch size cannot be evenly split. Trying to shard %d items into %d shards',
                        len(arrs), num_shards)
    shards, lens, start = [], [], 0
    for part in np.array_split(np.arange(len(arrs)), num_shards):
        shape = [len(part)] + list(arrs[0].shape)
        longest = lengths[part].max(axis=0) if len(part) else lengths.max(axis=0)
        for ax, n in zip(axes, longest):
            shape[1 + ax] = int(n)
        out = mx.nd.full(shape=tuple(shape), val=pad_val, ctx=_shared(), dtype=arrs[0].dtype)
        for k, i in enumerate(part):
            out[k][tuple(slice(0, s) for s in arrs[i].shape)] = arrs[i]
        shards.append(out)
        part_len = lengths[part] if len(axes) > 1 else lengths[part][:, 0]
        lens.append(mx.nd.array(part_len, ctx=_shared(), dtype=np.int32))
        start += len(part)
    return (shards[0], lens[0]) if num_shards == 1 else (shards, lens)


class Pad:
    """Pad samples along `axis` (an int or a tuple of them) to the longest with `pad_val`, then stack (the first
    sample's dtype); `num_shards` > 1 gives that many batches, each padded to its own longest; `ret_length=True`
    also returns the original lengths (int32)."""

    def __init__(self, axis=0, pad_val=0, num_shards=1, ret_length=False):
        if not isinstance(axis, (int, tuple, list)):
            raise BadInputError(f'axis must be an integer, tuple or list! Received axis={axis}, type={type(axis)}.')
        self._axis, self._pad_val, self._num_shards, self._ret_length = axis, pad_val, num_shards, ret_length

    def __call__(self, data):
        import mxnet as mx
        if not len(data):
            raise BadInputError('Pad got an empty batch')
        if not isinstance(data[0], (mx.nd.NDArray, np.ndarray, list)):
            raise NotImplementedError(f'Pad pads NDArrays, numpy arrays or lists, not {type(data[0]).__name__}')
        padded, lengths = _pad(data, self._axis, self._pad_val, self._num_shards)
        return (padded, lengths) if self._ret_length else padded


class Append:
    """The samples as a list of NDArrays in shared memory, each with a new batch axis at `batch_axis` when
    `expand` (for samples of different shapes, one per device)."""

    def __init__(self, expand=True, batch_axis=0):
        self._expand, self._batch_axis = expand, batch_axis

    def __call__(self, data):
        import mxnet as mx
        out = [x.as_in_context(_shared()) if isinstance(x, mx.nd.NDArray) else mx.nd.array(x, ctx=_shared())
               for x in data]
        return [x.expand_dims(axis=self._batch_axis) for x in out] if self._expand else out


class Tuple:
    """One batchify function per field of tuple samples: Tuple(A, B) or Tuple([A, B])."""

    def __init__(self, fn, *args):
        if isinstance(fn, (list, tuple)):
            if args:
                raise BadInputError('Tuple takes the functions as a list, or as arguments, not both')
            self._fn = tuple(fn)
        else:
            self._fn = (fn,) + args
        for i, f in enumerate(self._fn):
            if not hasattr(f, '__call__'):
                raise ValueError(f'Batchify functions must be callable! type(fn[{i}]) = {type(f)}')

    def __call__(self, data):
        if len(data[0]) != len(self._fn):
            raise ValueError(f'The number of attributes in each data sample should contains {len(self._fn)} '
                             f'elements, given {len(data[0])}.')
        return tuple(fn([d[i] for d in data]) for i, fn in enumerate(self._fn))
