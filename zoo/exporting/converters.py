"""Our converters for the ops MXNet 1.9.1's stock ONNX converters get wrong (DESIGN.md lists them), installed into
mx.onnx's opset-13 registry only for the duration of one export. Each has an MXNet-vs-ORT test in
tests/export/test_converters.py.

- RNN: stock handles 1-2 layers, fails for 2-layer with input size != hidden, and for bidirectional multi-layer.
  Ours emits one ONNX LSTM/GRU/RNN node per layer (forward or bidirectional), slicing the flat MXNet parameter
  vector with offsets computed from the shapes MXNet infers, and reordering gates (MXNet LSTM i,f,g,o -> ONNX
  i,o,f,c; GRU r,z,n -> z,r,h with linear_before_reset=1, which is what MXNet's GRU computes).
- _contrib_BilinearResize2D: stock ignores align_corners=False (error 0.55) and the scale modes. Ours takes the
  output size MXNet itself infers for the exported input (only the batch axis is dynamic) and maps align_corners
  to Resize's coordinate_transformation_mode.
- Reshape with the special codes -2/-3/-4 (stock handles a few fixed patterns): ours builds the target shape at
  run time from Shape(x), so a dynamic batch still works. Shapes without those codes go to the stock converter.
- _contrib_box_nms per class (id_index >= 0, no force_suppress, how every GluonCV detector calls it): the stock
  converter suppresses across classes, so the exported detector would drop boxes MXNet keeps. Refused, naming the
  block, until the detection export writes its own NonMaxSuppression graph; class-agnostic calls go to the stock
  converter.
"""
import contextlib

_SHAPES = {}  # MXNet internal output name -> shape, for the export in progress
_STOCK = {}  # stock converters we delegate to, by op


def _stock(op):
    from mxnet.onnx.mx2onnx._export_onnx import MXNetGraph
    for v in (13, 12):
        fn = MXNetGraph.registry_.get(v, {}).get(op)
        if fn is not None and fn not in _OURS.values():
            return fn
    return None


@contextlib.contextmanager
def installed(sym, shapes, types):
    """Swap our converters into mx.onnx's opset-13 registry for one export, with the graph's inferred shapes."""
    from mxnet.onnx.mx2onnx._export_onnx import MXNetGraph
    reg = MXNetGraph.registry_.setdefault(13, {})
    saved = {op: reg.get(op) for op in _OURS}
    _STOCK.update({op: _stock(op) for op in _OURS})
    _SHAPES.clear()
    _SHAPES.update(_infer_shapes(sym, shapes, types))
    reg.update(_OURS)
    try:
        yield
    finally:
        for op, fn in saved.items():
            if fn is None:
                reg.pop(op, None)
            else:
                reg[op] = fn
        _SHAPES.clear()


def _infer_shapes(sym, shapes, types):
    internals = sym.get_internals()
    params = set(sym.list_arguments()) | set(sym.list_auxiliary_states())
    inputs = [n for n in sym.list_inputs() if n.startswith('data')]
    try:
        _, out_shapes, _ = internals.infer_shape_partial(**dict(zip(inputs, shapes)))
    except Exception:  # noqa: BLE001 - shape inference is an aid; converters that need it say so
        return {}
    del params
    return dict(zip(internals.list_outputs(), out_shapes or []))


def _shape(kwargs, ip):
    """Inferred shape of MXNet node input `ip` ([node index, output index]), or None."""
    node = kwargs['mx_graph'][ip[0]]
    name = node['name']
    if name.startswith('idx_'):  # the exporter renamed a duplicate; shapes are keyed by the original
        name = name.split('_', 2)[2]
    for key in (name, f'{name}_output', f'{name}_output{ip[1]}'):
        if key in _SHAPES and _SHAPES[key]:
            return tuple(_SHAPES[key])
    return None


def _out_shape(node):
    for key in (f'{node["name"]}_output', f'{node["name"]}_output0'):
        if _SHAPES.get(key):
            return tuple(_SHAPES[key])
    return None


