"""ELMo's bidirectional language model, parameter-compatible with GluonNLP 0.10.0's `ELMoBiLM` (Peters et al.,
arXiv:1802.05365).

Layout: blocks -> model -> registered builders. A token is its characters' ids (batch, length, max_chars_per_token),
GluonNLP's `ELMoCharVocab` ids (262 of them); a character CNN with max-pooling over each token, highway layers and a
projection make a context-free token vector, and two stacks of LSTMP layers (cells and projections clipped, a
residual connection from layer 2 on) read it forwards and backwards. Children carry GluonNLP's attribute names
(`_elmo_char_encoder._convolutions._convs.0.0.weight`, `_elmo_lstm.forward_layers.1.0.base_cell.i2h_weight`), so
its files load strictly. GluonNLP runs the LSTMs with `contrib.foreach`, which has no ONNX converter: here they are
unrolled over the input length (see lstm_lm.Unrolled).
"""
import mxnet as mx
from mxnet.gluon import HybridBlock, nn

from ...errors import BadInputError
from ...registry import register_model
from ..layers import HighwayBias
from ._gluonnlp import gluonnlp_records
from .lstm_lm import LSTMPCell, Unrolled, steps, unroll

#: (width, count) of the character convolutions: 2048 filters, the "2048cnn" of the names
_FILTERS = ((1, 32), (2, 32), (3, 64), (4, 128), (5, 256), (6, 512), (7, 1024))


# -- blocks -------------------------------------------------------------------------------------------------------
class Highway(HybridBlock):
    """`num_layers` highway layers: x <- (1 - t) * x + t * activation(h), with [h, t] = Dense(x), t through a
    sigmoid; GluonNLP's signature, its gate bias -2 by default (ELMo's character encoder opens it at 1.0)."""

    def __init__(self, input_size, num_layers, activation='relu', highway_bias=None, **kwargs):
        super().__init__(**kwargs)
        self._activation = activation
        bias = highway_bias if highway_bias is not None else HighwayBias(0.0, -2.0)
        with self.name_scope():
            self.hnet = nn.HybridSequential()
            with self.hnet.name_scope():
                for _ in range(num_layers):
                    self.hnet.add(nn.Dense(2 * input_size, in_units=input_size, flatten=False,
                                           bias_initializer=bias))

    def hybrid_forward(self, F, x):
        for layer in self.hnet:
            h, t = F.split(layer(x), num_outputs=2, axis=-1)
            t = F.sigmoid(t)
            x = (1 - t) * x + t * F.Activation(h, act_type=self._activation)
        return x


class _Conv1D(HybridBlock):
    """Conv1D's parameters (weight (channels, in, width), bias) run as a 2-D convolution of height 1: MXNet's ONNX
    converter takes NCHW convolutions only."""

    def __init__(self, channels, width, in_channels, **kwargs):
        super().__init__(**kwargs)
        self._kernel, self._channels = (1, width), channels
        with self.name_scope():
            self.weight = self.params.get('weight', shape=(channels, in_channels, width))
            self.bias = self.params.get('bias', shape=(channels,), init='zeros')

    def hybrid_forward(self, F, x, weight, bias):
        return F.Convolution(F.reshape(x, shape=(0, 0, 1, -1)), F.reshape(weight, shape=(0, 0, 1, -1)), bias,
                             kernel=self._kernel, num_filter=self._channels)


