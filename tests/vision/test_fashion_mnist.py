"""The Fashion-MNIST idx reader on the real Debian files, and on damaged copies."""
import gzip

import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision.data import load_fashion_mnist, read_idx


def test_real_test_split():
    x, y = load_fashion_mnist('test')
    assert x.shape == (10000, 28, 28) and x.dtype == np.uint8
    assert y.shape == (10000,) and set(np.unique(y)) == set(range(10))
    assert np.bincount(y).tolist() == [1000] * 10  # the test split is balanced
    assert 0 < x.mean() < 255


def test_damaged_files(tmp_path):
    good = tmp_path / 'a.gz'
    with gzip.open(good, 'wb') as f:
        f.write(bytes([0, 0, 8, 1]) + (3).to_bytes(4, 'big') + bytes([1, 2, 3]))
    assert read_idx(good).tolist() == [1, 2, 3]
    cut = tmp_path / 'cut'
    cut.write_bytes(bytes([0, 0, 8, 1]) + (5).to_bytes(4, 'big') + bytes([1, 2]))
    with pytest.raises(BadInputError, match='truncated'):
        read_idx(cut)
    (tmp_path / 'bad').write_bytes(b'GIF89a')
    with pytest.raises(BadInputError, match='bad magic'):
        read_idx(tmp_path / 'bad')
    with pytest.raises(BadInputError, match='dataset-fashion-mnist'):
        load_fashion_mnist('test', root=str(tmp_path))
    with pytest.raises(ValueError, match='split'):
        load_fashion_mnist('val')