def _helpers():
    from mxnet.onnx.mx2onnx._op_translations import _op_translations_opset12 as h
    return h


# -- RNN ----------------------------------------------------------------------------------------------------------
_GATES = {'lstm': 4, 'gru': 3, 'rnn_tanh': 1, 'rnn_relu': 1}
# ONNX gate order as indices into MXNet's gate blocks
_ORDER = {'lstm': [0, 3, 1, 2], 'gru': [1, 0, 2], 'rnn_tanh': [0], 'rnn_relu': [0]}


def convert_rnn(node, **kwargs):
    import numpy as np
    from onnx import TensorProto
    from onnx.helper import make_node
    h = _helpers()
    name, inputs, attrs = h.get_inputs(node, kwargs)
    init = kwargs['initializer']
    mode = attrs.get('mode')
    if mode not in _GATES:
        raise NotImplementedError(f'RNN mode {mode!r}')
    for flag, ok in (('use_sequence_length', 'False'), ('projection_size', 'None')):
        if str(attrs.get(flag, ok)) != ok:
            raise NotImplementedError(f'RNN with {flag}={attrs[flag]}')
    if attrs.get('lstm_state_clip_min', 'None') != 'None':
        raise NotImplementedError('RNN with lstm_state_clip_min/max')
    H, L = int(attrs['state_size']), int(attrs.get('num_layers', 1))
    D = 2 if attrs.get('bidirectional', 'False') in ('True', '1') else 1
    G = _GATES[mode]
    data_shape = _shape(kwargs, node['inputs'][0])
    if data_shape is None:
        raise NotImplementedError('RNN input size unknown (shape inference failed)')
    C = data_shape[2]
    # flat layout: weights for (layer, direction, i2h/h2h), then biases in the same order
    offset, w_ofs, b_ofs = 0, {}, {}
    for layer in range(L):
        in_size = C if layer == 0 else D * H
        for d in range(D):
            w_ofs[layer, d] = (offset, G * H * in_size, G * H * H)
            offset += G * H * (in_size + H)
    for layer in range(L):
        for d in range(D):
            b_ofs[layer, d] = offset
            offset += 2 * G * H
    param = inputs[1]
    nodes = []

    def const(tag, values, dtype='int64'):
        h.create_tensor(values, f'{name}_{tag}', init, dtype=dtype)
        return f'{name}_{tag}'

    def piece(tag, start, length, shape):
        """Slice [start, start+length) of the flat params, reshape to (G, ...) and reorder gates."""
        nodes.append(make_node('Slice', [param, const(tag + '_s', [start]), const(tag + '_e', [start + length]),
                                         const(tag + '_a', [0])], [f'{name}_{tag}_flat']))
        nodes.append(make_node('Reshape', [f'{name}_{tag}_flat', const(tag + '_shape', [G] + list(shape))],
                               [f'{name}_{tag}_g']))
        nodes.append(make_node('Gather', [f'{name}_{tag}_g', const(tag + '_order', _ORDER[mode])],
                               [f'{name}_{tag}_o'], axis=0))
        nodes.append(make_node('Reshape', [f'{name}_{tag}_o', const(tag + '_shape2', [1, G * shape[0]] + list(shape[1:]))],
                               [f'{name}_{tag}']))
        return f'{name}_{tag}'

    # zero begin-states come out of the hybridized graph with batch 1 (MXNet infers 0 -> 1): broadcast to N
    nodes.append(make_node('Shape', [inputs[0]], [f'{name}_xshape']))
    nodes.append(make_node('Slice', [f'{name}_xshape', const('n_s', [1]), const('n_e', [2]), const('n_a', [0])],
                           [f'{name}_batch']))
    nodes.append(make_node('Concat', [const('ld', [L * D]), f'{name}_batch', const('hh', [H])],
                           [f'{name}_state_shape'], axis=0))
    states = []
    for k, s in enumerate(inputs[2:4] if mode == 'lstm' else inputs[2:3]):
        nodes.append(make_node('Expand', [s, f'{name}_state_shape'], [f'{name}_state{k}']))
        states.append(f'{name}_state{k}')
    x = inputs[0]
    ys_h, ys_c = [], []
    for layer in range(L):
        in_size = C if layer == 0 else D * H
        Ws, Rs, Bs = [], [], []
        for d in range(D):
            start, wlen, rlen = w_ofs[layer, d]
            Ws.append(piece(f'W{layer}{d}', start, wlen, (H, in_size)))
            Rs.append(piece(f'R{layer}{d}', start + wlen, rlen, (H, H)))
            bi = piece(f'Bi{layer}{d}', b_ofs[layer, d], G * H, (H,))
            bh = piece(f'Bh{layer}{d}', b_ofs[layer, d] + G * H, G * H, (H,))
            nodes.append(make_node('Concat', [bi, bh], [f'{name}_B{layer}{d}'], axis=1))
            Bs.append(f'{name}_B{layer}{d}')
        cat = (lambda parts, tag: (nodes.append(make_node('Concat', parts, [f'{name}_{tag}'], axis=0)),
                                   f'{name}_{tag}')[1]) if D == 2 else (lambda parts, tag: parts[0])
        W, R, B = cat(Ws, f'W{layer}'), cat(Rs, f'R{layer}'), cat(Bs, f'B{layer}')
        rng = [const(f'h{layer}_s', [layer * D]), const(f'h{layer}_e', [(layer + 1) * D]), const(f'h{layer}_a', [0])]
        nodes.append(make_node('Slice', [states[0]] + rng, [f'{name}_h0_{layer}']))
        args = [x, W, R, B, '', f'{name}_h0_{layer}']
        outs = [f'{name}_y{layer}', f'{name}_yh{layer}']
        extra = {'hidden_size': H, 'direction': 'bidirectional' if D == 2 else 'forward'}
        if mode == 'lstm':
            nodes.append(make_node('Slice', [states[1]] + rng, [f'{name}_c0_{layer}']))
            args.append(f'{name}_c0_{layer}')
            outs.append(f'{name}_yc{layer}')
            op = 'LSTM'
        elif mode == 'gru':
            op, extra['linear_before_reset'] = 'GRU', 1
        else:
            op, extra['activations'] = 'RNN', ['Tanh' if mode == 'rnn_tanh' else 'Relu'] * D
        nodes.append(make_node(op, args, outs, name=f'{name}_{op.lower()}{layer}', **extra))
        # Y is (T, D, N, H): to (T, N, D*H) as MXNet lays it out
        nodes.append(make_node('Transpose', [f'{name}_y{layer}'], [f'{name}_yt{layer}'], perm=[0, 2, 1, 3]))
        nodes.append(make_node('Reshape', [f'{name}_yt{layer}', const(f'y{layer}_shape', [0, 0, -1])],
                               [name if layer == L - 1 else f'{name}_x{layer + 1}']))
        x = f'{name}_x{layer + 1}'
        ys_h.append(outs[1])
        if mode == 'lstm':
            ys_c.append(outs[2])
    nodes.append(make_node('Concat', ys_h, [f'{name}1'], axis=0))
    if mode == 'lstm':
        nodes.append(make_node('Concat', ys_c, [f'{name}2'], axis=0))
    del np, TensorProto
    return nodes


