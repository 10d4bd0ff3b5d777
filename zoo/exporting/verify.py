"""MXNet vs ONNX Runtime on the same inputs: relative error against the largest |output| (DESIGN.md: random-weight
nets can produce values near 1e-19, so never an absolute bound)."""
import os
import tempfile

import numpy as np

from ..errors import ParityError

RTOL = 1e-4


def _flat(outs):
    if isinstance(outs, (list, tuple)):
        return [y for o in outs for y in _flat(o)]
    return [outs]


def ort_session(onnx_file, threads=1):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(onnx_file, opts, providers=['CPUExecutionProvider'])


def compare(net, onnx_file, inputs, rtol=RTOL, session=None):
    """Run `net` and the ONNX file on `inputs`; return the worst relative error, raise ParityError above rtol."""
    sess = session or ort_session(onnx_file)
    names = [i.name for i in sess.get_inputs()]
    graph = getattr(net, '_cached_graph', None)
    if graph:  # the hybridized net's input names in call order: an input the graph never reads is not fed
        feed = {v.name: x.asnumpy() for v, x in zip(graph[0], inputs) if v.name in names}
    else:
        feed = {n: x.asnumpy() for n, x in zip(names, inputs)}
    got = sess.run(None, feed)
    ref = [o.asnumpy() for o in _flat(net(*inputs))]
    if len(got) != len(ref):
        raise ParityError(f'{onnx_file}: ONNX has {len(got)} outputs, MXNet {len(ref)}')
    worst = 0.0
    for i, (a, b) in enumerate(zip(ref, got)):
        if a.shape != b.shape:
            raise ParityError(f'{onnx_file}: output {i} has shape {b.shape} in ORT, {a.shape} in MXNet')
        scale = max(float(np.abs(a).max()) if a.size else 0.0, 1e-30)
        err = float(np.abs(a.astype(np.float64) - b).max()) / scale if a.size else 0.0
        worst = max(worst, err)
        if not err <= rtol:
            raise ParityError(f'{onnx_file}: output {i} relative error {err:.3g} > {rtol:g} '
                              f'(max |output| {scale:.3g})')
    return worst


def verify_export(name, input_shape=None, batch=2, seed=0):
    """Export `name` at full size (its default weights when it has any, else random init) and compare MXNet with
    ORT. Image models export at batch 1 and compare at `batch`, which checks the dynamic batch axis; text models
    use the registry's example inputs. Returns the worst relative error; raises ParityError above 1e-4."""
    import mxnet as mx
    from ..registry import get_entry, get_model
    from .core import export
    entry = get_entry(name)
    net = get_model(name, pretrained=bool(entry.weights))
    w = getattr(net, 'weights', None)
    mx.random.seed(seed)
    if callable(entry.test_input) and input_shape is None:
        inputs = export_inputs = entry.example_inputs()
    else:
        shape = tuple(input_shape or (w.input_shape if w else (1, 3, 224, 224)))
        inputs = (mx.nd.random.uniform(shape=(batch,) + shape[1:]),)
        export_inputs = (inputs[0][:1],)
    with tempfile.TemporaryDirectory() as tmp:
        written = export(net, os.path.join(tmp, 'm'), inputs=export_inputs, formats=('onnx',), name=name)
        return compare(net, written['onnx'], inputs)
