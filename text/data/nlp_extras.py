"""GluonNLP 0.10's remaining data helpers: `ShardedDataLoader` (a DataLoader whose batch sampler may yield shards),
`DatasetLoader` (one dataset per file, built and batched on the fly) and `UnigramCandidateSampler` (alias-method
draws from a unigram distribution). Same signatures and batches as GluonNLP's.

>>> import mxnet as mx
>>> loader = ShardedDataLoader(mx.gluon.data.ArrayDataset(list(range(5))), batch_size=2)
>>> [b.asnumpy().tolist() for b in loader]
[[0, 1], [2, 3], [4]]
"""
import collections
import functools
import io
import multiprocessing
import pickle
import warnings
from multiprocessing.pool import ThreadPool
from multiprocessing.reduction import ForkingPickler

import mxnet as mx
import numpy as np
from mxnet.gluon import data as gdata
from mxnet.gluon.data.dataloader import default_batchify_fn, default_mp_batchify_fn

from ...errors import BadInputError
from .datasets import _glob_files

__all__ = ['DatasetLoader', 'ShardedDataLoader', 'UnigramCandidateSampler']


# -- shared plumbing -------------------------------------------------------------------------------------------------
def _pinned(batch):
    """The batch with its NDArrays copied to pinned CPU memory (nested lists/tuples kept)."""
    if isinstance(batch, mx.nd.NDArray):
        return batch.as_in_context(mx.cpu_pinned())
    if isinstance(batch, (list, tuple)):
        return type(batch)(_pinned(b) for b in batch)
    return batch


def _is_sharded(indices):
    # a sharded batch sampler (FixedBucketSampler(num_shards=...)) yields one list of indices per shard
    return len(indices) > 0 and isinstance(indices[0], (list, tuple))


def _make_batch(batchify_fn, get, indices):
    if _is_sharded(indices):
        return [batchify_fn([get(i) for i in shard]) for shard in indices]
    return batchify_fn([get(i) for i in indices])


def _as_bytes(obj):
    # ForkingPickler sends NDArrays made by default_mp_batchify_fn as shared-memory handles, not copies
    buf = io.BytesIO()
    ForkingPickler(buf, pickle.HIGHEST_PROTOCOL).dump(obj)
    return buf.getvalue()


def _in_order(submit, jobs, prefetch):
    """Results of submit(job) (async results) in job order, with at most prefetch + 1 jobs in flight."""
    pending = collections.deque()
    jobs = iter(jobs)
    for job in jobs:
        pending.append(submit(job))
        if len(pending) > prefetch:
            yield pending.popleft().get()
    while pending:
        yield pending.popleft().get()


def _default_batchify(batchify_fn, workers):
    if batchify_fn is not None:
        return batchify_fn
    return default_mp_batchify_fn if workers > 0 else default_batchify_fn


# -- ShardedDataLoader -----------------------------------------------------------------------------------------------
_worker_dataset = None  # set in each worker process by the pool's initializer


def _set_worker_dataset(dataset):
    global _worker_dataset
    _worker_dataset = dataset


def _process_batch(indices, batchify_fn):
    return _as_bytes(_make_batch(batchify_fn, _worker_dataset.__getitem__, indices))


class ShardedDataLoader:
    """A Gluon DataLoader whose batch sampler may yield shards (lists of index lists, e.g. a FixedBucketSampler
    with num_shards): such a batch comes back as one batchified item per shard. `num_workers` processes (threads
    when `thread_pool`) make the batches, `prefetch` (default 2 * num_workers) of them ahead, in order."""

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None, last_batch=None, batch_sampler=None,
                 batchify_fn=None, num_workers=0, pin_memory=False, prefetch=None, thread_pool=False):
        if batch_sampler is None:
            if batch_size is None:
                raise ValueError('batch_size must be specified unless batch_sampler is specified')
            if sampler is None:
                sampler = (gdata.RandomSampler if shuffle else gdata.SequentialSampler)(len(dataset))
            elif shuffle:
                raise ValueError('shuffle must not be specified if sampler is specified')
            batch_sampler = gdata.BatchSampler(sampler, batch_size, last_batch or 'keep')
        elif batch_size is not None or shuffle or sampler is not None or last_batch is not None:
            raise ValueError('batch_size, shuffle, sampler and last_batch must not be specified if batch_sampler '
                             'is specified.')
        self._dataset, self._batch_sampler = dataset, batch_sampler
        self._pin_memory, self._thread_pool = pin_memory, thread_pool
        self._num_workers = max(0, num_workers)
        self._prefetch = max(0, int(prefetch) if prefetch is not None else 2 * self._num_workers)
        self._batchify_fn = _default_batchify(batchify_fn, num_workers)
        self._pool = None
        if self._num_workers:
            self._pool = (ThreadPool(self._num_workers) if thread_pool else
                          multiprocessing.Pool(self._num_workers, _set_worker_dataset, (dataset,)))

    def __iter__(self):
        if not self._num_workers:
            batches = (_make_batch(self._batchify_fn, self._dataset.__getitem__, b) for b in self._batch_sampler)
        elif self._thread_pool:  # threads share the dataset and need no pickling
            make = functools.partial(_make_batch, self._batchify_fn, self._dataset.__getitem__)
            batches = _in_order(lambda b: self._pool.apply_async(make, (b,)), self._batch_sampler, self._prefetch)
        else:
            batches = map(pickle.loads, _in_order(
                lambda b: self._pool.apply_async(_process_batch, (b, self._batchify_fn)),
                self._batch_sampler, self._prefetch))
        return map(_pinned, batches) if self._pin_memory else iter(batches)

    def __len__(self):
        return len(self._batch_sampler)

    def __del__(self):
        # terminate explicitly: a pool is not always cleaned up at interpreter exit (bugs.python.org/issue34172)
        if getattr(self, '_pool', None) is not None:
            self._pool.terminate()