# -- BilinearResize2D ---------------------------------------------------------------------------------------------
def convert_bilinear_resize(node, **kwargs):
    from onnx.helper import make_node
    h = _helpers()
    name, inputs, attrs = h.get_inputs(node, kwargs)
    init = kwargs['initializer']
    align = attrs.get('align_corners', 'True') in ('True', '1')
    mode = attrs.get('mode', 'size')
    nodes = [make_node('Shape', [inputs[0]], [f'{name}_shape'])]
    h.create_tensor([0], f'{name}_0', init)
    h.create_tensor([2], f'{name}_2', init)
    h.create_tensor([4], f'{name}_4', init)
    nodes.append(make_node('Slice', [f'{name}_shape', f'{name}_0', f'{name}_2'], [f'{name}_nc']))
    if mode == 'like':
        nodes.append(make_node('Shape', [inputs[1]], [f'{name}_like_shape']))
        nodes.append(make_node('Slice', [f'{name}_like_shape', f'{name}_2', f'{name}_4'], [f'{name}_hw']))
    else:
        out = _out_shape(node)
        if out is None:
            raise NotImplementedError('BilinearResize2D output size unknown (shape inference failed)')
        h.create_tensor(list(out[2:4]), f'{name}_hw', init)
    nodes.append(make_node('Concat', [f'{name}_nc', f'{name}_hw'], [f'{name}_sizes'], axis=0))
    h.create_tensor([], f'{name}_roi', init, dtype='float32')
    h.create_tensor([], f'{name}_scales', init, dtype='float32')
    nodes.append(make_node('Resize', [inputs[0], f'{name}_roi', f'{name}_scales', f'{name}_sizes'], [name],
                           name=name, mode='linear',
                           coordinate_transformation_mode='align_corners' if align else 'pytorch_half_pixel'))
    return nodes


