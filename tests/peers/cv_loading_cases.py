"""GluonCV's sampler and loader calls of tests/compat/test_cv_loading.py, written once for both sides: `cases(sampler,
dataloader, data)` runs them through the given modules (gluoncv's in the peers venv, gluonzoo.cv's in ours) under
fixed seeds and returns {case: plain list}."""
import random

import mxnet as mx
import numpy as np


def _double(x, y):  # module-level: the workers unpickle them
    return x * 2, y


def _negate(x, y):
    return -x, y + 100


def _epochs(s, n=3):
    return [[int(i) if not isinstance(i, list) else [int(j) for j in i] for i in s] for _ in range(n)]


def cases(sampler, dataloader, data):
    out = {}
    random.seed(3)
    np.random.seed(3)
    for args in ((10, 3, 1), (7, 1, 0), (9, 2, 1)):
        out[f'split{args}'] = _epochs(sampler.SplitSampler(*args)) + [len(sampler.SplitSampler(*args))]
        out[f'shuffle_split{args}'] = _epochs(sampler.ShuffleSplitSampler(*args, seed=5))
    keys = np.random.RandomState(0).uniform(0.5, 2, size=23).tolist()
    for kw in (dict(batch_size=4, mult=2), dict(batch_size=3, mult=3, shuffle=True),
               dict(batch_size=2, mult=1, num_parts=3, part_index=2, shuffle=True, seed=9),
               dict(batch_size=5, num_parts=2, part_index=0)):
        s = sampler.SplitSortedBucketSampler(keys, **kw)
        out[f'bucket{sorted(kw.items())}'] = _epochs(s) + [len(s)]
    labels = [np.arange(10).reshape(2, 5).astype('float32'), np.ones((1, 5), 'float32'), np.zeros((0, 5), 'float32')]
    imgs = [mx.nd.array(np.full((2, 3), i)) for i in range(3)]
    for name in ('default_pad_batchify_fn', 'default_mp_pad_batchify_fn'):
        fn = getattr(dataloader, name)
        batch = fn(list(zip(imgs, labels)))
        out[name] = [b.asnumpy().tolist() for b in batch] + [str(batch[1].dtype), fn(labels[2:]).shape]
    tsn = dataloader.tsn_mp_batchify_fn(list(zip(imgs, [1, 2, 0])))
    out['tsn'] = [t.asnumpy().tolist() for t in tsn]
    loader = data.DetectionDataLoader(list(zip(imgs, labels)), batch_size=2)
    out['loader'] = [[b.shape for b in batch] for batch in loader]
    samples = [(mx.nd.array(np.full((2,), i, 'float32')), i) for i in range(11)]
    for kw in (dict(batch_size=3, interval=1), dict(batch_size=2, interval=2, shuffle=True, last_batch='discard'),
               dict(batch_size=4, interval=1, num_workers=2)):
        np.random.seed(7)
        loader = data.RandomTransformDataLoader([_double, _negate], mx.gluon.data.SimpleDataset(samples), **kw)
        out[f'random_transform{sorted(kw.items())}'] = [
            [[b.asnumpy().tolist() for b in batch] for batch in loader] for _ in range(2)] + [len(loader)]
    return out
