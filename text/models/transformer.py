"""The Transformer encoder-decoder for translation, parameter-compatible with GluonNLP 0.10.0's
`transformer_en_de_512` NMTModel (Vaswani et al., arXiv:1706.03762).

Layout: blocks -> model -> weights record -> registered builders. Names follow GluonNLP (`encoder.transformer_cells.N.attention_cell.
proj_query.weight`, `decoder.transformer_cells.N.attention_cell_inter...`, `src_embed.0.weight`, `tgt_proj.bias`);
GluonNLP's `one_step_ahead_decoder` shares every parameter with `decoder`, so here it is the same block under both
names and a GluonNLP file loads strictly. The attention cells and FFN are text/models/attention.py's (GluonNLP's
classes: masked scores -1e18, weights times the mask), written with arithmetic masks, batch_dot and 0/-1 reshapes
so the graph exports to ONNX.
"""
import math

import mxnet as mx
import numpy as np
from mxnet.gluon import HybridBlock, nn

from ...registry import register_model
from ...weights import ONE_THREAD, Source, Weights
from ._gluonnlp import gluonnlp_records
from .attention import DotProductAttentionCell, MultiHeadAttentionCell, PositionwiseFFN
from .attention import attention_cell as attention_cell_by_name

def sinusoid_positions(max_length, units):
    """GluonNLP's position table: sin on even, cos on odd dimensions, angle pos / 10000^(2i/units) for dim i."""
    angle = np.arange(max_length).reshape(-1, 1) / np.power(10000, (2.0 / units) * np.arange(units).reshape(1, -1))
    angle[:, 0::2], angle[:, 1::2] = np.sin(angle[:, 0::2]), np.cos(angle[:, 1::2])
    return angle.astype('float32')


# -- blocks -------------------------------------------------------------------------------------------------------
def _self_attention(units, num_heads, dropout):
    return MultiHeadAttentionCell(DotProductAttentionCell(scaled=True, dropout=dropout), units, units, units,
                                  num_heads, use_bias=False)


class TransformerEncoderCell(HybridBlock):
    """GluonNLP's encoder layer: self-attention, projection, dropout, residual, LayerNorm, then the FFN;
    `cell(x, mask=None) -> (outputs, [attention weights] with output_attention else [])`."""

    def __init__(self, *, attention_cell='multi_head', units=128, hidden_size=512, num_heads=4, scaled=True,
                 dropout=0.0, use_residual=True, output_attention=False, attention_proj_use_bias=False,
                 attention_use_bias=False, weight_initializer=None, bias_initializer='zeros', prefix=None,
                 params=None, activation='relu', layer_norm_eps=1e-5):
        super().__init__(prefix=prefix, params=params)
        self._dropout, self._use_residual, self._output_attention = dropout, use_residual, output_attention
        with self.name_scope():
            if dropout:
                self.dropout_layer = nn.Dropout(rate=dropout)
            self.attention_cell = attention_cell_by_name(attention_cell, units=units, num_heads=num_heads,
                                                         scaled=scaled, dropout=dropout, use_bias=attention_use_bias)
            self.proj = nn.Dense(units, flatten=False, use_bias=attention_proj_use_bias, prefix='proj_',
                                 weight_initializer=weight_initializer, bias_initializer=bias_initializer)
            self.ffn = PositionwiseFFN(units=units, hidden_size=hidden_size, dropout=dropout,
                                       use_residual=use_residual, weight_initializer=weight_initializer,
                                       bias_initializer=bias_initializer, activation=activation,
                                       layer_norm_eps=layer_norm_eps)
            self.layer_norm = nn.LayerNorm(in_channels=units, epsilon=layer_norm_eps)

    def hybrid_forward(self, F, inputs, mask=None):  # pylint: disable=arguments-differ
        out, weights = self.attention_cell(inputs, inputs, inputs, mask)
        out = self.proj(out)
        if self._dropout:
            out = self.dropout_layer(out)
        if self._use_residual:
            out = out + inputs
        return self.ffn(self.layer_norm(out)), ([weights] if self._output_attention else [])


def _encoder_cell(units, hidden_size, num_heads, dropout, prefix):
    return TransformerEncoderCell(units=units, hidden_size=hidden_size, num_heads=num_heads, dropout=dropout,
                                  prefix=prefix)