# -- Reshape ------------------------------------------------------------------------------------------------------
def convert_reshape(node, **kwargs):
    from onnx.helper import make_node
    h = _helpers()
    name, inputs, attrs = h.get_inputs(node, kwargs)
    target = h.convert_string_to_list(attrs['shape'])
    if not any(c in (-2, -3, -4) for c in target):
        return _STOCK['Reshape'](node, **kwargs)
    if attrs.get('reverse', 'False') in ('True', '1'):
        raise NotImplementedError('Reshape with reverse=True and special codes')
    in_shape = _shape(kwargs, node['inputs'][0])
    if in_shape is None:
        raise NotImplementedError('Reshape input rank unknown (shape inference failed)')
    init = kwargs['initializer']
    nodes = [make_node('Shape', [inputs[0]], [f'{name}_shape'])]
    parts, i, k = [], 0, 0  # i: input axis, k: position in target

    def dim(j):
        out = f'{name}_d{j}'
        if not any(n.output[0] == out for n in nodes):
            h.create_tensor([j], f'{name}_i{j}', init)
            nodes.append(make_node('Gather', [f'{name}_shape', f'{name}_i{j}'], [out], axis=0))
        return out

    count = iter(range(10 ** 6))

    def const(v):
        tag = f'{name}_c{next(count)}'
        h.create_tensor([v], tag, init)
        return tag
    while k < len(target):
        c = target[k]
        if c > 0 or c == -1:
            parts.append(const(c))
            i += 1
        elif c == 0:
            parts.append(dim(i))
            i += 1
        elif c == -2:
            parts += [dim(j) for j in range(i, len(in_shape))]
            i = len(in_shape)
        elif c == -3:
            out = f'{name}_m{k}'
            nodes.append(make_node('Mul', [dim(i), dim(i + 1)], [out]))
            parts.append(out)
            i += 2
        elif c == -4:
            a, b = target[k + 1], target[k + 2]
            if a == -1:
                out = f'{name}_q{k}'
                nodes.append(make_node('Div', [dim(i), const(b)], [out]))
                parts += [out, const(b)]
            elif b == -1:
                out = f'{name}_q{k}'
                nodes.append(make_node('Div', [dim(i), const(a)], [out]))
                parts += [const(a), out]
            else:
                parts += [const(a), const(b)]
            i += 1
            k += 2
        k += 1
    nodes.append(make_node('Concat', parts, [f'{name}_target'], axis=0))
    nodes.append(make_node('Reshape', [inputs[0], f'{name}_target'], [name], name=name))
    return nodes


