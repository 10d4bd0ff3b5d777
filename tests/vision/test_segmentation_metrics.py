"""SegmentationMetric and MultiEvalModel against GluonCV 0.10.5 in the peers venv: the metric fed the same random
batches and edge cases (ignored pixels, absent classes, per-device lists), MultiEvalModel's summed multi-scale,
flipped, sliding-window scores of the same weights on the same image (a small conv net defined alike in both venvs,
and GluonCV's fcn_resnet50_voc with random weights loaded into ours)."""
import json

import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import nn

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.vision.metrics import SegmentationMetric
from gluonzoo.vision.segmentation import MultiEvalModel

from ..peers import run_peer


def metric_cases(rng):
    """name -> (nclass, batches): each batch (labels, score maps) or lists of them (GluonCV's per-device lists)."""
    def batch(n, nclass, h, w, ignore=0.1, classes=None):
        labels = rng.choice(classes if classes is not None else np.arange(nclass), (n, h, w))
        labels[rng.random((n, h, w)) < ignore] = -1
        return labels.astype(np.float32), rng.normal(size=(n, nclass, h, w)).astype(np.float32)
    perfect_labels, _ = batch(2, 4, 6, 7)
    perfect = np.eye(4, dtype=np.float32)[np.maximum(perfect_labels, 0).astype(int)].transpose(0, 3, 1, 2)
    return {
        'random': (21, [batch(2, 21, 12, 16), batch(3, 21, 9, 5)]),
        'absent_classes': (6, [batch(2, 6, 10, 10, classes=np.array([0, 2]))]),  # labels use 2 of 6 classes
        'all_ignored': (3, [batch(1, 3, 4, 4, ignore=1.1), batch(1, 3, 5, 4)]),
        'perfect': (4, [(perfect_labels, perfect)]),
        'lists': (5, [[batch(1, 5, 8, 8), batch(2, 5, 6, 6)], [batch(1, 5, 3, 9)]]),
    }


def metric_jobs(out):
    cases, jobs = metric_cases(np.random.default_rng(0)), []
    for name, (nclass, batches) in cases.items():
        arrays = {}
        for i, b in enumerate(batches):
            if isinstance(b, list):
                for j, (label, pred) in enumerate(b):
                    arrays[f'labels_{i}_{j}'], arrays[f'preds_{i}_{j}'] = label, pred
            else:
                arrays[f'label_{i}'], arrays[f'pred_{i}'] = b
        np.savez(out / f'{name}.npz', **arrays)
        jobs.append({'kind': 'metric', 'data': str(out / f'{name}.npz'), 'nclass': nclass, 'out': name})
    return cases, jobs


class Toy(nn.HybridBlock):
    """conv 3x3 (8) - relu - conv 1x1 (nclass), returning a tuple: tests/peers/gluoncv_segmentation.py's Toy."""

    def __init__(self, nclass, base_size, crop_size):
        super().__init__()
        self.base_size, self.crop_size = base_size, crop_size
        with self.name_scope():
            self.body = nn.HybridSequential()
            self.body.add(nn.Conv2D(8, 3, padding=1, in_channels=3), nn.Activation('relu'),
                          nn.Conv2D(nclass, 1, in_channels=8))

    def hybrid_forward(self, F, x):
        return (self.body(x),)


#: (job name, model, builder kwargs, nclass, scales, flip, image (C, H, W)); scales from one padded window (0.5)
#: to a 2x2 grid of windows, on landscape and portrait images
MULTIEVAL = [('toy', 'toy', dict(base_size=40, crop_size=32), 5, [0.5, 0.75, 1.0, 1.5], True, (3, 30, 44)),
             ('toy_portrait', 'toy', dict(base_size=40, crop_size=32), 5, [0.6, 1.25], False, (3, 50, 36)),
             ('fcn', 'fcn_resnet50_voc', dict(base_size=48, crop_size=32), 21, [0.75, 1.0], True, (3, 40, 52))]


