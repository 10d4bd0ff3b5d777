"""scripts/vision/segmentation/train.py from the command line on a tiny VOC folder the scene generator wrote (64x64
digit scenes, SegmentationClass masks): the loss falls, every epoch logs pixAcc and mIoU, a killed run resumes to
the same bytes, two dist_sync workers end identical; the loss and its gradient are GluonCV's; the poly schedule;
bad options are refused before training; the recipe's net starts from the real ImageNet MobileNetV2."""
import json
import os
import sys

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.train import TrainConfig, lr_at
from gluonzoo.train.datasets import load_task
from gluonzoo.vision.data.scenes import SceneSpec, make_scenes
from gluonzoo.vision.meta import DIGITS
from gluonzoo.vision.train.segmentation import build_segmenter, segmentation_loss

from .helpers import LAUNCH, ROOT, read_log, records, run_script, sha1

RECIPE = os.path.join(ROOT, 'scripts', 'vision', 'segmentation', 'train.py')
FCN = 'fcn_mobilenetv2_1.0'
KWARGS = '{"pretrained_base": false, "crop_size": 64, "base_size": 64}'
# 64-pixel crops, batches of 4, no ImageNet body: about a second an epoch
TINY = ['--model-kwargs', KWARGS, '--batch-size', '4', '--progress', '0']
# GluonCV's optimizer and augmentation (the recipe's defaults are Adam, no augmentation)
GLUONCV = ['--optimizer', 'sgd', '--lr', '0.1', '--augment', 'crop_flip', '--epochs', '3']


def run(*args, ok=True):
    return run_script(RECIPE, *args, ok=ok)


@pytest.fixture(scope='module')
def folder(tmp_path_factory):
    """Digit scenes as a VOC folder: trainval 8 images, test 4, 64x64."""
    root = tmp_path_factory.mktemp('seg') / 'voc'
    make_scenes(root, SceneSpec(train=6, val=2, test=4, size=64, objects='digits'))
    return root


@pytest.fixture(scope='module')
def fcn_run(folder, tmp_path_factory):
    out = tmp_path_factory.mktemp('fcn') / 'run'
    run('--dataset', f'voc:{folder}', *TINY, *GLUONCV, '--out', str(out))
    return out


def test_fcn_learns_logs_pixacc_miou_and_resumes_to_the_same_bytes(folder, fcn_run):
    log = read_log(fcn_run / 'train.jsonl')
    head, final = log[0], log[-1]
    assert head['dataset']['name'] == f'voc:{folder}' and head['dataset']['classes'] == ['background', *DIGITS]
    assert head['dataset']['train_split'] == 'trainval' and head['dataset']['eval_split'] == 'test'
    assert (head['dataset']['train_size'], head['dataset']['eval_size'], head['dataset']['crop_size']) == (8, 4, 64)
    assert head['config']['lr_mode'] == 'poly' and head['config']['model'] == FCN
    assert head['config']['augment'] == 'crop_flip' and head['config']['optimizer'] == 'sgd'
    epochs = [r for r in log if r['type'] == 'epoch']
    assert [r['epoch'] for r in epochs] == [1, 2, 3]
    for r in epochs:
        assert set(r['train']) == {'loss', 'seg', 'aux'} and set(r['eval']) == {'pixAcc', 'mIoU'}
        assert 0 <= r['eval']['mIoU'] <= r['eval']['pixAcc'] <= 1
        assert r['train']['loss'] == pytest.approx(r['train']['seg'] + 0.2 * r['train']['aux'], rel=1e-5)
    assert epochs[-1]['train']['seg'] < epochs[0]['train']['seg']
    assert epochs[-1]['lr'] < 0.1 * (1 - 7 / 8 / 3) ** 0.9 * 1.01  # poly decay
    assert final['split'] == 'test' and final['metrics'] == epochs[-1]['eval']
    weights = fcn_run / final['weights_file']
    assert sha1(weights) == final['weights_sha1']
    net = gz.get_model(FCN, classes=['background', *DIGITS], **json.loads(KWARGS))
    net.load_parameters(str(weights))  # strictly: what was trained is that net
    # as if killed in epoch 3: the resumed run ends with the same bytes and the same records
    before = records(fcn_run / 'train.jsonl')
    os.remove(fcn_run / 'epoch-0003.ckpt')
    os.remove(weights)
    run('--dataset', f'voc:{folder}', *TINY, *GLUONCV, '--out', str(fcn_run), '--resume')
    assert sha1(weights) == final['weights_sha1']
    assert records(fcn_run / 'train.jsonl') == before


