"""target='opencv': the rewritten graph has no Clip-with-inputs and no padded AveragePool, and still computes what
MXNet does, in ORT and in OpenCV's DNN (the .venv's cv2; the services run Debian's OpenCV 4.6 in make deploy-test)."""
import cv2
import mxnet as mx
import numpy as np
import onnx
from mxnet.gluon import nn

import gluonzoo as gz
from gluonzoo.exporting import compare


class PoolClip(nn.HybridBlock):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(4, 3, padding=1, in_channels=3)
        self.pool = nn.AvgPool2D(3, 1, 1, count_include_pad=True)
        self.pool2 = nn.AvgPool2D(3, 2, 1, count_include_pad=False)

    def hybrid_forward(self, F, x):
        y = F.clip(self.conv(x), 0, 6)
        return F.broadcast_add(F.broadcast_add(self.pool(y), F.clip(self.pool2(y), -0.5, 0.5).mean()),
                               F.clip(y, 1, 2).mean())


def test_opencv_rewrites(tmp_path):
    mx.random.seed(1)
    net = PoolClip()
    net.initialize(mx.init.Normal(3.0))
    x = mx.nd.random.uniform(-2, 2, shape=(1, 3, 9, 9))
    plain = gz.export(net, str(tmp_path / 'plain'), inputs=(x,), formats=('onnx',))['onnx']
    ocv = gz.export(net, str(tmp_path / 'ocv'), inputs=(x,), formats=('onnx',), target='opencv')['onnx']
    ops = lambda f: [n.op_type for n in onnx.load(f).graph.node]  # noqa: E731
    assert 'Clip' in ops(plain) and 'Clip' not in ops(ocv)
    for n in onnx.load(ocv).graph.node:
        if n.op_type == 'AveragePool':
            attrs = {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}
            assert not any(attrs.get('pads', [])) or not attrs.get('count_include_pad', 0)
    compare(net, ocv, (x,))
    dnn = cv2.dnn.readNetFromONNX(ocv)
    dnn.setInput(x.asnumpy())
    got, ref = dnn.forward(), net(x).asnumpy()
    assert np.abs(got - ref).max() <= 1e-4 * np.abs(ref).max()
    meta = {p.key: p.value for p in onnx.load(ocv).metadata_props}
    assert meta['gluonzoo.target'] == 'opencv'
