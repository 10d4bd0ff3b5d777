"""GluonCV's `export_block(path, block, data_shape, epoch, preprocess, layout, ctx)` over gluonzoo's `export`:
`{path}-symbol.json` and `{path}-{epoch:04d}.params` for `SymbolBlock.imports`, the C++ API or `mx.mod.Module`.

preprocess=True puts GluonCV's default in front of the net: pixels (B, H, W, 3) in 0-255 RGB, minus the ImageNet
mean (123.675, 116.28, 103.53), over its std (58.395, 57.12, 57.375), to (B, 3, H, W); a HybridBlock of your own
goes in front instead, and None (or False) exports the net as it is, taking (B, C, H, W). Without `data_shape`
the common square sizes 224 ... 600 are tried until one runs through the net.
"""
import copy
import os

from ..exporting.core import ExportError, Preprocess, export

#: GluonCV's default preprocessing (ImageNet statistics, on pixels scaled 0-1)
IMAGENET = {'mean': (0.485, 0.456, 0.406), 'std': (0.229, 0.224, 0.225), 'scale': 1 / 255.0}
_SIZES = (224, 256, 299, 300, 320, 416, 512, 600)


def _inputs(layout, shape):
    order = {'HWC': 'hwc', 'CHW': 'chw', 'THWC': 'thwc', 'CTHW': 'cthw'}[layout]
    if len(shape) != len(order):
        raise ValueError(f'data_shape {tuple(shape)} does not match layout {layout!r}')
    return (1,) + tuple(shape)


def export_block(path, block, data_shape=None, epoch=0, preprocess=True, layout='HWC', ctx=None):
    """Write `{path}-symbol.json` and `{path}-{epoch:04d}.params` of HybridBlock `block` (see the module doc);
    returns None, as GluonCV's does. A net that runs on none of the shapes tried is a RuntimeError with the
    first line of the last failure."""
    import mxnet as mx
    from mxnet.gluon import HybridBlock, nn
    layout = str(layout).upper()
    if layout not in ('HWC', 'CHW', 'THWC', 'CTHW'):
        raise ValueError(f"layout {layout!r}: use 'HWC', 'CHW', 'THWC' or 'CTHW'")
    if data_shape is not None:
        shapes = [tuple(data_shape)]
    elif layout in ('HWC', 'CHW'):
        shapes = [(s, s, 3) if layout == 'HWC' else (3, s, s) for s in _SIZES]
    else:
        raise ValueError(f'layout {layout!r}: pass data_shape, there is no default for video inputs')
    net = block
    if '_target_generator' in net._children:  # training-only child: not part of the exported graph
        net = copy.deepcopy(block)
        net._children.pop('_target_generator')
    ctx = ctx or mx.cpu()
    if preprocess is True:
        if layout != 'HWC':
            raise ValueError(f"the default preprocess takes HWC pixels, not layout {layout!r}: pass layout='HWC' "
                             "or your own preprocess block")
        wrapped = Preprocess.wrap(net, IMAGENET)
    elif preprocess:
        if not isinstance(preprocess, HybridBlock):
            raise TypeError(f'preprocess must be a HybridBlock (or True / None), not {type(preprocess).__name__}')
        preprocess.initialize(ctx=ctx)
        wrapped = nn.HybridSequential()
        wrapped.add(preprocess, net)
    else:
        if layout not in ('CHW', 'CTHW'):
            raise ValueError(f"without preprocess the net takes CHW (or CTHW) input, not layout {layout!r}")
        wrapped = net
    wrapped.collect_params().reset_ctx(ctx)
    failure = None
    for shape in shapes:
        x = mx.nd.zeros(_inputs(layout, shape), ctx=ctx)
        try:
            written = export(wrapped, path, inputs=(x,), formats=('symbol',), ctx=ctx, name=type(block).__name__)
        except ExportError as e:
            failure = e
            continue
        if epoch != 0:
            os.replace(written['params'], f'{path}-{int(epoch):04d}.params')
        return None
    raise RuntimeError(str(failure).splitlines()[0])
