"""gluonzoo.vision.transforms.video against GluonCV 0.10.5's gluoncv.data.transforms.video: the same calls
(tests/peers/gluoncv_video_transform_cases.py, one list for both) on the same frames under the same seeds of
Python's and numpy's generators give the same crops, flips and tensors (pixels exactly; tensors, float32 here and
float64 in GluonCV, to float32's precision)."""
import numpy as np
import pytest

from gluonzoo.errors import AssertedInputError, BadInputError
from gluonzoo.vision.transforms import video as V
from tests.peers import run_peer
from tests.peers.gluoncv_video_transform_cases import cases, run


def _inputs():
    rng = np.random.default_rng(3)
    yy, xx = np.mgrid[0:40, 0:52]
    smooth = np.stack([xx * 4.0, yy * 5.0, (xx + yy) * 2.5], -1)
    frames = np.clip(smooth[None] + rng.normal(0, 25, (4,) + smooth.shape), 0, 255).astype(np.uint8)
    return {'landscape': frames, 'portrait': np.ascontiguousarray(frames.transpose(0, 2, 1, 3))}


@pytest.fixture(scope='module')
def outputs(tmp_path_factory):
    out = tmp_path_factory.mktemp('video_transforms')
    np.savez(out / 'inputs.npz', **_inputs())
    run_peer('gluoncv_video_transforms.py', out, [{'inputs': str(out / 'inputs.npz'), 'out': str(out / 'ref.npz')}],
             timeout=300)
    return run(V, _inputs()), dict(np.load(out / 'ref.npz'))


@pytest.mark.parametrize('name', sorted(cases(V, _inputs())))
def test_same_outputs_as_gluoncv(outputs, name):
    ours, ref = outputs
    keys = sorted(k for k in ref if k.split('/')[0] == name)
    assert sorted(k for k in ours if k.split('/')[0] == name) == keys, f'{name}: a different number of outputs'
    for k in keys:
        got, want = ours[k], ref[k]
        assert got.shape == want.shape, f'{k}: shape {got.shape}, GluonCV {want.shape}'
        if want.dtype.kind in 'biu':
            assert got.dtype == want.dtype and np.array_equal(got, want), f'{k}: pixels differ from GluonCV'
        else:
            assert got.dtype == np.float32, f'{k}: {got.dtype} tensors, float32 expected'
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=k)


def test_bad_inputs_say_what_was_wrong():
    frames = list(_inputs()['landscape'])
    with pytest.raises(BadInputError, match='cannot crop'):
        V.VideoCenterCrop(64)(frames)  # GluonCV's slicing would hand back a 40x52 "crop"
    with pytest.raises(BadInputError, match='VideoTenCrop cannot crop'):
        V.VideoTenCrop((41, 10))(frames)
    with pytest.raises(AssertedInputError, match='ShortSideRescale'):
        V.VideoThreeCrop(24)(frames)
    with pytest.raises(BadInputError, match='got none'):
        V.VideoGroupValTransform(24, [0] * 3, [1] * 3)([])
    with pytest.raises(BadInputError, match='HxWxC'):
        V.VideoToTensor()([np.zeros((4, 5), np.uint8)])
    with pytest.raises(BadInputError, match='mean'):
        V.VideoGroupValTransform(24, [0.5], [1.0])(frames)


def test_one_draw_a_clip():
    # every frame of a clip gets the same crop and flip: a clip of one frame repeated stays one frame repeated
    frames = [_inputs()['landscape'][0]] * 3
    for t in (V.VideoGroupTrainTransform((24, 24), [1.0, 0.75], [0] * 3, [1] * 3), V.RandomResizedCrop((16, 16)),
              V.VideoGroupTrainTransformV3((24, 24), 26, 40, [0] * 3, [1] * 3)):
        out = t(frames)
        assert all(np.array_equal(out[0], o) for o in out[1:]), type(t).__name__
