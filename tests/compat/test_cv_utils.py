"""gluonzoo.cv.utils against GluonCV 0.10.5's gluoncv.utils (tests/peers/gluoncv_utils_api.py, run once for the
file): box helpers, learning-rate schedules, palettes, expand_mask, split_data, check_sha1 / check_version, the viz
functions' return types, and the metrics' EvalMetric protocol (get() -> GluonCV's (names, values), issue 26 bug 6)
on the same inputs. `download` runs against a real HTTP server on 127.0.0.1; `export_block` writes files that
MXNet's SymbolBlock loads."""
import hashlib
import os

import matplotlib

matplotlib.use('Agg')

import mxnet as mx  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import gluonzoo.cv as gcv  # noqa: E402
from gluonzoo.errors import BadInputError, ChecksumError  # noqa: E402
from tests.peers import run_peer  # noqa: E402

utils, viz = gcv.utils, gcv.utils.viz

LR = [
    {'kind': 'one', 'steps': 60, 'args': {'mode': 'cosine', 'base_lr': 0.3, 'target_lr': 0.01, 'niters': 50}},
    {'kind': 'one', 'steps': 60, 'args': {'mode': 'poly', 'base_lr': 1, 'target_lr': 0, 'niters': 40, 'power': 0.9}},
    {'kind': 'one', 'steps': 40, 'args': {'mode': 'step', 'base_lr': 1, 'nepochs': 4, 'iters_per_epoch': 8,
                                          'step_epoch': [1, 3], 'step_factor': 0.5}},
    {'kind': 'sequential', 'steps': 40, 'parts': [
        {'mode': 'linear', 'base_lr': 0, 'target_lr': 0.1, 'niters': 5},
        {'mode': 'cosine', 'base_lr': 0.1, 'target_lr': 0, 'niters': 0},
        {'mode': 'step', 'base_lr': 0.1, 'niters': 30, 'step_iter': [10, 20], 'step_factor': 0.1}]},
]
SPLIT = [[(10, 2), 3, 0, False, 1], [(12, 3), 4, 0, True, 1], [(2, 9), 3, 1, True, 1], [(2, 10), 3, 1, False, 1],
         [(16, 1), 3, 0, False, 4], [(2, 1), 3, 0, False, 1]]


def _inputs(rng):
    def boxes(n, span=40):
        xy = rng.uniform(0, span, (n, 2))
        return np.concatenate([xy, xy + rng.uniform(1, 15, (n, 2))], 1).astype(np.float32)
    d = {'a': boxes(5), 'b': boxes(6), 'xywh': boxes(4), 'ids': rng.integers(-1, 21, (8, 10)).astype(np.int64),
         'masks': rng.random((3, 14, 14)).astype(np.float32), 'mask_boxes': boxes(3, 25),
         'mask_scores': np.array([0.9, 0.2, 0.5], np.float32), 'scores': np.array([0.9, 0.8], np.float32),
         'labels': np.array([0, 2], np.float32),
         'seg_label': rng.integers(-1, 4, (2, 6, 7)).astype(np.float32),
         'seg_pred': rng.random((2, 4, 6, 7)).astype(np.float32),
         'hm_label': rng.random((2, 3, 16, 12)).astype(np.float32),
         'hm_pred': rng.random((2, 3, 16, 12)).astype(np.float32)}
    for i in range(2):  # two batches of 2 images: 4 predictions, 3 truths, some difficult, padding -1
        gb = np.stack([boxes(3) for _ in range(2)])
        pb = np.concatenate([gb + rng.normal(0, 1.5, gb.shape), np.stack([boxes(1) for _ in range(2)])], 1)
        d[f'pb_{i}'], d[f'gb_{i}'] = pb.astype(np.float32), gb
        d[f'pl_{i}'] = rng.integers(0, 3, (2, 4, 1)).astype(np.float32)
        d[f'pl_{i}'][0, -1] = -1
        d[f'ps_{i}'] = rng.random((2, 4, 1)).astype(np.float32)
        d[f'gl_{i}'] = rng.integers(0, 3, (2, 3, 1)).astype(np.float32)
        d[f'gd_{i}'] = (rng.random((2, 3, 1)) < 0.2).astype(np.float32)
    f32 = lambda a: a.astype(np.float32)  # noqa: E731
    d.update(rpn_label=f32(rng.integers(0, 2, (2, 10))), rpn_weight=f32(rng.integers(0, 2, (2, 10))),
             rpn_logits=f32(rng.normal(0, 1, (2, 10))), box_target=f32(rng.normal(0, 1, (2, 10, 4))),
             box_weight=f32(rng.integers(0, 2, (2, 10, 4))), box_reg=f32(rng.normal(0, 1, (2, 10, 4))),
             rcnn_label=f32(rng.integers(0, 4, (2, 5))), rcnn_cls=f32(rng.normal(0, 1, (2, 5, 4))),
             mask_target=f32(rng.random((2, 3, 7, 7))), mask_weight=f32(rng.integers(0, 2, (2, 3, 7, 7))),
             mask_logits=f32(rng.normal(0, 1, (2, 3, 7, 7))), acc_label=f32(rng.integers(-1, 3, 12)),
             acc_pred=f32(rng.random((12, 4))), par_w=f32(rng.normal(0, 1, (2, 3))), par_x=f32(rng.normal(0, 1, (5, 3))),
             par_y=f32(rng.normal(0, 1, (5, 2))))
    return d