def test_two_workers_train_to_the_same_bytes(folder, tmp_path):
    out = tmp_path / 'dist'
    worker = [sys.executable, RECIPE, '--dataset', f'voc:{folder}', *TINY, '--batch-size', '2', '--epochs', '1',
              '--kvstore', 'dist_sync', '--out', str(out)]
    run_script(LAUNCH, '-n', '2', '-s', '1', '--timeout', '240', '--', *worker)
    head, final = read_log(out / 'train.jsonl')[0], read_log(out / 'train.jsonl')[-1]
    assert head['config']['kvstore'] == 'dist_sync' and head['dataset']['train_size'] == 8
    assert sha1(out / final['weights_file']) == sha1(out / 'worker-1.params') == final['weights_sha1']


def test_the_loss_and_its_gradient_are_gluoncvs():
    rng = np.random.RandomState(0)
    scores = [mx.nd.array(rng.randn(2, 3, 4, 5)) for _ in range(2)]
    label = rng.randint(-1, 3, (2, 4, 5)).astype(np.float32)
    for s in scores:
        s.attach_grad()
    with mx.autograd.record():
        total, parts = segmentation_loss(scores, mx.nd.array(label))
    total.backward()
    valid = label >= 0
    for s, part in zip(scores, ('seg', 'aux')):  # mean cross-entropy over the labelled pixels
        logp = s.asnumpy() - np.log(np.exp(s.asnumpy()).sum(axis=1, keepdims=True))
        ce = -np.take_along_axis(logp, np.maximum(label, 0).astype(int)[:, None], axis=1)[:, 0]
        assert parts[part].asscalar() == pytest.approx(ce[valid].mean(), rel=1e-5)
    assert total.asscalar() == pytest.approx(parts['seg'].asscalar() + 0.2 * parts['aux'].asscalar(), rel=1e-6)
    # GluonCV's gradient: SoftmaxOutput (normalization 'valid', -1 ignored) backward; the auxiliary one x 0.2
    for s, weight in zip(scores, (1.0, 0.2)):
        x = s.copy()
        x.attach_grad()
        with mx.autograd.record():
            out = mx.nd.SoftmaxOutput(x, mx.nd.array(label), ignore_label=-1, multi_output=True, use_ignore=True,
                                      normalization='valid')
        out.backward()
        np.testing.assert_allclose(s.grad.asnumpy(), weight * x.grad.asnumpy(), rtol=1e-5, atol=1e-7)


def test_poly_schedule_is_gluoncvs():
    cfg = TrainConfig(lr=0.1, epochs=10, lr_mode='poly')
    assert [lr_at(cfg, t) for t in (0, 5, 10)] == [0.1, pytest.approx(0.1 * 0.5 ** 0.9), 0.0]
    warm = TrainConfig(lr=0.1, epochs=10, lr_mode='poly', warmup_epochs=2)
    assert lr_at(warm, 1) == pytest.approx(0.05) and lr_at(warm, 6) == pytest.approx(0.1 * 0.5 ** 0.9)


def test_bad_options_are_refused_before_training(folder, tmp_path):
    def task(**kw):
        return load_task(TrainConfig(model=FCN, dataset=f'voc:{folder}', model_kwargs=json.loads(KWARGS), **kw))
    with pytest.raises(BadInputError, match='--data-shape is for detection'):
        task(data_shape=64)
    with pytest.raises(BadInputError, match='--classes: segmentation trains every class'):
        task(classes=['0', '1'])
    with pytest.raises(BadInputError, match='--mixup are image-classification options'):
        task(mixup=0.2)
    # the net must fit the data: its classes and its crop
    t = task()
    with pytest.raises(BadInputError, match='the net predicts 21 classes, the data has 11'):
        t.settle(gz.get_model(FCN, pretrained_base=False, crop_size=64), mx.cpu())
    with pytest.raises(BadInputError, match='the net scores 32x32 maps, the data are 64-pixel crops'):
        t.settle(gz.get_model(FCN, classes=11, pretrained_base=False, crop_size=32), mx.cpu())
    # and from the command line: one line, exit 2, nothing trained
    p = run('--dataset', f'voc:{folder}', '--data-shape', '64', '--out', str(tmp_path / 'never'), ok=False)
    assert p.returncode == 2 and p.stderr.startswith('train.py: error: --data-shape is for detection')
    assert not (tmp_path / 'never').exists()


def test_the_recipe_net_starts_from_the_imagenet_mobilenetv2(pretrained_home):
    cfg = TrainConfig(model=FCN, model_kwargs={'crop_size': 64, 'base_size': 64})
    net = build_segmenter(cfg, ['background', *DIGITS])
    body = gz.get_model('mobilenetv2_1.0', pretrained=True)
    mine, theirs = net._collect_params_with_prefix(), body._collect_params_with_prefix()
    shared = [k for k in mine if k.startswith('features.')]
    assert len(shared) == len([k for k in theirs if k.startswith('features.') and int(k.split('.')[1]) <= 15])
    for k in shared:
        np.testing.assert_array_equal(mine[k].data().asnumpy(), theirs[k].data().asnumpy())
    assert net(mx.nd.zeros((1, 3, 64, 64)))[0].shape == (1, 11, 64, 64)
