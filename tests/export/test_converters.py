"""Each of our converters against MXNet, on small Gluon blocks built here (the text/vision families may not use
them yet): the stock converters fail or are wrong on every case below (DESIGN.md). NMS and RoIAlign are checked
element for element."""
import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import nn, rnn

import gluonzoo as gz
from gluonzoo.exporting import compare
from gluonzoo.exporting.verify import ort_session


class RNNNet(nn.HybridBlock):
    def __init__(self, cell, hidden, layers, bidir, **kwargs):
        super().__init__(**kwargs)
        self.rnn = getattr(rnn, cell)(hidden, layers, bidirectional=bidir, layout='NTC')

    def hybrid_forward(self, F, x):
        return self.rnn(x)


@pytest.mark.parametrize('cell,layers,bidir', [('LSTM', 2, False), ('LSTM', 2, True), ('LSTM', 3, True),
                                               ('GRU', 2, False), ('GRU', 2, True), ('RNN', 2, True)])
def test_rnn(tmp_path, cell, layers, bidir):
    mx.random.seed(0)
    net = RNNNet(cell, 6, layers, bidir)
    net.initialize(mx.init.Uniform(0.5))
    x = mx.nd.random.uniform(-1, 1, shape=(2, 5, 4))  # input size 4 != hidden 6: the stock converter's bug
    written = gz.export(net, str(tmp_path / 'rnn'), inputs=(x,), formats=('onnx',))
    compare(net, written['onnx'], (x,))
    # dynamic batch: a batch size other than the exported one
    compare(net, written['onnx'], (mx.nd.random.uniform(-1, 1, shape=(3, 5, 4)),))


class Resize(nn.HybridBlock):
    def __init__(self, **attrs):
        super().__init__()
        self.attrs = attrs

    def hybrid_forward(self, F, x):
        return F.contrib.BilinearResize2D(x, **self.attrs)


@pytest.mark.parametrize('attrs', [dict(height=11, width=7, align_corners=False),
                                   dict(height=11, width=7, align_corners=True),
                                   dict(scale_height=2.0, scale_width=1.5, mode='odd_scale', align_corners=False),
                                   dict(scale_height=0.5, scale_width=0.5, mode='odd_scale', align_corners=True)])
def test_bilinear_resize(tmp_path, attrs):
    net = Resize(**attrs)
    x = mx.nd.random.uniform(shape=(1, 2, 6, 8))
    written = gz.export(net, str(tmp_path / 'r'), inputs=(x,), formats=('onnx',))
    compare(net, written['onnx'], (x,))
    compare(net, written['onnx'], (mx.nd.random.uniform(shape=(2, 2, 6, 8)),))


class Reshape(nn.HybridBlock):
    def __init__(self, shape):
        super().__init__()
        self.shape = shape

    def hybrid_forward(self, F, x):
        return F.reshape(x * 2, shape=self.shape)


@pytest.mark.parametrize('shape', [(0, -3, -2), (0, -4, 2, -1, -2), (-3, 0, 0), (0, 0, -4, -1, 3, -2), (0, -1)])
def test_reshape_special_codes(tmp_path, shape):
    net = Reshape(shape)
    x = mx.nd.random.uniform(shape=(2, 4, 6, 5))
    written = gz.export(net, str(tmp_path / 'r'), inputs=(x,), formats=('onnx',))
    compare(net, written['onnx'], (x,))
    compare(net, written['onnx'], (mx.nd.random.uniform(shape=(3, 4, 6, 5)),))


class BoxNMS(nn.HybridBlock):
    def __init__(self, **attrs):
        super().__init__()
        self.attrs = attrs

    def hybrid_forward(self, F, x):
        return F.contrib.box_nms(x, **self.attrs)


class DetectorNMS(nn.HybridBlock):
    """The detectors' call (vision/ops/nms.py): per-class box_nms, the post_nms cut, (ids, scores, boxes)."""

    def __init__(self, **kwargs):
        super().__init__()
        self.kwargs = kwargs

    def hybrid_forward(self, F, x):
        from gluonzoo.vision.ops.nms import nms
        return nms(F, x, **self.kwargs)