@pytest.fixture(scope='module')
def ref(tmp_path_factory):
    out = tmp_path_factory.mktemp('cv_utils')
    d = _inputs(np.random.default_rng(7))
    np.savez(out / 'inputs.npz', **d)
    blob = out / 'blob.bin'
    blob.write_bytes(b'gluonzoo' * 1000)
    sha = hashlib.sha1(blob.read_bytes()).hexdigest()
    files = [[str(blob), sha], [str(blob), sha[:8]], [str(blob), '0' * 40]]
    run_peer('gluoncv_utils_api.py', out, [{'inputs': str(out / 'inputs.npz'), 'out': str(out / 'ref'), 'lr': LR,
                                            'split': SPLIT, 'files': files}], timeout=300)
    import json
    with open(out / 'ref.json') as f:
        meta = json.load(f)
    return d, dict(np.load(out / 'ref.npz')), meta, files


def test_bbox_helpers_match_gluoncv(ref):
    d, arrays, meta, _ = ref
    np.testing.assert_allclose(utils.bbox_iou(d['a'], d['b']), arrays['iou0'], rtol=1e-6)
    np.testing.assert_allclose(utils.bbox.bbox_iou(d['a'], d['b'], offset=1), arrays['iou1'], rtol=1e-6)
    np.testing.assert_allclose(utils.bbox.bbox_xywh_to_xyxy(d['xywh']), arrays['xyxy'], rtol=1e-6)
    np.testing.assert_allclose(utils.bbox.bbox_xyxy_to_xywh(d['a']), arrays['xywh'], rtol=1e-6)
    # GluonCV's hstack of the four clipped columns is flat (4N,): ours keeps the (N, 4) boxes (DIFFERS)
    np.testing.assert_allclose(utils.bbox.bbox_clip_xyxy(d['a'], 30, 20), arrays['clip'].reshape(4, -1).T, rtol=1e-6)
    assert list(utils.bbox.bbox_xywh_to_xyxy(d['xywh'][0].tolist())) == pytest.approx(meta['xyxy_list'])
    assert list(utils.bbox.bbox_xyxy_to_xywh(d['a'][0].tolist())) == pytest.approx(meta['xywh_list'])
    assert [float(v) for v in utils.bbox.bbox_clip_xyxy(d['a'][0].tolist(), 30, 20)] == pytest.approx(meta['clip_list'])
    with pytest.raises(IndexError, match='4'):
        utils.bbox_iou(d['a'][:, :3], d['b'])
    with pytest.raises(TypeError, match='list, tuple or numpy'):
        utils.bbox.bbox_xywh_to_xyxy('1 2 3 4')


def test_lr_schedules_match_gluoncv(ref):
    for cfg, want in zip(LR, ref[2]['lr']):
        if cfg['kind'] == 'sequential':
            s = utils.LRSequential([utils.LRScheduler(**c) for c in cfg['parts']])
        else:
            s = utils.LRScheduler(**cfg['args'])
        assert isinstance(s, mx.lr_scheduler.LRScheduler)  # what a gluon Trainer takes
        assert [s(i) for i in range(cfg['steps'])] == pytest.approx(want, rel=1e-12, abs=1e-15)
    with pytest.raises(ValueError, match='cosine'):
        utils.LRScheduler('exp')
    with pytest.raises(ValueError, match='step_iter'):
        utils.LRScheduler('step')
    with pytest.raises(TypeError, match='LRScheduler'):
        utils.LRSequential([mx.lr_scheduler.FactorScheduler(10)])


