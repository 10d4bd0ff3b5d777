"""gluonzoo.cv.data's samplers (SplitSampler, ShuffleSplitSampler, SplitSortedBucketSampler), pad batchify functions,
DetectionDataLoader and RandomTransformDataLoader (with workers too) against GluonCV 0.10's (the peers venv, one
run): the same calls under the same seeds (tests/peers/cv_loading_cases.py) give the same epochs, batches and shapes."""
import json
import warnings

import mxnet as mx
import pytest

from gluonzoo.cv import data
from gluonzoo.cv.data import dataloader, sampler
from gluonzoo.errors import BadInputError
from tests.peers import run_peer
from tests.peers.cv_loading_cases import cases


def test_same_epochs_and_batches_as_gluoncv(tmp_path):
    run_peer('gluoncv_loading.py', tmp_path, [{}], timeout=120)
    want = json.loads((tmp_path / 'loading.json').read_text())
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # DetectionDataLoader's deprecation warning, GluonCV's too
        got = json.loads(json.dumps(cases(sampler, dataloader, data)))
    assert sorted(got) == sorted(want)
    for key in want:
        assert got[key] == want[key], key


def test_bucket_sampler_refuses_bad_settings():
    with pytest.raises(BadInputError, match='batch_size > 0'):
        sampler.SplitSortedBucketSampler([1.0, 2.0], 0)


def test_random_transform_loader_needs_a_transform():
    with pytest.raises(BadInputError, match='at least one transform function'):
        data.RandomTransformDataLoader([], mx.gluon.data.SimpleDataset([1, 2]), batch_size=1)
