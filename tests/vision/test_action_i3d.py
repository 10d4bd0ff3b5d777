"""What tests/vision/test_action_parity.py leaves out of the I3D family (i3d_resnet, i3d_inceptionv1/v3, i3d_slow,
non_local), against GluonCV 0.10.5 in one peer run: feat_ext, several views a video (num_segments, num_crop), the
class options the builders do not use ('3x3x3' inflation, sub-sampled non-local blocks), the NonLocal block's modes,
GluonCV's two starting points (ImageNet inflation from random 2D weights GluonCV's own loader reads; the Kinetics
start of `use_kinetics_pretrain`), then the head swap, the bad inputs and options, the offline errors, and the
exported non-local net against ONNX Runtime."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError, WeightsNotFoundError
from gluonzoo.exporting import compare
from gluonzoo.vision.models.action.i3d_base import _params_under
from gluonzoo.vision.models.action.i3d_resnet import I3D_ResNetV1
from gluonzoo.vision.models.action.non_local import NonLocal, build_nonlocal_block

from ..peers import run_peer

CLIP = (1, 3, 8, 32, 32)
#: (file, registered name, input shape, options: GluonCV's builder options, the same for ours)
MODELS = [
    ('feat_ext', 'i3d_resnet50_v1_kinetics400', CLIP, {'pretrained_base': False, 'nclass': 5, 'feat_ext': True}),
    ('views', 'i3d_resnet50_v1_kinetics400', (4, 3, 8, 32, 32),
     {'pretrained_base': False, 'nclass': 5, 'num_segments': 2, 'num_crop': 2}),
    ('v1_crops', 'i3d_inceptionv1_kinetics400', (3, 3, 8, 32, 32),
     {'pretrained_base': False, 'nclass': 5, 'num_crop': 3}),
]
#: the class options no builder uses: 3x3x3 inflation, sub-sampled non-local blocks in one stage, every stage out
RESNET_3X3X3 = dict(nclass=5, depth=50, pretrained_base=False, out_indices=[3], inflate_style='3x3x3',
                    nonlocal_stages=[2], nonlocal_freq=[0, 0, [1, 0, 0, 0, 0, 1], 0],
                    nonlocal_cfg={'nonlocal_type': 'gaussian', 'sub_sample': True})
#: (file, class, options, input shape): GluonCV's NonLocal modes
CLASSES = [
    ('resnet_3x3x3', 'I3D_ResNetV1', RESNET_3X3X3, CLIP),
    ('nl_3d', 'NonLocal', {'in_channels': 16}, (2, 16, 2, 3, 3)),
    ('nl_sub_sample', 'NonLocal', {'in_channels': 16, 'sub_sample': True}, (2, 16, 2, 4, 4)),
    ('nl_2d', 'NonLocal', {'in_channels': 16, 'dim': 2, 'embed_dim': 4, 'sub_sample': True}, (2, 16, 6, 6)),
    ('nl_no_bn', 'NonLocal', {'in_channels': 16, 'use_bn': False}, (2, 16, 2, 3, 3)),
    ('nl_no_embed', 'NonLocal', {'in_channels': 16, 'embed': False, 'embed_dim': 16}, (2, 16, 2, 3, 3)),
]
#: 2D ImageNet net -> an input that settles its shapes; the I3D nets GluonCV inflates from them
BASES = {'resnet50_v1b': (1, 3, 32, 32), 'googlenet': (1, 3, 224, 224), 'inceptionv3': (1, 3, 299, 299)}
INFLATED = {'i3d_resnet50_v1_kinetics400': 'resnet50_v1b', 'i3d_nl5_resnet50_v1_kinetics400': 'resnet50_v1b',
            'i3d_inceptionv1_kinetics400': 'googlenet', 'i3d_inceptionv3_kinetics400': 'inceptionv3'}


@pytest.fixture(scope='module')
def peer(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_i3d')
    models = [{'name': n, 'file': f, 'shape': list(s), 'kwargs': kw} for f, n, s, kw in MODELS]
    classes = [{'file': f, 'class': c, 'kwargs': kw, 'shape': list(s)} for f, c, kw, s in CLASSES]
    starts = {'bases': BASES, 'inflated': list(INFLATED)}
    run_peer('gluoncv_action_i3d.py', out, {'models': models, 'classes': classes, 'starts': starts}, timeout=600)
    return out


def _matches(net, peer, stem):
    net.load_parameters(str(peer / f'{stem}.params'))  # strict: GluonCV's structural names and shapes
    ref = np.load(peer / f'{stem}.npz')
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert y.shape == ref['y'].shape
    assert np.abs(y - ref['y']).max() / np.abs(ref['y']).max() <= 1e-5
    return y


@pytest.mark.parametrize('stem,name,shape,options', MODELS, ids=[m[0] for m in MODELS])
def test_builder_options_match_gluoncv(peer, stem, name, shape, options):
    y = _matches(gz.get_model(name, **options), peer, stem)
    videos = shape[0] // (options.get('num_segments', 1) * options.get('num_crop', 1))
    assert y.shape[0] == videos  # a video's views averaged into one row
    if options.get('feat_ext'):
        assert y.shape[1] == 2048  # ResNet's layer4 width, before the head


@pytest.mark.parametrize('stem,cls,options,shape', CLASSES, ids=[c[0] for c in CLASSES])
def test_class_options_and_nonlocal_modes_match_gluoncv(peer, stem, cls, options, shape):
    net = I3D_ResNetV1(**options) if cls == 'I3D_ResNetV1' else build_nonlocal_block(dict(options))
    _matches(net, peer, stem)


def _kept(net, skip_head=True):
    """{structural name: value} of the parameters GluonCV's starting rule sets (not the head, not non-local)."""
    skip = _params_under(net, NonLocal) | ({id(p) for p in getattr(net, net.head_attr).collect_params().values()}
                                           if skip_head else set())
    return {k: p.data().asnumpy() for k, p in net._collect_params_with_prefix().items() if id(p) not in skip}