def test_color_palettes_match_gluoncv(ref):
    d, arrays, meta, _ = ref
    for ds in ('pascal_voc', 'ade20k', 'citys', 'mhpv1'):
        img = viz.get_color_pallete(d['ids'].copy(), ds)
        assert img.mode == meta[f'pal_{ds}']['mode'] == 'P'
        np.testing.assert_array_equal(np.array(img), arrays[f'pal_{ds}'])
        assert img.getpalette()[:3 * 256] == meta[f'pal_{ds}']['palette'], ds


def test_expand_mask_matches_gluoncv(ref):
    d, arrays, _, _ = ref
    for sortby in (None, 'area'):
        full, order = viz.expand_mask(d['masks'], d['mask_boxes'], (40, 30), d['mask_scores'], thresh=0.3,
                                      sortby=sortby)
        np.testing.assert_array_equal(full, arrays[f'mask_{sortby}'])
        np.testing.assert_array_equal(order, arrays[f'order_{sortby}'])
    with pytest.raises(ValueError, match='sortby'):
        viz.expand_mask(d['masks'], d['mask_boxes'], (40, 30), d['mask_scores'], sortby='size')
    with pytest.raises(ValueError, match='mismatch'):
        viz.expand_mask(d['masks'][:2], d['mask_boxes'], (40, 30))


def test_split_data_matches_gluoncv(ref):
    for (shape, n, axis, even, mult), want in zip(SPLIT, ref[2]['split']):
        assert [list(s.shape) for s in utils.split_data(mx.nd.zeros(shape), n, axis, even, mult)] == want
    with pytest.raises(ValueError, match='evenly'):
        utils.split_data(mx.nd.zeros((10, 2)), 3)
    parts = utils.split_and_load(np.arange(6).reshape(6, 1), [mx.cpu(0), mx.cpu(1)])
    assert [p.context for p in parts] == [mx.cpu(0), mx.cpu(1)] and parts[1].asnumpy().ravel().tolist() == [3, 4, 5]


def test_check_sha1_and_version_match_gluoncv(ref):
    meta, files = ref[2], ref[3]
    assert [utils.check_sha1(p, h) for p, h in files] == meta['sha1'] == [True, True, False]
    utils.check_version('0.6.0')  # a GluonCV release number, as GluonCV's scripts pass
    with pytest.raises(AssertionError, match='99.0'):
        utils.check_version('99.0')
    assert meta['version_error'] == 'AssertionError'
    with pytest.warns(UserWarning, match='99.0'):
        utils.check_version('99.0', warning_only=True)


def test_viz_functions_return_what_gluoncvs_return(ref):
    d, arrays, meta, _ = ref
    from matplotlib.axes import Axes
    img = np.zeros((30, 40, 3), np.uint8)
    types = meta['types']
    ax = viz.plot_image(img)
    assert isinstance(ax, Axes) and type(ax).__name__ == types['plot_image']
    ax2 = viz.plot_bbox(img, d['a'][:2], d['scores'][:2], d['labels'][:2], class_names=['x', 'y', 'z'], ax=ax)
    assert ax2 is ax and type(ax2).__name__ == types['plot_bbox'] and len(ax.patches) == 2
    assert len(viz.plot_bbox(img, d['a'][:2] / 40, absolute_coordinates=False).patches) == 2
    out = viz.cv_plot_bbox(img, d['a'][:2], d['scores'][:2], d['labels'][:2])
    assert [type(out).__name__, list(out.shape), str(out.dtype)] == types['cv_plot_bbox']
    assert out.any() and not img.any()  # drawn into a copy
    m = viz.plot_mask(img, arrays['mask_None'][:, :30, :40])
    assert [type(m).__name__, list(m.shape), str(m.dtype)] == types['plot_mask']
    coords = np.tile(np.arange(17, dtype=np.float32)[:, None], (1, 2))[None] + 5
    args = (coords, np.full((1, 17, 1), 0.9), mx.nd.array([[[0], [1]]]), mx.nd.array([d['a'][:2]]),
            mx.nd.array([[[0.9], [0.9]]]))
    assert isinstance(viz.plot_keypoints(img, *args), Axes)
    assert viz.cv_plot_keypoints(img, *args).shape == img.shape
    with pytest.raises(ValueError, match='mismatch'):
        viz.plot_bbox(img, d['a'][:2], scores=d['scores'][:1])


