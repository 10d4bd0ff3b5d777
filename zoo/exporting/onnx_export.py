"""MXNet 1.9.1's `mx.onnx.export_model`, made right for the zoo (DESIGN.md "Facts about this stack").

- It has no opset argument and stamps the installed onnx's newest opset on opset-13-style nodes: we cap
  `onnx.defs.onnx_opset_version` and the checker's default context to the asked opset around the call.
- It lists every weight as a graph input: ORT then cannot fold BatchNorm into Conv. We drop them from the inputs
  (they stay initializers).
- Several stock converters are wrong for the zoo's ops: converters.py swaps in ours for the duration of the call.
- A failing converter says nothing about where it failed: we re-raise naming the op, the MXNet node and the
  Gluon block (structural path) that made it.
"""
import contextlib
import json
from collections.abc import Mapping

from ..errors import ExportError


@contextlib.contextmanager
def _capped_opset(opset):
    import onnx
    import onnx.checker
    import onnx.defs
    import onnx.helper
    saved = onnx.defs.onnx_opset_version, dict(onnx.checker.DEFAULT_CONTEXT.opset_imports)
    onnx.defs.onnx_opset_version = lambda: opset
    ctx = onnx.checker.DEFAULT_CONTEXT
    ctx.opset_imports = {'': opset}
    try:
        yield
    finally:
        onnx.defs.onnx_opset_version = saved[0]
        ctx.opset_imports = saved[1]


def block_prefixes(net):
    """{name prefix of the block's graph nodes: structural path} for every block under `net`."""
    out = {}

    def walk(block, path):
        if block.prefix:
            out.setdefault(block.prefix, path or type(block).__name__)
        for key, child in block._children.items():
            walk(child, f'{path}.{key}' if path else key)
    walk(net, '')
    return out


def block_of(node_name, prefixes):
    best = max((p for p in prefixes if node_name.startswith(p)), key=len, default=None)
    return f'{prefixes[best]} ({node_name})' if best else node_name


@contextlib.contextmanager
def _located_errors(net, opset):
    """Make a converter failure name the op and the block; and refuse ops with no converter up front."""
    from mxnet.onnx.mx2onnx._export_onnx import MXNetGraph
    prefixes = block_prefixes(net)
    original = MXNetGraph.convert_layer

    def convert_layer(node, **kwargs):
        try:
            return original(node, **kwargs)
        except ExportError:
            raise
        except Exception as e:  # noqa: BLE001 - every converter failure becomes one located line
            op = node.get('op')
            msg = str(e).splitlines()[0] if str(e) else type(e).__name__
            if isinstance(e, AttributeError) and 'No conversion function' in msg:
                msg = 'no ONNX converter for this op'
            raise ExportError(f'cannot export op {op!r} of block {block_of(node["name"], prefixes)} at opset '
                              f'{opset}: {msg}') from None
    MXNetGraph.convert_layer = staticmethod(convert_layer)
    try:
        yield
    finally:
        MXNetGraph.convert_layer = original


def _strip_weight_inputs(model):
    """Weights are initializers, not graph inputs; initializers no node reads (the stock converters leave some,
    e.g. split axes, which ONNX Runtime then lists as warnings) are dropped."""
    inits = {t.name for t in model.graph.initializer}
    keep = [i for i in model.graph.input if i.name not in inits]
    del model.graph.input[:]
    model.graph.input.extend(keep)
    used = {i for n in model.graph.node for i in n.input} | {o.name for o in model.graph.output}
    live = [t for t in model.graph.initializer if t.name in used]
    if len(live) < len(model.graph.initializer):
        del model.graph.initializer[:]
        model.graph.initializer.extend(live)


def graph_of(net):
    """The hybridized net's symbol (AMP casts removed, as HybridBlock.export does) and {name: NDArray} params."""
    import mxnet as mx
    sym = net._cached_graph[1]
    sym = mx.sym.load_json(sym.tojson(remove_amp_cast=True))
    names = set(sym.list_arguments()) | set(sym.list_auxiliary_states())
    # the net's own arrays where it lives on one context (_reduce copies every weight to the CPU: a copy at the peak)
    params = {p.name: p.data() if len(p.list_ctx()) == 1 else p._reduce()
              for is_arg, p in net._cached_op_args if not is_arg and p.name in names}
    return sym, params


