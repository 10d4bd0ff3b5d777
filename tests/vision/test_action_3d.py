"""SlowFast, R(2+1)D, C3D and P3D beyond tests/vision/test_action_parity.py: the options GluonCV's builders take
(feat_ext, num_segments, num_crop) and the R(2+1)D Bottleneck the parity test's one case a family variant leaves
out, each compared with GluonCV 0.10.5 (one peer run for the file); bad clips, the class count, reset_class and
slowfast_4x16_resnet50_custom's start from the Kinetics-400 checkpoint."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError, WeightsNotFoundError
from gluonzoo.vision.models.action.base import copy_all_but_head

from ..peers import run_peer

#: file -> (model, GluonCV builder options, clip batch, what the net returns)
CASES = {
    'r2plus1d_bottleneck': ('r2plus1d_resnet50_kinetics400', {}, (1, 3, 4, 32, 32), (1, 400)),
    'slowfast_features_2_segments': ('slowfast_4x16_resnet50_kinetics400', {'feat_ext': True, 'num_segments': 2},
                                     (4, 3, 36, 32, 32), (2, 2304)),
    'r2plus1d_3_crops': ('r2plus1d_resnet18_kinetics400', {'num_crop': 3}, (3, 3, 4, 32, 32), (1, 400)),
    'p3d_features_2_segments': ('p3d_resnet50_kinetics400', {'feat_ext': True, 'num_segments': 2},
                                (2, 3, 16, 32, 32), (1, 2048)),
}


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_action_3d')
    run_peer('gluoncv_models.py', out, [{'name': name, 'shape': list(shape), 'kwargs': kwargs, 'file': file}
                                        for file, (name, kwargs, shape, _) in CASES.items()])
    return out


@pytest.mark.parametrize('file', list(CASES))
def test_options_match_gluoncv(gluoncv_files, file):
    name, kwargs, _, returned = CASES[file]
    net = gz.get_model(name, **kwargs)
    net.load_parameters(str(gluoncv_files / f'{file}.params'))  # strict
    ref = np.load(gluoncv_files / f'{file}.npz')
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert y.shape == ref['y'].shape == returned
    assert np.abs(y - ref['y']).max() / np.abs(ref['y']).max() <= 1e-5


# -- bad clips: one clear line, before the graph runs (the nets need no weights for it) ---------------------------
def _error(net, shape):
    with pytest.raises(BadInputError) as e:
        net(mx.nd.zeros(shape))
    assert '\n' not in str(e.value)
    return str(e.value)


def test_slowfast_wants_fast_then_slow_frames():
    net = gz.get_model('slowfast_4x16_resnet50_kinetics400')
    for hybrid in (False, True):
        if hybrid:
            net.hybridize()
        assert 'fast_frames + slow_frames = 32 + 4 = 36 frames' in _error(net, (1, 3, 35, 32, 32))
        assert '36 frames' in _error(net, (1, 3, 64, 32, 32))  # GluonCV silently drops what follows the slow frames
    assert '32 + 8 = 40' in _error(gz.get_model('slowfast_8x8_resnet50_kinetics400'), (1, 3, 36, 32, 32))
    assert '64 + 16 = 80' in _error(gz.get_model('slowfast_16x8_resnet101_kinetics400'), (1, 3, 36, 32, 32))


def test_clips_must_be_5d_rgb_and_whole_videos():
    net = gz.get_model('r2plus1d_resnet18_kinetics400', num_segments=2, num_crop=3)
    assert '(N, 3, T, H, W)' in _error(net, (6, 3, 32, 32))
    assert '(N, 3, T, H, W)' in _error(net, (6, 1, 4, 32, 32))
    assert 'num_segments x num_crop = 6 clips a video, got a batch of 4' in _error(net, (4, 3, 4, 32, 32))
    with pytest.raises(BadInputError, match='num_segments=.* must be a positive int'):
        gz.get_model('p3d_resnet50_kinetics400', num_segments=0)


def test_p3d_and_c3d_frame_counts():
    p3d = gz.get_model('p3d_resnet50_kinetics400')
    for frames in (8, 32):  # time must pool to one frame for the 2D stage 4
        assert 'clips of 16 frames (16-31 work' in _error(p3d, (1, 3, frames, 32, 32))
    c3d = gz.get_model('c3d_kinetics400')
    assert '16x112x112 clips' in _error(c3d, (1, 3, 16, 64, 64))  # fc6 is fixed to pool5's 512x1x4x4 map
    assert 'these give 512x2x4x4' in _error(c3d, (1, 3, 32, 112, 112))


# -- classes, heads, the custom net's start -----------------------------------------------------------------------
def test_nclass_is_gluoncvs_classes():
    assert gz.get_model('p3d_resnet50_kinetics400', nclass=5).fc.weight.shape == (5, 2048)
    assert gz.get_model('p3d_resnet50_kinetics400', classes=5).fc.weight.shape == (5, 2048)
    assert gz.get_model('c3d_kinetics400', nclass=5).fc8.weight.shape == (5, 4096)
    with pytest.raises(BadInputError, match='classes=6 and nclass=5 disagree'):
        gz.get_model('slowfast_8x8_resnet50_kinetics400', nclass=5, classes=6)


def test_reset_class_keeps_the_body():
    net = gz.get_model('r2plus1d_resnet18_kinetics400', classes=4)
    net.initialize()
    x = mx.nd.random.uniform(shape=(1, 3, 4, 32, 32))
    feats = net.conv1.weight.data().copy()
    net.reset_class(['a', 'b', 'c'])
    assert net(x).shape == (1, 3) and net.classes == ['a', 'b', 'c']
    assert (net.conv1.weight.data() == feats).asnumpy().all()


def test_custom_starts_from_the_kinetics_checkpoint_offline(monkeypatch):
    """GluonCV's builder downloads slowfast_4x16_resnet50_kinetics400's file: offline that is one error saying so
    and how to do without; use_kinetics_pretrain=False builds the net for the classes from scratch."""
    monkeypatch.setenv('GLUONZOO_OFFLINE', '1')
    with pytest.raises(WeightsNotFoundError) as e:
        gz.get_model('slowfast_4x16_resnet50_custom', nclass=5)
    message = str(e.value)
    assert '\n' not in message and 'slowfast_4x16_resnet50_kinetics400-9d650f51.params' in message
    assert 'use_kinetics_pretrain=False' in message
    net = gz.get_model('slowfast_4x16_resnet50_custom', nclass=5, use_kinetics_pretrain=False)
    assert net.fc.weight.shape == (5, 2304)


def test_custom_copies_all_but_the_head():
    source = gz.get_model('slowfast_4x16_resnet50_kinetics400')
    source.initialize(mx.init.Normal(1.0))  # a stand-in for the trained net: random convolutions
    net = gz.get_model('slowfast_4x16_resnet50_custom', nclass=5, use_kinetics_pretrain=False)
    copy_all_but_head(net, source, 'fc')
    ours, theirs = net._collect_params_with_prefix(), source._collect_params_with_prefix()
    assert set(ours) == set(theirs)
    for name, p in ours.items():
        if name.startswith('fc.'):
            assert p._data is None  # the caller's initialize() starts the new head
        else:
            assert (p.data() == theirs[name].data()).asnumpy().all(), name
