"""Each of our converters against MXNet, on small Gluon blocks built here (the text/vision families may not use
them yet): the stock converters fail or are wrong on every case below (DESIGN.md)."""
import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import nn, rnn

import gluonzoo as gz
from gluonzoo.exporting import compare


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
        return F.contrib.box_nms(x, overlap_thresh=0.5, topk=10, coord_start=2, score_index=1, **self.attrs)


def test_per_class_box_nms_is_refused_not_exported_wrong(tmp_path):
    """Two overlapping boxes of different classes: per-class NMS keeps both, the stock converter would drop one."""
    from gluonzoo.errors import ExportError
    x = mx.nd.array([[[0, 0.9, 0, 0, 10, 10], [1, 0.8, 1, 1, 10, 10]]])
    net = BoxNMS(id_index=0)
    assert (net(x)[0, :, 0].asnumpy() >= 0).sum() == 2
    with pytest.raises(ExportError, match="cannot export op '_contrib_box_nms' .*per-class NMS has no ONNX form"):
        gz.export(net, str(tmp_path / 'nms'), inputs=(x,), formats=('onnx',))
    assert not list(tmp_path.iterdir())
