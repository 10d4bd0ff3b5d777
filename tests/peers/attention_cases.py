"""The attention-cell calls tests/compat/test_nlp_attention.py makes on gluonzoo.nlp.model and the peer script on
gluonnlp.model: each case builds a block with GluonNLP's constructor, loads the parameters the peer saved (or saves
them, on the peer's side) and returns its outputs."""
import os

import mxnet as mx


def blocks(model):
    dot = model.DotProductAttentionCell
    return {
        'dot_scaled': lambda: dot(scaled=True),
        'dot_units': lambda: dot(units=8, scaled=False, use_bias=True),
        'luong': lambda: dot(units=6, luong_style=True),
        'cosine': lambda: dot(units=8, normalized=True),
        'mlp': lambda: model.MLPAttentionCell(units=5),
        'normed_mlp': lambda: model.MLPAttentionCell(units=5, normalized=True),
        'multi_head': lambda: model.MultiHeadAttentionCell(dot(scaled=True), 8, 8, 8, num_heads=2),
        'multi_head_mlp': lambda: model.MultiHeadAttentionCell(model.MLPAttentionCell(units=3), 8, 4, 6,
                                                               num_heads=2, use_bias=False),
    }


def cases(model, d, folder, save):
    """{case: output array}: the cells on (query, key, value, mask), the FFN and encoder cell on `query`."""
    out = {}

    def params(net, name, *inputs):
        path = os.path.join(folder, name + '.params')
        if save:
            mx.random.seed(0)
            net.initialize(mx.init.Normal(0.5))
            net(*inputs)
            net.save_parameters(path)
        else:
            net.load_parameters(path)
        return net

    q, k, v, m = d['query'], d['key'], d['value'], d['mask']
    for name, make in blocks(model).items():
        cell = params(make(), name, q, k, v, m)
        for masked in (False, True):
            ctx, w = cell(q, k, v, m if masked else None)
            out[f'{name}.{masked}.context'], out[f'{name}.{masked}.weights'] = ctx.asnumpy(), w.asnumpy()
        cell.hybridize()
        out[f'{name}.hybrid'] = cell(q, k, v, m)[0].asnumpy()
    for name, kw in {'ffn_relu': {}, 'ffn_gelu': dict(activation='gelu', layer_norm_eps=1e-12, use_residual=False)
                     }.items():
        ffn = params(model.PositionwiseFFN(units=6, hidden_size=10, **kw), name, q)
        out[name] = ffn(q).asnumpy()
    enc = params(model.TransformerEncoderCell(units=6, hidden_size=10, num_heads=2, output_attention=True),
                 'encoder_cell', q, d['self_mask'])
    y, extra = enc(q, d['self_mask'])
    out['encoder_cell'], out['encoder_cell.attention'] = y.asnumpy(), extra[0].asnumpy()
    return out