@pytest.fixture(scope='module')
def reference(tmp_path_factory):
    """One peer run (GluonCV's import is most of its time): the metric cases and GluonCV's results, and the folder
    of the MultiEvalModel jobs' parameters and scores."""
    out = tmp_path_factory.mktemp('segmetric')
    cases, jobs = metric_jobs(out)
    rng = np.random.default_rng(1)
    for name, model, kwargs, nclass, scales, flip, shape in MULTIEVAL:
        np.savez(out / f'{name}_image.npz', x=rng.normal(size=shape).astype(np.float32))
        jobs.append({'kind': 'multieval', 'model': model, 'kwargs': kwargs, 'nclass': nclass, 'scales': scales,
                     'flip': flip, 'image': str(out / f'{name}_image.npz'), 'out': name})
    run_peer('gluoncv_segmentation.py', out, jobs, timeout=600)
    return cases, {name: json.loads((out / f'{name}.json').read_text()) for name in cases}, out


@pytest.mark.parametrize('case', ['random', 'absent_classes', 'all_ignored', 'perfect', 'lists'])
def test_metric_equals_gluoncv(reference, case):
    cases, ref, _ = reference
    nclass, batches = cases[case]
    m = SegmentationMetric(nclass)
    for b in batches:
        if isinstance(b, list):
            m.update([mx.nd.array(label) for label, _ in b], [mx.nd.array(pred) for _, pred in b])
        else:
            m.update(b[0], b[1])  # numpy works as NDArrays do
    got = m.results()
    assert [got['pixAcc'], got['mIoU']] == pytest.approx(ref[case], rel=1e-12, abs=1e-15)


def test_metric_checks_and_iou():
    m = SegmentationMetric(3)
    m.update(np.array([[0, 1, -1]]), np.array([[0, 2, 1]]))  # predicted labels, not scores
    assert m.iou().tolist() == [1.0, 0.0, 0.0]  # class 2 was predicted on a class-1 pixel
    m.reset()
    m.update(np.array([[0, 0]]), np.array([[0, 0]]))
    assert np.isnan(m.iou()[1:]).all() and m.results()['mIoU'] == pytest.approx(1 / 3)  # absent classes count 0
    with pytest.raises(BadInputError, match=r'labels must lie in \[-1, 3\)'):
        m.update(np.array([[3]]), np.array([[0]]))
    with pytest.raises(ValueError, match='score maps of 4 classes'):
        m.update(np.zeros((1, 2, 2)), np.zeros((1, 4, 2, 2)))


@pytest.mark.parametrize('case', MULTIEVAL, ids=[c[0] for c in MULTIEVAL])
def test_multieval_equals_gluoncv(reference, case):
    name, model, kwargs, nclass, scales, flip, _ = case
    out = reference[2]
    if model == 'toy':
        net = Toy(nclass, **kwargs)
    else:
        net = gz.get_model(model, pretrained_base=False, **kwargs)
    net.load_parameters(str(out / f'{name}.params'))
    x = mx.nd.array(np.load(out / f'{name}_image.npz')['x'])
    evaluator = MultiEvalModel(net, nclass, scales=scales, flip=flip, base_size=kwargs['base_size'],
                               crop_size=kwargs['crop_size'])
    (scores,) = evaluator.parallel_forward([x])
    ref = np.load(out / f'{name}.npz')['scores']
    assert scores.shape == ref.shape == (1, nclass) + x.shape[1:]
    err = np.abs(scores.asnumpy() - ref).max() / np.abs(ref).max()
    assert err <= 1e-5, err


def test_multieval_takes_strided_scores():
    """HRNet's `_s` nets score at a quarter of the input: resized to it before the windows are summed."""
    net = gz.get_model('hrnet_w18_small_v1_s')
    net.initialize()
    scores = MultiEvalModel(net, 19, scales=(0.5, 1.0), base_size=48, crop_size=32)(mx.nd.ones((3, 30, 40)))
    assert scores.shape == (1, 19, 30, 40) and np.isfinite(scores.asnumpy()).all()
