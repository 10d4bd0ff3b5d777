"""Metrics against MXNet's own, the top-k PNG, and the eval script on real photos with real weights."""
import json
import os
import subprocess
import sys
from importlib import resources

import cv2
import mxnet as mx
import numpy as np
import pytest

from gluonzoo.vision.metrics import ConfusionMatrix, TopKAccuracy
from gluonzoo.vision.viz import save_topk

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ASSETS = resources.files('gluonzoo.vision').joinpath('assets')
EVAL = os.path.join(ROOT, 'scripts', 'vision', 'classification', 'eval.py')


def test_topk_matches_mxnet_metric():
    rng = np.random.default_rng(0)
    ours = TopKAccuracy((1, 5))
    ref1, ref5 = mx.metric.Accuracy(), mx.metric.TopKAccuracy(top_k=5)
    for _ in range(3):
        scores, labels = rng.random((40, 20)).astype(np.float32), rng.integers(0, 20, 40)
        ours.update(labels, scores)
        ref1.update([mx.nd.array(labels)], [mx.nd.array(scores)])
        ref5.update([mx.nd.array(labels)], [mx.nd.array(scores)])
    got = ours.results()
    assert got['top1'] == pytest.approx(ref1.get()[1]) and got['top5'] == pytest.approx(ref5.get()[1])
    with pytest.raises(ValueError, match='N x classes'):
        ours.update([1, 2], np.zeros((3, 4)))


def test_confusion_matrix_counts():
    rng = np.random.default_rng(1)
    labels, scores = rng.integers(0, 4, 100), rng.random((100, 4))
    cm = ConfusionMatrix(4)
    cm.update(labels[:50], scores[:50])
    cm.update(labels[50:], scores[50:])
    preds = scores.argmax(1)
    assert cm.matrix.sum() == 100 and cm.accuracy() == pytest.approx((preds == labels).mean())
    for t in range(4):
        assert cm.matrix[t].tolist() == [int(((labels == t) & (preds == p)).sum()) for p in range(4)]
    with pytest.raises(ValueError, match=r'in \[0, 4\)'):
        cm.update([5], [0])


def test_topk_png(tmp_path):
    path = save_topk(str(ASSETS.joinpath('chelsea.jpg')), [('Egyptian cat', 0.7), ('tabby', 0.2)],
                     tmp_path / 'top.png', height=200)
    img = cv2.imread(str(path))
    photo = cv2.imread(str(ASSETS.joinpath('chelsea.jpg')))
    w = round(photo.shape[1] * 200 / photo.shape[0])
    assert img.shape == (200, w + 360, 3)
    small = cv2.resize(photo, (w, 200), interpolation=cv2.INTER_AREA)
    assert np.abs(img[:, :w].astype(int) - small).mean() < 1.0  # lossless PNG of the scaled photo
    assert (img[:, w:] < 250).any()  # bars and text were drawn
    assert not os.path.exists(str(path) + '.part')


@pytest.fixture
def photo_folder(tmp_path):
    for cls, name in (('Egyptian cat', 'chelsea.jpg'), ('espresso', 'coffee.jpg')):
        (tmp_path / 'photos' / cls).mkdir(parents=True)
        (tmp_path / 'photos' / cls / name).write_bytes(ASSETS.joinpath(name).read_bytes())
    return tmp_path / 'photos'


def _run(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=dict(os.environ), timeout=600)


def test_eval_script_on_folder_and_rec(pretrained_home, photo_folder, tmp_path):
    out = tmp_path / 'result.json'
    p = _run(EVAL, 'mobilenetv2_1.0', str(photo_folder), '--out', str(out), '--workers', '0', '--batch-size', '1')
    assert p.returncode == 0, p.stderr
    result = json.loads(out.read_text())
    assert result['model'] == 'mobilenetv2_1.0.in1k' and result['images'] == 2
    assert result['top1'] == 1.0 and result['per_class_top1'] == {'Egyptian cat': 1.0, 'espresso': 1.0}
    assert 'eval mobilenetv2_1.0.in1k' in p.stderr  # the progress bar
    prefix = tmp_path / 'photos_rec'
    assert _run(os.path.join(ROOT, 'scripts', 'vision', 'pack_rec.py'), str(photo_folder), str(prefix)).returncode == 0
    p = _run(EVAL, 'mobilenetv2_1.0', str(prefix) + '.rec', '--workers', '2', '--no-progress')
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)['top1'] == 1.0
    os.remove(str(prefix) + '.idx')
    p = _run(EVAL, 'mobilenetv2_1.0', str(prefix) + '.rec', '--no-progress')
    assert p.returncode == 1 and p.stderr.strip().startswith('eval.py: error:') and 'has no index' in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