class DecoderCell(HybridBlock):
    def __init__(self, units, hidden_size, num_heads, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.attention_cell_in = _self_attention(units, num_heads, dropout)
            self.attention_cell_inter = _self_attention(units, num_heads, dropout)
            self.proj_in = nn.Dense(units, flatten=False, use_bias=False, prefix='proj_in_')
            self.proj_inter = nn.Dense(units, flatten=False, use_bias=False, prefix='proj_inter_')
            self.dropout_layer = nn.Dropout(dropout)
            self.ffn = PositionwiseFFN(units=units, hidden_size=hidden_size, dropout=dropout)
            self.layer_norm_in = nn.LayerNorm()
            self.layer_norm_inter = nn.LayerNorm()

    def hybrid_forward(self, F, x, mem, mask, mem_mask=None):
        x = self.layer_norm_in(self.dropout_layer(self.proj_in(self.attention_cell_in(x, x, x, mask)[0])) + x)
        h = self.attention_cell_inter(x, mem, mem, mem_mask)[0]
        x = self.layer_norm_inter(self.dropout_layer(self.proj_inter(h)) + x)
        return self.ffn(x)


class _Stack(HybridBlock):
    """Shared by encoder and decoder: scaled embeddings + sinusoid positions, dropout, LayerNorm, cells."""

    def __init__(self, cell, num_layers, units, hidden_size, num_heads, max_length, dropout, **kwargs):
        super().__init__(**kwargs)
        self._units, self._max_length = units, max_length
        with self.name_scope():
            self.dropout_layer = nn.Dropout(dropout)
            self.layer_norm = nn.LayerNorm(in_channels=units, epsilon=1e-5)
            self.position_weight = self.params.get_constant('const', sinusoid_positions(max_length, units))
            self.transformer_cells = nn.HybridSequential()
            for i in range(num_layers):
                self.transformer_cells.add(cell(units, hidden_size, num_heads, dropout, prefix=f'transformer{i}_'))

    def _embed(self, F, x, position_weight):
        steps = F.contrib.arange_like(x, axis=1)
        pos = F.Embedding(steps, position_weight, input_dim=self._max_length, output_dim=self._units)
        x = F.broadcast_add(x * math.sqrt(self._units), F.expand_dims(pos, axis=0))
        return self.layer_norm(self.dropout_layer(x))


def _steps_mask(F, like, valid_length):
    """(batch, length) 0/1: position < valid_length; `like` is (batch, length, ...)."""
    steps = F.contrib.arange_like(like, axis=1)
    return F.broadcast_lesser(F.reshape(steps, shape=(1, -1)), F.reshape(valid_length, shape=(-1, 1)))


class TransformerEncoder(_Stack):
    def __init__(self, *args, **kwargs):
        super().__init__(_encoder_cell, *args, **kwargs)

    def hybrid_forward(self, F, x, valid_length=None, position_weight=None):
        mask = None
        if valid_length is not None:
            keys = _steps_mask(F, x, valid_length)  # (B, T)
            mask = F.broadcast_like(F.expand_dims(keys, axis=1), F.expand_dims(keys, axis=2),
                                    lhs_axes=(1,), rhs_axes=(1,))  # every query row sees the same keys
        x = self._embed(F, x, position_weight)
        for cell in self.transformer_cells:
            x = cell(x, mask)[0]
        if valid_length is not None:
            x = F.broadcast_mul(x, F.expand_dims(keys, axis=2))
        return x


class TransformerDecoder(_Stack):
    def __init__(self, *args, **kwargs):
        super().__init__(DecoderCell, *args, **kwargs)

    def hybrid_forward(self, F, x, mem, valid_length=None, mem_valid_length=None, position_weight=None):
        steps = F.contrib.arange_like(x, axis=1)
        causal = F.broadcast_lesser_equal(F.reshape(steps, shape=(1, -1)), F.reshape(steps, shape=(-1, 1)))
        mask = F.broadcast_like(F.expand_dims(causal, axis=0), x, lhs_axes=(0,), rhs_axes=(0,))  # (B, Tq, Tq)
        if valid_length is not None:
            rows = _steps_mask(F, x, valid_length)
            mask = F.broadcast_mul(mask, F.expand_dims(rows, axis=2))
        mem_mask = None
        if mem_valid_length is not None:
            keys = F.expand_dims(_steps_mask(F, mem, mem_valid_length), axis=1)  # (B, 1, Tm)
            mem_mask = F.broadcast_like(keys, x, lhs_axes=(1,), rhs_axes=(1,))
        x = self._embed(F, x, position_weight)
        for cell in self.transformer_cells:
            x = cell(x, mem, mask, mem_mask)
        if valid_length is not None:
            x = F.broadcast_mul(x, F.expand_dims(rows, axis=2))
        return x


# -- model --------------------------------------------------------------------------------------------------------
class NMTModel(HybridBlock):
    """Encoder-decoder with shared source/target embeddings and a tied output projection (GluonNLP NMTModel).

    Call with (src (batch, Ts), tgt (batch, Tt), src_valid_length=None, tgt_valid_length=None) -> scores
    (batch, Tt, vocab). `encode` and `decode_step` serve the decoders in gluonzoo.text.decoding.
    """

    def __init__(self, vocab_size, units=512, hidden_size=2048, num_layers=6, num_heads=8, dropout=0.1,
                 max_src_length=530, max_tgt_length=549, **kwargs):
        super().__init__(**kwargs)
        if units % num_heads:
            raise ValueError(f'units={units} must be divisible by num_heads={num_heads}')
        self.vocab_size = vocab_size
        with self.name_scope():
            self.encoder = TransformerEncoder(num_layers, units, hidden_size, num_heads, max_src_length, dropout,
                                              prefix='enc_')
            self.decoder = TransformerDecoder(num_layers, units, hidden_size, num_heads, max_tgt_length, dropout,
                                              prefix='dec_')
            self.one_step_ahead_decoder = self.decoder  # GluonNLP saves the shared decoder under both names
            self.src_embed = nn.HybridSequential(prefix='src_embed_')
            with self.src_embed.name_scope():
                self.src_embed.add(nn.Embedding(vocab_size, units), nn.Dropout(0.0))
            self.tgt_embed = self.src_embed
            self.tgt_proj = nn.Dense(vocab_size, flatten=False, params=self.tgt_embed[0].params, prefix='tgt_proj_')

    def __call__(self, src, tgt, *args, **kwargs):
        from .bert import _check_length
        _check_length(src, self.encoder._max_length)
        _check_length(tgt, self.decoder._max_length)
        return super().__call__(src, tgt, *args, **kwargs)

    def hybrid_forward(self, F, src, tgt, src_valid_length=None, tgt_valid_length=None):
        mem = self.encoder(self.src_embed(src), src_valid_length)
        return self.tgt_proj(self.decoder(self.tgt_embed(tgt), mem, tgt_valid_length, src_valid_length))

    def encode(self, src, src_valid_length=None):
        """Encoder memory (batch, Ts, units), zeros past src_valid_length."""
        return self.encoder(self.src_embed(src), src_valid_length)

    def decode_step(self, prefix, mem, src_valid_length=None):
        """Scores (batch, vocab) of the next token after each target prefix (batch, t)."""
        out = self.tgt_proj(self.decoder(self.tgt_embed(prefix), mem, None, src_valid_length))
        return out[:, -1, :]


# -- weights records ----------------------------------------------------------------------------------------------
# Trained by gluonzoo (scripts/text/nmt, its README has the numbers); 10 MB, so rebuilt by its recipe, not shipped.
# The SentencePiece model it reads and writes comes from the same data: gluonzoo.text.train.datasets.trans_de_en.
TRANSFORMER_DE_EN_128_DING = Weights(
    arch='transformer_de_en_128', tag='ding', default=True, task='translation',
    sha1='eeb6a059afec6eb19b6471224330cde2c4c41e4b', num_params=1175968,
    metrics={'bleu': 3.67, 'split': 'Ding de-en phrase pairs, test (981), greedy',
             'source': 'logs/transformer_de_en_128.ding.jsonl'},
    recipe=f'{ONE_THREAD} scripts/text/nmt/train.py --progress 0 --epochs 3 --out out/nmt '
           '--log out/transformer_de_en_128.ding.jsonl',
    log='logs/transformer_de_en_128.ding.jsonl', check={'log': {'bleu': 0.3}, 'rerun': {'bleu': 1.0}},
    config={'vocab_size': 4000, 'max_src_length': 17, 'max_tgt_length': 19},
    preprocess={'tokenizer': 'sentencepiece unigram 4000, trained on the training split', 'bos': '<s>', 'eos': '</s>'},
    source=Source(kind='recipe'), input_shape=(1, 17),
    license='GPL-2.0-or-later (the Ding dictionary, Debian trans-de-en)', paper='https://arxiv.org/abs/1706.03762')


# -- registered builders ------------------------------------------------------------------------------------------
def _nmt_inputs(batch=2, src_len=6, tgt_len=5, vocab=20):
    def make():
        mx.random.seed(0)
        src = mx.nd.random.randint(0, vocab, shape=(batch, src_len)).astype('float32')
        tgt = mx.nd.random.randint(0, vocab, shape=(batch, tgt_len)).astype('float32')
        return src, tgt, mx.nd.array([src_len, src_len - 2]), mx.nd.array([tgt_len, tgt_len - 1])
    return make


_REG = dict(task='translation', test_input=_nmt_inputs(),
            protected=('vocab_size', 'units', 'hidden_size', 'num_layers', 'num_heads', 'max_src_length',
                       'max_tgt_length'),
            test_kwargs=dict(vocab_size=20, units=16, hidden_size=32, num_layers=2, num_heads=4))


@register_model(weights=gluonnlp_records('transformer_en_de_512'), **_REG)
def transformer_en_de_512(vocab_size=36794, units=512, hidden_size=2048, num_layers=6, num_heads=8, dropout=0.1,
                          max_src_length=530, max_tgt_length=549):
    """Transformer-base for WMT En-De, shared BPE vocabulary (arXiv:1706.03762)."""
    return NMTModel(vocab_size, units, hidden_size, num_layers, num_heads, dropout, max_src_length, max_tgt_length)


@register_model(weights=[TRANSFORMER_DE_EN_128_DING], **_REG)
def transformer_de_en_128(vocab_size=4000, units=128, hidden_size=256, num_layers=2, num_heads=4, dropout=0.1,
                          max_src_length=17, max_tgt_length=19):
    """transformer_en_de_512's structure shrunk to 2 layers of 128 units, 4 heads: gluonzoo's German -> English
    phrase model (arXiv:1706.03762)."""
    return NMTModel(vocab_size, units, hidden_size, num_layers, num_heads, dropout, max_src_length, max_tgt_length)
