"""Faster R-CNN: GluonCV 0.10.5's parameter files load strictly and give the same feature maps, proposals, head
outputs and detections (one map and FPN, imperative and hybridized); ResNet-101 V1d and custom nets name their
parameters as GluonCV does; reset_class, the custom builder (fresh and transferred), set_nms, batches; bad inputs."""
import json

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.registry import get_entry
from gluonzoo.vision.meta import VOC
from gluonzoo.vision.models.detection.faster_rcnn import builders
from gluonzoo.vision.ops.roi import batch_rois, pyramid_levels, pyramid_roi_features, roi_features

from ...peers import run_peer

#: the smallest member of each variant, on small non-square pictures with few proposals; the FPN one with larger
#: proposals so that RoIs are pooled from two levels
PARITY = {
    'faster_rcnn_resnet50_v1b_voc': dict(shape=[1, 3, 128, 160], rpn_test_pre_nms=300, rpn_test_post_nms=16),
    'faster_rcnn_fpn_resnet50_v1b_coco': dict(shape=[1, 3, 192, 256], rpn_test_pre_nms=1000, rpn_test_post_nms=32,
                                              rpn_size_bias=1.5),
}
CUSTOM = ['person', 'dog', 'unicorn']
#: parameter names and shapes only (their files would be large): the ResNet-101 V1d stems and shortcuts, and the
#: custom model's FasterRCNN defaults (three anchor scales)
NAMES = {
    'faster_rcnn_resnet101_v1d_voc': {},
    'faster_rcnn_fpn_resnet101_v1d_coco': {},
    'faster_rcnn_resnet50_v1b_custom': {'classes': CUSTOM},
}
SMALL = dict(rpn_test_pre_nms=50, rpn_test_post_nms=4)
VOC_NET = 'faster_rcnn_resnet50_v1b_voc'


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_faster_rcnn')
    jobs = [dict(name=n, **job) for n, job in PARITY.items()] + \
        [dict(name=n, shape=[1, 3, 64, 64], kwargs=kw, names_only=True, **SMALL) for n, kw in NAMES.items()]
    run_peer('gluoncv_faster_rcnn.py', out, jobs)
    return out


@pytest.fixture(scope='module')
def voc_net(gluoncv_files):
    """Our VOC net with GluonCV's random weights and the reference's input, for the tests that do not change it."""
    return _loaded(gluoncv_files, VOC_NET), mx.nd.array(np.load(gluoncv_files / f'{VOC_NET}.npz')['x'])


def _close(got, want):
    got = got.asnumpy() if hasattr(got, 'asnumpy') else got
    assert got.shape == want.shape
    assert np.abs(got - want).max() <= 1e-5 * max(np.abs(want).max(), 1e-30)