@pytest.mark.parametrize('name', list(INFLATED))
def test_inflation_is_gluoncvs(peer, name):
    base = gz.get_model(INFLATED[name])
    base.load_parameters(str(peer / f'{INFLATED[name]}.params'))  # the 2D file GluonCV inflated from
    net = gz.get_model(name, pretrained_base=False)
    net.inflate_from(base)
    theirs = gz.get_model(name, pretrained_base=False)
    theirs.load_parameters(str(peer / f'inflated_{name}.params'))
    mine, ref = _kept(net), _kept(theirs)
    assert mine.keys() == ref.keys() and len(mine) > 100
    for k in ref:
        np.testing.assert_allclose(mine[k], ref[k], rtol=1e-6, atol=0, err_msg=k)
    nonlocal_params = _params_under(net, NonLocal)
    assert ('nl5' in name) == bool(nonlocal_params)
    assert all(p._data is None for p in net.collect_params().values() if id(p) in nonlocal_params)  # left alone
    assert net.fc.weight._data is None if hasattr(net, 'fc') else net.output.weight._data is None


def test_kinetics_start_is_gluoncvs(peer):
    kinetics = gz.get_model('i3d_resnet50_v1_kinetics400', pretrained_base=False)
    kinetics.load_parameters(str(peer / 'kinetics.params'))
    net = gz.get_model('i3d_resnet50_v1_ucf101', pretrained_base=False, use_kinetics_pretrain=False)
    net.copy_body_from(kinetics)
    theirs = gz.get_model('i3d_resnet50_v1_ucf101', pretrained_base=False, use_kinetics_pretrain=False)
    theirs.load_parameters(str(peer / 'ucf101_from_kinetics.params'))
    mine, ref = _kept(net), _kept(theirs)
    assert mine.keys() == ref.keys()
    for k in ref:
        assert (mine[k] == ref[k]).all(), k
    assert net.fc.weight._data is None and net.fc.weight.shape == (101, 2048)  # the new head: initialize() it


def test_exported_nonlocal_net_matches_onnx_runtime(peer, tmp_path):
    """3x3x3 convs, 3D pools and the sub-sampled non-local blocks (batch_dot, softmax) with GluonCV's random
    non-zero BatchNorm gammas (a fresh block is the identity: its gamma starts at zero), batch 1 and 2."""
    net = I3D_ResNetV1(**RESNET_3X3X3)
    net.load_parameters(str(peer / 'resnet_3x3x3.params'))
    x = mx.nd.array(np.load(peer / 'resnet_3x3x3.npz')['x'])
    written = gz.export(net, str(tmp_path / 'i3d'), inputs=(x,), formats=('onnx',))
    assert compare(net, written['onnx'], (x,)) <= 1e-4
    assert compare(net, written['onnx'], (mx.nd.random.uniform(-1, 1, shape=(2,) + x.shape[1:]),)) <= 1e-4