def _voc(cls, *args):
    return cls(*args)


def test_metrics_follow_mxnets_evalmetric_protocol_as_gluoncvs(ref):
    d, _, meta, _ = ref
    from gluonzoo.cv.utils.metrics import HeatmapAccuracy, SegmentationMetric, VOC07MApMetric, VOCMApMetric
    want = meta['metrics']
    batches = [[d[f'{k}_{i}'] for k in ('pb', 'pl', 'ps', 'gb', 'gl', 'gd')] for i in range(2)]
    for key, m in (('voc', VOCMApMetric(0.5, ['c0', 'c1', 'c2'])), ('voc07', VOC07MApMetric(0.5, ['c0', 'c1', 'c2'])),
                   ('voc07_anon', VOC07MApMetric(iou_thresh=0.5))):
        assert isinstance(m, mx.metric.EvalMetric)
        for b in batches:
            m.update(*b)
        names, values = m.get()  # a tuple, not a dict (issue 26 bug 6)
        assert names == want[key]['get'][0]
        assert np.array(values, float) == pytest.approx(np.array(want[key]['get'][1], float), nan_ok=True, abs=1e-9)
        got_pairs = m.get_name_value()
        assert [n for n, _ in got_pairs] == [n for n, _ in want[key]['pairs']]
        m.reset()
        assert not m._n_pos
    seg = SegmentationMetric(4)
    seg.update([mx.nd.array(d['seg_label'])], [mx.nd.array(d['seg_pred'])])
    got = seg.get()
    assert isinstance(got, tuple) and list(got) == pytest.approx(want['seg']['get'], abs=1e-12)
    hm = HeatmapAccuracy()
    hm.update(mx.nd.array(d['hm_label']), mx.nd.array(d['hm_pred']))
    name, value = hm.get()
    assert [name, value] == [want['heatmap']['get'][0], pytest.approx(want['heatmap']['get'][1], abs=1e-12)]
    assert [n for n, _ in hm.get_name_value()] == [n for n, _ in want['heatmap']['pairs']]
    hm.reset()
    assert np.isnan(hm.get()[1]) and np.isnan(want['heatmap_reset'][0])


def test_an_mxnet_composite_metric_reads_ours():
    # the estimator and GluonCV's scripts combine metrics through EvalMetric's protocol
    from gluonzoo.cv.utils.metrics import SegmentationMetric
    from gluonzoo.vision.metrics import TopKAccuracy
    combo = mx.metric.CompositeEvalMetric([TopKAccuracy((1,)), mx.metric.Accuracy()])
    combo.update([mx.nd.array([0, 1])], [mx.nd.array([[0.9, 0.1], [0.8, 0.2]])])
    assert combo.get() == (['top1', 'accuracy'], [0.5, 0.5])
    seg = SegmentationMetric(2)
    seg.update(mx.nd.array([[0, 1]]), mx.nd.array([[0, 0]]))
    assert seg.get_name_value() == [('pixAcc', pytest.approx(0.5)), ('mIoU', pytest.approx(0.25))]


# -- download: the store's HTTP code against a real server on 127.0.0.1 -------------------------------------------
def test_download_writes_keeps_and_verifies(http_server, tmp_path):
    body = os.urandom(3000)
    http_server.files['/data/x.bin'] = body
    sha = hashlib.sha1(body).hexdigest()
    url = http_server.base + 'data/x.bin'
    path = utils.download(url, path=str(tmp_path), sha1_hash=sha)  # a folder: the URL's name inside it
    assert path == str(tmp_path / 'x.bin') and open(path, 'rb').read() == body
    assert utils.download(url, path=path) == path and len(http_server.hits) == 1  # kept, no request
    utils.download(url, path=path, overwrite=True)
    assert len(http_server.hits) == 2
    other = tmp_path / 'sub' / 'y.bin'  # a file path in a folder not made yet
    assert utils.download(url, path=str(other), sha1_hash=sha[:8]) == str(other) and other.read_bytes() == body
    assert [p for p in os.listdir(tmp_path) if p.endswith('.part')] == []


