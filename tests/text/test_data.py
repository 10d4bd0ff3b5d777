"""Batchify functions and bucket samplers give GluonNLP 0.10's results (run side by side), bad input one error."""
import collections
import json
import random
import warnings

import mxnet as mx
import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.text.data import (Dict, FixedBucketSampler, List, NamedTuple, Pad, SortedBucketSampler, Stack, Tuple,
                                exp_width_buckets, linear_width_buckets)

from ..peers import run_peer

rng = random.Random(0)
LENGTHS = [rng.randint(1, 60) for _ in range(300)]
PAIRS = [(rng.randint(1, 40), rng.randint(1, 50)) for _ in range(200)]
SEQS = [[rng.randint(0, 99) for _ in range(rng.randint(1, 9))] for _ in range(7)]
MATS = [[[rng.random() for _ in range(3)] for _ in range(rng.randint(1, 5))] for _ in range(4)]
JOBS = [
    dict(id='pad', kind='pad', kwargs=dict(pad_val=0), data=SEQS),
    dict(id='pad_len_round', kind='pad', kwargs=dict(pad_val=-1, ret_length=True, round_to=8), data=SEQS),
    dict(id='pad_int32', kind='pad', kwargs=dict(pad_val=3, dtype='int32'), data=SEQS),
    dict(id='pad_np_int64', kind='pad', kwargs=dict(pad_val=1), data=SEQS, numpy='int64'),
    dict(id='pad_2d', kind='pad', kwargs=dict(pad_val=0.5, ret_length=True), data=MATS, numpy='float32'),
    dict(id='pad_axis1', kind='pad', kwargs=dict(axis=1, pad_val=0),
         data=[np.array(m, dtype='float32').T.tolist() for m in MATS], numpy='float32'),
    dict(id='stack', kind='stack', kwargs={}, data=[[1, 2, 3], [4, 5, 6]]),
    dict(id='stack_f', kind='stack', kwargs=dict(dtype='float16'), data=[[1.5, 2], [4, 5]]),
    dict(id='fixed', kind='fixed', kwargs=dict(batch_size=16, num_buckets=7), data=LENGTHS),
    dict(id='fixed_ratio', kind='fixed', kwargs=dict(batch_size=8, num_buckets=5, ratio=0.5), data=LENGTHS),
    dict(id='fixed_avg', kind='fixed', kwargs=dict(batch_size=200, num_buckets=6, use_average_length=True),
         data=LENGTHS),
    dict(id='fixed_shuffle', kind='fixed', kwargs=dict(batch_size=16, num_buckets=7, shuffle=True), data=LENGTHS,
         seed=3),
    dict(id='fixed_pairs', kind='fixed', kwargs=dict(batch_size=10, num_buckets=4), data=PAIRS),
    dict(id='fixed_keys', kind='fixed', kwargs=dict(batch_size=20, bucket_keys=[20, 40, 60], num_buckets=None),
         data=LENGTHS),
    dict(id='fixed_shards', kind='fixed', kwargs=dict(batch_size=16, num_buckets=7, num_shards=3), data=LENGTHS),
    dict(id='fixed_linear', kind='fixed', kwargs=dict(batch_size=16, num_buckets=6, scheme='linear'), data=LENGTHS),
    dict(id='fixed_exp', kind='fixed', kwargs=dict(batch_size=16, num_buckets=6, scheme='exp:1.3'), data=LENGTHS),
    dict(id='fixed_exp_pairs', kind='fixed', kwargs=dict(batch_size=10, num_buckets=4, scheme='exp:1.2'),
         data=PAIRS),
    dict(id='sorted', kind='sorted', kwargs=dict(batch_size=12, mult=5), data=LENGTHS),
    dict(id='sorted_shuffle', kind='sorted', kwargs=dict(batch_size=12, mult=5, shuffle=True), data=LENGTHS, seed=5),
]


