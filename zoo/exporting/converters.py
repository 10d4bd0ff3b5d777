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
def convert_box_nms(node, **kwargs):
    attrs = node.get('attrs', {})
    per_class = int(attrs.get('id_index', -1)) >= 0 and attrs.get('force_suppress', 'False') not in ('True', '1')
    if per_class:
        raise NotImplementedError('per-class NMS has no ONNX form here yet (the stock converter suppresses across '
                                  'classes: wrong detections)')
    return _STOCK['_contrib_box_nms'](node, **kwargs)


_OURS = {'RNN': convert_rnn, '_contrib_BilinearResize2D': convert_bilinear_resize, 'Reshape': convert_reshape,
         '_contrib_box_nms': convert_box_nms}
