"""Every checkpoint gluonzoo trained and ships loads with get_model and passes `gluonzoo verify` against its log;
a log whose metric the checkpoint does not reproduce fails verify."""
import dataclasses
import json

import mxnet as mx
import pytest

import gluonzoo as gz
from gluonzoo.cli import main as cli
from gluonzoo.logs import log_path
from gluonzoo.registry import get_entry
from gluonzoo.train import TrainConfig
from gluonzoo.train.datasets import load_task

from ..conftest import registered

SHIPPED = [n for n in gz.list_models(tags=True) if gz.get_weights(n).source.kind == 'file']


def test_the_fashion_mnist_checkpoint_is_shipped():
    assert 'cifar_resnet20_v1.fmnist' in SHIPPED


@pytest.mark.parametrize('name', SHIPPED)
def test_shipped_checkpoint_loads_and_verifies(name, capsys):
    w = gz.get_weights(name)
    assert w.log and w.recipe and w.check.get('log')
    net = gz.get_model(name, pretrained=True)
    assert net.weights is w
    assert cli(['verify', name]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert f'{name}: verified' in out and 'the log says' in out


def test_verify_fails_when_the_log_disagrees(tmp_path, capsys):
    w = gz.get_weights('cifar_resnet20_v1.fmnist')
    with open(log_path(w)) as f:
        records = [json.loads(line) for line in f]
    # a log that claims 5 points more on the first 500 test images than the checkpoint scores there
    records[0]['config']['val_limit'] = 500
    fake = tmp_path / 'claims_more.jsonl'
    net = gz.get_model(w.name, pretrained=True)
    true = load_task(TrainConfig.from_dict(records[0]['config'])).evaluate(net, mx.cpu())['top1']
    records[-1]['metrics']['top1'] = true + 0.05
    fake.write_text(''.join(json.dumps(r) + '\n' for r in records))
    arch = 'cifar_resnet20_v1_claims_more'
    record = dataclasses.replace(w, arch=arch, log=str(fake), default=True)
    with registered(arch, get_entry(w.arch).builder, task=w.task, weights=[record],
                    protected=('in_channels',)):
        assert cli(['verify', f'{arch}.{w.tag}']) == 1
        captured = capsys.readouterr()
        assert 'DIFFERS' in captured.out and 'failed 1 check' in captured.err


def test_file_source_records_are_checked_and_a_missing_file_is_named():
    from gluonzoo import store
    from gluonzoo.errors import WeightsNotFoundError
    from gluonzoo.weights import Source, Weights
    base = dict(arch='x', tag='t', sha1='0' * 40, task='image-classification', num_params=1)
    with pytest.raises(ValueError, match='a file source needs package and file'):
        Weights(source=Source(kind='file', file='weights/x.params'), **base)
    w = Weights(source=Source(kind='file', package='gluonzoo.vision', file='weights/x-00000000.params'), **base)
    with pytest.raises(WeightsNotFoundError, match='weights/x-00000000.params is missing from gluonzoo.vision'):
        store.fetch(w, progress=False)


def test_shipped_file_with_the_wrong_sha1_is_refused(tmp_path):
    from gluonzoo import store
    from gluonzoo.errors import ChecksumError
    w = dataclasses.replace(gz.get_weights('cifar_resnet20_v1.fmnist'), sha1='1' * 40)
    with pytest.raises(ChecksumError, match='the record says'):
        store.fetch(w, root=tmp_path, progress=False)
