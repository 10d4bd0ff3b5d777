"""GPT-2 (Radford et al., 2019) with the structure of GluonNLP 0.10's scripts/text_generation GPT2Model.

Layout: blocks -> model -> registered builders. Parameter names follow that GPT2Model (`_embed.weight`,
`_self_attention_layers.N._multi_head_qkv_proj.weight`, `_attn_ln.N.gamma`, `_final_ln.beta`; `_logits_proj`
shares `_embed`'s matrix), so its converted OpenAI checkpoints would load by name. GluonNLP ships this model only
in its scripts, not in the gluonnlp package, so there is no installed peer to compare against; the tests check
causality and hybridization instead. No key/value cache: the decoders in gluonzoo.text.decoding re-run the prefix.
"""
import math

import mxnet as mx
from mxnet.gluon import HybridBlock, nn

from ...registry import register_model


class GPT2SelfAttentionLayer(HybridBlock):
    """Causal multi-head self-attention with one fused q/k/v projection (q, k, v are consecutive thirds)."""

    def __init__(self, units, num_heads, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self._units, self._heads = units, num_heads
        with self.name_scope():
            self._multi_head_qkv_proj = nn.Dense(units * 3, flatten=False, prefix='qkv_proj_')
            self._dropout_layer = nn.Dropout(dropout)
            self._out_proj = nn.Dense(units, flatten=False, prefix='out_proj_')

    def _split(self, F, x):
        return F.transpose(F.reshape(x, shape=(0, 0, self._heads, -1)), axes=(0, 2, 1, 3))

    def hybrid_forward(self, F, x):
        qkv = self._multi_head_qkv_proj(x)
        q, k, v = (self._split(F, F.slice_axis(qkv, axis=2, begin=i * self._units, end=(i + 1) * self._units))
                   for i in range(3))
        score = F.batch_dot(q, k, transpose_b=True) / math.sqrt(self._units // self._heads)
        steps = F.contrib.arange_like(x, axis=1)
        causal = F.broadcast_lesser_equal(F.reshape(steps, shape=(1, -1)), F.reshape(steps, shape=(-1, 1)))
        m = F.expand_dims(F.expand_dims(causal, axis=0), axis=0)
        score = F.broadcast_add(F.broadcast_mul(score, m), (1 - m) * -1e18)
        att = self._dropout_layer(F.softmax(score, axis=-1))
        out = F.reshape(F.transpose(F.batch_dot(att, v), axes=(0, 2, 1, 3)), shape=(0, 0, -1))
        return self._out_proj(out)


class GPT2FFNLayer(HybridBlock):
    """Dense -> tanh-approximated GELU -> Dense."""

    def __init__(self, units, hidden_size, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self._hidden_map = nn.Dense(hidden_size, flatten=False)
            self._out_map = nn.Dense(units, flatten=False)

    def hybrid_forward(self, F, x):
        h = self._hidden_map(x)
        h = 0.5 * h * (1 + F.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * (h ** 3))))
        return self._out_map(h)


class GPT2Model(HybridBlock):
    """Pre-norm decoder-only transformer; call with ids (batch, length) -> logits (batch, length, vocab)."""

    def __init__(self, units, vocab_size, max_length, num_layers, num_heads, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self._max_length, self.vocab_size = max_length, vocab_size
        with self.name_scope():
            self._pos_embed = nn.Embedding(max_length, units, prefix='pos_embed_')
            self._embed = nn.Embedding(vocab_size, units, prefix='embed_')
            self._logits_proj = nn.Dense(vocab_size, in_units=units, use_bias=False, flatten=False,
                                         params=self._embed.params)
            self._self_attention_layers = nn.HybridSequential()
            self._ffn_layers = nn.HybridSequential()
            self._attn_ln = nn.HybridSequential()
            self._ffn_ln = nn.HybridSequential()
            for i in range(num_layers):
                self._self_attention_layers.add(GPT2SelfAttentionLayer(units, num_heads, dropout,
                                                                       prefix=f'self_attn{i}_'))
                self._ffn_layers.add(GPT2FFNLayer(units, units * 4, prefix=f'ffn{i}_'))
                self._attn_ln.add(nn.LayerNorm(prefix=f'attn_ln{i}_'))
                self._ffn_ln.add(nn.LayerNorm(prefix=f'ffn_ln{i}_'))
            self._final_ln = nn.LayerNorm(prefix='final_ln_')

    def __call__(self, data):
        if isinstance(data, mx.nd.NDArray) and data.shape[1] > self._max_length:
            from ...errors import BadInputError
            raise BadInputError(f'{data.shape[1]} tokens exceed max_length={self._max_length}: truncate or window')
        return super().__call__(data)

    def hybrid_forward(self, F, data):
        pos = F.broadcast_like(F.expand_dims(F.contrib.arange_like(data, axis=1), axis=0), data,
                               lhs_axes=(0,), rhs_axes=(0,))
        out = self._embed(data) + self._pos_embed(pos)
        for attn, ffn, attn_ln, ffn_ln in zip(self._self_attention_layers, self._ffn_layers, self._attn_ln,
                                              self._ffn_ln):
            out = out + attn(attn_ln(out))
            out = out + ffn(ffn_ln(out))
        return self._logits_proj(self._final_ln(out))


def _gpt2_inputs(batch=2, length=6, vocab=20):
    def make():
        mx.random.seed(0)
        return (mx.nd.random.randint(0, vocab, shape=(batch, length)).astype('float32'),)
    return make


_REG = dict(task='language-model', protected=('vocab_size', 'units', 'num_layers', 'num_heads', 'max_length'),
            test_input=_gpt2_inputs(), test_kwargs=dict(vocab_size=20, units=16, num_layers=2, num_heads=4, max_length=16))


@register_model(**_REG)
def gpt2_117m(vocab_size=50257, units=768, num_layers=12, num_heads=12, max_length=1024, dropout=0.0):
    """GPT-2 small, 12 layers, 768 units (Radford et al. 2019)."""
    return GPT2Model(units, vocab_size, max_length, num_layers, num_heads, dropout)


@register_model(**_REG)
def gpt2_345m(vocab_size=50257, units=1024, num_layers=24, num_heads=16, max_length=1024, dropout=0.0):
    """GPT-2 medium, 24 layers, 1024 units (Radford et al. 2019)."""
    return GPT2Model(units, vocab_size, max_length, num_layers, num_heads, dropout)
