"""Graph passes on a finished ONNX model for a target runtime.

OpenCV 4.6 DNN (Debian's libopencv-dev / libopencv-java) rejects Clip whose min/max are inputs (opset >= 11, how
ReLU6 exports) and ignores count_include_pad on a padded AveragePool (silently wrong near the borders). Both are
rewritten into ops it runs right; tests/export/test_opencv.py runs the result in cv2.dnn against ORT.

It also cannot compute shapes at run time (a ReduceProd over Shape(x) fails at import: "inputs.size() > 0"), which
MXNet's exporter writes for arange_like, zeros_like, tile and reshape of inferred sizes (the detectors' box
decoding). fold_shapes evaluates every tensor that depends on the input's shape only, at the exported size, and
stores it as a constant; such a graph then takes that size only (its batch axis is fixed).
"""
import numpy as np


def _const(model, name):
    from onnx import numpy_helper
    for t in model.graph.initializer:
        if t.name == name:
            return numpy_helper.to_array(t)
    for n in model.graph.node:
        if n.op_type == 'Constant' and n.output[0] == name:
            return numpy_helper.to_array(n.attribute[0].t)
    raise ValueError(f'{name} is not a constant')


def _add_init(model, name, value):
    from onnx import numpy_helper
    model.graph.initializer.append(numpy_helper.from_array(np.asarray(value), name))
    return name


def clip_as_relu(model):
    """Clip(x, a, b) -> a + Relu(x - a) - Relu(x - b): exact for a <= b; Clip(x, 0, b) -> Relu(x) - Relu(x - b)."""
    from onnx import helper
    out = []
    for n in model.graph.node:
        if n.op_type != 'Clip' or len(n.input) < 2:
            out.append(n)
            continue
        x, y, p = n.input[0], n.output[0], (n.name or n.output[0]) + '_ocv'
        a = float(_const(model, n.input[1])) if len(n.input) > 1 and n.input[1] else -np.inf
        b = float(_const(model, n.input[2])) if len(n.input) > 2 and n.input[2] else np.inf
        if np.isfinite(a) and a == 0:
            lo = [helper.make_node('Relu', [x], [p + '_lo'])]
        elif np.isfinite(a):
            _add_init(model, p + '_a', np.float32(a))
            lo = [helper.make_node('Sub', [x, p + '_a'], [p + '_xa']),
                  helper.make_node('Relu', [p + '_xa'], [p + '_r']),
                  helper.make_node('Add', [p + '_r', p + '_a'], [p + '_lo'])]
        else:
            lo = [helper.make_node('Identity', [x], [p + '_lo'])]
        if np.isfinite(b):
            _add_init(model, p + '_b', np.float32(b))
            hi = [helper.make_node('Sub', [x, p + '_b'], [p + '_xb']),
                  helper.make_node('Relu', [p + '_xb'], [p + '_rb']),
                  helper.make_node('Sub', [p + '_lo', p + '_rb'], [y], name=n.name)]
        else:
            hi = [helper.make_node('Identity', [p + '_lo'], [y], name=n.name)]
        out += lo + hi
    del model.graph.node[:]
    model.graph.node.extend(out)


def explicit_avgpool_pad(model):
    """AveragePool(pads, count_include_pad=1) -> Pad(zeros) + AveragePool without pads: the same numbers."""
    from onnx import helper
    out = []
    for n in model.graph.node:
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        pads = list(attrs.get('pads', []))
        if n.op_type != 'AveragePool' or not any(pads) or not attrs.get('count_include_pad', 0):
            out.append(n)
            continue
        k = len(pads) // 2
        p = (n.name or n.output[0]) + '_ocv'
        _add_init(model, p + '_pads', np.array([0, 0] + pads[:k] + [0, 0] + pads[k:], np.int64))
        out.append(helper.make_node('Pad', [n.input[0], p + '_pads'], [p + '_padded'], mode='constant'))
        attrs.pop('pads')
        attrs['count_include_pad'] = 0
        out.append(helper.make_node('AveragePool', [p + '_padded'], list(n.output), name=n.name, **attrs))
    del model.graph.node[:]
    model.graph.node.extend(out)


def fold_shapes(model, shapes):
    """Replace the tensors computed from the inputs' shapes (and constants) only by constants, evaluated with ONNX
    Runtime at the input `shapes` ({input name: shape}); when any was folded, the graph inputs get those fixed
    shapes. Returns the number of nodes removed."""
    from onnx import helper, numpy_helper
    graph = model.graph
    static = {t.name for t in graph.initializer}
    folded = []
    for n in graph.node:  # nodes are in topological order
        if n.op_type in ('Shape', 'Size', 'Constant') or (n.input and all(i in static or not i for i in n.input)):
            static.update(o for o in n.output if o)
            folded.append(n)
    if not any(n.op_type in ('Shape', 'Size') for n in folded):
        return 0
    outputs = {o.name for o in graph.output}
    kept = [n for n in graph.node if n not in folded]
    needed = sorted({i for n in kept for i in n.input if i in static} | (outputs & static))
    needed = [t for t in needed if t not in {i.name for i in graph.initializer}]
    probe = type(model)()
    probe.CopyFrom(model)
    del probe.graph.output[:]
    probe.graph.output.extend([helper.make_empty_tensor_value_info(t) for t in needed])
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    sess = ort.InferenceSession(probe.SerializeToString(), opts, providers=['CPUExecutionProvider'])
    types = {'tensor(float)': np.float32, 'tensor(uint8)': np.uint8, 'tensor(int64)': np.int64,
             'tensor(int32)': np.int32}
    feed = {i.name: np.zeros(shapes[i.name], types[i.type]) for i in sess.get_inputs()}
    values = dict(zip(needed, sess.run(needed, feed))) if needed else {}
    del graph.node[:]
    graph.node.extend(kept)
    graph.initializer.extend(numpy_helper.from_array(np.asarray(v), k) for k, v in values.items())
    used = {i for n in graph.node for i in n.input} | outputs
    live = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(live)
    for inp in graph.input:  # the folded values hold for these shapes only
        for dim, size in zip(inp.type.tensor_type.shape.dim, shapes[inp.name]):
            dim.Clear()
            dim.dim_value = size
    return len(folded)


