"""scripts/vision/pose/train.py from the command line on a tiny COCO keypoints folder the figure generator wrote
(64x64 scenes, 128x96 crops): every epoch logs the OKS AP and the heatmap accuracy, the loss falls, a killed run
resumes to the same bytes; the loss and its gradient are GluonCV's (MXNet's L2Loss with the target weights); bad
options are refused before training; the recipe's net starts from the real ImageNet MobileNetV2."""
import os

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.train import TrainConfig
from gluonzoo.train.datasets import load_task
from gluonzoo.vision.data.figures import FigureSpec, make_figures
from gluonzoo.vision.meta import COCO_KEYPOINTS
from gluonzoo.vision.train.pose import build_pose_net, pose_loss

from .helpers import ROOT, read_log, records, run_script, sha1

RECIPE = os.path.join(ROOT, 'scripts', 'vision', 'pose', 'train.py')
POSE = 'mobile_pose_mobilenetv2_1.0'
# no ImageNet body, batches of 4 people, 3 epochs: a couple of seconds an epoch
TINY = ['--model-kwargs', '{"pretrained_base": false}', '--batch-size', '4', '--epochs', '3', '--progress', '0']


def run(*args, ok=True):
    return run_script(RECIPE, *args, ok=ok)


@pytest.fixture(scope='module')
def folder(tmp_path_factory):
    """Figures as a COCO keypoints folder: trainval 6 scenes, test 3, 64x64, 1-2 figures each."""
    root = tmp_path_factory.mktemp('pose') / 'figures'
    make_figures(root, FigureSpec(train=5, val=1, test=3, size=64, max_figures=2))
    return root


@pytest.fixture(scope='module')
def pose_run(folder, tmp_path_factory):
    out = tmp_path_factory.mktemp('mobile_pose') / 'run'
    run('--dataset', f'coco_keypoints:{folder}', *TINY, '--out', str(out))
    return out


def test_mobile_pose_logs_oks_ap_and_resumes_to_the_same_bytes(folder, pose_run):
    log = read_log(pose_run / 'train.jsonl')
    head, final = log[0], log[-1]
    data = head['dataset']
    assert data['name'] == f'coco_keypoints:{folder}' and data['joints'] == list(COCO_KEYPOINTS)
    assert (data['train_split'], data['eval_split']) == ('trainval', 'test')
    assert (data['input_size'], data['heatmap_size']) == ([128, 96], [32, 24])
    assert head['config']['model'] == POSE and head['config']['optimizer'] == 'adam'
    assert head['config']['augment'] == 'crop_flip' and head['config']['data_shape'] == 128
    epochs = [r for r in log if r['type'] == 'epoch']
    assert [r['epoch'] for r in epochs] == [1, 2, 3]
    for r in epochs:
        assert set(r['eval']) == {'AP', 'AP50', 'AP75', 'APm', 'APl', 'AR', 'heatmap_accuracy'}
        assert 0 <= r['eval']['AP'] <= 1 and 0 <= r['eval']['heatmap_accuracy'] <= 1
    assert epochs[-1]['train']['loss'] < epochs[0]['train']['loss']
    assert final['split'] == 'test' and final['metrics'] == epochs[-1]['eval']
    weights = pose_run / final['weights_file']
    assert sha1(weights) == final['weights_sha1']
    net = gz.get_model(POSE)
    net.load_parameters(str(weights))  # strictly: what was trained is that net
    # as if killed in epoch 3: the resumed run ends with the same bytes and the same records
    before = records(pose_run / 'train.jsonl')
    os.remove(pose_run / 'epoch-0003.ckpt')
    os.remove(weights)
    run('--dataset', f'coco_keypoints:{folder}', *TINY, '--out', str(pose_run), '--resume')
    assert sha1(weights) == final['weights_sha1']
    assert records(pose_run / 'train.jsonl') == before


def test_the_loss_and_its_gradient_are_gluoncvs():
    rng = np.random.RandomState(0)
    pred, target = rng.rand(3, 17, 8, 6).astype(np.float32), rng.rand(3, 17, 8, 6).astype(np.float32)
    weight = (rng.rand(3, 17, 1, 1) > 0.3).astype(np.float32)
    mine, theirs = mx.nd.array(pred), mx.nd.array(pred)
    for x in (mine, theirs):
        x.attach_grad()
    with mx.autograd.record():
        loss = pose_loss(mine, mx.nd.array(target), mx.nd.array(weight))
        ref = mx.gluon.loss.L2Loss()(theirs, mx.nd.array(target), mx.nd.array(weight))  # GluonCV's script's
    loss.backward()
    ref.backward()
    want = 0.5 * ((pred * weight - target * weight) ** 2).mean(axis=(1, 2, 3))
    np.testing.assert_allclose(loss.asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(loss.asnumpy(), ref.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(mine.grad.asnumpy(), theirs.grad.asnumpy(), rtol=1e-5, atol=1e-9)


def test_bad_options_are_refused_before_training(folder, tmp_path):
    def task(**kw):
        return load_task(TrainConfig(model=POSE, dataset=f'coco_keypoints:{folder}', **kw))
    with pytest.raises(BadInputError, match='--mixup are image-classification options'):
        task(mixup=0.2)
    with pytest.raises(BadInputError, match='--classes: pose training learns the joints'):
        task(classes=['a'])
    with pytest.raises(BadInputError, match='--val-limit: the OKS AP is measured over every person'):
        task(val_limit=2)
    with pytest.raises(BadInputError, match='H must be a multiple of 16'):
        task(data_shape=100)
    with pytest.raises(BadInputError, match='is not a pose-estimation model'):
        load_task(TrainConfig(model='mobilenetv2_1.0', dataset=f'coco_keypoints:{folder}'))
    with pytest.raises(BadInputError, match='no .*person_keypoints_trainval|train.json'):
        load_task(TrainConfig(model=POSE, dataset=f'coco_keypoints:{tmp_path}'))
    # the net must fit the data: its joints and the heatmaps it makes of the crop
    t = task(data_shape=144)
    with pytest.raises(BadInputError, match='the net predicts 5 joints, the data labels 17'):
        t.settle(gz.get_model(POSE, num_joints=5), mx.cpu())
    with pytest.raises(BadInputError, match='makes 40x32 heatmaps of a 144x108 crop, not 36x27'):
        net = gz.get_model(POSE)
        net.initialize()
        t.settle(net, mx.cpu())
    # and from the command line: one line, exit 2, nothing trained
    p = run('--dataset', f'coco_keypoints:{folder}', '--mixup', '0.2', '--out', str(tmp_path / 'never'), ok=False)
    assert p.returncode == 2 and p.stderr.startswith('train.py: error: --mixup are image-classification options')
    assert not (tmp_path / 'never').exists()


def test_the_recipe_net_starts_from_the_imagenet_mobilenetv2(pretrained_home):
    net = build_pose_net(TrainConfig(model=POSE, data_shape=128), COCO_KEYPOINTS)
    body = gz.get_model('mobilenetv2_1.0', pretrained=True)
    mine, theirs = net._collect_params_with_prefix(), body._collect_params_with_prefix()
    shared = [k for k in mine if k.startswith('features.')]
    assert shared and all(k.replace('features.0.', 'features.', 1) in theirs for k in shared)
    for k in shared:
        np.testing.assert_array_equal(mine[k].data().asnumpy(), theirs[k.replace('features.0.', 'features.', 1)]
                                      .data().asnumpy())
    assert net(mx.nd.zeros((1, 3, 128, 96))).shape == (1, 17, 32, 24)
