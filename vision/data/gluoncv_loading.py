"""GluonCV 0.10's samplers and loader helpers, with its names and draws: `SplitSampler` (a contiguous part, shuffled
by Python's `random`), `ShuffleSplitSampler` (a part of a seeded shuffle), `SplitSortedBucketSampler` (batches of
similar sort keys, e.g. image aspect ratios), the pad batchify functions (label arrays padded with -1 rows to the
longest), `DetectionDataLoader` (Gluon's DataLoader over them) and `RandomTransformDataLoader` (a transform drawn
every few batches).

>>> default_pad_batchify_fn([np.ones((2, 5)), np.ones((1, 5))]).shape
(2, 2, 5)
"""
import random
import warnings

import mxnet as mx
import numpy as np
from mxnet.gluon.data import DataLoader, Dataset, Sampler

from ...errors import BadInputError
from ..transforms.batchify import Pad

__all__ = ['DetectionDataLoader', 'RandomTransformDataLoader', 'ShuffleSplitSampler', 'SplitSampler',
           'SplitSortedBucketSampler', 'default_mp_pad_batchify_fn', 'default_pad_batchify_fn', 'tsn_mp_batchify_fn']


# -- samplers ------------------------------------------------------------------------------------------------------
class SplitSampler(Sampler):
    """Part `part_index` of `num_parts` equal contiguous parts of range(length) (the remainder dropped), in an order
    random.shuffle draws each epoch."""

    def __init__(self, length, num_parts=1, part_index=0):
        self.part_len = length // num_parts
        self.start = self.part_len * part_index
        self.end = self.start + self.part_len

    def __iter__(self):
        indices = list(range(self.start, self.end))
        random.shuffle(indices)
        return iter(indices)

    def __len__(self):
        return self.part_len


class ShuffleSplitSampler(Sampler):
    """Part `part_index` of range(length) shuffled by RandomState(seed) each epoch (every part sees the same
    shuffle, so the parts never overlap); the last part takes the remainder."""

    def __init__(self, length, num_parts=1, part_index=0, seed=0):
        if length % num_parts:
            print(f'Length ({length}) must be a multiple of the number of partitions ({num_parts}).')
        self._state = np.random.RandomState(seed)
        self._indices = list(range(length))
        part = length // num_parts
        self._start = part * part_index
        self._end = length if part_index == num_parts - 1 else self._start + part

    def __iter__(self):
        self._state.shuffle(self._indices)
        return iter(list(self._indices[self._start:self._end]))

    def __len__(self):
        return self._end - self._start


class SplitSortedBucketSampler(Sampler):
    """Batches of `batch_size` indices whose `sort_keys` are close: buckets of mult x batch_size samples are sorted
    by key (up or down, as random.randint(0, 1) says) and cut into batches, a short one filled from the end of its
    bucket. With `num_parts`, this part's share of a RandomState(seed) permutation; `shuffle` shuffles samples and
    batch order with np.random."""

    def __init__(self, sort_keys, batch_size, mult=32, num_parts=1, part_index=0, shuffle=False, seed=233):
        if not len(sort_keys) or batch_size <= 0 or mult < 1:
            raise BadInputError(f'SplitSortedBucketSampler needs sort keys, batch_size > 0 and mult >= 1 (got '
                                f'{len(sort_keys)} keys, batch_size={batch_size}, mult={mult})')
        length = len(sort_keys)
        self._sort_keys, self._batch_size, self._mult, self._shuffle = sort_keys, batch_size, mult, shuffle
        part = int(np.ceil(float(length) / num_parts))
        self._start, self._end = part * part_index, part * part_index + part
        if part_index == num_parts - 1:
            self._start, self._end = length - part, length
        self._num_parts, self._seed = num_parts, seed
        self._shuffled_ids = np.random.RandomState(seed=seed).permutation(range(length))

    def __iter__(self):
        if self._num_parts > 1:
            self._shuffled_ids = np.random.RandomState(seed=self._seed).permutation(self._shuffled_ids)
        ids = (np.random.permutation(self._shuffled_ids[self._start:self._end]) if self._shuffle
               else list(range(self._start, self._end)))
        bucket = int(self._mult * self._batch_size)
        for begin in range(0, len(ids), bucket):
            end = min(begin + bucket, len(ids))
            begin = min(begin, end - self._batch_size)  # a short last bucket borrows from the one before
            ranked = sorted(ids[begin:end], key=lambda i: self._sort_keys[i], reverse=random.randint(0, 1))
            starts = list(range(0, len(ranked), self._batch_size))
            if self._shuffle:
                np.random.shuffle(starts)
            for start in starts:
                stop = min(start + self._batch_size, len(ranked))
                yield ranked[stop - self._batch_size:stop] if stop - start < self._batch_size else ranked[start:stop]

    def __len__(self):
        return int(np.ceil(float(self._end - self._start) / self._batch_size))