class _CachedInputs:
    """A Symbol whose list_inputs() is computed once."""

    def __init__(self, sym):
        self._sym, self._inputs = sym, sym.list_inputs()

    def list_inputs(self):
        return self._inputs

    def __getattr__(self, name):
        return getattr(self._sym, name)


class _NumpyOnDemand(Mapping):
    """{name: NDArray} read as numpy one weight at a time: the stock exporter converts them all up front, one more
    copy of every weight at the export's memory peak (730 MB for ResidualAttentionNet-452). `_fast_weights` leaves
    the weights' bytes out of the graph (`pending`) until `fill` puts them into the model: helper.make_model copies
    the graph, and an empty initializer costs nothing to copy."""

    def __init__(self, params):
        self._params, self.pending = params, {}

    def __getitem__(self, name):
        return self._params[name].asnumpy()

    def __iter__(self):
        return iter(self._params)

    def __len__(self):
        return len(self._params)

    def placeholder(self, name):
        """An initializer with `name`'s dims and type and no bytes yet; `fill` gives it its values."""
        import numpy as np
        from onnx import TensorProto, helper
        arr = self.pending[name] = self._params[name]
        dtype = np.dtype(arr.dtype)
        return TensorProto(name=name, dims=arr.shape, data_type=helper.np_dtype_to_tensor_dtype(dtype)), dtype

    def fill(self, graph):
        from onnx import numpy_helper
        for tensor in graph.initializer:
            if tensor.name in self.pending:
                tensor.raw_data = numpy_helper.from_array(self.pending.pop(tensor.name).asnumpy()).raw_data


def _fast_weights(node, **kwargs):
    """The stock 'null' converter builds each weight TensorProto from a Python list (slow for 60M floats); here an
    initializer whose bytes `_NumpyOnDemand.fill` writes once the model is made."""
    from onnx import helper
    from mxnet.onnx.mx2onnx._op_translations._op_translations_opset12 import convert_weights_and_inputs
    if kwargs['is_input']:
        return convert_weights_and_inputs(node, **kwargs)
    tensor, dtype = kwargs['weights'].placeholder(node['name'])
    kwargs['initializer'].append(tensor)
    return [helper.make_tensor_value_info(tensor.name, tensor.data_type, tensor.dims)], (dtype,)


