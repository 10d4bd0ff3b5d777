"""Fashion-MNIST from the Debian package `dataset-fashion-mnist` (idx files, gzip), read with numpy.

The idx format (LeCun's MNIST layout): a big-endian header `0x00 0x00 <dtype code> <ndim>`, then `ndim` big-endian
uint32 sizes, then the data. Fashion-MNIST uses dtype 0x08 (uint8) for both images (3 dims) and labels (1 dim).
"""
import gzip
import os

import numpy as np
from mxnet.gluon.data import Dataset

from ...errors import BadInputError
from ..meta import FASHION_MNIST

#: where `apt-get install dataset-fashion-mnist` puts the files; $GLUONZOO_FASHION_MNIST overrides it
ROOT = '/usr/share/datasets/fashion-mnist'
CLASSES = FASHION_MNIST  # vision/assets/fashion_mnist_classes.txt
_FILES = {'train': ('train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz'),
          'test': ('t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz')}


def read_idx(path):
    """An idx file (plain or .gz) as a numpy uint8 array of the shape its header declares."""
    path = os.fspath(path)
    opener = gzip.open if path.endswith('.gz') else open
    try:
        with opener(path, 'rb') as f:
            data = f.read()
    except FileNotFoundError:
        raise BadInputError(f'{path} is missing: install the Debian package dataset-fashion-mnist '
                            f'(apt-get install dataset-fashion-mnist) or set $GLUONZOO_FASHION_MNIST') from None
    except (OSError, EOFError) as e:
        raise BadInputError(f'{path} is not a readable idx file: {e}') from None
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] != 0x08:
        raise BadInputError(f'{path} is not a uint8 idx file (bad magic {data[:4].hex()})')
    ndim = data[3]
    shape = tuple(int(d) for d in np.frombuffer(data, '>u4', count=ndim, offset=4))
    offset = 4 + 4 * ndim
    if len(data) - offset != int(np.prod(shape)):
        raise BadInputError(f'{path}: header says {shape} ({int(np.prod(shape))} bytes), '
                            f'file has {len(data) - offset} (truncated?)')
    return np.frombuffer(data, np.uint8, offset=offset).reshape(shape)


def load_fashion_mnist(split='train', root=None):
    """(images uint8 Nx28x28, labels int64 N) of split 'train' (60000) or 'test' (10000)."""
    if split not in _FILES:
        raise ValueError(f'Fashion-MNIST split {split!r} is not one of {sorted(_FILES)}')
    root = root or os.environ.get('GLUONZOO_FASHION_MNIST') or ROOT
    images, labels = (read_idx(os.path.join(root, f)) for f in _FILES[split])
    if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
        raise BadInputError(f'{root}: {split} images {images.shape} and labels {labels.shape} do not pair up')
    return images, labels.astype(np.int64)


class FashionMNIST(Dataset):
    """Fashion-MNIST `split` as a Gluon-style dataset of (28x28 uint8 image, label); `transform(img)` optional."""

    def __init__(self, split='train', transform=None, root=None):
        self.images, self.labels = load_fashion_mnist(split, root)
        self._transform, self.classes = transform, list(CLASSES)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        img = self.images[idx]
        return (self._transform(img) if self._transform else img), int(self.labels[idx])
