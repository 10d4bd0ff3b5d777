"""gluonzoo.cv.data.transforms and gluonzoo.cv.data.batchify against GluonCV 0.10's: the same calls
(tests/peers/gluoncv_transforms_api.py's `cases`, one list for both) on the same inputs under the same seeds of
Python's, numpy's and MXNet's generators give the same outputs, of the same kinds (NDArray, numpy, Python)."""
import importlib.util
import os

import mxnet as mx
import numpy as np
import pytest

import gluonzoo.cv as gcv
from gluonzoo.errors import BadInputError
from tests.peers import run_peer

_spec = importlib.util.spec_from_file_location(
    'gluoncv_transforms_api', os.path.join(os.path.dirname(os.path.dirname(__file__)), 'peers',
                                           'gluoncv_transforms_api.py'))
api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api)


def _inputs():
    rng = np.random.default_rng(7)
    yy, xx = np.mgrid[0:150, 0:200]
    smooth = np.stack([xx * 1.2, yy * 1.5, (xx + yy) * 0.7], -1)
    image = np.clip(smooth + rng.normal(0, 20, smooth.shape), 0, 255).astype(np.uint8)
    boxes = np.array([[10, 20, 90, 110, 0, 0], [50, 40, 180, 140, 2, 0], [120, 10, 195, 60, 1, 0],
                      [5, 100, 40, 145, 1, 0]], np.float32)
    poly0 = np.array([[[12, 22], [85, 25], [80, 105], [15, 100]]], np.float64)
    poly1 = np.array([[[55, 45], [175, 50], [120, 135]], [[60, 120], [90, 125], [70, 138]]], np.float64)
    joints = np.zeros((5, 3, 2), np.float32)
    joints[:, 0, 0], joints[:, 1, 0] = rng.uniform(40, 120, 5), rng.uniform(30, 130, 5)
    joints[:, :2, 1] = np.array([1, 1, 0, 1, 1], np.float32)[:, None]
    centers = rng.uniform(0, 96, (300, 2))
    sizes = rng.uniform(8, 60, (300, 2))
    heatmaps = rng.uniform(0, 1, (2, 5, 16, 12)).astype(np.float32)
    return {'image': image, 'boxes': boxes, 'poly0': poly0, 'poly1': poly1,
            'probs': rng.uniform(0, 1, (2, 14, 14)).astype(np.float32), 'person': np.array([30., 20., 130., 140.]),
            'joints': joints, 'anchors': np.concatenate([centers, sizes], 1).astype(np.float32),
            'coords': rng.uniform(0, 12, (5, 2)), 'heatmaps': heatmaps}


@pytest.fixture(scope='module')
def outputs(tmp_path_factory):
    out = tmp_path_factory.mktemp('cv_transforms')
    inp = _inputs()
    np.savez(out / 'inputs.npz', **inp)
    run_peer('gluoncv_transforms_api.py', out, [{'inputs': str(out / 'inputs.npz'), 'out': str(out / 'ref')}],
             timeout=300)
    ref = dict(np.load(out / 'ref.npz'))
    return api.run(gcv, dict(np.load(out / 'inputs.npz'))), ref




def _names():
    # the case names without running anything: cases() only builds thunks
    return sorted(api.cases(gcv, _inputs()))


@pytest.mark.parametrize('name', _names())
def test_same_outputs_as_gluoncv(outputs, name):
    ours, ref = outputs
    kinds = [str(k) for k in ref[f'{name}/kinds']]
    got = ours[name]
    assert [k for k, _ in got] == kinds, f'{name}: output kinds {[k for k, _ in got]}, GluonCV {kinds}'
    for j, (_, arr) in enumerate(got):
        want = ref[f'{name}/{j}']
        assert arr.shape == want.shape, f'{name} output {j}: shape {arr.shape}, GluonCV {want.shape}'
        if want.dtype.kind in 'biu':
            assert arr.dtype == want.dtype and np.array_equal(arr, want), f'{name} output {j} differs'
        else:
            np.testing.assert_allclose(arr.astype(np.float64), want.astype(np.float64), rtol=1e-5, atol=1e-4,
                                       err_msg=f'{name} output {j}')


def test_bad_inputs_say_what_was_wrong():
    T, P = gcv.data.transforms, gcv.data.transforms.presets
    img = mx.nd.zeros((20, 30, 3), dtype='uint8')
    with pytest.raises(BadInputError, match='HxWxC'):
        T.image.imresize(mx.nd.zeros((20, 30)), 10, 10)
    with pytest.raises(BadInputError, match='interp'):
        T.image.imresize(img, 10, 10, interp=7)
    with pytest.raises(ValueError, match='Cannot crop'):
        T.image.ten_crop(img, (40, 10))
    with pytest.raises(ValueError, match='fill size'):
        T.image.random_expand(img, 3, fill=[1, 2])
    with pytest.raises(ValueError, match='length 2'):
        T.bbox.flip(np.zeros((1, 4)), (1, 2, 3))
    with pytest.raises(BadInputError, match='NDArrays'):
        P.ssd.transform_test(np.zeros((20, 30, 3), np.uint8), short=10)
    with pytest.raises(NotImplementedError, match='RPN'):
        P.rcnn.FasterRCNNDefaultTrainTransform(net=object())
    with pytest.raises(BadInputError, match='axis'):
        gcv.data.batchify.Pad(axis='x')
    with pytest.raises(ValueError, match='callable'):
        gcv.data.batchify.Tuple(gcv.data.batchify.Stack(), 3)