# -- batchify ------------------------------------------------------------------------------------------------------
def _pad_batchify(data, ctx):
    if isinstance(data[0], mx.nd.NDArray):
        out = mx.nd.empty((len(data),) + data[0].shape, dtype=data[0].dtype, ctx=ctx)
        return mx.nd.stack(*data, out=out)
    if isinstance(data[0], tuple):
        return [_pad_batchify(list(field), ctx) for field in zip(*data)]
    arrays = [np.asarray(d) for d in data]
    if not any(len(a) for a in arrays):  # GluonCV pads to at least one row
        arrays[0] = np.full((1, arrays[0].shape[-1]), -1, dtype=arrays[0].dtype)
    return Pad(pad_val=-1)(arrays).as_in_context(ctx)  # batchify.Pad pads into shared memory


def default_pad_batchify_fn(data):
    """NDArrays stacked, tuples field by field, arrays (labels) padded with -1 rows to the longest (at least 1)."""
    return _pad_batchify(data, mx.cpu())


def default_mp_pad_batchify_fn(data):
    """default_pad_batchify_fn into shared memory, for DataLoader worker processes."""
    return _pad_batchify(data, mx.Context('cpu_shared', 0))


def tsn_mp_batchify_fn(data):
    """TSN's batchify for worker processes: NDArrays (clips of frames) concatenated on axis 0, tuples field by
    field, the rest as one array, in shared memory."""
    if isinstance(data[0], mx.nd.NDArray):
        return mx.nd.concat(*data, dim=0)
    if isinstance(data[0], tuple):
        return [tsn_mp_batchify_fn(list(field)) for field in zip(*data)]
    data = np.asarray(data)
    return mx.nd.array(data, dtype=data.dtype, ctx=mx.Context('cpu_shared', 0))


class DetectionDataLoader(DataLoader):
    """GluonCV's deprecated DetectionDataLoader: Gluon's DataLoader whose default batchify pads the labels."""

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None, last_batch=None, batch_sampler=None,
                 batchify_fn=None, num_workers=0):
        warnings.warn('DetectionDataLoader is deprecated. Please use mxnet.gluon.data.DataLoader with batchify '
                      'functions directly.')
        if batchify_fn is None:
            batchify_fn = default_mp_pad_batchify_fn if num_workers > 0 else default_pad_batchify_fn
        super().__init__(dataset, batch_size, shuffle, sampler, last_batch, batch_sampler, batchify_fn, num_workers)


class _Picked(Dataset):
    """`dataset` seen through one of `transform_fns` per item: item (t, i) is dataset.transform(transform_fns[t])[i]
    (Gluon's lazy transform: fn(*sample) for a tuple sample), so the choice travels with the indices to any worker."""

    def __init__(self, dataset, transform_fns):
        self._views = [dataset.transform(fn) for fn in transform_fns]
        self._length = len(dataset)

    def __len__(self):
        return self._length

    def __getitem__(self, key):
        t, i = key
        return self._views[t][i]


class _PickingBatches:
    """The batches of `batches`, each index paired with the transform drawn for it: np.random.choice over the
    transforms once before the first batch and then at every `interval`-th, GluonCV's draws."""

    def __init__(self, batches, count, interval):
        self._batches, self._count, self._interval = batches, count, interval

    def __iter__(self):
        t = np.random.choice(self._count)
        for ib, batch in enumerate(self._batches):
            if ib % self._interval == 0:
                t = np.random.choice(self._count)
            yield [(int(t), i) for i in batch]

    def __len__(self):
        return len(self._batches)


class RandomTransformDataLoader(DataLoader):
    """GluonCV's RandomTransformDataLoader: Gluon's DataLoader whose batches go through one of `transform_fns` (the
    multi-scale training of YOLOv3), drawn anew every `interval` batches; with workers the transforms must pickle.
    Gluon's default batchify, as GluonCV's."""

    def __init__(self, transform_fns, dataset, interval=1, batch_size=None, shuffle=False, sampler=None,
                 last_batch=None, batch_sampler=None, batchify_fn=None, num_workers=0, pin_memory=False,
                 pin_device_id=0, prefetch=None):
        transform_fns = list(transform_fns)
        if not transform_fns:
            raise BadInputError('RandomTransformDataLoader needs at least one transform function to draw from')
        super().__init__(_Picked(dataset, transform_fns), batch_size, shuffle, sampler, last_batch, batch_sampler,
                         batchify_fn, max(num_workers, 0), pin_memory, pin_device_id, prefetch)
        self._batch_sampler = _PickingBatches(self._batch_sampler, len(transform_fns), max(int(interval), 1))
