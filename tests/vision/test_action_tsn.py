"""What the registry-driven parity (tests/vision/test_action_parity.py) leaves out of the TSN frame models
(vision/models/action/tsn.py): segmental consensus over several segments and crops, `feat_ext=True` features and
the `_custom` nets against GluonCV's (tests/peers/gluoncv_action_tsn.py, one peer run), the Kinetics start of a
`_custom` net, what pretrained_base and pretrained=True fetch, nclass / classes, partial_bn, dropout_ratio, and
the errors of bad input."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.errors import BadInputError, WeightsNotFoundError
from gluonzoo.vision.models.action import tsn

from ..peers import run_peer

#: (file, registered name, input shape, options: GluonCV's builder options, the same for ours)
MODELS = [
    ('views', 'resnet18_v1b_kinetics400', (12, 3, 32, 32),
     {'pretrained_base': False, 'nclass': 10, 'num_segments': 3, 'num_crop': 2}),
    ('segments_v1', 'inceptionv1_ucf101', (4, 3, 224, 224), {'pretrained_base': False, 'num_segments': 2}),
    ('custom', 'resnet18_v1b_custom', (4, 3, 32, 32),
     {'pretrained_base': False, 'use_kinetics_pretrain': False, 'nclass': 5, 'num_segments': 2}),
]


@pytest.fixture(scope='module')
def peer(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_tsn')
    jobs = [{'name': n, 'file': f, 'shape': list(s), 'kwargs': kw} for f, n, s, kw in MODELS]
    run_peer('gluoncv_action_tsn.py', out, jobs + [{'kinetics_start': 18, 'nclass': 5}])
    return out


def _rel(a, b):
    return np.abs(a - b).max() / np.abs(b).max()


@pytest.mark.parametrize('stem,name,shape,options', MODELS, ids=[m[0] for m in MODELS])
def test_consensus_and_features_match_gluoncv(peer, stem, name, shape, options):
    ref = np.load(peer / f'{stem}.npz')
    x = mx.nd.array(ref['x'])
    videos = shape[0] // (options.get('num_segments', 1) * options.get('num_crop', 1))
    for feat_ext, want in ((False, ref['y']), (True, ref['f'])):
        net = gz.get_model(name, feat_ext=feat_ext, **options)
        net.load_parameters(str(peer / f'{stem}.params'))  # strict: the head is there with feat_ext too
        y = net(x).asnumpy()
        assert y.shape == want.shape == (videos, net.output.weight.shape[1] if feat_ext else net.output._units)
        assert _rel(y, want) <= 1e-5
        net.hybridize()
        assert _rel(net(x).asnumpy(), want) <= 1e-5


def test_kinetics_start_is_gluoncvs(peer):
    # GluonCV's resnet18_v1b_custom copies every parameter of its Kinetics-400 checkpoint but the head, by position
    kinetics = gz.get_model('resnet18_v1b_kinetics400', pretrained_base=False)
    kinetics.load_parameters(str(peer / 'kinetics18.params'))
    net = gz.get_model('resnet18_v1b_custom', nclass=5, pretrained_base=False, use_kinetics_pretrain=False)
    net.copy_body_from(kinetics)
    theirs = mx.nd.load(str(peer / 'custom18.params'))
    mine = net._collect_params_with_prefix()
    assert sorted(mine) == sorted(theirs) and len(mine) > 100
    for k, v in theirs.items():
        if not k.startswith('output.'):
            assert np.array_equal(mine[k].data().asnumpy(), v.asnumpy()), k
    assert mine['output.weight'].shape == (5, 512) and net.output.weight._data is not None  # a fresh head


@pytest.mark.parametrize('name,options,missing', [
    ('vgg16_ucf101', {}, 'vgg16-'),
    ('inceptionv1_kinetics400', {}, 'googlenet-'),
    ('inceptionv3_sthsthv2', {}, 'inceptionv3-'),
    ('resnet152_v1b_sthsthv2', {}, 'resnet152_v1b-'),
    ('resnet50_v1b_custom', {'nclass': 3}, 'resnet50_v1b_kinetics400-'),  # its Kinetics start, not ImageNet's
    ('resnet18_v1b_kinetics400', {'pretrained': True}, 'resnet18_v1b_kinetics400-46d5a985'),  # not the base first
])
def test_downloads_are_one_clear_error_offline(offline, name, options, missing):
    with pytest.raises(WeightsNotFoundError, match=missing) as e:
        gz.get_model(name, **options)
    assert 'GLUONZOO_OFFLINE' in str(e.value) and '\n' not in str(e.value)


def test_pretrained_base_and_pretrained_fetch_what_they_say(peer, tmp_path, monkeypatch):
    base = gz.get_model('resnet18_v1b')
    base.initialize(mx.init.Uniform(1.0))
    base(mx.nd.zeros((1, 3, 32, 32)))
    base.save_parameters(str(tmp_path / 'resnet18_v1b.params'))
    files = {'resnet18_v1b': tmp_path / 'resnet18_v1b.params', 'resnet18_v1b_kinetics400': peer / 'kinetics18.params'}
    fetched = []

    def fetch(w, root=None, **kwargs):
        fetched.append(w.arch)
        return str(files[w.arch])
    monkeypatch.setattr(store, 'fetch', fetch)
    net = gz.get_model('resnet18_v1b_kinetics400')  # pretrained_base=True, GluonCV's default
    assert fetched == ['resnet18_v1b']
    mine, theirs = net._collect_params_with_prefix(), base._collect_params_with_prefix()
    assert [k for k in mine if k not in theirs] == ['output.weight', 'output.bias']
    assert all(np.array_equal(mine[k].data().asnumpy(), theirs[k].data().asnumpy()) for k in mine if k in theirs)
    # the head is initialized at once (GluonCV's scripts reset_ctx the whole net first), with init_std
    net.collect_params().reset_ctx(mx.cpu())
    assert 0.005 < float(net.output.weight.data().asnumpy().std()) < 0.015
    fetched.clear()
    net = gz.get_model('resnet18_v1b_kinetics400', pretrained=True)  # the checkpoint holds the body: no base fetch
    assert fetched == ['resnet18_v1b_kinetics400'] and len(net.classes) == 400
    kinetics = mx.nd.load(str(peer / 'kinetics18.params'))
    assert np.array_equal(net.output.weight.data().asnumpy(), kinetics['output.weight'].asnumpy())
    fetched.clear()
    net = gz.get_model('resnet18_v1b_custom', nclass=5)  # use_kinetics_pretrain=True, GluonCV's default
    assert fetched == ['resnet18_v1b_kinetics400'] and net.output.weight.shape == (5, 512)
    assert np.array_equal(net.layer4[1].conv2.weight.data().asnumpy(), kinetics['layer4.1.conv2.weight'].asnumpy())


def test_classes_and_nclass_name_one_head():
    for options in ({'classes': 5}, {'nclass': 5}, {'classes': 5, 'nclass': 5}):
        net = gz.get_model('vgg16_ucf101', pretrained_base=False, **options)
        assert net.output._units == 5, options
    with pytest.raises(BadInputError, match='classes=5 and nclass=6 disagree'):
        gz.get_model('vgg16_ucf101', pretrained_base=False, classes=5, nclass=6)
    net = gz.get_model('resnet18_v1b_sthsthv2', pretrained_base=False, num_segments=2)
    assert net.output._units == 174
    net.initialize()
    net.reset_class(['a', 'b', 'c'])
    assert net.classes == ['a', 'b', 'c'] and net(mx.nd.zeros((4, 3, 32, 32))).shape == (2, 3)


def test_partial_bn_and_dropout_ratio_are_gluoncvs():
    def global_stats(net):
        return [bn._kwargs['use_global_stats'] for bn in _blocks(net, mx.gluon.nn.BatchNorm)]
    for name in ('inceptionv1_hmdb51', 'inceptionv3_hmdb51'):  # partial_bn=True by default: all but the first BN
        frozen = global_stats(gz.get_model(name, pretrained_base=False))
        assert frozen[0] is False and all(frozen[1:]) and len(frozen) > 50
        assert not any(global_stats(gz.get_model(name, pretrained_base=False, partial_bn=False)))
    assert not any(global_stats(gz.get_model('resnet50_v1b_ucf101', pretrained_base=False, partial_bn=True)))
    for name, rates in (('vgg16_ucf101', [0.9, 0.9]), ('inceptionv3_ucf101', [0.8]), ('resnet50_v1b_hmdb51', [0.9]),
                        ('inceptionv1_kinetics400', [0.5])):
        assert [d._rate for d in _blocks(gz.get_model(name, pretrained_base=False), mx.gluon.nn.Dropout)] == rates
    net = gz.get_model('vgg16_kinetics400', pretrained_base=False, dropout_ratio=0.3)
    assert [d._rate for d in _blocks(net, mx.gluon.nn.Dropout)] == [0.3, 0.3]


def _blocks(block, kind):
    out = []
    for child in block._children.values():
        out += [child] if isinstance(child, kind) else _blocks(child, kind)
    return out


@pytest.mark.parametrize('name,shape,says', [
    ('resnet18_v1b_kinetics400', (3, 3, 32, 32), 'a batch of 3 frames is not a multiple of 2'),
    ('resnet18_v1b_kinetics400', (1, 3, 4, 32, 32), r'not clips 1x3x4x32x32'),
    ('resnet18_v1b_kinetics400', (2, 1, 32, 32), r'\(RGB, NCHW\), got 2x1x32x32'),
    ('inceptionv3_ucf101', (2, 3, 224, 224), 'takes 299x299 frames, got 224x224'),
    ('inceptionv1_ucf101', (2, 3, 299, 299), 'takes 224x224 frames, got 299x299'),
])
def test_bad_frames_are_one_clear_error(name, shape, says):
    net = gz.get_model(name, pretrained_base=False, num_segments=2)
    net.initialize()
    with pytest.raises(BadInputError, match=says) as e:
        net(mx.nd.zeros(shape))
    assert '\n' not in str(e.value)


def test_vgg_takes_the_frame_size_its_dense_layer_fits():
    net = gz.get_model('vgg16_ucf101', pretrained_base=False)
    net.initialize()
    assert net(mx.nd.zeros((1, 3, 64, 64))).shape == (1, 101)
    assert net(mx.nd.zeros((1, 3, 80, 64))).shape == (1, 101)  # 2 x 2 x 512 features too
    with pytest.raises(BadInputError, match=r'the 2048 its first Dense layer fits \(e.g. 64x64\), got 32x32'):
        net(mx.nd.zeros((1, 3, 32, 32)))


@pytest.mark.parametrize('make,says', [
    (lambda: gz.get_model('resnet18_v1b_kinetics400', pretrained_base=False, nclass=0), 'nclass=0'),
    (lambda: gz.get_model('vgg16_ucf101', pretrained_base=False, num_segments=0), 'num_segments=0'),
    (lambda: gz.get_model('inceptionv1_ucf101', pretrained_base=False, num_crop=2.5), 'num_crop=2.5'),
    (lambda: tsn.ActionRecResNetV1b(42, 5, pretrained_base=False), r'depth 42 is not one of \[18, 34'),
    (lambda: gz.get_model('resnet18_v1b_kinetics400', in_channels=1), "has no option 'in_channels'"),
])
def test_bad_options_are_one_clear_error(make, says):
    with pytest.raises(ValueError, match=says):
        make()