# -- DatasetLoader ---------------------------------------------------------------------------------------------------
def _build(dataset_fn, batch_sampler_fn, urls):
    """One file's (samples, batch sampler) for the main process: the samples as a list, since the dataset itself
    (an open file, a memory map) need not pickle."""
    dataset = dataset_fn(urls)
    sampler = batch_sampler_fn(dataset)
    return [dataset[i] for i in range(len(dataset))], sampler


def _batch_bytes(batchify_fn, shards):
    return _as_bytes([batchify_fn(s) for s in shards])


class DatasetLoader:
    """Mini-batches from many files, one dataset at a time: the files matching `file_patterns` (comma-separated
    globs, sorted) are visited in the order of `file_sampler` (a Sampler or any iterable of indices into the sorted
    list; 'random' and 'sequential' also work), `circle_length` files at a time; `dataset_fn(urls,
    **dataset_params)` makes their dataset, `batch_sampler_fn(dataset, **batch_sampler_params)` its batch sampler,
    and `batchify_fn` each batch. As in GluonNLP, `urls` is the file's path when circle_length is 1 and no dataset
    workers run, else a list of paths. With `num_batch_workers` > 0, `num_dataset_workers` processes build datasets
    (`dataset_prefetch` ahead) and `num_batch_workers` processes batchify (`batch_prefetch` ahead), in order; with
    `dataset_cached`, up to `num_max_dataset_cached` built datasets are kept and one is replayed whenever the next
    is not built yet (as GluonNLP does, so the order then depends on timing).

    Two of GluonNLP's slips are not kept: its single-process path drops a last incomplete group of files when
    circle_length > 1, and its workers read a dataset through `dataset._data` transposed (right for an
    ArrayDataset only); here every file is read and samples are always `dataset[i]`."""

    def __init__(self, file_patterns, file_sampler, dataset_fn=None, batch_sampler_fn=None, dataset_params=None,
                 batch_sampler_params=None, batchify_fn=None, num_dataset_workers=0, num_batch_workers=0,
                 pin_memory=False, circle_length=1, dataset_prefetch=None, batch_prefetch=None,
                 dataset_cached=False, num_max_dataset_cached=0):
        if num_dataset_workers < 0 or num_batch_workers < 0:
            raise BadInputError('num_dataset_workers and num_batch_workers must be non-negative')
        if num_batch_workers > 0 and num_dataset_workers == 0:
            raise BadInputError('num_dataset_workers must be positive when num_batch_workers > 0')
        if num_batch_workers == 0 and num_dataset_workers > 0:
            warnings.warn('The multi-processing functionalities for both dataset and batch sampling are disabled '
                          f'when num_batch_workers=0 though num_dataset_workers={num_dataset_workers} > 0')
            num_dataset_workers = 0  # GluonNLP then builds the datasets in the main process too
        if circle_length < 1:
            raise BadInputError(f'circle_length={circle_length} must be at least 1')
        if dataset_cached and num_max_dataset_cached <= 0:
            raise BadInputError('with dataset_cached=True, num_max_dataset_cached must be positive')
        if dataset_fn is None or batch_sampler_fn is None:
            raise BadInputError('DatasetLoader needs dataset_fn and batch_sampler_fn')
        self._files = _glob_files(file_patterns)
        self._file_sampler = file_sampler
        self._dataset_fn = functools.partial(dataset_fn, **(dataset_params or {}))
        self._batch_sampler_fn = functools.partial(batch_sampler_fn, **(batch_sampler_params or {}))
        self._pin_memory, self._circle_length = pin_memory, circle_length
        self._cached, self._num_cached = dataset_cached, num_max_dataset_cached
        self._dataset_prefetch = max(0, int(dataset_prefetch) if dataset_prefetch is not None
                                     else num_dataset_workers)
        self._batch_prefetch = max(0, int(batch_prefetch) if batch_prefetch is not None else 2 * num_batch_workers)
        self._workers = num_batch_workers
        self._batchify_fn = _default_batchify(batchify_fn, num_batch_workers)
        self._dataset_pool = multiprocessing.Pool(num_dataset_workers) if self._workers else None
        self._batch_pool = multiprocessing.Pool(num_batch_workers) if self._workers else None

    def _order(self):
        sampler = self._file_sampler
        if isinstance(sampler, str):
            if sampler not in ('random', 'sequential'):
                raise BadInputError(f'file_sampler={sampler!r}: use "random", "sequential" or a Sampler')
            sampler = (gdata.RandomSampler if sampler == 'random' else gdata.SequentialSampler)(len(self._files))
        files = [self._files[i] for i in sampler]
        return [files[i:i + self._circle_length] for i in range(0, len(files), self._circle_length)]

    def __iter__(self):
        groups = self._order()
        if not self._workers:
            batches = self._same_process(groups)
        else:
            batches = self._multi_process(groups)
        return map(_pinned, batches) if self._pin_memory else iter(batches)

    def _same_process(self, groups):
        for urls in groups:
            dataset = self._dataset_fn(urls[0] if self._circle_length == 1 else urls)
            for indices in self._batch_sampler_fn(dataset):
                yield _make_batch(self._batchify_fn, dataset.__getitem__, indices)

    def _datasets(self, groups):
        """The built (samples, batch sampler) pairs in order, replaying cached ones while the next is not ready."""
        pending = collections.deque()
        cache = []
        groups = iter(groups)
        build = functools.partial(_build, self._dataset_fn, self._batch_sampler_fn)
        while True:
            for urls in groups:  # keep dataset_prefetch + 1 builds in flight
                pending.append(self._dataset_pool.apply_async(build, (urls,)))
                if len(pending) > self._dataset_prefetch:
                    break
            if not pending:
                return
            if cache and not pending[0].ready():
                yield cache.pop(0)
                continue
            built = pending.popleft().get()
            if self._cached and len(cache) < self._num_cached:
                cache.append(built)
            yield built

    def _multi_process(self, groups):
        def jobs():
            for samples, sampler in self._datasets(groups):
                for indices in sampler:
                    sharded = _is_sharded(indices)
                    shards = indices if sharded else [indices]
                    yield sharded, [[samples[i] for i in s] for s in shards]

        def submit(job):
            sharded, shards = job
            return _Tagged(sharded, self._batch_pool.apply_async(_batch_bytes, (self._batchify_fn, shards)))

        for sharded, data in _in_order(submit, jobs(), self._batch_prefetch):
            batch = pickle.loads(data)
            yield batch if sharded else batch[0]

    def __del__(self):
        for pool in (getattr(self, '_dataset_pool', None), getattr(self, '_batch_pool', None)):
            if pool is not None:
                pool.terminate()


