"""SSD: GluonCV 0.10.5's parameter files load strictly and give the same feature maps, raw predictions, anchors and
final detections (one case per body variant, its smallest member); every registered SSD saves under GluonCV's
parameter names and generates its constants (anchors, init_scale) to the bit; reset_class, set_nms, training-mode
outputs, the custom builders (transfer too), the VGG body's pretrained base, and one-line errors for bad inputs."""
import hashlib
import json

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.errors import BadInputError
from gluonzoo.vision.meta import VOC
from gluonzoo.vision.models.detection.ssd.vgg_atrous import VGG16_ATROUS, vgg16_atrous

from ...peers import run_peer

# one per body: VGG atrous, resnet*_v1 and mobilenet* (FeatureExpander), resnet*_v2 (taps inside blocks),
# resnet34_v1b; VGG and ResNet-34 need 257 pixels for their last map
CASES = [('ssd_300_vgg16_atrous_voc', (1, 3, 257, 257)), ('ssd_512_resnet18_v1_voc', (1, 3, 64, 64)),
         ('ssd_512_resnet101_v2_voc', (1, 3, 64, 64)), ('ssd_300_mobilenet0.25_voc', (2, 3, 64, 80)),
         ('ssd_300_resnet34_v1b_voc', (1, 3, 257, 257))]
RESET = {'classes': ['person', 'dog', 'zebra'], 'reuse_weights': {'person': 'person', 'dog': VOC.index('dog')}}
# the CASES load GluonCV's files already; `*_scenes` are gluonzoo's own (GluonCV has no such net: its body and
# heads are the family code the others check); `*_int8` are GluonCV's INT8 graphs (test_quantized_records.py)
NAMES = [n for n in gz.list_models('ssd_*') if n not in dict(CASES) and not n.endswith(('_scenes', '_int8'))]
CUSTOM = {'classes': ['cat', 'dog']}


def _close(got, want):
    return np.abs(got - want).max() <= 1e-5 * max(np.abs(want).max(), 1e-30)


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('ssd')
    jobs = [{'name': n, 'shape': list(s), 'reset': RESET if 'mobilenet' in n else None, 'base': 'vgg' in n}
            for n, s in CASES]
    jobs += [{'name': n, 'config': True, 'kwargs': CUSTOM if n.endswith('custom') else {}} for n in NAMES]
    run_peer('gluoncv_ssd.py', out, jobs)
    return out


def _small(name='ssd_300_mobilenet0.25_voc', **kwargs):
    net = gz.get_model(name, pretrained_base=False, **kwargs)
    net.initialize()  # random weights (get_model leaves them to the caller, as GluonCV's)
    return net


