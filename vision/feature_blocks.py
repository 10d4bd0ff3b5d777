"""GluonCV's feature blocks over any gluonzoo (or Gluon) network: FeatureExtractor, a SymbolBlock returning named
internal outputs of a net, and FeatureExpander, which adds stride-2 conv stages after the last of them (SSD's
extra feature maps). `network` is a model name (gluonzoo.get_model, `pretrained` and `ctx` passed on), a
HybridBlock or a Symbol; `outputs` are names of the net's internal outputs (`net(mx.sym.var('data'))
.get_internals().list_outputs()` lists them; the `_output` suffix and the net's prefix may be left out).
GluonCV's nets name their layers their own way, so the names a GluonCV script passes are its nets' names.

>>> import mxnet as mx
>>> net = mx.gluon.nn.HybridSequential(prefix='net_')
>>> with net.name_scope():
...     net.add(mx.gluon.nn.Dense(4, in_units=3), mx.gluon.nn.Dense(2, in_units=4))
>>> net.initialize()
>>> [o.shape for o in FeatureExtractor(net, ['dense0_fwd', 'dense1_fwd'])(mx.nd.ones((5, 3)))]
[(5, 4), (5, 2)]
"""
import mxnet as mx
from mxnet.gluon import HybridBlock, SymbolBlock


def _parse(network, outputs, inputs, pretrained, ctx, **kwargs):
    inputs = [mx.sym.var(i) if isinstance(i, str) else i for i in inputs]
    if not all(isinstance(i, mx.sym.Symbol) for i in inputs):
        raise TypeError('inputs must be names or Symbols')
    data = inputs[0] if len(inputs) == 1 else mx.sym.Group(inputs)
    params, prefix = None, ''
    if isinstance(network, str):
        from ..registry import get_model
        network = get_model(network, pretrained=pretrained, ctx=ctx, **kwargs)
    if isinstance(network, HybridBlock):
        params, prefix = network.collect_params(), network.prefix
        network = network(data)
    if not isinstance(network, mx.sym.Symbol):
        raise TypeError(f'network must be a model name, a HybridBlock or a Symbol, not {type(network).__name__}')
    outputs = [outputs] if isinstance(outputs, str) else list(outputs)
    if not outputs:
        raise ValueError('FeatureExtractor needs at least one output name')
    internals, found = network.get_internals(), []
    names = set(internals.list_outputs())
    for name in outputs:
        name = name if name.endswith('_output') else name + '_output'
        full = next((n for n in (prefix + name, name) if n in names), None)
        if full is None:
            close = sorted(n for n in names if name.split('_')[0] in n)[:5]
            raise ValueError(f'{name!r} is not an output of the network (near: {close}); list them with '
                             f'net(mx.sym.var("data")).get_internals().list_outputs()')
        found.append(internals[full])
    return inputs, found, params


class FeatureExtractor(SymbolBlock):
    """The network's internal `outputs` (a list of maps), sharing its parameters."""

    def __init__(self, network, outputs, inputs=('data',), pretrained=False, ctx=mx.cpu(), **kwargs):
        inputs, outputs, params = _parse(network, outputs, inputs, pretrained, ctx, **kwargs)
        super().__init__(outputs, inputs, params=params)


class FeatureExpander(SymbolBlock):
    """FeatureExtractor's outputs, then one more map per `num_filters` entry: an optional 1x1 transition conv to
    max(min_depth, round(f * reduce_ratio)) channels and a 3x3 stride-2 conv to f, each with BatchNorm (`use_bn`,
    then without bias) and ReLU; `global_pool` adds the global average of the last. Layer names are GluonCV's
    (expand_trans_conv{i}, expand_conv{i}, ...), new weights Xavier (gaussian, out, 2)."""

    def __init__(self, network, outputs, num_filters, use_1x1_transition=True, use_bn=True, reduce_ratio=1.0,
                 min_depth=128, global_pool=False, pretrained=False, ctx=mx.cpu(), inputs=('data',), **kwargs):
        inputs, outputs, params = _parse(network, outputs, inputs, pretrained, ctx, **kwargs)
        init = mx.init.Xavier(rnd_type='gaussian', factor_type='out', magnitude=2)
        y = outputs[-1]

        def conv_bn_relu(x, filters, kernel, name, pad=(0, 0), stride=(1, 1)):
            x = mx.sym.Convolution(x, num_filter=filters, kernel=kernel, pad=pad, stride=stride, no_bias=use_bn,
                                   name=f'{name[0]}conv{name[1]}', attr={'__init__': init})
            if use_bn:
                x = mx.sym.BatchNorm(x, name=f'{name[0]}bn{name[1]}')
            return mx.sym.Activation(x, act_type='relu', name=f'{name[0]}relu{name[1]}')
        for i, f in enumerate(num_filters):
            if use_1x1_transition:
                y = conv_bn_relu(y, max(min_depth, int(round(f * reduce_ratio))), (1, 1), ('expand_trans_', i))
            y = conv_bn_relu(y, f, (3, 3), ('expand_', i), pad=(1, 1), stride=(2, 2))
            outputs.append(y)
        if global_pool:
            outputs.append(mx.sym.Pooling(y, pool_type='avg', global_pool=True, kernel=(1, 1)))
        super().__init__(outputs, inputs, params)
