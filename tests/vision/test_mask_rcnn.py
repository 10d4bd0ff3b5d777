"""Mask R-CNN: GluonCV 0.10.5's parameter files load strictly and give the same detections and masks, imperative
and hybridized; GluonCV's `expand_mask` and ours paste the same masks; the ResNet-50/101 nets (and GluonCV's
SyncBatchNorm mask head option) name their parameters as GluonCV does; reset_class, batches, bad options.

Registry-driven: every .gluoncv record of the instance-segmentation task is either compared end to end, as the
smallest member of its variant (a variant: the network around the backbone, i.e. one map or FPN, the RoI size,
the box and mask head layers), or by its parameter names and shapes (the larger members; their backbones' own
numbers are the classification parity test's). Small pictures, few proposals."""
import collections
import json

import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import SyncBatchNorm

import gluonzoo as gz
from gluonzoo.registry import get_entry
from gluonzoo.vision.meta import COCO
from gluonzoo.vision.models.segmentation.mask_rcnn import paste_masks
from gluonzoo.vision.ops.roi import batch_rois, pyramid_levels
from gluonzoo.weights import GLUONCV_REPO

from ..peers import run_peer

#: the end-to-end cases' picture and proposals; larger proposals on FPN, so masks are pooled from several levels
ONE_MAP = dict(shape=[1, 3, 128, 160], rpn_test_pre_nms=300, rpn_test_post_nms=16, rcnn_max_dets=16)
PYRAMID = dict(ONE_MAP, rpn_test_pre_nms=500, rpn_test_post_nms=32, rcnn_max_dets=32, rpn_size_bias=1.5)
SMALL = dict(rpn_test_pre_nms=50, rpn_test_post_nms=4)
SYNCBN = 'mask_rcnn_fpn_resnet18_v1b_coco'  # also built with GluonCV's norm_layer=SyncBatchNorm (names only)


def _variant(name):
    """What a Mask R-CNN is around its backbone (built, not initialized: cheap)."""
    net = gz.get_model(name, pretrained_base=False)
    net.initialize()
    box = tuple(type(b).__name__ for b in net.box_features._children.values()) if net.box_features else None
    deconv = tuple(type(b).__name__ for b in net.mask.deconv._children.values()) or type(net.mask.deconv).__name__
    return net.num_stages, net._roi_size, net.top_features is not None, box, deconv


def _cases():
    best = collections.OrderedDict()
    for name in gz.list_models(task='instance-segmentation', pretrained=True, tags=True):
        if name.endswith('.gluoncv'):
            w = gz.get_weights(name)
            key = _variant(w.arch)
            if key not in best or w.num_params < best[key].num_params:
                best[key] = w
    parity = {w.arch: PYRAMID if key[0] > 1 else ONE_MAP for key, w in best.items()}
    names = [n.rsplit('.', 1)[0] for n in gz.list_models(task='instance-segmentation', pretrained=True, tags=True)
             if n.endswith('.gluoncv') and n.rsplit('.', 1)[0] not in parity]
    return parity, names


PARITY, NAMES = _cases()


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_mask_rcnn')
    jobs = [dict(name=n, **job) for n, job in PARITY.items()] + \
        [dict(name=n, shape=[1, 3, 64, 64], names_only=True, rcnn_max_dets=4, **SMALL) for n in NAMES]
    jobs.append(dict(name=SYNCBN, file='syncbn', shape=[1, 3, 64, 64], names_only=True, syncbn=True, rcnn_max_dets=4,
                     **SMALL))  # the same arch again, with GluonCV's SyncBatchNorm option
    run_peer('gluoncv_mask_rcnn.py', out, jobs)
    return out


def _close(got, want):
    got = got.asnumpy() if hasattr(got, 'asnumpy') else got
    assert got.shape == want.shape
    # 2e-5 of the largest |value|: float rounding of another summation order (CI's Intel Xeon: 1.3e-5, here <1e-5)
    assert np.abs(got - want).max() <= 2e-5 * max(np.abs(want).max(), 1e-30)


