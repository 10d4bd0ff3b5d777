"""`export`: what gets written and where. Everything is built in a temp folder beside `path` and renamed into
place at the end, so a failure leaves no half-written file (not even the symbol files).
"""
import json
import os
import shutil
import tempfile

from ..errors import BadInputError, ExportError

FORMATS = ('symbol', 'onnx')
OPSETS = (13,)  # what MXNet 1.9.1's converters write correctly (DESIGN.md); newer opsets would need new converters
TARGETS = ('ort', 'opencv')


def channels_of(pre):
    """How many channels a record's image preprocess feeds the net (its `color`: grey is one)."""
    return 1 if pre.get('color') == 'grey' else 3


class Preprocess:
    """Factory of the block that takes raw uint8 NHWC pixels (already resized, cropped and in the record's color:
    RGB, BGR or one grey channel) and normalizes inside the graph (GluonCV export_block)."""

    @staticmethod
    def wrap(net, pre):
        import mxnet as mx
        import numpy as np
        from mxnet.gluon import nn

        c = channels_of(pre)
        scale = float(pre.get('scale', 1 / 255.0))
        mean = np.asarray(pre.get('mean', (0.0,) * c), np.float32).reshape(1, c, 1, 1) / scale
        std = np.asarray(pre.get('std', (1.0,) * c), np.float32).reshape(1, c, 1, 1) / scale

        class WithPreprocess(nn.HybridBlock):
            def __init__(self):
                super().__init__(prefix='')
                self.net = net
                self.init_mean = self.params.get_constant('preprocess_mean', mx.nd.array(mean))
                self.init_std = self.params.get_constant('preprocess_std', mx.nd.array(std))

            def hybrid_forward(self, F, x, init_mean, init_std):
                x = F.transpose(F.cast(x, 'float32'), axes=(0, 3, 1, 2))
                return self.net(F.broadcast_div(F.broadcast_minus(x, init_mean), init_std))

        block = WithPreprocess()
        block.init_mean.initialize()
        block.init_std.initialize()
        return block


def _resolve(net_or_name, pretrained, ctx):
    from ..registry import get_entry, get_model, initialize_unset
    if isinstance(net_or_name, str):
        entry = get_entry(net_or_name)
        net = get_model(net_or_name, pretrained=pretrained and bool(entry.weights), ctx=ctx)
        initialize_unset(net, ctx)  # no weights: random init (a no-op for a loaded net)
        return net, entry.name
    return net_or_name, getattr(getattr(net_or_name, 'weights', None), 'arch', None) or type(net_or_name).__name__


def _check_hybridizable(net):
    from mxnet.gluon import HybridBlock

    def walk(block, path):
        if not isinstance(block, HybridBlock):
            raise ExportError(f'{type(block).__name__} at {path or "the top"} is a Block, not a HybridBlock: it '
                              f'cannot be traced to a graph; rewrite it with hybrid_forward')
        for key, child in block._children.items():
            walk(child, f'{path}.{key}' if path else key)
    walk(net, '')


def _task_of(w, name):
    """The task of the record, else of the registered model `name`, else None."""
    if w is not None:
        return w.task
    from ..registry import get_entry
    try:
        return get_entry(name).task
    except Exception:  # noqa: BLE001 - a net outside the registry has no task to write
        return None


def metadata(w, name, shape, preprocess, target, opset, classes):
    """The ONNX metadata props a service needs: flat strings, so C++ and Java read them without a JSON parser.
    (A graph ending in NMS adds its `gluonzoo.nms.*` settings: detection.metadata.)"""
    color = (w.preprocess.get('color') if w is not None else None) or 'RGB'
    props = {'gluonzoo.model': name, 'gluonzoo.input_shape': ','.join(map(str, shape)),
             'gluonzoo.target': target, 'gluonzoo.opset': str(opset),
             'gluonzoo.preprocess_in_graph': '1' if preprocess else '0',
             'gluonzoo.input_layout': f'NHWC-uint8-{color}' if preprocess else f'NCHW-float32-{color}'}
    if w is not None:
        props['gluonzoo.weights'] = w.name
        props['gluonzoo.sha1'] = w.sha1
        pre = dict(w.preprocess)
        props['gluonzoo.preprocess'] = json.dumps(pre, sort_keys=True)
        for k, v in pre.items():
            props[f'gluonzoo.preprocess.{k}'] = ','.join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)
    task = _task_of(w, name)
    if task:
        props['gluonzoo.task'] = task
    if classes:
        props['gluonzoo.classes'] = '\n'.join(classes)
    return props


