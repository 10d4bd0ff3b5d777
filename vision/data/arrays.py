"""Images held in memory as arrays, batched in the training engine's deterministic, resumable order.

The order of epoch e is gluonzoo.train.data.epoch_indices (a permutation from RandomState([seed, e])); the crop
offsets and flips of batch b come from RandomState([seed, e, b, 1 + rank]). Every pixel goes through the same
functional transforms users call (pad, crop, flip, normalize).
"""
import numpy as np

from ...train.data import epoch_indices
from ..transforms import functional as T


class Batches:
    """What the in-memory training data share (ArrayData, vision.train.action.ClipData): `labels`, the engine's
    batches of an epoch (batch b draws from RandomState([seed, epoch, b, 1 + rank]), passed to `_prepare` when
    `augment` is one of the `drawing` values) and the eval batches in order. A subclass writes `_prepare(idx, rng)`.
    """
    drawing = ()

    def __len__(self):
        return len(self.labels)

    def num_batches(self, batch_size, workers=1):
        return len(self) // (batch_size * workers)  # the last partial batch is dropped: every step has one size

    def batches(self, epoch, batch_size, seed, rank=0, workers=1, start=0):
        """(batch index, rng, x float32, y int64) of one epoch from batch `start`; worker `rank` of `workers`."""
        for b, idx in epoch_indices(len(self), epoch, batch_size, seed, rank, workers, start):
            rng = np.random.RandomState([seed, epoch, b, 1 + rank])
            yield b, rng, self._prepare(idx, rng if self.augment in self.drawing else None), self.labels[idx]

    def eval_batches(self, batch_size):
        for at in range(0, len(self), batch_size):
            yield self._prepare(np.arange(at, min(at + batch_size, len(self))), None), self.labels[at:at + batch_size]


class ArrayData(Batches):
    """uint8 images (N, H, W) or (N, C, H, W) and int labels; yields normalized float32 NCHW batches.

    `size` zero-pads every image to size x size, centered (28x28 Fashion-MNIST to the 32x32 a CIFAR net expects).
    `augment` 'crop_flip' pads by `pad` more, crops a random size x size window back and flips half the images;
    'crop' does the same without the flip.

    >>> d = ArrayData(np.full((4, 2, 2), 255, np.uint8), [0, 1, 0, 1], mean=(0.5,), std=(0.5,), size=4)
    >>> x, y = next(d.eval_batches(2))
    >>> x.shape, x[0, 0, :, 1].tolist(), y.tolist()
    ((2, 1, 4, 4), [-1.0, 1.0, 1.0, -1.0], [0, 1])
    """

    drawing = ('crop', 'crop_flip')

    def __init__(self, images, labels, mean, std, size=None, augment='none', pad=2):
        if images.ndim == 3:
            images = images[:, None]
        self.images, self.labels = images, np.asarray(labels, dtype=np.int64)
        self.mean, self.std = tuple(mean), tuple(std)
        self.size = size or images.shape[-1]
        self.augment, self.pad = augment, pad

    def _prepare(self, idx, rng):
        n, c = len(idx), self.images.shape[1]
        size = (self.size, self.size)
        if rng is not None:
            p = self.pad
            dy, dx = rng.randint(0, 2 * p + 1, n), rng.randint(0, 2 * p + 1, n)
            flip = rng.rand(n) < 0.5
        out = np.empty((n, c, self.size, self.size), np.float32)
        for k, i in enumerate(idx):
            img = T.pad_to(self.images[i].transpose(1, 2, 0), size)
            if rng is not None:
                img = T.crop(T.zero_pad(img, p, p, p, p), dy[k], dx[k], size)
                img = T.hflip(img) if flip[k] and self.augment == 'crop_flip' else img
            out[k] = T.normalize(img, self.mean, self.std)
        return out
