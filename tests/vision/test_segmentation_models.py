"""GluonCV's segmentation options and API on gluonzoo's FCN / PSPNet / DeepLab (parity itself:
test_segmentation_parity.py), and the records' GluonCV facts: sha1s from its model_store, published figures."""
import json

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.registry import get_entry
from gluonzoo.vision.transforms import from_preprocess
from gluonzoo.vision.meta import ADE20K, CITYSCAPES, VOC_SEGMENTATION
from gluonzoo.optimizing import is_optimized
from gluonzoo.vision.inference import segment
from gluonzoo.vision.models.segmentation.base import PUBLISHED, AtInputSize
from gluonzoo.vision.models.segmentation.pspnet import adaptive_avg_pool
from gluonzoo.weights import GLUONCV_REPO

from ..peers import run_peer

SMALL = dict(pretrained_base=False, crop_size=32)
#: GluonCV's checkpoints of this package (not gluonzoo's own fcn_mobilenetv2_1.0.digits, nor HRNet's _s nets)
RECORDS = [n for n in gz.list_models(task='semantic-segmentation', tags=True) if n.endswith('.gluoncv')
           and get_entry(n).builder.__module__.startswith('gluonzoo.vision.models.segmentation.')]


def _x(h=32, w=32):
    return mx.nd.random.uniform(shape=(1, 3, h, w))


@pytest.fixture(scope='module')
def model_store(tmp_path_factory):
    out = tmp_path_factory.mktemp('store')
    run_peer('gluoncv_model_store.py', out, [])
    return json.loads((out / 'sha1.json').read_text())


def test_records_are_gluoncvs(model_store):
    assert len(RECORDS) == 22
    for name in RECORDS:
        w = gz.get_weights(name)
        assert model_store[w.arch] == w.sha1, name
        assert w.source.kind == 'mirror' and w.source.url == GLUONCV_REPO and w.file_stem == f'{w.arch}-{w.sha1[:8]}'
        # the tables' figure where they list the name (no row: deeplab_resnet152_coco)
        assert (w.metrics.get('pixAcc'), w.metrics.get('mIoU')) == PUBLISHED.get(w.arch, (None, None)), name
        assert w.classes == {'voc': VOC_SEGMENTATION, 'coco': VOC_SEGMENTATION, 'ade': ADE20K,
                             'citys': CITYSCAPES}[w.arch.rsplit('_', 1)[1]]
        assert w.config['aux'] == ('wideresnet' not in w.arch) and w.input_shape == (1, 3, 480, 480)
    # every name GluonCV's model_store lists for these families has a record
    ours = {gz.get_weights(n).arch for n in RECORDS}
    assert {k for k in model_store if k.startswith(('fcn_', 'psp_', 'deeplab_'))} == ours


def test_class_lists():
    assert (len(VOC_SEGMENTATION), len(ADE20K), len(CITYSCAPES)) == (21, 150, 19)
    assert VOC_SEGMENTATION[0] == 'background' and ADE20K[1] == 'building, edifice'
    assert CITYSCAPES[-1] == 'bicyle'  # GluonCV's spelling


@pytest.mark.parametrize('size', [(8, 8), (4, 4), (5, 7), (60, 60)])
def test_graph_pooling_is_mxnets_adaptive_pooling(size):
    x = mx.nd.array(np.random.RandomState(0).uniform(size=(2, 3) + size))
    for bins in (1, 2, 3, 6):
        want = mx.nd.contrib.AdaptiveAvgPooling2D(x, output_size=bins).asnumpy()
        sym = adaptive_avg_pool(mx.sym, mx.sym.var('x'), bins, size)
        got = sym.eval(ctx=mx.cpu(), x=x)[0].asnumpy()
        # float32 means of up to 3,600 values summed in another order: 1.1e-6 apart was seen at 60x60
        assert np.abs(got - want).max() <= 1e-5 * np.abs(want).max()


