import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz


def test_symbol_export_round_trips(pretrained_home, tmp_path):
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
    written = gz.export(net, str(tmp_path / 'mb'))
    assert set(written) == {'symbol', 'params', 'meta', 'onnx'}
    x = mx.nd.random.uniform(shape=(1, 3, 224, 224))
    ref = net(x).asnumpy()
    back = mx.gluon.SymbolBlock.imports(written['symbol'], ['data'], written['params'])
    got = back(x).asnumpy()
    assert np.abs(got - ref).max() / np.abs(ref).max() < 1e-5


def test_export_needs_a_shape_and_a_known_format(tmp_path):
    net = gz.get_model('mobilenetv2_0.25')
    net.initialize()
    with pytest.raises(gz.GluonzooError, match='needs input_shape'):
        gz.export(net, str(tmp_path / 'x'))
    with pytest.raises(gz.GluonzooError, match="format 'tflite'"):
        gz.export(net, str(tmp_path / 'x'), input_shape=(1, 3, 32, 32), formats=('symbol', 'tflite'))
    assert list(tmp_path.iterdir()) == []