def exact(net, f, x):
    """ORT's outputs equal MXNet's, every element (NMS copies rows: nothing to round)."""
    sess = ort_session(f)
    got = sess.run(None, {sess.get_inputs()[0].name: x.asnumpy()})
    ref = net(x)
    ref = [r.asnumpy() for r in (ref if isinstance(ref, (list, tuple)) else [ref])]
    assert len(got) == len(ref)
    for a, b in zip(ref, got):
        assert a.shape == b.shape and np.array_equal(a, b), (a, b)


# hand-made rows (id, score, x1, y1, x2, y2), each case in batch 0; batch 1 holds the same rows, reordered
ROWS = np.array([
    [0, 0.9, 0, 0, 10, 10],     # class 0's best
    [0, 0.8, 1, 1, 10, 10],     # IoU 0.81 with it: suppressed
    [1, 0.8, 1, 1, 10, 10],     # the same box, class 1: kept (per class), suppressed class-agnostic
    [0, 0.7, 20, 20, 30, 30],   # no overlap: kept
    [0, 0.7, 21, 21, 30, 30],   # tie with the row above, overlaps it: suppressed (row order breaks the tie)
    [2, 0.7, 0, 0, 5, 5],       # ties of another class
    [2, 0.7, 0, 0, 5, 5.5],     #   IoU 0.91: the first of the tie wins
    [1, 0.005, 40, 40, 50, 50],  # under valid_thresh: dropped
    [-1, 0.95, 0, 0, 10, 10],   # background id: dropped
    [1, 0.6, 12, 12, 8, 8],     # x2 < x1: MXNet overlaps it with nothing
    [1, 0.5, 8, 8, 12, 12],
    [3, 0.3, 0, 0, 10, 10],
    [3, 0.3, 0, 0, 10, 10.2],
], dtype='float32')


def batch_of_two():
    return mx.nd.array(np.stack([ROWS, ROWS[::-1].copy()]))


@pytest.mark.parametrize('attrs', [
    dict(overlap_thresh=0.45, valid_thresh=0.01, topk=-1, id_index=0, score_index=1, coord_start=2),
    dict(overlap_thresh=0.45, valid_thresh=0.01, topk=5, id_index=0, score_index=1, coord_start=2),
    dict(overlap_thresh=0.3, valid_thresh=0.0001, topk=400, id_index=0, force_suppress=True),
    dict(overlap_thresh=0.5, topk=0, id_index=0),
    dict(overlap_thresh=0.5, valid_thresh=0.01, id_index=0, background_id=2),
    dict(overlap_thresh=0.7, topk=3, coord_start=1, score_index=0, id_index=-1, force_suppress=True),  # the RPN's
])
def test_box_nms_matches_mxnet(tmp_path, attrs):
    """Per class and class-agnostic, with ties, overlaps across classes, rows under the threshold, background ids,
    a flipped box, a top-k cut, batch 2: every element of MXNet's output, and at another batch size."""
    x = batch_of_two()
    if attrs.get('coord_start') == 1:
        x = x[:, :, 1:]
    net = BoxNMS(**attrs)
    written = gz.export(net, str(tmp_path / 'nms'), inputs=(x[:1],), formats=('onnx',))
    exact(net, written['onnx'], x)
    exact(net, written['onnx'], x[1:])


@pytest.mark.parametrize('post_nms', [3, 10])  # 10: fewer rows kept than post_nms, -1 padding
def test_detector_nms_call_matches_mxnet(tmp_path, post_nms):
    x = batch_of_two()
    net = DetectorNMS(thresh=0.45, topk=400, post_nms=post_nms)
    # 7 detections an image (both classes of the shared box, the flipped box and its neighbour); the 0.7 tie
    # resolves in row order, so the two images' third rows differ
    assert (net(x)[0].asnumpy() >= 0).sum() == 2 * min(7, post_nms)
    written = gz.export(net, str(tmp_path / 'nms'), inputs=(x,), formats=('onnx',))
    exact(net, written['onnx'], x)


def test_box_nms_random_rows(tmp_path):
    """Random rows, many classes and overlaps, a top-k that cuts: the same every element."""
    rng = np.random.RandomState(0)
    ids = rng.randint(-1, 6, size=(2, 300, 1))
    scores = rng.uniform(0, 1, size=(2, 300, 1)) ** 3
    xy = rng.uniform(0, 100, size=(2, 300, 2))
    x = mx.nd.array(np.concatenate([ids, scores, xy, xy + rng.uniform(-5, 40, size=(2, 300, 2))], -1))
    net = DetectorNMS(thresh=0.45, topk=100, post_nms=50)
    written = gz.export(net, str(tmp_path / 'nms'), inputs=(x,), formats=('onnx',))
    exact(net, written['onnx'], x)


