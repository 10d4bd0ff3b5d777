"""Every text family exports to ONNX (opset 13, through gluonzoo.export's converter) and ONNX Runtime agrees."""
import warnings

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.registry import get_entry

ort = pytest.importorskip('onnxruntime')
NAMES = ['bert_12_768_12', 'bert_12_768_12_qa', 'roberta_12_768_12', 'distilbert_6_768_12', 'transformer_en_de_512',
         'gpt2_117m', 'standard_lstm_lm_200', 'awd_lstm_lm_600']


@pytest.mark.parametrize('name', NAMES)
def test_onnx_runtime_matches(name, tmp_path):
    from gluonzoo.export.onnx_export import to_onnx
    entry = get_entry(name)
    net = gz.get_model(name, **entry.test_kwargs)
    inputs = entry.example_inputs()
    net.hybridize()
    ref = net(*inputs)
    ref = [r for r in (ref if isinstance(ref, (list, tuple)) else [ref]) if isinstance(r, mx.nd.NDArray)]
    prefix = str(tmp_path / name)
    net.export(prefix, 0)
    # the symbol lists its data inputs in first-use order, which mx.onnx follows for in_shapes
    order = [a for a in mx.sym.load(prefix + '-symbol.json').list_inputs() if a.startswith('data')]
    named = {'data': inputs[0]} if len(inputs) == 1 else {f'data{i}': x for i, x in enumerate(inputs)}
    inputs = [named[a] for a in order]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        path = to_onnx(net, prefix + '-symbol.json', prefix + '-0000.params', inputs, prefix + '.onnx',
                       dynamic_batch=False)
    sess = ort.InferenceSession(path, providers=['CPUExecutionProvider'])
    outs = sess.run(None, {i.name: x.asnumpy() for i, x in zip(sess.get_inputs(), inputs)})
    for o, r in zip(outs, ref):
        r = r.asnumpy()
        assert o.shape == r.shape
        assert np.abs(o - r).max() <= 1e-5 * np.abs(r).max()