class _Tagged:
    """An async result that also carries whether its batch was sharded."""

    def __init__(self, tag, result):
        self._tag, self._result = tag, result

    def get(self):
        return self._tag, self._result.get()


# -- UnigramCandidateSampler -----------------------------------------------------------------------------------------
def _alias_table(weights):
    """Vose's alias method over an NDArray of weights: (prob, alias) such that drawing i uniformly, then keeping i
    with probability prob[i] and taking alias[i] otherwise, draws i with probability weights[i] / sum(weights). The
    stacks are worked from their ends, as GluonNLP does, so the same seed draws the same candidates."""
    n = weights.size
    # scaled in the weights' own dtype (float32 mostly), as GluonNLP does, then worked in Python floats
    prob = (weights * n / weights.sum()).asnumpy().tolist()
    alias = [0] * n
    small = [i for i in range(n) if prob[i] < 1.0]
    large = [i for i in range(n) if prob[i] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        alias[s] = g
        prob[g] -= 1.0 - prob[s]  # g gives up the mass that fills s's column
        (small if prob[g] < 1.0 else large).append(g)
    for i in small + large:  # left over only by rounding: full columns
        prob[i], alias[i] = 1.0, i
    return prob, alias


class UnigramCandidateSampler(mx.gluon.HybridBlock):
    """Candidates drawn from the unigram distribution of `weights` (an NDArray of unnormalized class
    probabilities) with the alias method: `sampler(candidates_like)` -> an array of its shape, in `dtype`, on
    the weights' context. The table is kept as the constants `prob` and `alias`; draws come from mx.random."""

    def __init__(self, weights, dtype='float32'):
        super().__init__()
        self._dtype, self.N = dtype, weights.size
        if ((np.dtype(dtype) == np.float32 and self.N > 2 ** 24)
                or (np.dtype(dtype) == np.float16 and self.N > 2 ** 11)):
            raise ValueError(f'dtype={dtype} can not represent all weights')
        prob, alias = _alias_table(weights)
        self.prob = self.params.get_constant('prob', mx.nd.array(prob, dtype='float64'))
        self.alias = self.params.get_constant('alias', mx.nd.array(alias, dtype='float64'))

    def __repr__(self):
        return f'{self.__class__.__name__}({self.N}, {self._dtype})'

    def hybrid_forward(self, F, candidates_like, prob, alias):  # pylint: disable=arguments-differ
        flat = candidates_like.reshape((-1,)).astype('float64')
        column = F.random.uniform_like(flat, low=0, high=self.N).floor()
        keep = F.random.uniform_like(flat) < F.gather_nd(prob, column.reshape((1, -1)))
        drawn = column * keep + F.gather_nd(alias, column.reshape((1, -1))) * (1 - keep)
        return drawn.reshape_like(candidates_like).astype(self._dtype)
