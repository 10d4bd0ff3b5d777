"""gluonzoo.cv.data.MixupDetection against GluonCV 0.10's (the peers venv, one run): the same samples, the same
np.random.seed, the same blended images (uint8) and weighted labels; without mixup, weights of 1."""
import mxnet as mx
import numpy as np
import pytest

from gluonzoo.cv import data
from gluonzoo.errors import BadInputError
from tests.peers import run_peer


def test_mixup_is_gluoncvs(tmp_path):
    rng = np.random.RandomState(1)
    samples = {}
    for i, (h, w, n) in enumerate([(20, 30, 2), (25, 18, 1), (12, 12, 3)]):
        samples[f'img_{i}'] = rng.randint(0, 256, size=(h, w, 3)).astype(np.uint8)
        samples[f'label_{i}'] = rng.uniform(0, 10, size=(n, 5)).astype(np.float32)
    np.savez(tmp_path / 'samples.npz', **samples)
    run_peer('gluoncv_mixup.py', tmp_path, [{}], timeout=120)
    ref = np.load(tmp_path / 'mixup.npz')
    dataset = [(mx.nd.array(samples[f'img_{i}'], dtype='uint8'), samples[f'label_{i}']) for i in range(3)]
    mix = data.MixupDetection(dataset, np.random.beta, 1.5, 1.5)
    np.random.seed(0)
    got = [mix[i] for i in range(3)]
    mix.set_mixup(None)
    got += [mix[i] for i in range(3)]
    for k, (img, label) in enumerate(got):
        kind, i = ('mix', k) if k < 3 else ('plain', k - 3)
        assert img.dtype == np.uint8
        np.testing.assert_array_equal(img.asnumpy(), ref[f'{kind}_img_{i}'])
        np.testing.assert_allclose(label, ref[f'{kind}_label_{i}'], rtol=1e-7)


def test_one_sample_cannot_be_mixed():
    mix = data.MixupDetection([(mx.nd.zeros((4, 4, 3), dtype='uint8'), np.zeros((1, 5)))], lambda: 0.5)
    with pytest.raises(BadInputError, match='at least two samples'):
        mix[0]