# -- box_nms ------------------------------------------------------------------------------------------------------
class _Nodes:
    """The ONNX nodes and constants one converter emits, named after its MXNet node (never `name` + a digit, which
    the exporter reads as the node's own outputs)."""

    def __init__(self, name, initializer):
        self.name, self.init, self.nodes, self._n = name, initializer, [], 0

    def _tag(self, what):
        self._n += 1
        return f'{self.name}__{what}{self._n}'

    def const(self, value, dtype='int64'):
        import numpy as np
        from onnx import numpy_helper
        tag = self._tag('c')
        self.init.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), tag))
        return tag

    def op(self, op_type, *inputs, outputs=1, out=None, **attrs):
        """Add one node; its output name (or names, for `outputs` > 1)."""
        from onnx.helper import make_node
        names = [out] if out else [self._tag(op_type.lower()) for _ in range(outputs)]
        self.nodes.append(make_node(op_type, list(inputs), names, **attrs))
        return names[0] if outputs == 1 else names


def nms_tensors(name):
    """The ONNX names of the rows going into and coming out of the box_nms node `name` (an ORT export): a check
    adds them as graph outputs (verify.compare_detections). The output is name0: box_nms has a hidden second
    output, so the exporter names the first one so."""
    return f'{name}__rows', f'{name}0'


def _flag(attrs, key, default='False'):
    return str(attrs.get(key, default)) in ('True', 'true', '1')