@pytest.mark.parametrize('name,shape', CASES)
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, name, shape):
    net = _small(name)
    made = {k: p.data().asnumpy() for k, p in net._collect_params_with_prefix().items()
            if k.endswith(('anchors', 'init_scale'))}
    net.load_parameters(str(gluoncv_files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    for k, value in made.items():  # the constants we generate are the ones GluonCV saved, to the bit
        assert np.array_equal(value, net._collect_params_with_prefix()[k].data().asnumpy()), k
    ref = np.load(gluoncv_files / f'{name}.npz')
    x = mx.nd.array(ref['x'])
    maps = net.features(x)
    for i, feature in enumerate(maps):
        assert _close(feature.asnumpy(), ref[f'feature{i}']), f'feature map {i}'
        assert _close(net.class_predictors[i](feature).asnumpy(), ref[f'cls{i}']), f'class predictions {i}'
        assert _close(net.box_predictors[i](feature).asnumpy(), ref[f'box{i}']), f'box predictions {i}'
        assert np.array_equal(net.anchor_generators[i](feature).asnumpy(), ref[f'anchors{i}']), f'anchors {i}'
    ids, scores, bboxes = (a.asnumpy() for a in net(x))
    assert (ids >= 0).sum() > 10, 'too few detections to compare'
    assert np.array_equal(ids, ref['ids']), 'class ids or their order differ'
    assert _close(scores, ref['scores']) and _close(bboxes, ref['bboxes'])
    if shape[-1] < 100:  # GluonCV's training outputs (before hybridize: the graph is built per mode)
        with mx.autograd.train_mode():
            cls_preds, box_preds, anchors = net(x)
        total = sum(ref[f'anchors{i}'].shape[1] for i in range(len(maps)))
        assert cls_preds.shape == (shape[0], total, len(VOC) + 1) and box_preds.shape == (shape[0], total, 4)
        assert np.array_equal(anchors.asnumpy(), np.concatenate([ref[f'anchors{i}'] for i in range(len(maps))], 1))
    net.hybridize()
    hids, hscores, hbboxes = (a.asnumpy() for a in net(x))
    assert np.array_equal(hids, ref['ids']) and _close(hscores, ref['scores']) and _close(hbboxes, ref['bboxes'])


@pytest.mark.parametrize('name', NAMES)
def test_saves_under_gluoncv_names_with_its_constants(gluoncv_files, name):
    """Every other registered SSD (COCO sizes, 512 extras, custom builders too): the parameter names GluonCV's file
    has, and anchors / init_scale generated to the bit (no forward pass: shapes are left to the parity cases)."""
    ref = json.loads((gluoncv_files / f'{name}.json').read_text())
    params = _small(name, **(CUSTOM if name.endswith('custom') else {}))._collect_params_with_prefix()
    assert sorted(params) == ref['names']
    for key, sha1 in ref['constants'].items():
        assert hashlib.sha1(params[key].data().asnumpy().tobytes()).hexdigest() == sha1, key


def test_reset_class_keeps_the_reused_rows(gluoncv_files):
    name = 'ssd_300_mobilenet0.25_voc'
    net = _small(name)
    net.load_parameters(str(gluoncv_files / f'{name}.params'))
    old = [(p.predictor.weight.data().asnumpy(), p.predictor.bias.data().asnumpy()) for p in net.class_predictors]
    net.hybridize()
    net(mx.nd.zeros((1, 3, 64, 64)))
    net.reset_class(**RESET)
    assert net.classes == RESET['classes'] and net.num_classes == 3
    ref = np.load(gluoncv_files / f'{name}.npz')
    m, n = len(VOC) + 1, 4
    for i, (predictor, (w, b)) in enumerate(zip(net.class_predictors, old)):
        nw, nb = predictor.predictor.weight.data().asnumpy(), predictor.predictor.bias.data().asnumpy()
        anchors = nw.shape[0] // n
        assert nw.shape[0] == anchors * n and w.shape[0] == anchors * m
        for a in range(anchors):
            for new, old_index in ((-1, -1), (0, VOC.index('person')), (1, VOC.index('dog'))):  # -1: background
                assert np.array_equal(nw[a * n + 1 + new], w[a * m + 1 + old_index])
                assert np.array_equal(nw[a * n + 1 + new], ref[f'reset_cls{i}'][a * n + 1 + new])  # as GluonCV
                assert nb[a * n + 1 + new] == b[a * m + 1 + old_index]
            assert not any(np.array_equal(nw[a * n + 3], row) for row in w)  # zebra: new
    ids = net(mx.nd.random.uniform(shape=(1, 3, 64, 64)))[0].asnumpy()  # the hybridized graph was rebuilt
    assert set(np.unique(ids)) <= {-1, 0, 1, 2}
    net.reset_class(['dog', 'cat'], reuse_weights=['dog'])  # a list keeps classes by name
    dog = net.class_predictors[0].predictor.weight.data().asnumpy()[1]
    assert np.array_equal(dog, old[0][0][1 + VOC.index('dog')])
    net.reset_class(4)  # a count: placeholder names, nothing reused
    assert net.classes == ['class0', 'class1', 'class2', 'class3']


def test_set_nms_and_batches():
    net = _small()
    x = mx.nd.random.uniform(shape=(2, 3, 64, 64))
    assert net(x)[0].shape == (2, 100, 1)
    net.hybridize()
    net.set_nms(nms_thresh=0.3, nms_topk=50, post_nms=20)
    assert [a.shape for a in net(x)] == [(2, 20, 1), (2, 20, 1), (2, 20, 4)]
    net.set_nms(nms_thresh=0)  # no NMS: every (class, anchor) row, class outermost
    ids = net(x)[0].asnumpy()
    anchors = ids.shape[1] // len(VOC)
    assert ids.shape[1] == anchors * len(VOC)
    assert set(np.unique(ids[0, :anchors])) <= {-1, 0} and set(np.unique(ids[0, -anchors:])) <= {-1, len(VOC) - 1}


def test_custom_builders(gluoncv_files, monkeypatch):
    net = gz.get_model('ssd_300_mobilenet0.25_custom', classes=['cat', 'dog'], pretrained_base=False)
    net.initialize()
    assert net.classes == ['cat', 'dog']
    ids = net(mx.nd.random.uniform(shape=(1, 3, 64, 64)))[0].asnumpy()
    assert set(np.unique(ids)) <= {-1, 0, 1}
    # transfer: the pretrained VOC detector (here GluonCV's random one, as if fetched) with the shared classes kept
    voc = gz.get_weights('ssd_300_vgg16_atrous_voc')
    monkeypatch.setattr(store, 'fetch', lambda w, root=None, progress=True: (
        str(gluoncv_files / 'ssd_300_vgg16_atrous_voc.params') if w is voc else pytest.fail(f'fetched {w.name}')))
    net = gz.get_model('ssd_300_vgg16_atrous_custom', classes=['zebra', 'dog'], transfer='voc')
    net.initialize()
    assert net.classes == ['zebra', 'dog']
    w = net.class_predictors[1].predictor.weight.data().asnumpy()
    old = mx.nd.load(str(gluoncv_files / 'ssd_300_vgg16_atrous_voc.params'))['class_predictors.1.predictor.weight']
    assert np.array_equal(w[2], old.asnumpy()[1 + VOC.index('dog')])


@pytest.mark.parametrize('layout', ['structural', 'prefixed'])
def test_vgg_pretrained_base_loads_gluoncv_files(gluoncv_files, monkeypatch, layout):
    """pretrained_base=True loads GluonCV's vgg16_atrous file (here a random one in either of Gluon's layouts) into
    all but the extras, which the detector initializes."""
    path = gluoncv_files / f'vgg16_atrous_{layout}.params'
    monkeypatch.setattr('gluonzoo.vision.models.detection.ssd.vgg_atrous.fetch',
                        lambda w, root=None: str(path) if w is VGG16_ATROUS else pytest.fail(f'fetched {w.name}'))
    body = vgg16_atrous(300, pretrained=True)
    saved = mx.nd.load(str(gluoncv_files / 'vgg16_atrous_structural.params'))
    params = body._collect_params_with_prefix()
    assert sorted(k for k, p in params.items() if p._data is not None) == sorted(saved)
    assert all(np.array_equal(params[k].data().asnumpy(), v.asnumpy()) for k, v in saved.items())
    assert VGG16_ATROUS.num_params == sum(v.size for k, v in saved.items() if k != 'init_scale')


def test_bad_inputs_get_one_clear_line():
    net = _small()
    for shape in ((1, 1, 64, 64), (1, 3, 64)):
        with pytest.raises(BadInputError, match='takes one batch of images Nx3xHxW'):
            net(mx.nd.zeros(shape))
    with pytest.raises(BadInputError, match=r'each side 1 to 2048 pixels, got 1x3x64x2100'):
        net(mx.nd.zeros((1, 3, 64, 2100)))
    with pytest.raises(BadInputError, match=r'each side 257 to 1024 pixels, got 1x3x256x300'):
        _small('ssd_300_resnet34_v1b_voc')(mx.nd.zeros((1, 3, 256, 300)))
    with pytest.raises(ValueError, match="reuse_weights: old class 'unicorn' is not one of the old classes"):
        net.reset_class(['a'], reuse_weights={'a': 'unicorn'})
    with pytest.raises(ValueError, match='classes must be a non-empty list of class names'):
        net.reset_class([])
    with pytest.raises(ValueError, match=r"classes names \['a'\] more than once"):
        net.reset_class(['a', 'b', 'a'])
    with pytest.raises(ValueError, match=r'ssd_300_mobilenet0.25_custom needs classes=\[class names\]'):
        gz.get_model('ssd_300_mobilenet0.25_custom', pretrained_base=False)
    with pytest.raises(ValueError, match="transfer='voc', but GluonCV publishes ssd_300_mobilenet0.25_\\* pretrained "
                                         "on no dataset"):
        gz.get_model('ssd_300_mobilenet0.25_custom', classes=['a'], transfer='voc')
    with pytest.raises(ValueError, match="GluonCV publishes ssd_300_resnet34_v1b_\\* pretrained on 'coco'"):
        gz.get_model('ssd_300_resnet34_v1b_custom', classes=['a'], transfer='voc')
    with pytest.raises(ValueError, match='anchor_alloc_size=64 changes parameter shapes'):
        gz.get_model('ssd_512_mobilenet1.0_voc', pretrained=True, anchor_alloc_size=64)
