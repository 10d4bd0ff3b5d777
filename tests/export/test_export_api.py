"""gz.export and `gluonzoo export/verify-export`: what is written, the ONNX file's properties, preprocess=True,
and the bad inputs (unknown target/opset, a non-hybrid block, an op with no converter) leaving nothing behind."""
import json
import os
import subprocess
import sys

import mxnet as mx
import numpy as np
import onnx
import pytest
from mxnet.gluon import nn

import gluonzoo as gz
from gluonzoo.exporting import ExportError, compare
from gluonzoo.exporting.verify import ort_session
from gluonzoo.vision.image import read_image
from gluonzoo.vision.transforms import imagenet_eval
from importlib import resources

ASSETS = resources.files('gluonzoo.vision').joinpath('assets')


def cli(*args):
    p = subprocess.run([sys.executable, '-m', 'gluonzoo.cli', *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_pretrained_export_files_and_metadata(pretrained_home, tmp_path):
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
    written = gz.export(net, str(tmp_path / 'out' / 'mb'))
    assert set(written) == {'symbol', 'params', 'meta', 'onnx'}
    assert sorted(os.listdir(tmp_path / 'out')) == sorted(os.path.basename(p) for p in written.values())
    model = onnx.load(written['onnx'])
    onnx.checker.check_model(model, full_check=True)
    assert [i.name for i in model.graph.input] == ['data']
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert not dims[0].HasField('dim_value') and [d.dim_value for d in dims[1:]] == [3, 224, 224]
    meta = {p.key: p.value for p in model.metadata_props}
    w = gz.get_weights('mobilenetv2_1.0')
    assert meta['gluonzoo.model'] == 'mobilenetv2_1.0' and meta['gluonzoo.sha1'] == w.sha1
    assert json.loads(meta['gluonzoo.preprocess'])['crop'] == 224
    assert meta['gluonzoo.preprocess.mean'] == '0.485,0.456,0.406'
    classes = meta['gluonzoo.classes'].split('\n')
    assert len(classes) == 1000 and classes[285] == net.classes[285]
    x = mx.nd.random.uniform(shape=(4, 3, 224, 224))
    assert compare(net, written['onnx'], (x,)) < 1e-4


def test_preprocess_in_graph_takes_raw_uint8(pretrained_home, tmp_path):
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
    written = gz.export(net, str(tmp_path / 'mbp'), preprocess=True, formats=('onnx',))
    assert set(written) == {'onnx'}
    sess = ort_session(written['onnx'])
    assert sess.get_inputs()[0].type == 'tensor(uint8)' and sess.get_inputs()[0].shape[1:] == [224, 224, 3]
    img = read_image(str(ASSETS.joinpath('chelsea.jpg')))
    x = imagenet_eval(img, **gz.get_weights('mobilenetv2_1.0').preprocess)  # float, normalized, NCHW
    raw = imagenet_eval(img, mean=(0, 0, 0), std=(1, 1, 1), scale=1.0)  # the same crop, 0..255
    raw = np.rint(raw).astype(np.uint8).transpose(0, 2, 3, 1)
    got = sess.run(None, {'data': raw})[0]
    ref = net(mx.nd.array(x)).asnumpy()
    assert np.abs(got - ref).max() <= 1e-4 * np.abs(ref).max()
    assert net.classes[int(got.argmax())] == 'Egyptian cat'
    meta = {p.key: p.value for p in onnx.load(written['onnx']).metadata_props}
    assert meta['gluonzoo.preprocess_in_graph'] == '1' and meta['gluonzoo.input_layout'] == 'NHWC-uint8-RGB'


def test_unknown_target_opset_format(tmp_path):
    net = gz.get_model('mobilenetv2_0.25')
    net.initialize()
    shape = (1, 3, 32, 32)
    with pytest.raises(ExportError, match="unknown export target 'tensorrt'; targets: ort, opencv"):
        gz.export(net, str(tmp_path / 'x'), input_shape=shape, target='tensorrt')
    with pytest.raises(ExportError, match='opset 17 is not supported'):
        gz.export(net, str(tmp_path / 'x'), input_shape=shape, opset=17)
    with pytest.raises(ExportError, match="format 'tflite'"):
        gz.export(net, str(tmp_path / 'x'), input_shape=shape, formats=('onnx', 'tflite'))
    with pytest.raises(ExportError, match='preprocess=True needs an image weights record'):
        gz.export(net, str(tmp_path / 'x'), input_shape=shape, preprocess=True)
    assert list(tmp_path.iterdir()) == []


class Imperative(nn.Block):
    def forward(self, x):
        return x * 2


def test_not_hybridizable_names_the_block(tmp_path):
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Dense(4, in_units=3))
    net._children['odd'] = Imperative()  # a Block hiding inside a HybridBlock
    net.initialize()
    with pytest.raises(ExportError, match=r'Imperative at odd is a Block, not a HybridBlock'):
        gz.export(net, str(tmp_path / 'x'), input_shape=(1, 3))
    assert list(tmp_path.iterdir()) == []


class Boxes(nn.HybridBlock):
    def __init__(self):
        super().__init__()
        with self.name_scope():
            self.head = nn.HybridSequential()
            self.head.add(nn.Dense(8, in_units=4, flatten=False), IoU())

    def hybrid_forward(self, F, x):
        return self.head(x)


class IoU(nn.HybridBlock):
    def hybrid_forward(self, F, x):
        b = F.reshape(x, (-1, 4))
        return F.contrib.box_iou(b, b)


def test_op_without_converter_names_op_and_block_and_leaves_nothing(tmp_path):
    net = Boxes()
    net.initialize()
    with pytest.raises(ExportError) as e:
        gz.export(net, str(tmp_path / 'boxes'), input_shape=(2, 4))
    msg = str(e.value)
    assert "op '_contrib_box_iou'" in msg and 'head.1' in msg and 'no ONNX converter' in msg, msg
    assert list(tmp_path.iterdir()) == []  # not even the symbol files, nor a temp folder


def test_cli_export_onnx_opencv_and_verify_export(pretrained_home, tmp_path):
    out_dir = tmp_path / 'out'
    code, out, err = cli('export', 'mobilenetv2_1.0', '--out', str(out_dir / 'm'), '--target', 'opencv',
                         '--input-shape', '1,3,64,64')
    assert code == 0, err
    assert 'onnx: ' + str(out_dir / 'm.onnx') in out and (out_dir / 'm-symbol.json').is_file()
    assert 'Clip' not in {n.op_type for n in onnx.load(str(out_dir / 'm.onnx')).graph.node}
    code, _, err = cli('export', 'mobilenetv2_1.0', '--out', str(out_dir / 'n'), '--target', 'coreml')
    assert code == 1 and err.strip() == "gluonzoo: error: unknown export target 'coreml'; targets: ort, opencv"
    code, out, err = cli('verify-export', 'mobilenetv2_1.0', '--input-shape', '1,3,96,96')
    assert code == 0 and 'ONNX Runtime matches MXNet' in out, err