def export(net_or_name, path, input_shape=None, formats=('symbol', 'onnx'), opset=13, dynamic_batch=True,
           preprocess=False, target='ort', pretrained=True, ctx=None, inputs=None, name=None, quantize=None,
           calib_data=None, calib_mode='naive', quantize_exclude=()):
    """Write `{path}-symbol.json`, `{path}-0000.params` (+ `{path}-meta.json`) and `{path}.onnx`; return the
    written paths keyed by format ('symbol', 'params', 'meta', 'onnx').

    `net_or_name` is a HybridBlock or a registry name (built with its default weights when it has any).
    `input_shape` defaults to the weights record's; `inputs` (a tuple of NDArrays) replaces it for nets with
    several or non-float inputs (text models); `name` is the model name written into the metadata (default:
    the registry name, the weights record's, or the class name). `preprocess=True` makes the graph take raw uint8
    NHWC pixels of the crop size, in the record's color (RGB, BGR, or 1 grey channel), and normalize inside with
    the record's scale and mean/std. `target='opencv'` rewrites the ONNX graph for
    OpenCV 4.6 DNN. `dynamic_batch` leaves axis 0 of every input free. `quantize='int8'` also writes
    `{path}-int8.onnx` (key 'onnx_int8'): the ONNX file in QDQ INT8, calibrated on `calib_data`, real inputs in
    what the ONNX input takes (`calib_mode` 'naive' min/max, 'entropy' or 'average': exporting/quantize.py);
    `quantize_exclude`: substrings of the ONNX node names (or of their first output's) kept fp32.
    """
    import mxnet as mx

    formats = tuple(formats)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ExportError(f'export format {unknown[0]!r} is not available; formats: {", ".join(FORMATS)}')
    if target not in TARGETS:
        raise ExportError(f'unknown export target {target!r}; targets: {", ".join(TARGETS)}')
    if opset not in OPSETS:
        raise ExportError(f'opset {opset!r} is not supported: MXNet 1.9.1 converters write opset '
                          f'{", ".join(map(str, OPSETS))}; pass opset=13')
    if quantize is not None:
        from .quantize import CALIBRATION, MODES
        if quantize not in MODES:
            raise ExportError(f'quantize={quantize!r}: use one of {", ".join(MODES)} (or None for fp32)')
        if calib_mode not in CALIBRATION:
            raise ExportError(f'calib_mode={calib_mode!r}: use one of {", ".join(CALIBRATION)}')
        if 'onnx' not in formats or target != 'ort':
            raise ExportError("quantize='int8' makes a QDQ ONNX file for ONNX Runtime: export formats=('onnx',) "
                              "with target='ort'")
        if calib_data is None:
            raise BadInputError("quantize='int8' needs calib_data: real inputs (a few hundred images) to calibrate")
    net, resolved = _resolve(net_or_name, pretrained, ctx)
    name = name or resolved
    _check_hybridizable(net)
    w = getattr(net, 'weights', None)
    ctx = ctx or mx.cpu()
    if inputs is None:
        shape = tuple(input_shape or (w.input_shape if w else ()))
        if not shape:
            raise ExportError('export needs input_shape=(N, C, H, W) for a net without a weights record')
        if preprocess:
            if w is None or 'mean' not in w.preprocess:
                raise ExportError('preprocess=True needs an image weights record with mean/std: export the pretrained '
                                  'net (or set net.weights to its record)')
            if len(shape) != 4:
                raise ExportError(f'preprocess=True needs an image input (N, C, H, W), not {shape}')
            if w.preprocess.get('layout', 'NCHW') != 'NCHW' or shape[1] != channels_of(w.preprocess):
                raise ExportError(f'preprocess=True: {w.name} takes {shape} with preprocess {dict(w.preprocess)}; '
                                  'the in-graph preprocessing makes NCHW input of the record\'s channels')
            net = Preprocess.wrap(net, w.preprocess)
            shape = (shape[0], shape[2], shape[3], shape[1])
            inputs = (mx.nd.zeros(shape, ctx=ctx, dtype='uint8'),)
        else:
            inputs = (mx.nd.zeros(shape, ctx=ctx),)
    elif preprocess:
        raise ExportError('preprocess=True applies to image nets called with input_shape, not explicit inputs')
    inputs = tuple(inputs)
    out_dir = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(out_dir, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix='.export-', dir=out_dir)
    except OSError as e:
        raise ExportError(f'cannot write to {out_dir} ({e.strerror}): choose another export path') from None
    try:
        try:
            if any(p._deferred_init for p in net.collect_params().values()):
                net(*inputs)  # settle deferred shapes imperatively: a param the graph never reads stays deferred
        except mx.base.MXNetError as e:
            raise ExportError(f'{name}: forward failed on the given inputs ({str(e).splitlines()[0]})') from None
        try:
            net.hybridize(static_alloc=True, static_shape=True)
            net(*inputs)
        except mx.base.MXNetError as e:
            raise ExportError(f'{name}: hybridized forward failed ({str(e).splitlines()[0]}); the net is not '
                              f'hybridizable as written') from None
        stem = os.path.join(tmp, 'model')
        staged = {}
        if 'symbol' in formats:
            net.export(stem, epoch=0)
            staged = {'symbol': f'{stem}-symbol.json', 'params': f'{stem}-0000.params'}
        classes = getattr(net, 'classes', None) or getattr(getattr(net, 'net', None), 'classes', None)
        props = metadata(w, name, inputs[0].shape, preprocess, target, opset, classes)
        if w is not None and 'symbol' in formats:
            with open(f'{stem}-meta.json', 'w') as f:
                json.dump({'model': w.name, 'sha1': w.sha1, 'input_shape': list(inputs[0].shape),
                           'preprocess': dict(w.preprocess), 'preprocess_in_graph': bool(preprocess),
                           'classes': list(classes) if classes else None}, f, indent=1)
            staged['meta'] = f'{stem}-meta.json'
        if 'onnx' in formats:
            from .onnx_export import to_onnx
            staged['onnx'] = to_onnx(net, inputs, f'{stem}.onnx', opset=opset, dynamic_batch=dynamic_batch,
                                     target=target, props=props)
            if quantize:
                from .quantize import to_int8
                staged['onnx_int8'] = to_int8(staged['onnx'], f'{stem}-int8.onnx', calib_data, calib_mode,
                                              quantize_exclude)
        finals = {'symbol': f'{path}-symbol.json', 'params': f'{path}-0000.params', 'meta': f'{path}-meta.json',
                  'onnx': f'{path}.onnx', 'onnx_int8': f'{path}-int8.onnx'}
        written = {}
        for k, src in staged.items():
            os.replace(src, finals[k])
            written[k] = finals[k]
        return written
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