def _shapes(model):
    """{tensor name: shape tuple (None for an unknown dim)} from ONNX shape inference (static after fold_shapes)."""
    import onnx
    inferred = onnx.shape_inference.infer_shapes(model)
    out = {}
    for v in list(inferred.graph.value_info) + list(inferred.graph.input) + list(inferred.graph.output):
        if v.type.tensor_type.HasField('shape'):
            out[v.name] = tuple(d.dim_value if d.HasField('dim_value') else None
                                for d in v.type.tensor_type.shape.dim)
    out.update({t.name: tuple(t.dims) for t in model.graph.initializer})
    return out


def _ranks(model):
    return {k: len(v) for k, v in _shapes(model).items()}


def broadcast_constants(model):
    """A constant operand of Add/Sub/Mul/Div that broadcasts over leading or middle axes (YOLO's grid offsets,
    (1, 1, 1, W) against (N, A, H, W)) -> the constant expanded to the output's shape: OpenCV 4.6 adds such a
    constant at the wrong positions (cx one cell off) instead of broadcasting it."""
    consts = {t.name for t in model.graph.initializer}
    shapes = None
    for n in model.graph.node:
        if n.op_type not in ('Add', 'Sub', 'Mul', 'Div') or len(n.input) != 2:
            continue
        for k, name in enumerate(n.input):
            if name not in consts:
                continue
            value = _const(model, name)
            if value.size <= 1:
                continue
            shapes = shapes or _shapes(model)
            out = shapes.get(n.output[0])
            if out is None or None in out or tuple(value.shape) == tuple(out):
                continue
            n.input[k] = _add_init(model, f'{n.output[0]}_ocv_const{k}',
                                   np.ascontiguousarray(np.broadcast_to(value, out)))


def positive_axes(model):
    """Unsqueeze with negative axes -> the same axes counted from the front (OpenCV 4.6 asserts 0 <= axis)."""
    from onnx import numpy_helper
    ranks = None
    for n in model.graph.node:
        if n.op_type != 'Unsqueeze' or len(n.input) < 2:
            continue
        axes = _const(model, n.input[1])
        if (axes >= 0).all():
            continue
        ranks = ranks or _ranks(model)
        if n.input[0] not in ranks:
            continue
        out_rank = ranks[n.input[0]] + axes.size
        fixed = np.where(axes < 0, axes + out_rank, axes).astype(np.int64)
        name = _add_init(model, (n.name or n.output[0]) + '_ocv_axes', fixed)
        n.input[1] = name
    del numpy_helper


def tile_as_concat(model):
    """Tile with constant repeats -> Concat of copies along each repeated axis (OpenCV 4.6 has no Tile layer)."""
    from onnx import helper
    out = []
    for n in model.graph.node:
        if n.op_type != 'Tile':
            out.append(n)
            continue
        reps = _const(model, n.input[1]).tolist()
        x, p = n.input[0], (n.name or n.output[0]) + '_ocv'
        axes = [a for a, r in enumerate(reps) if r != 1]
        for k, axis in enumerate(axes):
            y = n.output[0] if k == len(axes) - 1 else f'{p}_{axis}'
            out.append(helper.make_node('Concat', [x] * reps[axis], [y], axis=axis,
                                        name=n.name if y == n.output[0] else ''))
            x = y
        if not axes:
            out.append(helper.make_node('Identity', [x], list(n.output), name=n.name))
    del model.graph.node[:]
    model.graph.node.extend(out)


#: ONNX ops in a finished graph that OpenCV 4.6 DNN cannot load (checked with Debian's 4.6 in the C++ service)
OPENCV_UNLOADABLE = {'LpNormalization': 'has no LpNormalization layer (MXNet L2Normalization)'}


def opencv_unloadable(model):
    """(why, name of the graph node or constant) of the first thing OpenCV 4.6 DNN refuses to load, or None: an op of
    OPENCV_UNLOADABLE, or a BOOL constant ("Unsupported data type: BOOL"; e.g. MXNet's broadcast_mod converter)."""
    from onnx import TensorProto
    for n in model.graph.node:
        if n.op_type in OPENCV_UNLOADABLE:
            return OPENCV_UNLOADABLE[n.op_type], n.name or n.output[0]
    for t in model.graph.initializer:
        if t.data_type == TensorProto.BOOL:
            return 'cannot read BOOL constants', t.name
    return None


def for_opencv(model, shapes=None):
    """The rewrites above; with the input `shapes`, shape computations are folded too (fold_shapes)."""
    clip_as_relu(model)
    explicit_avgpool_pad(model)
    if shapes is not None:
        fold_shapes(model, shapes)
        positive_axes(model)
        tile_as_concat(model)
        broadcast_constants(model)
    return model