def convert_box_nms(node, **kwargs):
    """MXNet's box_nms as contrib.box_nms computes it (src/operator/contrib/bounding_box-inl.h, 1.9.1), per class or
    class-agnostic, with ONNX NonMaxSuppression doing the greedy suppression:

    1. a row is valid when its score > valid_thresh and (with id_index) its id != background_id (a float compare);
    2. the valid rows, best score first, ties in row order (MXNet's stable sort = TopK's lower-index-first), keep the
       `topk` best (topk < 0: all; 0: the op returns its input);
    3. greedy suppression in that order: a row goes when a kept row of its class (ids compared as ints, truncated,
       as MXNet's static_cast; every row one class with force_suppress or no id_index) overlaps it with IoU >
       overlap_thresh, IoU = inter / (area1 + area2 - inter) without +1 (ORT computes it in the same float order).
       MXNet gives a box with x2 < x1 or y2 < y1 no overlap with anything, where ORT would reorder its corners: such
       boxes reach NonMaxSuppression as a point, which overlaps nothing either;
    4. the kept rows, in that order, whole (every column), then rows of -1 up to the input's row count.
    Classes go to NonMaxSuppression as its class axis (scores (B, C, K), -inf off the row's class), C = the span of
    the valid ids, computed in the graph."""
    h = _helpers()
    name, inputs, attrs = h.get_inputs(node, kwargs)
    thresh = float(attrs.get('overlap_thresh', 0.5))
    valid_thresh = float(attrs.get('valid_thresh', 0))
    topk = int(attrs.get('topk', -1))
    coord, score_at, id_at = (int(attrs.get(k, d)) for k, d in (('coord_start', 2), ('score_index', 1),
                                                                 ('id_index', -1)))
    background = float(attrs.get('background_id', -1))
    for key in ('in_format', 'out_format'):
        if attrs.get(key, 'corner') != 'corner':
            raise NotImplementedError(f'box_nms with {key}={attrs[key]} (only corner boxes are exported)')
    per_class = id_at >= 0 and not _flag(attrs, 'force_suppress')
    g = _Nodes(name, kwargs['initializer'])
    out_name = nms_tensors(name)[1]
    if topk == 0:  # MXNet returns the input untouched
        g.op('Identity', inputs[0], out=out_name)
        return g.nodes
    f32 = lambda v: g.const(v, 'float32')  # noqa: E731
    i64 = lambda v: g.const(v)  # noqa: E731
    inf = float('inf')
    # (B, N, W) whatever the leading axes (MXNet folds them into one batch axis)
    rows_in = g.op('Identity', inputs[0], out=nms_tensors(name)[0])  # named, so a check can read it back
    shape = g.op('Shape', rows_in)
    last2 = g.op('Slice', shape, i64([-2]), i64([2 ** 62]), i64([0]))
    x = g.op('Reshape', rows_in, g.op('Concat', i64([-1]), last2, axis=0))
    n = g.op('Slice', last2, i64([0]), i64([1]), i64([0]))  # (1,) rows
    def column(t, at):  # (B, N)
        return g.op('Squeeze', g.op('Slice', t, i64([at]), i64([at + 1]), i64([2])), i64([2]))
    in_shape = _shape(kwargs, node['inputs'][0])
    if in_shape:  # one Split reads the (up to 1.2M-element) rows once; a Slice or Gather a column costs as much
        columns = g.op('Split', x, axis=2, outputs=in_shape[-1])
        score = g.op('Squeeze', columns[score_at], i64([2]))
        ids = g.op('Squeeze', columns[id_at], i64([2])) if id_at >= 0 else None
    else:
        score = column(x, score_at)
        ids = column(x, id_at) if id_at >= 0 else None
    valid = g.op('Greater', score, f32(valid_thresh))
    if id_at >= 0:
        valid = g.op('And', valid, g.op('Not', g.op('Equal', ids, f32(background))))
    masked = g.op('Where', valid, score, f32(-inf))
    k = g.op('Min', n, i64([topk])) if topk > 0 else n
    top, order = g.op('TopK', masked, k, axis=1, largest=1, sorted=1, outputs=2)  # (B, K)
    rows = g.op('GatherND', x, g.op('Unsqueeze', order, i64([2])), batch_dims=1)  # (B, K, W)
    kept_valid = g.op('Greater', top, f32(-inf))  # the valid ones among the K
    box = g.op('Slice', rows, i64([coord]), i64([coord + 4]), i64([2]))
    x1, y1, x2, y2 = g.op('Split', box, axis=2, outputs=4)
    flipped = g.op('Or', g.op('Less', x2, x1), g.op('Less', y2, y1))
    box = g.op('Where', flipped, g.op('Concat', x1, y1, x1, y1, axis=2), box)
    if per_class:
        cls = g.op('Cast', column(rows, id_at), to=7)  # int64, truncated as MXNet's static_cast<int>
        big = 2 ** 40
        lo = g.op('ReduceMin', g.op('Where', kept_valid, cls, i64(big)), keepdims=0)
        hi = g.op('ReduceMax', g.op('Where', kept_valid, cls, i64(-big)), keepdims=0)
        count = g.op('Max', g.op('Add', g.op('Sub', hi, lo), i64(1)), i64(1))
        classes = g.op('Reshape', g.op('Range', i64(0), count, i64(1)), i64([1, -1, 1]))
        mine = g.op('Equal', g.op('Unsqueeze', g.op('Sub', cls, lo), i64([1])), classes)  # (B, C, K)
        mine = g.op('And', mine, g.op('Unsqueeze', kept_valid, i64([1])))
        scores = g.op('Where', mine, g.op('Unsqueeze', top, i64([1])), f32(-inf))
    else:
        scores = g.op('Unsqueeze', g.op('Where', kept_valid, top, f32(-inf)), i64([1]))  # (B, 1, K)
    # every valid row may be kept; -inf (not of this class, or not valid) is under any finite threshold
    selected = g.op('NonMaxSuppression', box, scores, k, f32([thresh]), f32([-3.4028234663852886e38]),
                    center_point_box=0)  # (M, 3): batch, class, position among the K
    where = g.op('Gather', selected, i64([0, 2]), axis=1)
    zeros = g.op('ConstantOfShape', g.op('Shape', top), value=_tensor(0.0))
    ones = g.op('ConstantOfShape', g.op('Slice', g.op('Shape', selected), i64([0]), i64([1]), i64([0])),
                value=_tensor(1.0))
    keep = g.op('ScatterND', zeros, where, ones)  # (B, K): 1 where kept
    # kept rows first, each group in its sorted order: a unique key per position
    positions = g.op('Cast', g.op('Range', i64(0), g.op('Squeeze', k, i64([0])), i64(1)), to=1)
    key = g.op('Sub', g.op('Mul', keep, g.op('Cast', g.op('Mul', k, i64([2])), to=1)), positions)
    _, packed = g.op('TopK', key, k, axis=1, largest=1, sorted=1, outputs=2)
    out = g.op('GatherND', rows, g.op('Unsqueeze', packed, i64([2])), batch_dims=1)
    kept = g.op('Unsqueeze', g.op('GatherElements', keep, packed, axis=1), i64([2]))
    out = g.op('Where', g.op('Greater', kept, f32(0.0)), out, f32(-1.0))
    # rows past the K: -1, up to the input's N
    pads = g.op('Concat', i64([0, 0, 0, 0]), g.op('Sub', n, k), i64([0]), axis=0)
    out = g.op('Pad', out, pads, f32(-1.0), mode='constant')
    g.op('Reshape', out, shape, out=out_name)
    return g.nodes