@pytest.fixture(scope='module')
def gluonnlp_results(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluonnlp_data')
    run_peer('gluonnlp_data.py', out, JOBS)
    return json.loads((out / 'data.json').read_text())


def _ours(job):
    data = [np.array(d, dtype=job['numpy']) for d in job['data']] if job.get('numpy') else job['data']
    kind, kw = job['kind'], job['kwargs']
    if kind in ('pad', 'stack'):
        res = (Pad if kind == 'pad' else Stack)(**kw)(data)
        return [[r.asnumpy().tolist(), np.dtype(r.dtype).name] for r in (res if isinstance(res, tuple) else (res,))]
    np.random.seed(job.get('seed', 0))
    kw = dict(kw)
    scheme = kw.pop('scheme', None)
    if scheme == 'linear':
        kw['bucket_scheme'] = linear_width_buckets
    elif scheme:
        kw['bucket_scheme'] = exp_width_buckets(float(scheme.split(':')[1]))
    with warnings.catch_warnings():  # empty-bucket / ratio notes
        warnings.simplefilter('ignore')
        sampler = (FixedBucketSampler if kind == 'fixed' else SortedBucketSampler)(data, **kw)
    epochs = [[[list(map(int, b)) for b in batch] if kw.get('num_shards') else list(map(int, batch))
               for batch in sampler] for _ in range(2)]
    return {'epochs': epochs, 'len': len(sampler)}


@pytest.mark.parametrize('job', JOBS, ids=[j['id'] for j in JOBS])
def test_same_as_gluonnlp(gluonnlp_results, job):
    theirs, ours = gluonnlp_results[job['id']], _ours(job)
    if job['kind'] in ('pad', 'stack'):
        assert len(ours) == len(theirs)
        for (v, d), (tv, td) in zip(ours, theirs):
            np.testing.assert_allclose(np.array(v, dtype='float64'), np.array(tv, dtype='float64'), rtol=1e-6)
            assert d == np.dtype(td).name, job['id']
    else:
        assert ours == theirs


def test_samplers_cover_every_sample_once():
    s = FixedBucketSampler(LENGTHS, batch_size=16, num_buckets=7, shuffle=True)
    for _ in range(2):
        seen = sorted(i for batch in s for i in batch)
        assert seen == list(range(len(LENGTHS)))
    assert len(list(s)) == len(s)
    assert 'batch_size=' in s.stats()
    batches = list(SortedBucketSampler(LENGTHS, batch_size=10, mult=3, shuffle=True))
    assert sorted(i for b in batches for i in b) == list(range(len(LENGTHS)))
    for b in batches:
        assert len(b) <= 10


def test_containers():
    S = collections.namedtuple('S', 'ids label')
    out = NamedTuple(S, [Pad(pad_val=0), Stack()])([S([1, 2], 1), S([3], 0)])
    assert isinstance(out, S) and out.ids.shape == (2, 2)
    d = Dict({'ids': Pad(pad_val=9, ret_length=True), 'text': List()})([{'ids': [1], 'text': 'a'},
                                                                        {'ids': [1, 2], 'text': 'b'}])
    assert d['text'] == ['a', 'b'] and d['ids'][0].asnumpy().tolist() == [[1, 9], [1, 2]]
    nd = Pad(pad_val=0)([mx.nd.array([1, 2], dtype='int32'), mx.nd.array([3], dtype='int32')])
    assert nd.dtype == np.int32 and nd.asnumpy().tolist() == [[1, 2], [3, 0]]
    assert Stack()([mx.nd.ones((2,)), mx.nd.zeros((2,))]).shape == (2, 2)
    assert Tuple([Stack(), List()])([(1, 'x'), (2, 'y')])[1] == ['x', 'y']


def test_bad_input():
    with pytest.raises(BadInputError, match='one shape'):
        Stack()([[1, 2], [3]])
    with pytest.raises(BadInputError, match='empty batch'):
        Pad()([])
    with pytest.raises(BadInputError, match='only axis 0 may differ'):
        Pad()([np.zeros((2, 3)), np.zeros((1, 4))])
    with pytest.raises(BadInputError, match='2 functions but a sample has'):
        Tuple(Stack(), Stack())([(1, 2, 3)])
    with pytest.raises(BadInputError, match='not a batchify function'):
        Tuple(Stack(), 3)
    with pytest.raises(BadInputError, match='lack the key'):
        Dict({'a': Stack()})([{'b': 1}])
    with pytest.raises(BadInputError, match='fit no bucket'):
        FixedBucketSampler([5, 50], batch_size=2, bucket_keys=[10, 20], num_buckets=None)
    with pytest.raises(BadInputError, match='> 0'):
        FixedBucketSampler([0, 3], batch_size=2)
    with pytest.raises(BadInputError, match='no lengths'):
        FixedBucketSampler([], batch_size=2)
