"""GluonNLP 0.10's attention cells and position-wise FFN, the one copy the Transformer and BERT build on.

    cell = MultiHeadAttentionCell(DotProductAttentionCell(scaled=True), 64, 64, 64, num_heads=4, use_bias=False)
    context, weights = cell(query, key, value, mask)   # (B, Tq, 64), (B, 4, Tq, Tk); mask (B, Tq, Tk) of 0/1

A cell scores (`_compute_weight`) then reads values by the weights (`_read_by_weight`), as GluonNLP's do, so a
subclass written for GluonNLP works here. Masked scores become -1e18 (-1e4 in float16) and the weights are then
multiplied by the mask, GluonNLP's rule: a fully masked row attends to nothing. The mask is applied by arithmetic
(score * m + (1 - m) * neg) rather than `where`, which gives the same numbers and exports to ONNX; the heads stay a
4-d (B, H, T, C/H) batch for `batch_dot` instead of GluonNLP's (B*H, T, C/H) reshape with `reverse=True`, which
the ONNX exporter cannot write. Parameter names are GluonNLP's (`proj_query.weight`, `_query_mid_layer.weight`).
"""
import math

import mxnet as mx
import numpy as np
from mxnet.gluon import HybridBlock, nn

from ..layers import GELU, L2Normalization

__all__ = ['AttentionCell', 'DotProductAttentionCell', 'MLPAttentionCell', 'MultiHeadAttentionCell',
           'PositionwiseFFN']


def _neg(dtype):
    return -1e4 if np.dtype(dtype) == np.float16 else -1e18


def masked_softmax(F, score, mask, dtype=np.float32):
    """softmax over the last axis where `mask` (broadcastable to score) is 1; rows' masked weights are 0."""
    if mask is None:
        return F.softmax(score, axis=-1)
    score = F.broadcast_add(F.broadcast_mul(score, mask), (1 - mask) * _neg(dtype))
    return F.broadcast_mul(F.softmax(score, axis=-1), mask)


class AttentionCell(HybridBlock):
    """`cell(query, key, value=None, mask=None) -> (context, weights)`; value defaults to key."""

    def __init__(self, prefix=None, params=None):
        self._dtype = np.float32
        super().__init__(prefix=prefix, params=params)

    def cast(self, dtype):
        self._dtype = dtype
        super().cast(dtype)

    def _compute_weight(self, F, query, key, mask=None):
        raise NotImplementedError(f'{type(self).__name__} must define _compute_weight(F, query, key, mask)')

    def _read_by_weight(self, F, att_weights, value):
        return F.batch_dot(att_weights, value)

    def __call__(self, query, key, value=None, mask=None):  # pylint: disable=arguments-differ
        return super().__call__(query, key, value, mask)

    def hybrid_forward(self, F, query, key, value=None, mask=None):  # pylint: disable=arguments-differ
        weights = self._compute_weight(F, query, key, mask)
        return self._read_by_weight(F, weights, key if value is None else value), weights


