"""`export(..., quantize='int8')`: the fp32 ONNX file made INT8 by `onnxruntime.quantization.quantize_static`.

QDQ format (QuantizeLinear/DequantizeLinear pairs around fp32 ops: ORT fuses them into INT8 kernels, other runtimes
can still read the graph), signed int8 activations and weights (what ORT recommends for QDQ on x86), weights per
output channel: one scale per channel keeps the depthwise convs of MobileNets usable, where one scale per tensor is
set by the channel with the widest range. The graph is first prepared by ORT's `quant_pre_process` (shape
inference, BatchNorm folded into the convs), so the folded weights are what gets quantized. Activation ranges come
from real calibration inputs in what the ONNX input takes (raw uint8 NHWC pixels for a `preprocess=True` export).
"""
import os

from ..errors import ExportError

#: calib_mode -> ORT's calibration method and its options. naive: min/max over every input; entropy: KL divergence
#: (both as in gluonzoo.quantize); average (ORT only): the mean of each input's own min/max (of each batch's, for a
#: file with a fixed batch size), so one odd picture does not set a tensor's range, as in PyTorch's moving-average
#: observers
CALIBRATION = {'naive': ('MinMax', {}), 'entropy': ('Entropy', {}),
               'average': ('MinMax', {'CalibMovingAverage': True})}
MODES = ('int8',)


def to_int8(fp32_file, int8_file, calib_data, calib_mode='naive', exclude=(), props=None):
    """Write the QDQ INT8 version of `fp32_file` (one image input) to `int8_file`, calibrated on `calib_data` (as
    gluonzoo.quantize takes it, in the ONNX input's layout); its metadata props are the fp32 file's plus `props`."""
    import numpy as np
    import onnx
    from onnxruntime import quantization as q
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from ..quantizing import _names, calibration_batches

    model = onnx.load(fp32_file)
    if len(model.graph.input) != 1:
        raise ExportError(f'quantize=\'int8\' calibrates nets with one image input, not {len(model.graph.input)}')
    inp = model.graph.input[0]
    dims = [d.dim_value or None for d in inp.type.tensor_type.shape.dim]
    dtype = onnx.helper.tensor_dtype_to_np_dtype(inp.type.tensor_type.elem_type)
    meta = {p.key: p.value for p in model.metadata_props}
    for n in model.graph.node:  # the exporter leaves some nodes (convs) unnamed: `exclude` names them by output
        n.name = n.name or n.output[0]
    nodes = [n.name for n in model.graph.node]
    named, prepared = f'{int8_file}.named.onnx', f'{int8_file}.pre.onnx'
    onnx.save(model, named)
    del model
    batches = calibration_batches(calib_data, [None] + dims[1:])
    # ORT stacks what each batch gives a tensor: batches of one size (the file's fixed batch size, or one)
    flat, size = np.concatenate(batches), dims[0] or 1
    batches = [flat[i:i + size] for i in range(0, len(flat) - size + 1, size)]
    if np.issubdtype(dtype, np.integer):
        batches = [np.clip(np.rint(b), np.iinfo(dtype).min, np.iinfo(dtype).max) for b in batches]
    feeds = iter([{inp.name: b.astype(dtype)} for b in batches])

    class Reader(q.CalibrationDataReader):
        def get_next(self):
            return next(feeds, None)

    method, options = CALIBRATION[calib_mode]
    try:
        quant_pre_process(named, prepared, skip_symbolic_shape=True)
        q.quantize_static(prepared, int8_file, Reader(), quant_format=q.QuantFormat.QDQ, per_channel=True,
                          activation_type=q.QuantType.QInt8, weight_type=q.QuantType.QInt8,
                          nodes_to_exclude=[n for n in nodes if any(e in n for e in _names(exclude))],
                          calibrate_method=getattr(q.CalibrationMethod, method), extra_options=options)
    finally:
        for f in (named, prepared, f'{prepared}.data'):
            if os.path.exists(f):
                os.remove(f)
    model = onnx.load(int8_file)
    meta.update(props or {}, **{'gluonzoo.quantize': 'int8-qdq', 'gluonzoo.calib_mode': calib_mode,
                                'gluonzoo.calib_inputs': str(sum(len(b) for b in batches))})
    del model.metadata_props[:]
    for k, v in meta.items():
        model.metadata_props.add(key=k, value=v)
    onnx.save(model, int8_file)
    try:
        onnx.checker.check_model(int8_file)
    except Exception as e:  # noqa: BLE001
        raise ExportError(f'the INT8 ONNX graph does not pass onnx.checker: {str(e).splitlines()[0]}') from None
    return int8_file