def test_download_faults(http_server, tmp_path, monkeypatch):
    body = b'abc' * 100
    http_server.files['/f.bin'] = body
    url = http_server.base + 'f.bin'
    http_server.plan = [503]  # a server error is tried again
    assert open(utils.download(url, path=str(tmp_path / 'a.bin')), 'rb').read() == body
    with pytest.raises(RuntimeError, match='404'):  # a missing file is not
        utils.download(http_server.base + 'missing.bin', path=str(tmp_path / 'm.bin'))
    with pytest.raises(ChecksumError, match='sha1'):
        utils.download(url, path=str(tmp_path / 'b.bin'), sha1_hash='0' * 40, retries=2)
    assert not (tmp_path / 'b.bin').exists() and not [p for p in os.listdir(tmp_path) if p.endswith('.part')]
    http_server.truncate = True
    with pytest.raises(BadInputError, match='ended after'):
        utils.download(url, path=str(tmp_path / 'c.bin'), retries=1)
    with pytest.raises(BadInputError, match='not an http'):
        utils.download('file:///etc/passwd')
    monkeypatch.setenv('GLUONZOO_OFFLINE', '1')
    with pytest.raises(BadInputError, match='GLUONZOO_OFFLINE'):
        utils.download(url, path=str(tmp_path / 'd.bin'))


def test_makedirs_and_filesystem_helpers(tmp_path):
    p = str(tmp_path / 'a' / 'b')
    utils.makedirs(p)
    utils.makedirs(p)  # exists: fine
    assert os.path.isdir(p)
    assert 'b/' in str(utils.filesystem.PathTree(str(tmp_path), max_depth=2))
    with pytest.raises(ImportError, match='pip install'):
        utils.filesystem.try_import('no_such_package_here')


def test_export_block_writes_what_symbolblock_loads(tmp_path):
    from mxnet.gluon import nn
    net = nn.HybridSequential()
    net.add(nn.Conv2D(4, 3, in_channels=3), nn.GlobalAvgPool2D(), nn.Dense(2, in_units=4))
    net.initialize(mx.init.Xavier())
    prefix = str(tmp_path / 'net')
    utils.export_block(prefix, net, data_shape=(16, 16, 3), epoch=3)  # GluonCV's default preprocess in front
    assert sorted(os.listdir(tmp_path)) == ['net-0003.params', 'net-symbol.json']
    loaded = mx.gluon.SymbolBlock.imports(prefix + '-symbol.json', ['data'], prefix + '-0003.params')
    x = np.random.default_rng(0).uniform(0, 255, (1, 16, 16, 3)).astype(np.float32)
    mean, std = np.array([123.675, 116.28, 103.53]), np.array([58.395, 57.12, 57.375])
    want = net(mx.nd.array(((x - mean) / std).transpose(0, 3, 1, 2))).asnumpy()
    np.testing.assert_allclose(loaded(mx.nd.array(x)).asnumpy(), want, rtol=1e-4, atol=1e-5)
    utils.export_block(str(tmp_path / 'raw'), net, preprocess=None, layout='CHW')  # tries the common sizes
    assert os.path.exists(tmp_path / 'raw-0000.params')
    with pytest.raises(ValueError, match='CHW'):
        utils.export_block(str(tmp_path / 'bad'), net, preprocess=None)
    with pytest.raises(RuntimeError):  # no size fits a net that wants 5 channels
        bad = nn.HybridSequential()
        bad.add(nn.Conv2D(2, 1, in_channels=5))
        bad.initialize()
        utils.export_block(str(tmp_path / 'bad'), bad, data_shape=(8, 8, 3))


