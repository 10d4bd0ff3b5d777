"""In-memory image classification data with a deterministic, resumable order.

The order of epoch e is a permutation drawn from RandomState([seed, e]); the augmentation and mixup of batch b use
RandomState([seed, e, b, 1]). Nothing depends on what ran before, so a run resumed at (epoch, batch) sees exactly
the batches the uninterrupted run saw, and no background loader threads can reorder anything.
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


class ArrayData:
    """uint8 images (N, H, W) or (N, C, H, W) and int labels; yields normalized float32 NCHW batches.

    `pad` + random crop and horizontal flip when `augment` is 'crop_flip'; `size` pads every image to size x size
    (28x28 Fashion-MNIST to the 32x32 a CIFAR net expects, centered).
    """

    def __init__(self, images, labels, mean, std, size=None, augment='none', pad=2):
        if images.ndim == 3:
            images = images[:, None]
        self.images, self.labels = images, np.asarray(labels, dtype=np.int64)
        self.mean = np.asarray(mean, np.float32).reshape(1, -1, 1, 1)
        self.std = np.asarray(std, np.float32).reshape(1, -1, 1, 1)
        self.size = size or images.shape[-1]
        self.augment, self.pad = augment, pad

    def __len__(self):
        return len(self.labels)

    def num_batches(self, batch_size, workers=1):
        return len(self) // (batch_size * workers)  # the last partial batch is dropped: every step has one size

    def _prepare(self, idx, rng):
        x = self.images[idx].astype(np.float32) / 255.0
        n, c, h, w = x.shape
        grow = (self.size - h) // 2, (self.size - w) // 2
        p = self.pad if rng is not None else 0
        x = np.pad(x, ((0, 0), (0, 0), (grow[0] + p, self.size - h - grow[0] + p),
                       (grow[1] + p, self.size - w - grow[1] + p)))
        if rng is not None:
            out = np.empty((n, c, self.size, self.size), np.float32)
            dy, dx = rng.randint(0, 2 * p + 1, n), rng.randint(0, 2 * p + 1, n)
            flip = rng.rand(n) < 0.5
            for i in range(n):
                crop = x[i, :, dy[i]:dy[i] + self.size, dx[i]:dx[i] + self.size]
                out[i] = crop[:, :, ::-1] if flip[i] else crop
            x = out
        return (x - self.mean) / self.std

    def batches(self, epoch, batch_size, seed, rank=0, workers=1, start=0):
        """(batch index, rng, x float32, y int64) of one epoch from batch `start`; worker `rank` of `workers`."""
        for b, idx in epoch_indices(len(self), epoch, batch_size, seed, rank, workers, start):
            rng = np.random.RandomState([seed, epoch, b, 1 + rank])
            yield b, rng, self._prepare(idx, rng if self.augment == 'crop_flip' else None), self.labels[idx]

    def eval_batches(self, batch_size):
        for at in range(0, len(self), batch_size):
            yield self._prepare(np.arange(at, min(at + batch_size, len(self))), None), self.labels[at:at + batch_size]
