"""Center/context batches for word-embedding training (skip-gram and CBOW), GluonNLP 0.10's
`gluonnlp.data.batchify.EmbeddingCenterContextBatchify`, batch for batch under the same `random.seed`.

>>> import random
>>> random.seed(0)
>>> batches = EmbeddingCenterContextBatchify(batch_size=3, window_size=1, shuffle=False)([[1, 2, 3]])
>>> [(center.tolist(), [c.tolist() for c in context]) for center, context in batches]
[([1, 2, 2], [[1.0, 1.0, 1.0], [0, 1, 2], [2, 1, 3]])]
"""
import itertools
import random

import numpy as np

from .datasets import DataStream

__all__ = ['EmbeddingCenterContextBatchify']


class EmbeddingCenterContextBatchify:
    """`batchify(corpus)` -> a DataStream of (center, (data, row, col)) over a corpus (a list of sentences, each a
    list of ints or strings; contexts never cross a sentence boundary): the context is a sparse COO matrix whose
    row r holds the context words of center[r]. Skip-gram (default): one row per (center, context) pair, weight 1.
    `cbow`: one row per center holding all its contexts, each weighted 1 / their number. A context is the words at
    most `window_size` left and right of the center, the window drawn from 1..window_size per center when
    `reduce_window_size_randomly`. Sentences are shuffled first when `shuffle`. Every batch has exactly
    `batch_size` rows: as in GluonNLP, a last incomplete batch is dropped.

    Randomness is Python's `random` module, consumed as GluonNLP consumes it (the shuffle, then one getrandbits(32)
    that seeds each center's window), so `random.seed(s)` gives GluonNLP's batches. Unlike GluonNLP, the window
    draws use their own generator and leave the global `random` state alone (GluonNLP reseeds it per word)."""

    def __init__(self, batch_size, window_size=5, reduce_window_size_randomly=True, shuffle=True, cbow=False,
                 weight_dtype='float32', index_dtype='int64'):
        self._batch_size, self._window_size = batch_size, window_size
        self._reduce, self._shuffle, self._cbow = reduce_window_size_randomly, shuffle, cbow
        self._weight_dtype, self._index_dtype = weight_dtype, index_dtype

    def __call__(self, corpus):
        return _CenterContextStream(corpus, self)


class _CenterContextStream(DataStream):
    def __init__(self, sentences, spec):
        self._sentences, self._spec = sentences, spec

    def __iter__(self):
        first = next(itertools.chain.from_iterable(self._sentences), None)
        if first is None:
            return iter(())
        dtype = 'O' if isinstance(first, str) else type(first)
        sentences = [np.asarray(s, dtype=dtype) for s in self._sentences]
        if self._spec._shuffle:
            random.shuffle(sentences)
        ends = np.cumsum([len(s) for s in sentences])
        words = np.concatenate(sentences)
        return self._batches(words, ends, random.getrandbits(32))

    def _contexts(self, ends, seed):
        """(center, its context positions) for every position with a non-empty context, in order."""
        spec, start = self._spec, 0
        for end in ends.tolist():
            for center in range(start, end):
                # GluonNLP seeds the window of each center with seed + its position
                window = random.Random(seed + center).randint(1, spec._window_size) if spec._reduce \
                    else spec._window_size
                context = [*range(max(start, center - window), center),
                           *range(center + 1, min(end, center + window + 1))]
                if context:
                    yield center, context
            start = end

    def _rows(self, ends, seed):
        """(center, context positions, weight) per row of the COO context matrix."""
        for center, context in self._contexts(ends, seed):
            if self._spec._cbow:
                yield center, context, 1.0 / len(context)
            else:
                for c in context:
                    yield center, [c], 1.0

    def _batches(self, words, ends, seed):
        spec = self._spec
        rows = self._rows(ends, seed)
        while True:
            batch = list(itertools.islice(rows, spec._batch_size))
            if len(batch) < spec._batch_size:
                return
            centers = [center for center, _, _ in batch]
            cols = [c for _, context, _ in batch for c in context]
            row = [r for r, (_, context, _) in enumerate(batch) for _ in context]
            # weights pass through float32 first, as in GluonNLP (so float64 weights hold float32 values)
            data = np.array([w for _, context, w in batch for _ in context], np.float32).astype(spec._weight_dtype)
            yield words[centers], (data, np.asarray(row, spec._index_dtype), words[cols])
