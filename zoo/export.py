"""Export a zoo model: hybridize, run once, write the symbol graph and its parameters.

ONNX (with the opset and graph fixes DESIGN.md lists) is the export issue's; until it lands, asking for it is an
error rather than a half-right file.
"""
import json
import os

from .errors import GluonzooError

FORMATS = ('symbol',)


def export(net_or_name, path, input_shape=None, formats=('symbol',), pretrained=True, ctx=None):
    """Write `{path}-symbol.json` and `{path}-0000.params`; return {'symbol': json path, 'params': params path}.

    `net_or_name` is a HybridBlock or a registry name (built with its default weights when it has any).
    `input_shape` defaults to the weights record's.
    """
    import mxnet as mx
    from .registry import get_entry, get_model

    formats = tuple(formats)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise GluonzooError(f'export format {unknown[0]!r} is not available yet; formats: {FORMATS}')
    if isinstance(net_or_name, str):
        entry = get_entry(net_or_name)
        net = get_model(net_or_name, pretrained=pretrained and bool(entry.weights), ctx=ctx)
    else:
        net = net_or_name
    w = getattr(net, 'weights', None)
    shape = tuple(input_shape or (w.input_shape if w else ()))
    if not shape:
        raise GluonzooError('export needs input_shape=(N, C, H, W) for a net without a weights record')
    out_dir = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise GluonzooError(f'cannot create {out_dir} ({e.strerror}): choose another export path') from None
    ctx = ctx or mx.cpu()
    net.hybridize(static_alloc=True, static_shape=True)
    net(mx.nd.zeros(shape, ctx=ctx))
    net.export(path, epoch=0)
    written = {'symbol': f'{path}-symbol.json', 'params': f'{path}-0000.params'}
    if w is not None:  # what a service needs to feed the graph, next to it
        meta = {'model': w.name, 'sha1': w.sha1, 'input_shape': list(shape), 'preprocess': dict(w.preprocess),
                'classes': w.classes}
        with open(f'{path}-meta.json', 'w') as f:
            json.dump(meta, f, indent=1)
        written['meta'] = f'{path}-meta.json'
    return written
