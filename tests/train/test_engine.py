"""Config strictness, LR schedules, the data order, and the bad inputs a recipe meets before training."""
import json
import math
import os

import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.train import TrainConfig, lr_at, parse_args
from gluonzoo.vision.data import ArrayData

from .helpers import recipe_main


def test_unknown_config_key_names_the_closest():
    with pytest.raises(BadInputError, match="unknown training config key 'lr_mod'; did you mean 'lr_mode'"):
        TrainConfig.from_dict({'lr_mod': 'cosine'})


def test_unknown_flag_and_file_key_name_the_closest(tmp_path):
    with pytest.raises(BadInputError, match="unknown option '--label-smooth'; did you mean '--label-smoothing'"):
        parse_args(['--label-smooth', '0.1'])
    cfg_file = tmp_path / 'c.json'
    cfg_file.write_text(json.dumps({'batchsize': 64}))
    with pytest.raises(BadInputError, match="did you mean 'batch_size'"):
        parse_args(['--config', str(cfg_file)])


def test_flags_override_file_and_defaults(tmp_path):
    cfg_file = tmp_path / 'c.json'
    cfg_file.write_text(json.dumps({'lr': 0.5, 'epochs': 3}))
    cfg = parse_args(['--config', str(cfg_file), '--epochs', '4', '--lr-steps', '2,3'], {'lr': 0.2, 'seed': 5})
    assert (cfg.lr, cfg.epochs, cfg.seed, cfg.lr_steps) == (0.5, 4, 5, (2, 3))


@pytest.mark.parametrize('bad', [{'lr_mode': 'linear'}, {'augment': 'rotate'}, {'kvstore': 'dist_async'},
                                 {'label_smoothing': 1.0}])
def test_bad_values_are_rejected(bad):
    with pytest.raises(BadInputError, match='bad training config'):
        TrainConfig(**bad)


def test_lr_schedules():
    cos = TrainConfig(lr=0.1, epochs=10, lr_mode='cosine', warmup_epochs=2)
    assert lr_at(cos, 0) == 0 and lr_at(cos, 1) == pytest.approx(0.05) and lr_at(cos, 2) == pytest.approx(0.1)
    assert lr_at(cos, 6) == pytest.approx(0.05) and lr_at(cos, 10) == pytest.approx(0.0, abs=1e-12)
    step = TrainConfig(lr=0.1, epochs=10, lr_mode='step', lr_steps=(3, 6), lr_factor=0.1)
    assert [round(lr_at(step, t), 6) for t in (0, 2.9, 3, 5.5, 6, 9)] == [0.1, 0.1, 0.01, 0.01, 0.001, 0.001]
    assert lr_at(TrainConfig(lr=0.3, lr_mode='constant'), 7.5) == 0.3
    assert math.isclose(lr_at(TrainConfig(lr=0.1, epochs=4, warmup_epochs=0.5), 0.25), 0.05)


def test_data_order_depends_only_on_seed_and_position():
    images = np.arange(40 * 4 * 4, dtype=np.uint8).reshape(40, 4, 4)
    data = ArrayData(images, np.arange(40), (0.5,), (0.5,), augment='crop_flip', pad=1)
    full = [(b, x, y) for b, _, x, y in data.batches(2, 8, seed=3)]
    resumed = [(b, x, y) for b, _, x, y in data.batches(2, 8, seed=3, start=2)]
    assert [b for b, *_ in full] == [0, 1, 2, 3, 4] and len(resumed) == 3
    for (b1, x1, y1), (b2, x2, y2) in zip(full[2:], resumed):
        assert b1 == b2 and np.array_equal(x1, x2) and np.array_equal(y1, y2)
    other_epoch = [y for _, _, _, y in data.batches(3, 8, seed=3)]
    assert not all(np.array_equal(a[2], b) for a, b in zip(full, other_epoch))
    # two workers split each global batch: disjoint samples, together one epoch's worth
    w0 = np.concatenate([y for *_, y in data.batches(2, 4, seed=3, rank=0, workers=2)])
    w1 = np.concatenate([y for *_, y in data.batches(2, 4, seed=3, rank=1, workers=2)])
    assert not set(w0) & set(w1) and len(w0) + len(w1) == 40


def test_missing_dataset_names_the_debian_package(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv('GLUONZOO_FASHION_MNIST', str(tmp_path / 'nowhere'))
    assert recipe_main(['--out', str(tmp_path / 'out')]) == 2
    err = capsys.readouterr().err
    assert 'dataset-fashion-mnist' in err and 'apt-get install' in err


def test_unknown_dataset_and_option_through_the_recipe(tmp_path, capsys):
    assert recipe_main(['--dataset', 'fashion-mnist', '--out', str(tmp_path)]) == 2
    assert "did you mean 'fashion_mnist'" in capsys.readouterr().err
    assert recipe_main(['--epoch', '2']) == 2
    assert "did you mean '--epochs'" in capsys.readouterr().err


def test_missing_opencv_digits_names_the_debian_package(tmp_path, monkeypatch):
    from gluonzoo.train.datasets import load_task
    monkeypatch.setenv('GLUONZOO_OPENCV_DIGITS', str(tmp_path / 'digits.png'))
    with pytest.raises(BadInputError, match='install the Debian package opencv-doc'):
        load_task(TrainConfig(dataset='opencv_digits'))


def test_checkpoint_write_is_atomic_and_restores_rng(tmp_path):
    import random

    import mxnet as mx
    from mxnet import gluon

    from gluonzoo.train import checkpoint as ckpt
    net = gluon.nn.Dense(3, in_units=2)
    net.initialize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    np.random.seed(4)
    random.seed(4)
    state = {'next': {'epoch': 1, 'batch': 0}, 'config': {'a': 1}, 'rng': ckpt.rng_state(), 'history': []}
    expect = np.random.rand(3), random.random()
    ckpt.save(ckpt.path_for(str(tmp_path), 1), net, trainer, state)
    assert os.listdir(tmp_path) == ['epoch-0001.ckpt']  # no temp file or folder left behind
    # what a crash in the middle of writing epoch 2 leaves: only temp names, which are never picked up
    (tmp_path / '.epoch-0002.ckpt-abc.part').write_bytes(b'half')
    (tmp_path / '.ckpt-xyz').mkdir()
    assert ckpt.latest(str(tmp_path)) == str(tmp_path / 'epoch-0001.ckpt')
    np.random.seed(0)
    random.seed(0)
    ckpt.restore(ckpt.latest(str(tmp_path)), net, trainer, {'a': 1}, mx.cpu())
    assert np.array_equal(np.random.rand(3), expect[0]) and random.random() == expect[1]