def test_stock_box_nms_keeps_rows_past_topk(tmp_path, monkeypatch):
    """Why class-agnostic calls do not go to MXNet's converter either: it passes topk as NonMaxSuppression's
    per-class output cap, so when rows of the top k are suppressed it fills up with rows past them. MXNet suppresses
    within the top k only."""
    from gluonzoo.exporting import converters
    x = mx.nd.array([[[0.9, 0, 0, 10, 10], [0.8, 0, 0, 10, 10], [0.7, 0, 0, 10, 10], [0.6, 20, 20, 30, 30]]])
    net = BoxNMS(overlap_thresh=0.7, topk=2, coord_start=1, score_index=0, id_index=-1, force_suppress=True)
    assert (net(x)[0, :, 0].asnumpy() > 0).sum() == 1  # the top 2 are one box: one row
    ours = gz.export(net, str(tmp_path / 'ours'), inputs=(x,), formats=('onnx',))['onnx']
    exact(net, ours, x)
    monkeypatch.setitem(converters._OURS, '_contrib_box_nms',
                        lambda node, **kw: converters._STOCK['_contrib_box_nms'](node, **kw))
    stock = gz.export(net, str(tmp_path / 'stock'), inputs=(x,), formats=('onnx',))['onnx']
    got = ort_session(stock).run(None, {'data': x.asnumpy()})[0]
    assert (got[0, :, 0] > 0).sum() == 2  # it kept the 0.6 row too


class RoIAlign(nn.HybridBlock):
    def __init__(self, **attrs):
        super().__init__()
        self.attrs = attrs

    def hybrid_forward(self, F, x, rois):
        return F.contrib.ROIAlign(x, rois, **self.attrs)


#: (batch index, x1, y1, x2, y2) in input pixels: fractional, past the map, smaller than a pixel, flipped, whole map
RoIS = np.array([[0, 0, 0, 15, 15], [1, 3.3, 2.7, 40.1, 30.9], [0, -10, -5, 5, 8], [1, 100, 100, 120, 130],
                 [0, 7.5, 7.5, 8, 8.2], [1, 20, 30, 10, 5], [0, 0, 0, 159, 191]], dtype='float32')


@pytest.mark.parametrize('attrs', [dict(pooled_size=(7, 7), spatial_scale=1 / 16, sample_ratio=2),  # Faster R-CNN's
                                   dict(pooled_size=(3, 5), spatial_scale=1 / 16, sample_ratio=-1),
                                   dict(pooled_size=(2, 2), spatial_scale=0.25),
                                   dict(pooled_size=(4, 4), spatial_scale=1 / 8, sample_ratio=1)])
def test_roi_align_matches_mxnet(tmp_path, attrs):
    """ONNX RoiAlign-10 samples as MXNet's ROIAlign with aligned=False (no half-pixel offset, RoIs at least 1x1):
    the same numbers; the stock converter fails on sample_ratio=-1 (ONNX Runtime refuses a negative ratio)."""
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (2, 3, 12, 10)))
    rois = mx.nd.array(RoIS)
    net = RoIAlign(**attrs)
    written = gz.export(net, str(tmp_path / 'roi'), inputs=(x, rois), formats=('onnx',))
    sess = ort_session(written['onnx'])
    got = sess.run(None, {'data0': x.asnumpy(), 'data1': rois.asnumpy()})[0]
    ref = net(x, rois).asnumpy()
    assert np.abs(got - ref).max() <= 1e-6 * np.abs(ref).max()


def test_roi_align_aligned_is_refused(tmp_path):
    from gluonzoo.errors import ExportError
    net = RoIAlign(pooled_size=(2, 2), spatial_scale=1.0, aligned=True)
    with pytest.raises(ExportError, match="cannot export op '_contrib_ROIAlign' .*aligned=True needs RoiAlign-16"):
        gz.export(net, str(tmp_path / 'roi'), inputs=(mx.nd.ones((1, 1, 4, 4)), mx.nd.array([[0, 0, 0, 2, 2]])),
                  formats=('onnx',))