def test_options_and_outputs():
    net = gz.get_model('psp_resnet50_ade', classes=5, aux=False, **SMALL)
    net.initialize()
    assert net.aux is False and not hasattr(net, 'auxlayer') and (net.base_size, net.crop_size) == (520, 32)
    ys = net(_x())
    assert len(ys) == 1 and ys[0].shape == (1, 5, 32, 32)
    # predict (GluonCV's demo) follows the picture; the call resizes to height x width
    assert net.predict(_x(40, 56)).shape == (1, 5, 40, 56) and net.demo(_x(24, 24)).shape == (1, 5, 24, 24)
    net.hybridize()
    y = net(_x())[0]
    assert net.predict(_x(40, 56)).shape == (1, 5, 40, 56)  # a hybridized net too
    assert net._active and net(_x())[0].shape == y.shape
    tall = gz.get_model('deeplab_resnet50_ade', height=40, width=24, **SMALL)
    tall.initialize()
    assert [y.shape for y in tall(_x())] == [(1, 150, 40, 24)] * 2 and tall.evaluate(_x()).shape == (1, 150, 40, 24)


@pytest.mark.filterwarnings('ignore:Parameter .* is not used')  # the auxiliary head: not in AtInputSize's graph
@pytest.mark.parametrize('name', ['fcn_resnet50_ade', 'deeplab_resnet50_ade'])
def test_optimized_scores_at_input_size_are_predicts(name):
    # segment()'s path: one fused graph for every picture size, equal to the imperative predict (GluonCV's demo)
    net = gz.get_model(name, classes=5, **SMALL)
    net.initialize()
    scorer = gz.optimize(AtInputSize(net), _x(40, 56), static_shape=False)
    assert is_optimized(scorer)
    for h, w in ((40, 56), (24, 32), (40, 56)):
        x = _x(h, w)
        want = net.predict(x).asnumpy()
        got = scorer(x).asnumpy()
        assert got.shape == want.shape == (1, 5, h, w)
        assert np.abs(got - want).max() <= 1e-5 * np.abs(want).max()
    pictures = [np.random.RandomState(i).randint(0, 256, (24 + 8 * i, 32, 3)).astype(np.uint8) for i in range(2)]
    pre = {'mean': [0.485, 0.456, 0.406], 'std': [0.229, 0.224, 0.225]}
    plain = segment(net, pictures, preprocess=pre, optimize=False)
    fused = segment(net, pictures, preprocess=pre)
    assert all((a == b).mean() > 0.99 for a, b in zip(plain, fused))  # argmax: float ties may flip a pixel
    assert is_optimized(net.__dict__['_gz_at_input_size'])


def test_fixed_size_graphs_keep_predict():
    psp = gz.get_model('psp_resnet50_ade', classes=5, **SMALL)
    psp.initialize()
    with pytest.raises(ValueError, match='predict'):
        AtInputSize(psp)
    pre = {'mean': [0.485, 0.456, 0.406], 'std': [0.229, 0.224, 0.225]}
    picture = np.random.RandomState(0).randint(0, 256, (40, 24, 3)).astype(np.uint8)
    want = psp.predict(mx.nd.array(from_preprocess(pre)(picture)[None]))[0].argmax(axis=0).asnumpy()
    assert (segment(psp, [picture], preprocess=pre)[0] == want).all()


def test_norm_layer_reaches_body_and_heads():
    net = gz.get_model('fcn_resnet50_voc', norm_kwargs={'momentum': 0.5}, **SMALL)
    net.initialize()
    momenta = {b._kwargs['momentum'] for b in _blocks(net) if isinstance(b, mx.gluon.nn.BatchNorm)}
    assert momenta == {0.5}


def _blocks(block):
    yield block
    for child in block._children.values():
        yield from _blocks(child)


def test_unknown_and_protected_options_are_clear_errors():
    with pytest.raises(ValueError, match="no option 'crop'"):
        gz.get_model('fcn_resnet101_voc', crop=64, **SMALL)
    with pytest.raises(ValueError, match='aux=False changes parameter shapes'):
        gz.get_model('fcn_resnet101_voc.gluoncv', aux=False)
    with pytest.raises(ValueError, match='no auxiliary head'):
        gz.get_model('deeplab_v3b_plus_wideresnet_citys', aux=True)


def test_reset_class_swaps_both_heads():
    net = gz.get_model('fcn_resnet50_voc', **SMALL)
    net.initialize()
    net(_x())
    old = net.head.block[4].weight.data()[:2].copy()
    net.reset_class(['background', 'airplane', 'thing'], reuse_weights=['background', 'airplane'])
    ys = net(_x())
    assert [y.shape[1] for y in ys] == [3, 3] and net.classes == ['background', 'airplane', 'thing']
    assert np.array_equal(net.head.block[4].weight.data()[:2].asnumpy(), old.asnumpy())