class DotProductAttentionCell(AttentionCell):
    """score = <W_q q, W_k k> (projections only with `units`; Luong style projects the query alone), scaled by
    1/sqrt(dim) with `scaled`, cosine with `normalized`; dropout on the weights."""

    def __init__(self, units=None, luong_style=False, scaled=True, normalized=False, use_bias=True, dropout=0.0,
                 weight_initializer=None, bias_initializer='zeros', prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        if luong_style and units is None:
            raise ValueError('DotProductAttentionCell: luong_style=True needs units (the size the query is '
                             'projected to, which must be the key size)')
        self._units, self._scaled, self._normalized, self._luong_style = units, scaled, normalized, luong_style
        dense = dict(use_bias=use_bias, flatten=False, weight_initializer=weight_initializer,
                     bias_initializer=bias_initializer)
        with self.name_scope():
            self._dropout_layer = nn.Dropout(dropout)
            if units is not None:
                self._proj_query = nn.Dense(units, prefix='query_', **dense)
                if not luong_style:
                    self._proj_key = nn.Dense(units, prefix='key_', **dense)
            if normalized:
                self._l2_norm = L2Normalization(axis=-1)

    def _compute_score(self, F, query, key, mask=None):
        if self._units is not None:
            query = self._proj_query(query)
            if not self._luong_style:
                key = self._proj_key(key)
            elif F is mx.nd and query.shape[-1] != key.shape[-1]:
                raise ValueError(f'Luong-style attention needs keys of the projected query size {query.shape[-1]}'
                                 f', got {key.shape[-1]}')
        if self._normalized:
            query, key = self._l2_norm(query), self._l2_norm(key)
        if self._scaled:
            query = F.contrib.div_sqrt_dim(query)
        return F.batch_dot(query, key, transpose_b=True)

    def _compute_weight(self, F, query, key, mask=None):
        return self._dropout_layer(masked_softmax(F, self._compute_score(F, query, key), mask, self._dtype))


class _NormalizedScore(HybridBlock):
    """The weight-normalized score vector g * v / ||v|| of MLPAttentionCell(normalized=True)."""

    def __init__(self, in_units, weight_initializer=None, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.g = self.params.get('g', shape=(1,), init=mx.init.Constant(1.0 / math.sqrt(in_units)),
                                 allow_deferred_init=True)
        self.v = self.params.get('v', shape=(1, in_units), init=weight_initializer, allow_deferred_init=True)

    def hybrid_forward(self, F, x, g, v):
        weight = F.broadcast_mul(g, F.broadcast_div(v, F.sqrt(F.dot(v, v, transpose_b=True))))
        return F.FullyConnected(x, weight, None, no_bias=True, num_hidden=1, flatten=False)


class MLPAttentionCell(AttentionCell):
    """Additive (Bahdanau) attention: score = v^T act(W_q q + W_k k)."""

    def __init__(self, units, act=None, normalized=False, dropout=0.0, weight_initializer=None,
                 bias_initializer='zeros', prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._act = nn.Activation('tanh') if act is None else act  # a fresh one each: GluonNLP shares one default
        with self.name_scope():
            self._dropout_layer = nn.Dropout(dropout)
            self._query_mid_layer = nn.Dense(units, flatten=False, use_bias=True, prefix='query_',
                                             weight_initializer=weight_initializer, bias_initializer=bias_initializer)
            self._key_mid_layer = nn.Dense(units, flatten=False, use_bias=False, prefix='key_',
                                           weight_initializer=weight_initializer)
            self._attention_score = (_NormalizedScore(units, weight_initializer, prefix='score_') if normalized else
                                     nn.Dense(1, in_units=units, flatten=False, use_bias=False, prefix='score_',
                                              weight_initializer=weight_initializer))

    def _compute_weight(self, F, query, key, mask=None):
        # (..., Tq, 1, U) + (..., 1, Tk, U): any leading axes, so the cell also serves as a multi-head base cell
        mid = F.broadcast_add(F.expand_dims(self._query_mid_layer(query), axis=-2),
                              F.expand_dims(self._key_mid_layer(key), axis=-3))
        score = F.squeeze(self._attention_score(self._act(mid)), axis=-1)
        return self._dropout_layer(masked_softmax(F, score, mask, self._dtype))


class MultiHeadAttentionCell(AttentionCell):
    """`num_heads` heads of `base_cell` over projections of query, key and value; weights (B, H, Tq, Tk).

    The base cell sees (B, H, T, C/H) batches and a (B, 1, Tq, Tk) mask, so its score must broadcast over heads
    (every cell here does)."""

    def __init__(self, base_cell, query_units, key_units, value_units, num_heads, use_bias=True,
                 weight_initializer=None, bias_initializer='zeros', prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        for name, units in (('query', query_units), ('key', key_units), ('value', value_units)):
            if units % num_heads:
                raise ValueError(f'MultiHeadAttentionCell: {name}_units={units} is not divisible by '
                                 f'num_heads={num_heads}')
        self._base_cell, self._num_heads = base_cell, num_heads
        with self.name_scope():
            for name, units in (('query', query_units), ('key', key_units), ('value', value_units)):
                setattr(self, f'proj_{name}', nn.Dense(units, use_bias=use_bias, flatten=False, prefix=f'{name}_',
                                                       weight_initializer=weight_initializer,
                                                       bias_initializer=bias_initializer))

    def _project(self, F, name, x):  # (B, T, C) -> (B, H, T, C/H)
        x = getattr(self, f'proj_{name}')(x)
        return F.transpose(F.reshape(x, shape=(0, 0, self._num_heads, -1)), axes=(0, 2, 1, 3))

    def _compute_weight(self, F, query, key, mask=None):
        if mask is not None:
            mask = F.expand_dims(mask, axis=1)
        return self._base_cell._compute_weight(F, self._project(F, 'query', query), self._project(F, 'key', key),
                                               mask)

    def _read_by_weight(self, F, att_weights, value):
        out = self._base_cell._read_by_weight(F, att_weights, self._project(F, 'value', value))
        return F.reshape(F.transpose(out, axes=(0, 2, 1, 3)), shape=(0, 0, -1))


class PositionwiseFFN(HybridBlock):
    """ffn_2(act(ffn_1(x))), dropout, + x with `use_residual`, LayerNorm (post-norm: the Transformer and BERT).

    `in_units` (gluonzoo's, default None: inferred) fixes the input size so the parameters exist before a first
    forward, as the registered models need for strict loading and export."""

    def __init__(self, *, units=512, hidden_size=2048, dropout=0.0, use_residual=True, ffn1_dropout=False,
                 activation='relu', layer_norm_eps=1e-5, weight_initializer=None, bias_initializer='zeros',
                 prefix=None, params=None, in_units=None):
        super().__init__(prefix=prefix, params=params)
        self._use_residual, self._dropout, self._ffn1_dropout = use_residual, dropout, ffn1_dropout
        dense = dict(flatten=False, weight_initializer=weight_initializer, bias_initializer=bias_initializer)
        with self.name_scope():
            self.ffn_1 = nn.Dense(hidden_size, in_units=in_units or 0, prefix='ffn_1_', **dense)
            self.activation = _activation(activation) if activation else None
            self.ffn_2 = nn.Dense(units, in_units=hidden_size if in_units else 0, prefix='ffn_2_', **dense)
            if dropout:
                self.dropout_layer = nn.Dropout(rate=dropout)
            self.layer_norm = nn.LayerNorm(in_channels=units, epsilon=layer_norm_eps)

    def hybrid_forward(self, F, inputs):  # pylint: disable=arguments-differ
        out = self.ffn_1(inputs)
        if self.activation is not None:
            out = self.activation(out)
        if self._dropout and self._ffn1_dropout:
            out = self.dropout_layer(out)
        out = self.ffn_2(out)
        if self._dropout:
            out = self.dropout_layer(out)
        if self._use_residual:
            out = out + inputs
        return self.layer_norm(out)


def _activation(act):
    if isinstance(act, mx.gluon.Block):
        return act
    if not isinstance(act, str):
        raise ValueError(f'activation={act!r}: a name (relu, gelu, approx_gelu, tanh, ...) or a Block')
    return {'gelu': lambda: GELU(), 'approx_gelu': lambda: GELU(approximate=True)}.get(
        act.lower(), lambda: nn.Activation(act))()


def attention_cell(name, units=None, scaled=True, num_heads=None, use_bias=False, dropout=0.0):
    """The cell GluonNLP's string names: 'multi_head' (scaled dot product over num_heads heads), 'scaled_dot',
    'dot', 'scaled_luong', 'cosine', 'mlp', 'normed_mlp'; an AttentionCell is returned as is."""
    if isinstance(name, AttentionCell):
        return name
    dot = dict(units=units, use_bias=use_bias, dropout=dropout)
    makers = {
        'multi_head': lambda: MultiHeadAttentionCell(DotProductAttentionCell(scaled=scaled, dropout=dropout), units,
                                                     units, units, num_heads, use_bias=use_bias),
        'scaled_dot': lambda: DotProductAttentionCell(scaled=True, **dot),
        'dot': lambda: DotProductAttentionCell(scaled=False, **dot),
        'scaled_luong': lambda: DotProductAttentionCell(scaled=True, luong_style=True, **dot),
        'cosine': lambda: DotProductAttentionCell(scaled=False, normalized=True, **dot),
        'mlp': lambda: MLPAttentionCell(units=units),
        'normed_mlp': lambda: MLPAttentionCell(units=units, normalized=True),
    }
    if name not in makers:
        raise ValueError(f'attention_cell={name!r}: one of {", ".join(makers)}, or an AttentionCell')
    return makers[name]()
