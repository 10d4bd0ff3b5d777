"""Bucketing batch samplers with GluonNLP 0.10's semantics: batches of indices of similar-length samples.

>>> s = FixedBucketSampler([3, 5, 2, 9, 8, 4, 1, 7], batch_size=2, num_buckets=2)
>>> list(s)
[[3, 4], [7], [0, 1], [2, 5], [6]]
>>> len(s), s.bucket_keys
(5, [5, 9])
>>> list(SortedBucketSampler([3, 5, 2, 9], batch_size=2))
[[3, 1], [0, 2]]

Shuffling uses numpy's global RNG in GluonNLP's order, so with the same `np.random.seed` the batches are
GluonNLP's batches.
"""
import math
import warnings

import numpy as np

from ...errors import BadInputError


def const_width_buckets(max_lengths, min_lengths, num_buckets):
    """GluonNLP's ConstWidthBucket: `num_buckets` keys stepping down from the longest length by equal widths."""
    maxs, mins = np.atleast_1d(max_lengths), np.atleast_1d(min_lengths)
    widths = [max((1 + hi - lo) // num_buckets, 1) for hi, lo in zip(maxs, mins)]
    keys = [tuple(int(max(hi - i * w, lo)) for hi, lo, w in zip(maxs, mins, widths)) for i in range(num_buckets)]
    return [k[0] for k in keys] if np.ndim(max_lengths) == 0 else keys


def linear_width_buckets(max_lengths, min_lengths, num_buckets):
    """GluonNLP's LinearWidthBucket: bucket widths growing linearly; the last key covers the longest length."""
    maxs, mins = np.atleast_1d(max_lengths), np.atleast_1d(min_lengths)
    alphas = [2 * float(hi - lo - num_buckets) / (num_buckets * (num_buckets + 1)) for hi, lo in zip(maxs, mins)]
    keys = [tuple(int(round(lo + a * ((i + 1) * (i + 2)) / 2 + i + 1)) for lo, a in zip(mins, alphas))
            for i in range(num_buckets)]
    keys[-1] = tuple(max(k, int(hi)) for k, hi in zip(keys[-1], maxs))
    return [k[0] for k in keys] if np.ndim(max_lengths) == 0 else keys


def exp_width_buckets(bucket_len_step=1.1):
    """GluonNLP's ExpWidthBucket: bucket widths growing by `bucket_len_step` (returns the scheme)."""
    def scheme(max_lengths, min_lengths, num_buckets):
        maxs, mins = np.atleast_1d(max_lengths), np.atleast_1d(min_lengths)
        step = bucket_len_step
        first = [(hi - lo) * (step - 1) / (step ** num_buckets - 1) for hi, lo in zip(maxs, mins)]
        keys = [tuple(int(round(lo + w * (step ** (i + 1) - 1) / (step - 1))) for lo, w in zip(mins, first))
                for i in range(num_buckets)]
        keys[-1] = tuple(max(k, int(hi)) for k, hi in zip(keys[-1], maxs))
        return [k[0] for k in keys] if np.ndim(max_lengths) == 0 else keys
    return scheme


def _assign(keys, lengths):
    """Index lists, one per key: each sample goes to the fitting bucket that needs the least padding."""
    keys_arr = np.array(keys, dtype=np.int64)
    diff = keys_arr[None] - lengths[:, None]  # (samples, buckets[, attrs])
    fits = (diff >= 0) if diff.ndim == 2 else (diff >= 0).all(axis=2)
    pad = diff if diff.ndim == 2 else diff.sum(axis=2)
    unfit = np.nonzero(~fits.any(axis=1))[0]
    if len(unfit):
        raise BadInputError(f'sample lengths {lengths[unfit[:3]].tolist()} fit no bucket of {keys}: '
                            'use larger bucket_keys')
    choice = np.where(fits, pad, np.iinfo(np.int64).max).argmin(axis=1)
    return [np.nonzero(choice == b)[0].tolist() for b in range(len(keys))]


class FixedBucketSampler:
    """Buckets by length (int or tuple of ints per sample), batches within a bucket, longest buckets first.

    `bucket_scheme` is const_width_buckets, linear_width_buckets or exp_width_buckets(step) (GluonNLP's three);
    `ratio` > 0 grows the batch of shorter buckets (batch_size * longest/key * ratio, never below batch_size);
    `use_average_length` makes batch_size a token budget; `num_shards` > 0 yields lists of that many batches.
    """

    def __init__(self, lengths, batch_size, num_buckets=10, bucket_keys=None, ratio=0, shuffle=False,
                 use_average_length=False, num_shards=0, bucket_scheme=const_width_buckets):
        if not len(lengths):
            raise BadInputError('FixedBucketSampler got no lengths')
        if batch_size <= 0 or ratio < 0:
            raise BadInputError(f'batch_size={batch_size} must be > 0 and ratio={ratio} >= 0')
        self._lengths = np.array(lengths, dtype=np.int64)
        single = self._lengths.ndim == 1
        if self._lengths.min() <= 0:
            raise BadInputError('every sequence length must be > 0 (drop empty samples first)')
        if bucket_keys is None:
            if not num_buckets or num_buckets <= 0:
                raise BadInputError('give num_buckets > 0 or bucket_keys')
            hi, lo = self._lengths.max(axis=0), self._lengths.min(axis=0)
            bucket_keys = bucket_scheme(int(hi) if single else hi, int(lo) if single else lo, num_buckets)
        keys = sorted(set(bucket_keys))
        ids = _assign(keys, self._lengths)
        self.bucket_keys = [k for k, i in zip(keys, ids) if i]
        self._ids = [i for i in ids if i]
        self._shuffle, self._shards = shuffle, num_shards
        if not use_average_length:
            scale = [k if single else sum(k) for k in self.bucket_keys]
            self.batch_sizes = [max(int(max(scale) / float(s) * ratio * batch_size), batch_size) for s in scale]
        else:
            if ratio > 0:
                warnings.warn(f'ratio={ratio} is ignored when use_average_length is True')
            stats = [(np.mean(self._lengths[i]), np.std(self._lengths[i])) for i in self._ids]
            self.batch_sizes = [max(int(batch_size / (m + s)), 1) for m, s in stats]
        # (bucket, first position) of every batch, longest bucket first
        self._batches = [(b, start) for b in range(len(self._ids) - 1, -1, -1)
                         for start in range(0, len(self._ids[b]), self.batch_sizes[b])]

    def _batch(self, b, start):
        return self._ids[b][start:min(start + self.batch_sizes[b], len(self._ids[b]))]

    def __iter__(self):
        if self._shuffle:
            np.random.shuffle(self._batches)
            for ids in self._ids:
                np.random.shuffle(ids)
        if self._shards > 0:
            for first in range(0, len(self._batches), self._shards):
                first = min(first, len(self._batches) - self._shards)  # the last group overlaps, as GluonNLP
                yield [self._batch(b, s) for b, s in self._batches[first:first + self._shards]]
        else:
            for b, s in self._batches:
                yield self._batch(b, s)

    def __len__(self):
        return math.ceil(len(self._batches) / self._shards) if self._shards > 0 else len(self._batches)

    def stats(self):
        return (f'{type(self).__name__}:\n  sample_num={len(self._lengths)}, batch_num={len(self._batches)}\n'
                f'  key={self.bucket_keys}\n  cnt={[len(i) for i in self._ids]}\n  batch_size={self.batch_sizes}')


class SortedBucketSampler:
    """Chunks of `mult * batch_size` samples, sorted by `sort_keys` inside each chunk, cut into batches."""

    def __init__(self, sort_keys, batch_size, mult=100, reverse=True, shuffle=False):
        if not len(sort_keys) or batch_size <= 0 or mult < 1:
            raise BadInputError(f'SortedBucketSampler needs sort_keys, batch_size > 0 and mult >= 1 '
                                f'(got {len(sort_keys)} keys, batch_size={batch_size}, mult={mult})')
        self._keys, self._batch_size, self._mult = sort_keys, batch_size, mult
        self._reverse, self._shuffle = reverse, shuffle

    def __iter__(self):
        n = len(self._keys)
        order = np.random.permutation(n) if self._shuffle else list(range(n))
        chunk = int(self._mult * self._batch_size)
        for first in range(0, n, chunk):
            ids = sorted(order[first:first + chunk], key=lambda i: self._keys[i], reverse=self._reverse)
            starts = list(range(0, len(ids), self._batch_size))
            if self._shuffle:
                np.random.shuffle(starts)
            for s in starts:
                yield [int(i) for i in ids[s:s + self._batch_size]]

    def __len__(self):
        return (len(self._keys) + self._batch_size - 1) // self._batch_size


# -- GluonNLP's class spellings ------------------------------------------------------------------------------------
class BucketScheme:
    """A bucket scheme: `scheme(max_lengths, min_lengths, num_buckets)` -> bucket keys."""

    def __call__(self, max_lengths, min_lengths, num_buckets):
        raise NotImplementedError


class ConstWidthBucket(BucketScheme):
    """Buckets of equal width (const_width_buckets)."""

    def __call__(self, max_lengths, min_lengths, num_buckets):
        return const_width_buckets(max_lengths, min_lengths, num_buckets)


class LinearWidthBucket(BucketScheme):
    """Bucket widths growing linearly (linear_width_buckets)."""

    def __call__(self, max_lengths, min_lengths, num_buckets):
        return linear_width_buckets(max_lengths, min_lengths, num_buckets)


class ExpWidthBucket(BucketScheme):
    """Bucket widths growing by `bucket_len_step` (exp_width_buckets)."""

    def __init__(self, bucket_len_step=1.1):
        self.bucket_len_step = bucket_len_step

    def __call__(self, max_lengths, min_lengths, num_buckets):
        return exp_width_buckets(self.bucket_len_step)(max_lengths, min_lengths, num_buckets)


class SortedSampler:
    """Indices of the samples sorted by `sort_keys` (longest first when `reverse`)."""

    def __init__(self, sort_keys, reverse=True):
        if not len(sort_keys):
            raise BadInputError('SortedSampler got no sort_keys')
        self._ids = sorted(range(len(sort_keys)), key=lambda i: sort_keys[i], reverse=reverse)

    def __iter__(self):
        return iter(self._ids)

    def __len__(self):
        return len(self._ids)


class SplitSampler:
    """The indices of part `part_index` of `num_parts` contiguous parts of range(length) (for one worker of
    several), shuffled with Python's `random` when `shuffle`, `repeat` times; `even_size` gives every part
    ceil(length / num_parts) indices, topping short parts up with random ones."""

    def __init__(self, length, num_parts=1, part_index=0, even_size=False, repeat=1, shuffle=True):
        if length < num_parts:
            raise BadInputError(f'length={length} must be at least num_parts={num_parts}')
        if not 0 <= part_index < num_parts:
            raise BadInputError(f'part_index={part_index} must be in 0..{num_parts - 1}')
        self.even_size, self.num_parts, self._total = even_size, num_parts, length
        if even_size:
            size = (length + num_parts - 1) // num_parts
            self._start, self._end = min(size * part_index, length), min(size * part_index + size, length)
            self._len = size
        else:
            size, rest = divmod(length, num_parts)
            self._start = size * part_index + min(part_index, rest)
            self._end = self._start + size + (part_index < rest)
            self._len = self._end - self._start
        self._repeat, self._shuffle = repeat, shuffle

    def __iter__(self):
        import random
        out = []
        for _ in range(self._repeat):
            ids = list(range(self._start, self._end))
            if self.even_size and len(ids) < self._len:
                ids += random.sample(range(self._total), k=self._len - len(ids))
            if self._shuffle:
                random.shuffle(ids)
            out += ids
        return iter(out)

    def __len__(self):
        return self._len * self._repeat