def to_onnx(net, inputs, onnx_file, opset=13, dynamic_batch=True, target='ort', props=None):
    """Convert the hybridized (and run) `net` to `onnx_file`; return its path. Raises ExportError."""
    import numpy as np
    import onnx
    from mxnet.onnx.mx2onnx._export_onnx import MXNetGraph
    from onnx import helper, mapping

    from . import converters, detection, passes

    sym, params = graph_of(net)
    nms = detection.nms_settings(sym)
    if target == 'opencv' and nms:  # no NonMaxSuppression in OpenCV 4.6: the graph returns the candidate rows
        prefixes = block_prefixes(net)
        sym = detection.cut_before_nms(sym, lambda node: block_of(node, prefixes))
        used = set(sym.list_arguments()) | set(sym.list_auxiliary_states())
        params = {k: v for k, v in params.items() if k in used}
    props = {**(props or {}), **detection.metadata(nms, in_graph=target != 'opencv')}
    # the stock exporter pairs shapes with the symbol's inputs in first-use order, not call order: reorder
    call_order = [v.name for v in net._cached_graph[0]]
    by_name = dict(zip(call_order, inputs))
    graph_order = [n for n in sym.list_inputs() if n not in params]
    missing = [n for n in graph_order if n not in by_name]
    if missing:
        raise ExportError(f'the graph reads inputs {missing} the call did not give')
    inputs = [by_name[n] for n in graph_order]
    shapes = [tuple(x.shape) for x in inputs]
    types = [mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(x.dtype)] for x in inputs]
    dyn = [(None,) + s[1:] for s in shapes] if dynamic_batch else None
    reg = MXNetGraph.registry_.setdefault(opset, {})
    saved_null, saved_outputs = reg.get('null'), MXNetGraph.get_outputs
    saved_numpy = MXNetGraph.__dict__['convert_weights_to_numpy']
    reg['null'] = _fast_weights
    made = []
    MXNetGraph.convert_weights_to_numpy = staticmethod(lambda params: made.append(_NumpyOnDemand(params)) or made[0])
    # the stock exporter checks the graph it made, serialized: the weights' bytes are not in it yet (and would be
    # one more copy); the written file is checked whole below
    saved_check, onnx.checker.check_graph = onnx.checker.check_graph, lambda *a, **k: None
    # get_outputs calls sym.list_inputs() once per parameter (seconds for ResNet-152): give it a cached list
    MXNetGraph.get_outputs = staticmethod(lambda s, *a, **k: saved_outputs(_CachedInputs(s), *a, **k))
    try:
        with _capped_opset(opset), _located_errors(net, opset), converters.installed(sym, shapes, types):
            # what mx.onnx.export_model does, minus its write to disk (we post-process, then write once)
            graph = MXNetGraph().create_onnx_graph_proto(sym, params, shapes, types, opset_version=opset,
                                                         dynamic=dynamic_batch, dynamic_input_shapes=dyn)
            model = helper.make_model(graph)  # a copy of the graph, still without the weights' bytes
            del graph
            made[0].fill(model.graph)
            del params, made[:]
    finally:
        MXNetGraph.get_outputs = staticmethod(saved_outputs)
        MXNetGraph.convert_weights_to_numpy = saved_numpy
        onnx.checker.check_graph = saved_check
        if saved_null is None:
            reg.pop('null', None)
        else:
            reg['null'] = saved_null
    _order_outputs(model, sym)
    rank = {n: i for i, n in enumerate(call_order)}  # graph inputs in call order, so positions mean the same
    ins = sorted(model.graph.input, key=lambda i: rank.get(i.name, len(rank)))
    del model.graph.input[:]
    model.graph.input.extend(ins)
    del model.opset_import[:]
    model.opset_import.extend([onnx.helper.make_opsetid('', opset)])
    model.producer_name, model.producer_version = 'gluonzoo', _version()
    _strip_weight_inputs(model)
    if target == 'opencv':
        passes.for_opencv(model, {n: tuple(x.shape) for n, x in by_name.items()})
        refused = passes.opencv_unloadable(model)
        if refused:
            raise ExportError(f"target 'opencv': OpenCV 4.6 DNN {refused[0]}, which "
                              f"{block_of(refused[1], block_prefixes(net))} needs; export with target='ort'")
    for k, v in props.items():
        model.metadata_props.add(key=k, value=v)
    data = model.SerializeToString()
    del model
    with open(onnx_file, 'wb') as f:  # the caller stages it in a temp folder, removed on failure
        f.write(data)
    del data
    try:  # from the file: checking bytes or a ModelProto holds one more serialized copy in memory
        onnx.checker.check_model(onnx_file)
    except Exception as e:  # noqa: BLE001
        raise ExportError(f'the ONNX graph does not pass onnx.checker: {str(e).splitlines()[0]}') from None
    return onnx_file


def _order_outputs(model, sym):
    """The stock exporter sorts graph outputs by name; put them back in MXNet's order (its naming rules)."""
    import re
    names = []
    for n in sym.list_outputs():
        for suffix, repl in (('_state_output', '1'), ('_statecell_output', '2'), ('_output', '')):
            if n.endswith(suffix):
                names.append(n[:-len(suffix)] + repl)
                break
        else:
            names.append(n[:-len('_output0')] + n[-1] if re.search('.*_output[0-9]$', n) else n)
    by_name = {o.name: o for o in model.graph.output}
    if sorted(names) == sorted(by_name) and len(set(names)) == len(names):
        outs = [by_name[n] for n in names]
        del model.graph.output[:]
        model.graph.output.extend(outs)


def _version():
    from .. import __version__
    return __version__


def read_metadata(onnx_file):
    """The gluonzoo metadata props of an exported file as a dict (preprocess parsed back from JSON)."""
    import onnx
    model = onnx.load(onnx_file, load_external_data=False)
    props = {p.key: p.value for p in model.metadata_props}
    if 'gluonzoo.preprocess' in props:
        props['gluonzoo.preprocess'] = json.loads(props['gluonzoo.preprocess'])
    return props