def _loaded(files, name):
    """Our `name` with GluonCV's random weights, every shape known first so that loading checks them all."""
    job = PARITY[name]
    net = gz.get_model(name, pretrained_base=False, rpn_test_pre_nms=job['rpn_test_pre_nms'],
                       rpn_test_post_nms=job['rpn_test_post_nms'], rcnn_max_dets=job['rcnn_max_dets'])
    net.initialize()
    net(mx.nd.zeros(job['shape']))
    net.load_parameters(str(files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    return net


def test_cases_cover_every_variant():
    assert sorted(PARITY) == ['mask_rcnn_fpn_resnet18_v1b_coco', 'mask_rcnn_fpn_resnet50_v1b_coco',
                              'mask_rcnn_resnet18_v1b_coco']
    assert sorted(NAMES) == ['mask_rcnn_fpn_resnet101_v1d_coco', 'mask_rcnn_resnet101_v1d_coco',
                             'mask_rcnn_resnet50_v1b_coco']


@pytest.mark.parametrize('name', list(PARITY))
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, name):
    ref = np.load(gluoncv_files / f'{name}.npz')
    x = mx.nd.array(ref['x'])
    net = _loaded(gluoncv_files, name)
    for hybrid in (False, True):
        net.hybridize(hybrid)
        ids, scores, boxes, masks = net(x)
        assert (ids.asnumpy() == ref['ids']).all(), f'class ids or their order differ (hybridized: {hybrid})'
        for got, key in ((scores, 'scores'), (boxes, 'boxes'), (masks, 'masks')):
            _close(got, ref[key])
    # the reference tests something: every row a detection, of several classes, masks neither flat nor saturated
    valid = ref['ids'][0, :, 0] >= 0
    assert valid.all() and len(np.unique(ref['ids'][0, :, 0])) >= 2
    assert (np.diff(ref['scores'][0, :, 0]) <= 0).all() and 0.2 < ref['masks'].std() and \
        ref['masks'].min() < 0.05 and ref['masks'].max() > 0.95
    if net.num_stages > 1:  # the masks are pooled from more than one level
        assert len(np.unique(pyramid_levels(mx.nd, batch_rois(mx.nd, mx.nd.array(ref['boxes'])), 2, 5).asnumpy())) >= 2


@pytest.mark.parametrize('name', list(PARITY))
def test_pasted_masks_are_gluoncvs_expand_mask(gluoncv_files, name):
    ref = np.load(gluoncv_files / f'{name}.npz')
    full = paste_masks(ref['masks'][0], ref['boxes'][0], (ref['x'].shape[3], ref['x'].shape[2]),
                       scores=ref['scores'][0, :, 0], thresh=0.0)
    assert full.dtype == np.uint8 and full.shape == ref['full'].shape and ref['full'].sum() > 1000
    np.testing.assert_array_equal(full, ref['full'])


@pytest.mark.parametrize('name', NAMES + ['syncbn'])
def test_parameter_names_and_shapes_are_gluoncvs(gluoncv_files, name):
    syncbn = name == 'syncbn'
    name = SYNCBN if syncbn else name
    saved = json.loads((gluoncv_files / f'{"syncbn" if syncbn else name}.json').read_text())
    want = {k: tuple(v) for k, v in saved.items()}
    net = gz.get_model(name, pretrained_base=False, **({'norm_layer': SyncBatchNorm} if syncbn else {}), **SMALL)
    net.initialize()
    net(mx.nd.random.uniform(shape=(1, 3, 64, 64)))
    got = {k: p.shape for k, p in net._collect_params_with_prefix().items()}
    assert sorted(got) == sorted(want)
    assert got == want
    assert not syncbn or any('running_mean' in k and k.startswith('mask.') for k in got)


def test_paste_masks_options():
    masks, boxes = np.full((2, 4, 4), 0.9, 'float32'), np.array([[0, 0, 7, 7], [4, 4, 9, 9]], 'float32')
    both = paste_masks(masks, boxes, (12, 10))
    assert both.shape == (2, 10, 12) and both[0, :8, :8].all() and not both[0, 9:].any()
    assert both[1, 4:10, 5:9].all() and both[1, 5:9, 4:10].all() and not both[1, :3].any()
    np.testing.assert_array_equal(paste_masks(mx.nd.array(masks), mx.nd.array(boxes / 2), (12, 10), scale=2.0), both)
    only = paste_masks(masks, boxes, (12, 10), scores=np.array([0.3, 0.8]), thresh=0.5)
    np.testing.assert_array_equal(only, both[1:])
    assert boxes[1, 2] == 9  # not scaled in place (GluonCV's expand_mask does)
    with pytest.raises(ValueError, match='2 masks, 1 boxes'):
        paste_masks(masks, boxes[:1], (12, 10))


@pytest.fixture(scope='module')
def one_map(gluoncv_files):
    name = next(n for n, job in PARITY.items() if job is ONE_MAP)
    return _loaded(gluoncv_files, name), mx.nd.array(np.load(gluoncv_files / f'{name}.npz')['x'])


def test_reset_class_keeps_the_reused_mask_maps(one_map):
    net, x = one_map
    old = net.mask.mask.weight.data().asnumpy()
    net.reset_class(['kitty', 'person', 'dog'], reuse_weights={'person': 'person', 2: COCO.index('dog')})
    new = net.mask.mask.weight.data().asnumpy()
    assert new.shape == (3,) + old.shape[1:] and net.classes == ['kitty', 'person', 'dog']
    np.testing.assert_array_equal(new[1:], old[[COCO.index('person'), COCO.index('dog')]])
    assert not any(np.array_equal(new[0], row) for row in old)
    net.hybridize()
    ids, _, _, masks = net(x)
    assert set(np.unique(ids.asnumpy())) <= {-1, 0, 1, 2} and masks.shape[:2] == ids.shape[:2]


def test_a_batch_is_its_pictures_one_by_one(one_map):
    net, x = one_map
    two = mx.nd.concat(x, mx.nd.flip(x, axis=2), dim=0)  # GluonCV's inference takes one picture a call
    net.hybridize()
    both = net(two)
    for i in range(2):
        for got, want in zip(both, net(two[i:i + 1])):
            _close(got[i:i + 1], want.asnumpy())


def test_records_are_gluoncvs_checkpoints(gluoncv_files):
    store = json.loads((gluoncv_files / 'sha1.json').read_text())
    records = [gz.get_weights(n) for n in gz.list_models(task='instance-segmentation', pretrained=True)]
    assert sorted(w.arch for w in records) == sorted(store)
    for w in records:
        assert w.sha1 == store[w.arch] and w.file_stem == f'{w.arch}-{w.sha1[:8]}'
        assert w.source.kind == 'mirror' and w.source.url == GLUONCV_REPO


def test_registry_entries_and_bad_options():
    archs = gz.list_models(task='instance-segmentation')
    assert archs == sorted(f'mask_rcnn_{fpn}{b}_coco' for fpn in ('', 'fpn_')
                           for b in ('resnet18_v1b', 'resnet50_v1b', 'resnet101_v1d'))
    for name in archs:
        w = gz.get_weights(name)
        assert w.tag == 'gluoncv' and w.classes == tuple(COCO) and w.preprocess['resize'] == 800
        assert {'map', 'mask_map'} <= set(w.metrics) and get_entry(name).test_kwargs['pretrained_base'] is False
    with pytest.raises(ValueError, match="has no option 'rcnn_max_det'; did you mean 'rcnn_max_dets'"):
        gz.get_model(archs[0], pretrained_base=False, rcnn_max_det=10)
    with pytest.raises(ValueError, match='class names must be distinct'):
        gz.get_model(archs[0], pretrained_base=False, classes=['a', 'b', 'a'])
    net = gz.get_model('mask_rcnn_resnet18_v1b_coco', pretrained_base=False, rpn_test_post_nms=20, rcnn_max_dets=50)
    net.initialize()
    assert net.rcnn_max_dets == 20 and isinstance(net.mask.deconv, nn.Conv2DTranspose)  # GluonCV's clamp