def _tensor(value):
    from onnx import TensorProto
    from onnx.helper import make_tensor
    return make_tensor('value', TensorProto.FLOAT, [1], [value])


# -- ROIAlign -----------------------------------------------------------------------------------------------------
def convert_roi_align(node, **kwargs):
    """MXNet's ROIAlign (aligned=False, as vision/ops/roi.py calls it) as ONNX RoiAlign-10: the same Caffe2 sampling
    (no half-pixel offset, each RoI at least 1x1 on the map, `sample_ratio` points a bin side, or ceil(bin size)
    when <= 0). RoIs are rows (batch index, x1, y1, x2, y2); a negative batch index gives zeros, as MXNet documents
    (its 1.9.1 CPU kernel zeroes the wrong element instead: docs/detection.md). The stock converter passes
    sample_ratio=-1 (MXNet's default spelled out) through, which ONNX Runtime refuses."""
    h = _helpers()
    name, inputs, attrs = h.get_inputs(node, kwargs)
    if _flag(attrs, 'position_sensitive'):
        raise NotImplementedError('ROIAlign with position_sensitive=True has no ONNX form')
    if _flag(attrs, 'aligned'):
        raise NotImplementedError('ROIAlign with aligned=True needs RoiAlign-16 (half_pixel, no 1-pixel minimum); '
                                  'opset 13 has RoiAlign-10 only')
    pooled = h.convert_string_to_list(str(attrs['pooled_size']))
    ratio = max(int(attrs.get('sample_ratio', -1)), 0)
    g = _Nodes(name, kwargs['initializer'])
    i64 = lambda v: g.const(v)  # noqa: E731
    boxes = g.op('Slice', inputs[1], i64([1]), i64([5]), i64([1]))
    index = g.op('Squeeze', g.op('Slice', inputs[1], i64([0]), i64([1]), i64([1])), i64([1]))
    pooled_rois = g.op('RoiAlign', inputs[0], boxes, g.op('Cast', g.op('Relu', index), to=7), mode='avg',
                       output_height=pooled[0], output_width=pooled[-1], sampling_ratio=ratio,
                       spatial_scale=float(attrs['spatial_scale']))
    skipped = g.op('Less', g.op('Unsqueeze', index, i64([1, 2, 3])), g.const(0.0, 'float32'))
    g.op('Where', skipped, g.const(0.0, 'float32'), pooled_rois, out=name)
    return g.nodes


_OURS = {'RNN': convert_rnn, '_contrib_BilinearResize2D': convert_bilinear_resize, 'Reshape': convert_reshape,
         '_contrib_box_nms': convert_box_nms, '_contrib_ROIAlign': convert_roi_align}