def test_reset_class_swaps_the_head():
    net = gz.get_model('i3d_inceptionv1_kinetics400', pretrained_base=False, nclass=5)
    net.initialize()
    before = set(net._collect_params_with_prefix())
    net.reset_class(['a', 'b', 'c'])
    assert net.classes == ['a', 'b', 'c'] and net.output is net.head[1]
    assert set(net._collect_params_with_prefix()) == before
    assert net(mx.nd.zeros((1, 3, 8, 32, 32))).shape == (1, 3)


def test_classes_is_nclass():
    net = gz.get_model('i3d_slow_resnet101_f16s4_kinetics700', pretrained_base=False, classes=9)
    assert net.fc.weight.shape == (9, 2048)
    with pytest.raises(BadInputError, match='disagree'):
        gz.get_model('i3d_resnet50_v1_kinetics400', pretrained_base=False, nclass=5, classes=9)


@pytest.mark.parametrize('name,options,missing', [
    ('i3d_resnet50_v1_sthsthv2', {}, 'resnet50_v1b-'),
    ('i3d_inceptionv3_kinetics400', {}, 'inceptionv3-'),
    ('i3d_resnet50_v1_custom', {'nclass': 3}, 'i3d_resnet50_v1_kinetics400-'),  # its Kinetics start, not ImageNet
    # a checkpoint holds the body too: neither the ImageNet base nor the Kinetics start is fetched first
    ('i3d_nl5_resnet50_v1_kinetics400', {'pretrained': True}, 'i3d_nl5_resnet50_v1_kinetics400-3c0e47ea'),
    ('i3d_resnet50_v1_ucf101', {'pretrained': True}, 'i3d_resnet50_v1_ucf101-760d0981'),
])
def test_downloads_are_one_clear_error_offline(offline, name, options, missing):
    with pytest.raises(WeightsNotFoundError, match=missing) as e:
        gz.get_model(name, **options)
    assert 'GLUONZOO_OFFLINE' in str(e.value) and '\n' not in str(e.value)


@pytest.mark.parametrize('name,shape,says', [
    ('i3d_resnet50_v1_kinetics400', (1, 3, 32, 32), r'clips \(N, 3, T, H, W\)'),
    ('i3d_resnet50_v1_kinetics400', (1, 1, 8, 32, 32), r'clips \(N, 3, T, H, W\)'),
    ('i3d_resnet50_v1_kinetics400', (3, 3, 8, 32, 32), 'not a multiple of 2'),
    ('i3d_resnet50_v1_kinetics400', (2, 3, 2, 32, 32), 'too small'),  # the time strides need 8 frames
    ('i3d_inceptionv3_kinetics400', (2, 3, 4, 32, 32), 'too small'),  # its unpadded 3x3s need 75 pixels
])
def test_bad_clips_are_one_clear_error(name, shape, says):
    net = gz.get_model(name, pretrained_base=False, nclass=4, num_segments=2)
    net.initialize()
    with pytest.raises(BadInputError, match=says) as e:
        net(mx.nd.zeros(shape))
    assert '\n' not in str(e.value)


@pytest.mark.parametrize('make,says', [
    (lambda: NonLocal(16, nonlocal_type='dot'), "computes only 'gaussian'"),
    (lambda: NonLocal(16, nonlocal_type='cosine'), 'is not one of'),
    (lambda: NonLocal(16, embed=False), 'embed=False'),
    (lambda: NonLocal(16, dim=1), 'dim=1'),
    (lambda: build_nonlocal_block([16]), 'takes a dict'),
    (lambda: I3D_ResNetV1(5, 18, pretrained_base=False), 'depth=18'),
    (lambda: I3D_ResNetV1(5, 152, out_indices=[3]), 'no 2D net for depth 152'),
    (lambda: I3D_ResNetV1(5, 50, pretrained_base=False, inflate_style='2x2x2'), 'inflate_style'),
    (lambda: I3D_ResNetV1(5, 50, pretrained_base=False, inflate_freq=(1, 1, (1, 0), 1)), 'inflate_freq'),
    (lambda: gz.get_model('i3d_resnet50_v1_kinetics400', pretrained_base=False, num_crop=0), 'num_crop=0'),
])
def test_bad_options_are_one_clear_error(make, says):
    with pytest.raises(BadInputError, match=says):
        make()
