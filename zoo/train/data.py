"""What every task's data shares in the engine: a deterministic, resumable batch order and the dataset checksum.

The order of epoch e is a permutation drawn from RandomState([seed, e]); a task draws the augmentation of batch b
from RandomState([seed, e, b, ...]). Nothing depends on what ran before, so a run resumed at (epoch, batch) sees
exactly the batches the uninterrupted run saw, and no background loader threads can reorder anything.
"""
import hashlib

import numpy as np


def checksum(*arrays):
    """sha256 over arrays' shapes, dtypes and bytes (what the log records as the dataset checksum)."""
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f'{a.shape}{a.dtype}'.encode())
        h.update(a.tobytes())
    return h.hexdigest()


def epoch_indices(n, epoch, batch_size, seed, rank=0, workers=1, start=0):
    """(batch index, sorted sample indices) of worker `rank`'s full batches of one epoch, from batch `start`.

    Batch b of the permutation RandomState([seed, epoch]) is cut into `workers` consecutive slices; the last partial
    global batch is dropped, so every step has one size.

    >>> [(b, list(i)) for b, i in epoch_indices(6, 0, 2, seed=0, rank=1, workers=2)]
    [(0, [0, 4])]
    """
    order = np.random.RandomState([seed, epoch]).permutation(n)
    for b in range(start, n // (batch_size * workers)):
        at = (b * workers + rank) * batch_size
        yield b, np.sort(order[at:at + batch_size])