def _loaded(files, name, **kwargs):
    """Our `name` with GluonCV's random weights, every shape known first so that loading checks them all."""
    job = PARITY[name]
    net = gz.get_model(name, pretrained_base=False, rpn_test_pre_nms=job['rpn_test_pre_nms'],
                       rpn_test_post_nms=job['rpn_test_post_nms'], **kwargs)
    net.initialize()
    net(mx.nd.zeros(job['shape']))
    net.load_parameters(str(files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    return net


@pytest.mark.parametrize('name', list(PARITY))
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, voc_net, name):
    ref = np.load(gluoncv_files / f'{name}.npz')
    x = mx.nd.array(ref['x'])
    net = voc_net[0] if name == VOC_NET else _loaded(gluoncv_files, name)
    seen = {}
    hooks = [getattr(net, key).register_forward_hook(
        lambda block, inputs, output, key=key: seen.setdefault(key, output))
        for key in ('features', 'rpn', 'class_predictor', 'box_predictor')]
    for hybrid in (False, True):
        net.hybridize(hybrid)
        ids, scores, bboxes = net(x)
        assert (ids.asnumpy() == ref['ids']).all(), f'class ids or their order differ (hybridized: {hybrid})'
        _close(scores, ref['scores'])
        _close(bboxes, ref['bboxes'])
        if not hybrid:  # the inner blocks' outputs are seen once, imperatively; hooks stop a hybridized graph
            for hook in hooks:
                hook.detach()
    net.hybridize(False)
    features = seen['features'] if isinstance(seen['features'], list) else [seen['features']]
    assert len(features) == sum(k.startswith('feature') for k in ref.files)
    for i, feature in enumerate(features):
        _close(feature, ref[f'feature{i}'])
    _close(seen['rpn'][0], ref['rpn_scores'])
    _close(seen['rpn'][1], ref['rpn_boxes'])
    _close(seen['class_predictor'], ref['cls_pred'])
    _close(seen['box_predictor'], ref['box_pred'])
    # the reference tests something: many detections of many classes, no tied scores within a class
    valid = ref['ids'][0, :, 0] >= 0
    assert valid.sum() >= 30 and len(np.unique(ref['ids'][0, valid, 0])) >= 10
    for c in np.unique(ref['ids'][0, valid, 0]):
        mine = ref['scores'][0, ref['ids'][0, :, 0] == c, 0]
        assert len(np.unique(mine)) == len(mine)
    if net.num_stages > 1:
        rois = batch_rois(mx.nd, mx.nd.array(ref['rpn_boxes']))
        assert len(np.unique(pyramid_levels(mx.nd, rois, 2, 5).asnumpy())) >= 2


@pytest.mark.parametrize('name', list(NAMES))
def test_parameter_names_and_shapes_are_gluoncvs(gluoncv_files, name):
    want = {k: tuple(v) for k, v in json.loads((gluoncv_files / f'{name}.json').read_text()).items()}
    net = gz.get_model(name, pretrained_base=False, **NAMES[name], **SMALL)
    net.initialize()
    net(mx.nd.random.uniform(shape=(1, 3, 64, 64)))
    got = {k: p.shape for k, p in net._collect_params_with_prefix().items()}
    assert sorted(got) == sorted(want)
    assert got == want


def test_pyramid_pooling_takes_each_roi_from_its_level():
    mx.random.seed(1)
    features = [mx.nd.random.uniform(shape=(1, 2, 512 // s, 512 // s)) for s in (4, 8, 16, 32)]
    rois = mx.nd.array([[0, 0, 0, 40, 40], [0, 10, 10, 160, 160], [0, 0, 0, 300, 300], [0, 0, 0, 511, 511]])
    assert pyramid_levels(mx.nd, rois, 2, 5).asnumpy().tolist() == [2, 3, 4, 5]
    pooled = pyramid_roi_features(mx.nd, features, rois, (3, 3), (4, 8, 16, 32), 2, 5)
    for i, stride in enumerate((4, 8, 16, 32)):
        _close(pooled[i], roi_features(mx.nd, features[i], rois[i:i + 1], (3, 3), stride)[0].asnumpy())


def test_mxnet_cpu_roialign_mishandles_skipped_rois():
    """Why pyramid_roi_features pools every RoI on every level instead of GluonCV's batch index -1 (roi.py)."""
    mx.random.seed(2)
    feature = mx.nd.random.uniform(shape=(1, 2, 16, 16))
    alone = mx.nd.contrib.ROIAlign(feature, mx.nd.array([[0, 1, 1, 9, 9]]), (3, 3), 1.0, sample_ratio=2)
    with_skipped = mx.nd.contrib.ROIAlign(feature, mx.nd.array([[0, 1, 1, 9, 9], [-1, 1, 1, 9, 9]]), (3, 3), 1.0,
                                          sample_ratio=2)
    assert with_skipped[0, 0, 0, 1] == 0 != alone[0, 0, 0, 1]  # element 1 of the output zeroed for RoI 1
    rois = mx.nd.array([[0, 1, 1, 9, 9], [0, 0, 0, 400, 400]])  # levels 2 and 4
    pooled = pyramid_roi_features(mx.nd, [feature] * 4, rois, (3, 3), (1, 1, 1, 1), 2, 5)
    _close(pooled[0], alone[0].asnumpy())


def test_custom_builder_and_reset_class_keep_reused_rows(gluoncv_files, monkeypatch):
    net = gz.get_model('faster_rcnn_resnet50_v1b_custom', classes=CUSTOM, pretrained_base=False, **SMALL)
    net.initialize()
    assert net.classes == CUSTOM and net.rpn.anchor_generator.num_depth == 9  # FasterRCNN's three default scales
    voc = _loaded(gluoncv_files, VOC_NET)
    rows = {}

    def keep(net, key):  # {'cls'/'box' + 'weight'/'bias': rows} of the predictors as they are now
        rows[key] = {head + p.name.rsplit('_', 1)[-1]: p.data().asnumpy()
                     for head, layer in (('cls', net.class_predictor), ('box', net.box_predictor))
                     for p in layer.params.values()}
        return rows[key]

    def same(new, old, pairs):  # class rows: background first; box rows: four a class
        for kind in ('weight', 'bias'):
            np.testing.assert_array_equal(new['cls' + kind][[n + 1 for n, _ in pairs] + [0]],
                                          old['cls' + kind][[o + 1 for _, o in pairs] + [0]])
            for n, o in pairs:
                np.testing.assert_array_equal(new['box' + kind][4 * n:4 * n + 4], old['box' + kind][4 * o:4 * o + 4])

    def fresh(new, old, n):
        assert not any(np.array_equal(new['clsweight'][n + 1], row) for row in old['clsweight'])
        assert not any(np.array_equal(new['boxweight'][4 * n:4 * n + 4], old['boxweight'][4 * i:4 * i + 4])
                       for i in range(len(old['clsweight']) - 1))

    asked = []

    def pretrained(name, pretrained=False, **kwargs):  # stands in for the download of GluonCV's VOC checkpoint
        asked.append((name, pretrained, kwargs))
        return voc
    monkeypatch.setattr(builders, 'get_model', pretrained)
    old = keep(voc, 'voc')
    net = gz.get_model('faster_rcnn_resnet50_v1b_custom', classes=['dog', 'unicorn', 'person'], transfer='voc')
    net.initialize()
    assert asked == [('faster_rcnn_resnet50_v1b_voc', True, {})]
    assert net is voc and net.classes == ['dog', 'unicorn', 'person']  # the classes VOC has keep their rows
    same(keep(net, 'custom'), old, [(0, VOC.index('dog')), (2, VOC.index('person'))])
    fresh(rows['custom'], old, 1)

    net.reset_class(['kitty', 'person', 'unicorn', 'zebra'], reuse_weights={'kitty': 'dog', 1: 2, 'unicorn': 1})
    assert net.classes == ['kitty', 'person', 'unicorn', 'zebra'] and net.num_class == 4
    same(keep(net, 'reset'), rows['custom'], [(0, 0), (1, 2), (2, 1)])
    fresh(rows['reset'], rows['custom'], 3)
    ids = net(mx.nd.zeros((1, 3, 128, 160)))[0].asnumpy()
    assert ids.shape == (1, 4 * 16, 1) and set(np.unique(ids)) <= {-1, 0, 1, 2, 3}
    net.hybridize()
    net.reset_class(['person'], reuse_weights=['person'])  # a list keeps classes by name; the hybridized net rebuilds
    same(keep(net, 'list'), rows['reset'], [(0, 1)])
    assert net(mx.nd.zeros((1, 3, 128, 160)))[0].shape == (1, 16, 1)


def test_set_nms_and_force_nms(voc_net):
    net, x = voc_net
    net.hybridize()
    net.set_nms(nms_thresh=0.3, nms_topk=400, force_nms=True)
    ids, scores, boxes = (o.asnumpy()[0] for o in net(x))
    valid = ids[:, 0] >= 0
    assert valid.sum() > 0 and (np.diff(scores[valid, 0]) <= 0).all(), 'force_nms sorts all classes together'
    b = boxes[valid]
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    wh = np.clip(np.minimum(b[:, None, 2:], b[None, :, 2:]) - np.maximum(b[:, None, :2], b[None, :, :2]), 0, None)
    inter = wh[..., 0] * wh[..., 1]
    iou = inter / (area[:, None] + area[None] - inter)
    assert (iou[np.triu_indices(len(b), 1)] <= 0.3 + 1e-6).all(), 'no two kept boxes overlap, whatever their class'
    net.set_nms(nms_thresh=0.3, nms_topk=1)
    ids = net(x)[0].asnumpy()[0, :, 0]
    assert (ids >= 0).sum() == len(np.unique(ids[ids >= 0]))  # one box a class
    net.set_nms(0.3, 400, False, 100)  # GluonCV's VOC settings again, for the other tests
    net.hybridize(False)


def test_a_batch_is_its_pictures_one_by_one(voc_net):
    net, x = voc_net
    two = mx.nd.concat(x, mx.nd.flip(x, axis=2), dim=0)  # GluonCV's own inference takes one picture a call
    both = net(two)
    for i in range(2):
        for got, want in zip(both, net(two[i:i + 1])):
            _close(got[i:i + 1], want.asnumpy())


def test_registry_entries():
    archs = gz.list_models('faster_rcnn*')
    assert archs == sorted(['faster_rcnn_resnet50_v1b_voc', 'faster_rcnn_resnet50_v1b_coco',
                            'faster_rcnn_resnet50_v1b_custom', 'faster_rcnn_resnet101_v1d_voc',
                            'faster_rcnn_resnet101_v1d_coco', 'faster_rcnn_resnet101_v1d_custom',
                            'faster_rcnn_fpn_resnet50_v1b_coco', 'faster_rcnn_fpn_resnet101_v1d_coco'])
    assert gz.list_models('faster_rcnn*', pretrained=True, tags=True) == sorted(
        f'{n}.gluoncv' for n in builders._RECORDS)
    for name in builders._RECORDS:
        w = gz.get_weights(name)
        assert w.preprocess['resize'] in (600, 800) and w.input_shape[2:] == (w.preprocess['resize'],) * 2
        assert get_entry(name).test_kwargs['pretrained_base'] is False


def test_bad_inputs_get_one_clear_line(voc_net):
    with pytest.raises(ValueError, match='faster_rcnn_resnet50_v1b_custom needs classes='):
        gz.get_model('faster_rcnn_resnet50_v1b_custom', pretrained_base=False)
    with pytest.raises(ValueError, match="transfer='kitti' names no pretrained model"):
        gz.get_model('faster_rcnn_resnet50_v1b_custom', classes=['a'], transfer='kitti')
    with pytest.raises(ValueError, match="has no option 'rpn_test_post_nm'; did you mean 'rpn_test_post_nms'"):
        gz.get_model(VOC_NET, pretrained_base=False, rpn_test_post_nm=10)
    with pytest.raises(ValueError, match='class names must be distinct'):
        gz.get_model(VOC_NET, pretrained_base=False, classes=['a', 'b', 'a'])
    net = voc_net[0]
    with pytest.raises(ValueError, match="old class 'kitten' is not one of the old classes"):
        net.reset_class(['cat'], reuse_weights={'cat': 'kitten'})
    with pytest.raises(ValueError, match='new class index 3 is not in'):
        net.reset_class(['cat'], reuse_weights={3: 'cat'})
    with pytest.raises(ValueError, match='non-empty list of class names'):
        net.reset_class([])
    assert net.classes == list(VOC) and net.class_predictor.weight.shape[0] == 21  # a refused reset changes nothing
