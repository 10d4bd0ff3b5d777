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
import os

from .core import ExportError


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
    inits = {t.name for t in model.graph.initializer}
    keep = [i for i in model.graph.input if i.name not in inits]
    del model.graph.input[:]
    model.graph.input.extend(keep)


def to_onnx(net, symbol_file, params_file, inputs, onnx_file, opset=13, dynamic_batch=True, target='ort',
            props=None):
    """Convert the exported symbol + params to `onnx_file`; return its path. Raises ExportError."""
    import mxnet as mx
    import numpy as np
    import onnx

    from . import converters, passes

    shapes = [tuple(x.shape) for x in inputs]
    types = [np.dtype(x.dtype) for x in inputs]
    dyn = [(None,) + s[1:] for s in shapes] if dynamic_batch else None
    sym = mx.sym.load(symbol_file)
    save = mx.nd.load(params_file)
    params = {k.split(':', 1)[-1]: v for k, v in (save.items() if isinstance(save, dict) else ())}
    raw = onnx_file + '.raw'
    try:
        with _capped_opset(opset), _located_errors(net, opset), converters.installed(sym, shapes, types):
            mx.onnx.export_model(sym, params, in_shapes=shapes, in_types=types, onnx_file_path=raw,
                                 dynamic=dynamic_batch, dynamic_input_shapes=dyn)
        model = onnx.load(raw)
    finally:
        if os.path.exists(raw):
            os.remove(raw)
    del model.opset_import[:]
    model.opset_import.extend([onnx.helper.make_opsetid('', opset)])
    model.producer_name, model.producer_version = 'gluonzoo', _version()
    _strip_weight_inputs(model)
    if target == 'opencv':
        passes.for_opencv(model)
    for k, v in (props or {}).items():
        model.metadata_props.add(key=k, value=v)
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as e:  # noqa: BLE001
        raise ExportError(f'the ONNX graph does not pass onnx.checker: {str(e).splitlines()[0]}') from None
    onnx.save(model, onnx_file)
    return onnx_file


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