class ConvolutionalEncoder(HybridBlock):
    """GluonNLP's ConvolutionalEncoder (Kim et al., arXiv:1508.06615), its signature and defaults (the paper's
    Char-small): one Conv1D per (filters, width) pair, max over time, `conv_layer_activation`, concatenated; then
    `num_highway` highway layers and a projection to `output_size` (none when it is None).
    `encoder(inputs (T, N, embed_size)[, mask (T, N)])` -> (N, output_size)."""

    def __init__(self, embed_size=15, num_filters=(25, 50, 75, 100, 125, 150), ngram_filter_sizes=(1, 2, 3, 4, 5, 6),
                 conv_layer_activation='tanh', num_highway=1, highway_layer_activation='relu',
                 highway_bias=HighwayBias(nonlinear_transform_bias=0.0, transform_gate_bias=-2.0), output_size=None,
                 **kwargs):
        super().__init__(**kwargs)
        if len(num_filters) != len(ngram_filter_sizes):
            raise BadInputError(f'ConvolutionalEncoder: {len(num_filters)} num_filters for '
                                f'{len(ngram_filter_sizes)} ngram_filter_sizes: give one count per width')
        self._act = conv_layer_activation
        total = sum(num_filters)
        with self.name_scope():
            self._convs = nn.HybridSequential()
            with self._convs.name_scope():
                for n, width in zip(num_filters, ngram_filter_sizes):
                    branch = nn.HybridSequential()  # GluonNLP's branch holds the conv, a max and the activation
                    branch.add(_Conv1D(n, width, embed_size))
                    self._convs.add(branch)
            self._highways = (Highway(total, num_highway, activation=highway_layer_activation,
                                      highway_bias=highway_bias) if num_highway else None)
            self._projection = nn.Dense(output_size, in_units=total) if output_size else None
        self._output_size = output_size or total

    def hybrid_forward(self, F, inputs, mask=None):  # pylint: disable=arguments-differ
        if mask is not None:
            inputs = F.broadcast_mul(inputs, F.expand_dims(mask, axis=-1))
        x = F.transpose(inputs, axes=(1, 2, 0))  # (N, embed, T): the convolutions run along time
        pooled = [F.max(branch(x), axis=(2, 3)) for branch in self._convs]
        if self._act is not None:
            pooled = [F.Activation(p, act_type=self._act) for p in pooled]
        x = F.concat(*pooled, dim=1) if len(pooled) > 1 else pooled[0]
        if self._highways is not None:
            x = self._highways(x)
        return self._projection(x) if self._projection is not None else x


class ELMoCharacterEncoder(HybridBlock):
    """Character ids (batch * length, chars) -> token vectors (batch * length, output_size)."""

    def __init__(self, output_size, filters, char_embed_size, num_highway, conv_layer_activation,
                 max_chars_per_token, char_vocab_size, **kwargs):
        super().__init__(**kwargs)
        self._chars = max_chars_per_token
        with self.name_scope():
            self._char_embedding = nn.Embedding(char_vocab_size, char_embed_size)
            self._convolutions = ConvolutionalEncoder(
                char_embed_size, [n for _, n in filters], [w for w, _ in filters], conv_layer_activation,
                num_highway, highway_bias=HighwayBias(0.0, 1.0), output_size=output_size)

    def hybrid_forward(self, F, chars):
        x = self._char_embedding(F.reshape(chars, shape=(-1, self._chars)))
        return self._convolutions(F.transpose(x, axes=(1, 0, 2)))  # (chars, tokens, embed): time first


class _Residual(HybridBlock):
    """A cell whose output adds its input (gluon's ResidualCell, child named `base_cell` as in GluonNLP's files)."""

    def __init__(self, cell, **kwargs):
        super().__init__(**kwargs)
        self.base_cell = cell

    def zeros(self, F, x):
        return self.base_cell.zeros(F, x)

    def begin_state(self, *args, **kwargs):
        return self.base_cell.begin_state(*args, **kwargs)

    def reset(self):
        self.base_cell.reset()
        self._t = 0

    def hybrid_forward(self, F, x, r, c):
        y, r, c = self.base_cell(x, r, c)
        self._t += 1  # named by step, as LSTMPCell's ops
        return F.elemwise_add(y, x, name=f't{self._t - 1}_residual'), r, c