def test_training_metrics_and_segmentation_helpers_match_gluoncv(ref):
    d, _, meta, _ = ref
    from gluonzoo.cv.utils.metrics import accuracy, rcnn
    from gluonzoo.cv.utils.metrics import segmentation as segm
    nd = {k: mx.nd.array(v) for k, v in d.items()}
    for name, m, labels, preds in (
            ('rpn_acc', rcnn.RPNAccMetric(), [nd['rpn_label'], nd['rpn_weight']], [nd['rpn_logits']]),
            ('rpn_l1', rcnn.RPNL1LossMetric(), [nd['box_target'], nd['box_weight']], [nd['box_reg']]),
            ('rcnn_acc', rcnn.RCNNAccMetric(), [nd['rcnn_label']], [nd['rcnn_cls']]),
            ('rcnn_l1', rcnn.RCNNL1LossMetric(), [nd['box_target'], nd['box_weight']], [nd['box_reg']]),
            ('mask_acc', rcnn.MaskAccMetric(), [nd['mask_target'], nd['mask_weight']], [nd['mask_logits']]),
            ('mask_fg', rcnn.MaskFGAccMetric(), [nd['mask_target'], nd['mask_weight']], [nd['mask_logits']]),
            ('accuracy', accuracy.Accuracy(ignore_labels=[-1]), [nd['acc_label']], [nd['acc_pred']]),
            ('accuracy_all', accuracy.Accuracy(), [nd['acc_label'] + 1], [nd['acc_pred']])):
        assert isinstance(m, mx.metric.EvalMetric)
        for _ in range(2):
            m.update(labels, preds)
        name_got, value = m.get()
        assert [name_got, value] == [meta['metrics']['training'][name][0],
                                     pytest.approx(meta['metrics']['training'][name][1], rel=1e-6)], name
    want = meta['metrics']['seg_helpers']
    label, pred = nd['seg_label'], nd['seg_pred']
    assert list(segm.batch_pix_accuracy(pred, label)) == want['batch_pix_accuracy']
    assert [list(map(float, a)) for a in segm.batch_intersection_union(pred, label, 4)] == \
        want['batch_intersection_union']
    got = segm.pixelAccuracy(d['seg_pred'].argmax(1) + 1, d['seg_label'] + 1)
    assert list(got) == pytest.approx(want['pixelAccuracy'])
    got = segm.intersectionAndUnion(d['seg_pred'].argmax(1) + 1, d['seg_label'] + 1, 4)
    assert [list(map(float, a)) for a in got] == want['intersectionAndUnion']


def test_efficientnet_crops_match_gluoncv(ref):
    import random

    from PIL import Image

    from gluonzoo.cv.utils.transforms import EfficientNetCenterCrop, EfficientNetRandomCrop
    d, _, meta, _ = ref
    pic = Image.fromarray((d['hm_label'][0, 0] * 255).astype(np.uint8)).resize((37, 29))
    random.seed(4)
    crop = EfficientNetRandomCrop(24, area_range=(0.2, 0.9))
    assert [[list(c.size), int(np.asarray(c, np.int64).sum())] for c in [crop(pic) for _ in range(12)]] == \
        meta['crops']
    c = EfficientNetCenterCrop(24)(pic)
    assert [list(c.size), int(np.asarray(c, np.int64).sum())] == meta['center_crop']
    with pytest.raises(ValueError, match='min_covered'):
        EfficientNetRandomCrop(24, area_range=(0.9, 0.2))


def test_data_parallel_helpers_match_gluoncv(ref):
    d, arrays, _, _ = ref
    from gluonzoo.cv.utils import parallel
    net = mx.gluon.nn.Dense(2, in_units=3)
    net.initialize()
    net.weight.set_data(mx.nd.array(d['par_w']))
    net.bias.set_data(mx.nd.zeros(2))
    ctx = [mx.cpu(0), mx.cpu(1)]
    model = parallel.DataParallelModel(net, ctx, sync=True)
    criterion = parallel.DataParallelCriterion(mx.gluon.loss.L2Loss(), ctx, sync=True)
    with mx.autograd.record():
        outs = model(mx.nd.array(d['par_x']))
        losses = criterion(outs, mx.nd.array(d['par_y']))
    parallel.parallel_backward(losses)
    assert [o[0].context for o in outs] == ctx
    np.testing.assert_allclose(np.concatenate([o[0].asnumpy() for o in outs]), arrays['par_out'], rtol=1e-6)
    np.testing.assert_allclose(np.concatenate([x.asnumpy() for x in losses]), arrays['par_loss'], rtol=1e-6)
    np.testing.assert_allclose(sum(g.asnumpy() for g in net.weight.list_grad()), arrays['par_grad'], rtol=1e-5)

    class Square(parallel.Parallelizable):
        def forward_backward(self, x):
            return x * x
    pool = parallel.Parallel(2, Square())
    for i in range(5):
        pool.put(i)
    assert sorted(pool.get() for _ in range(5)) == [0, 1, 4, 9, 16]
    with pytest.raises(ValueError, match='devices'):
        parallel.DataParallelCriterion(mx.gluon.loss.L2Loss(), ctx)(outs[:1], mx.nd.array(d['par_y']))