class BiLMEncoder(HybridBlock):
    """Forward and backward stacks of LSTMP layers; layer 2 on adds its input to its output. GluonNLP's layers are
    containers holding one cell: here too (`forward_layers.0.0`), so the names match."""

    def __init__(self, num_layers, input_size, hidden_size, proj_size, cell_clip, proj_clip, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            for direction in ('forward_layers', 'backward_layers'):
                stack = nn.HybridSequential()
                with stack.name_scope():
                    for i in range(num_layers):
                        layer = nn.HybridSequential()
                        with layer.name_scope():
                            cell = LSTMPCell(hidden_size, proj_size, input_size if i == 0 else proj_size, cell_clip,
                                             proj_clip)
                            layer.add(_Residual(cell) if i else cell)
                        stack.add(layer)
                setattr(self, direction, stack)

    def run(self, F, xs, states, lengths):
        """xs: the time-major steps (a list of (batch, C)); states: [forward, backward], a list of (r, c) per layer
        or None; lengths: (batch,) valid lengths or None. Returns (per layer (T, batch, 2 * proj), states)."""
        n = len(xs)
        outs, new = [], [[], []]
        fwd, bwd = xs, xs
        for i, (f_layer, b_layer) in enumerate(zip(self.forward_layers, self.backward_layers)):
            f_cell, b_cell = f_layer[0], b_layer[0]
            f_state = states[0][i] if states else f_cell.zeros(F, xs[0])
            b_state = states[1][i] if states else b_cell.zeros(F, xs[0])
            fwd, f_state = unroll(F, f_cell, fwd, f_state)
            # backwards over each sequence's own valid steps: reverse, run, reverse back
            rev = steps(F, _reverse(F, F.stack(*bwd, axis=0), lengths), n)
            rev, b_state = unroll(F, b_cell, rev, b_state)
            bwd = steps(F, _reverse(F, F.stack(*rev, axis=0), lengths), n)
            new[0].append(list(f_state))
            new[1].append(list(b_state))
            outs.append(F.concat(F.stack(*fwd, axis=0), F.stack(*bwd, axis=0), dim=-1))
        return outs, new


def _reverse(F, x, lengths):
    if lengths is None:
        return F.SequenceReverse(x, axis=0)
    return F.SequenceReverse(x, lengths, use_sequence_length=True, axis=0)


# -- model --------------------------------------------------------------------------------------------------------
class ELMoBiLM(Unrolled):
    """ELMo's biLM. Call with character ids (batch, length, max_chars_per_token), optionally `states` (GluonNLP's
    [forward, backward], each a [r, c] per layer; zeros when None) and `mask` (batch, length). Returns GluonNLP's
    (outputs, states): outputs[0] the token vectors twice, concatenated (masked), then one (batch, length,
    2 * proj_size) per LSTM layer, forward and backward halves."""

    _time_axis = 1

    def __init__(self, rnn_type='lstmpc', output_size=128, filters=_FILTERS, char_embed_size=16,
                 char_vocab_size=262, num_highway=1, conv_layer_activation='relu', max_chars_per_token=50,
                 input_size=128, hidden_size=1024, proj_size=128, num_layers=2, cell_clip=3, proj_clip=3,
                 skip_connection=True, **kwargs):
        super().__init__(**kwargs)
        if rnn_type != 'lstmpc' or not skip_connection:
            raise ValueError("ELMoBiLM runs rnn_type='lstmpc' with skip_connection=True only, as GluonNLP's")
        self._output_size = output_size
        with self.name_scope():
            self._elmo_char_encoder = ELMoCharacterEncoder(output_size, filters, char_embed_size, num_highway,
                                                           conv_layer_activation, max_chars_per_token,
                                                           char_vocab_size)
            self._elmo_lstm = BiLMEncoder(num_layers, input_size, hidden_size, proj_size, cell_clip, proj_clip)

    def __call__(self, inputs, *args, **kwargs):
        chars = self._elmo_char_encoder._chars
        if isinstance(inputs, mx.nd.NDArray) and (inputs.ndim != 3 or inputs.shape[2] != chars):
            raise BadInputError(f'ELMo takes character ids of shape (batch, length, {chars}), got {inputs.shape}: '
                                f'encode each token as GluonNLP\'s ELMoCharVocab does, padded to {chars} characters')
        return super().__call__(inputs, *args, **kwargs)

    def begin_state(self, func=mx.nd.zeros, batch_size=0, **kwargs):
        """GluonNLP's [forward, backward] states, each an [r, c] per layer, made by `func`."""
        lstm = self._elmo_lstm
        return [[layer[0].begin_state(batch_size, func, **kwargs) for layer in stack]
                for stack in (lstm.forward_layers, lstm.backward_layers)]

    def hybrid_forward(self, F, inputs, states=None, mask=None):
        tokens = F.reshape(self._elmo_char_encoder(inputs), shape=(-1, self._steps, self._output_size))
        lengths = None if mask is None else F.sum(mask, axis=1)
        layers, states = self._elmo_lstm.run(F, steps(F, tokens, self._steps, axis=1), states, lengths)
        first = F.concat(tokens, tokens, dim=-1)
        if mask is not None:
            first = F.broadcast_mul(first, F.expand_dims(mask, axis=-1))
        return [first] + [F.transpose(x, axes=(1, 0, 2)) for x in layers], states


# -- registered builders ------------------------------------------------------------------------------------------
def _char_inputs(batch=2, length=4, chars=8, vocab=262):
    def make():
        mx.random.seed(0)
        return (mx.nd.random.randint(0, vocab, shape=(batch, length, chars)).astype('float32'),)
    return make


_SHAPES = ('output_size', 'filters', 'char_embed_size', 'char_vocab_size', 'num_highway', 'input_size',
           'hidden_size', 'proj_size', 'num_layers')
_TINY = dict(output_size=8, filters=((1, 4), (2, 4), (3, 8)), char_embed_size=4, max_chars_per_token=8,
             input_size=8, hidden_size=12, proj_size=8)
_REG = dict(task='text-embedding', protected=_SHAPES, test_kwargs=_TINY, test_input=_char_inputs())


@register_model(weights=gluonnlp_records('elmo_2x1024_128_2048cnn_1xhighway'), **_REG)
def elmo_2x1024_128_2048cnn_1xhighway(rnn_type='lstmpc', output_size=128, filters=_FILTERS, char_embed_size=16,
                                      char_vocab_size=262, num_highway=1, conv_layer_activation='relu',
                                      max_chars_per_token=50, input_size=128, hidden_size=1024, proj_size=128,
                                      num_layers=2, cell_clip=3, proj_clip=3, skip_connection=True):
    """ELMo, 2 biLSTM layers of 1024 units projected to 128, 1 highway layer (arXiv:1802.05365)."""
    return ELMoBiLM(**locals())


@register_model(weights=gluonnlp_records('elmo_2x2048_256_2048cnn_1xhighway'), **_REG)
def elmo_2x2048_256_2048cnn_1xhighway(rnn_type='lstmpc', output_size=256, filters=_FILTERS, char_embed_size=16,
                                      char_vocab_size=262, num_highway=1, conv_layer_activation='relu',
                                      max_chars_per_token=50, input_size=256, hidden_size=2048, proj_size=256,
                                      num_layers=2, cell_clip=3, proj_clip=3, skip_connection=True):
    """ELMo, 2 biLSTM layers of 2048 units projected to 256, 1 highway layer (arXiv:1802.05365)."""
    return ELMoBiLM(**locals())


@register_model(weights=gluonnlp_records('elmo_2x4096_512_2048cnn_2xhighway'), **_REG)
def elmo_2x4096_512_2048cnn_2xhighway(rnn_type='lstmpc', output_size=512, filters=_FILTERS, char_embed_size=16,
                                      char_vocab_size=262, num_highway=2, conv_layer_activation='relu',
                                      max_chars_per_token=50, input_size=512, hidden_size=4096, proj_size=512,
                                      num_layers=2, cell_clip=3, proj_clip=3, skip_connection=True):
    """ELMo ("original"), 2 biLSTM layers of 4096 units projected to 512, 2 highway layers (arXiv:1802.05365)."""
    return ELMoBiLM(**locals())
