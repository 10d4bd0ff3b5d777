"""LSTM language models, parameter-compatible with GluonNLP 0.10.0's `StandardRNN` (Zaremba et al.,
arXiv:1409.2329), `AWDRNN` (Merity et al., arXiv:1708.02182) and `BigRNN` (LSTM with projection, Jozefowicz et al.,
arXiv:1602.02410).

Layout: model -> weights record -> registered builders. Inputs are time-major (length, batch) ids, as GluonNLP's; outputs are
(scores (length, batch, vocab), states), states as the gluon LSTM layers return them. The decoder shares the
embedding matrix when tie_weights=True (GluonNLP's files then hold it twice: embedding.0.weight, decoder.0.weight).

AWD-LSTM's regularisers act in training only, as GluonNLP's: DropConnect on the recurrent (h2h) weights
(`weight_drop`), word-level embedding dropout (`drop_e`: whole embedding rows), and dropout on the input, between
layers and on the output. GluonNLP swaps the Parameters for dropping ones; here the layers drop the weight arrays
they are handed, so names and files stay the same. Inference is unaffected.

An LSTM with projection (LSTMP) has no fused MXNet op on CPU and no ONNX op, and the loop ops that could run it
(foreach) have no ONNX converter: `Unrolled` nets unroll it over the input's length in the graph, traced again
whenever the length changes (an export is of one length).
"""
import mxnet as mx
from mxnet.gluon import HybridBlock, nn, rnn

from ...errors import BadInputError
from ...registry import register_model
from ...weights import ONE_THREAD, Source, Weights
from ._gluonnlp import gluonnlp_records


class WeightDropLSTM(rnn.LSTM):
    """A gluon LSTM layer whose h2h weights go through dropout (DropConnect) when training."""

    def __init__(self, *args, weight_drop=0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self._weight_drop = weight_drop

    def hybrid_forward(self, F, inputs, states, sequence_length=None, **kwargs):
        if self._weight_drop:  # F.Dropout is the identity outside autograd's training mode
            kwargs = {k: F.Dropout(v, p=self._weight_drop) if k.endswith('h2h_weight') else v
                      for k, v in kwargs.items()}
        return super().hybrid_forward(F, inputs, states, sequence_length, **kwargs)


class DropEmbedding(nn.Embedding):
    """Embedding whose rows (whole words) are dropped with probability `drop` when training."""

    def __init__(self, *args, drop=0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self._drop = drop

    def hybrid_forward(self, F, x, weight):
        if self._drop:
            weight = F.Dropout(weight, p=self._drop, axes=(1,))
        return super().hybrid_forward(F, x, weight)


class _LM(HybridBlock):
    """Embedding -> LSTM stack -> (tied) Dense decoder."""

    def _decoder(self, vocab_size, tie_weights):
        self.decoder = nn.HybridSequential()
        with self.decoder.name_scope():
            params = self.embedding[0].params if tie_weights else None
            if tie_weights and self._params._shared is not None:
                # built with params= another model's (an eval copy of a training model): sharing reaches one dict
                # deep, so the tied decoder's bias is looked up among those, under the embedding's prefix
                shared = mx.gluon.ParameterDict(params.prefix)
                shared.update(self._params._shared)
                params = shared
            self.decoder.add(nn.Dense(vocab_size, flatten=False, params=params))

    def _zeros(self, F, inputs, layer):
        if F is mx.nd:
            return layer.begin_state(batch_size=inputs.shape[1], ctx=inputs.context)
        return layer.begin_state(batch_size=0, func=F.zeros)  # symbolic: the batch size is inferred


def _check_mode(mode, cls):
    """GluonNLP's first argument, the cell type: its LSTM checkpoints are all there is to load."""
    if mode != 'lstm':
        raise ValueError(f"{cls}: mode={mode!r} is not built here, only mode='lstm' (GluonNLP's published language "
                         'models are all LSTMs)')


class StandardRNN(_LM):
    """GluonNLP's StandardRNN: one multi-layer LSTM with dropout between layers."""

    def __init__(self, mode, vocab_size, embed_size, hidden_size, num_layers, dropout=0.5, tie_weights=False,
                 **kwargs):
        super().__init__(**kwargs)
        _check_mode(mode, type(self).__name__)
        if tie_weights and embed_size != hidden_size:
            raise ValueError(f'tie_weights needs embed_size == hidden_size, got {embed_size} and {hidden_size}')
        self._dropout = dropout
        with self.name_scope():
            self.embedding = nn.HybridSequential()
            with self.embedding.name_scope():
                self.embedding.add(nn.Embedding(vocab_size, embed_size))
                if dropout:
                    self.embedding.add(nn.Dropout(dropout))
            self.encoder = rnn.LSTM(hidden_size, num_layers, dropout=dropout, input_size=embed_size)
            self._decoder(vocab_size, tie_weights)

    def begin_state(self, *args, **kwargs):
        return self.encoder.begin_state(*args, **kwargs)

    def hybrid_forward(self, F, inputs, begin_state=None):
        x = self.embedding(inputs)
        state = begin_state if begin_state else self._zeros(F, inputs, self.encoder)
        x, state = self.encoder(x, state)
        if self._dropout:
            x = F.Dropout(x, p=self._dropout, axes=(0,))
        return self.decoder(x), state


class AWDRNN(_LM):
    """GluonNLP's AWDRNN: single-layer LSTMs stacked, the last one projecting back to embed_size when tied."""

    def __init__(self, mode, vocab_size, embed_size, hidden_size, num_layers, tie_weights=True, dropout=0.4,
                 weight_drop=0.5, drop_h=0.2, drop_i=0.65, drop_e=0.1, **kwargs):
        super().__init__(**kwargs)
        _check_mode(mode, type(self).__name__)
        self._dropout, self._drop_h = dropout, drop_h
        with self.name_scope():
            self.embedding = nn.HybridSequential()
            with self.embedding.name_scope():
                self.embedding.add(DropEmbedding(vocab_size, embed_size, drop=drop_e))
                if drop_i:
                    self.embedding.add(nn.Dropout(drop_i, axes=(0,)))
            self.encoder = nn.HybridSequential()
            with self.encoder.name_scope():
                for i in range(num_layers):
                    last = i == num_layers - 1
                    self.encoder.add(WeightDropLSTM(embed_size if last and tie_weights else hidden_size, 1,
                                                    input_size=embed_size if i == 0 else hidden_size,
                                                    weight_drop=weight_drop))
            self._decoder(vocab_size, tie_weights)

    def begin_state(self, *args, **kwargs):
        return [layer.begin_state(*args, **kwargs) for layer in self.encoder]

    def hybrid_forward(self, F, inputs, begin_state=None):
        x = self.embedding(inputs)
        states = begin_state if begin_state else [self._zeros(F, inputs, layer) for layer in self.encoder]
        out_states = []
        for i, (layer, s) in enumerate(zip(self.encoder, states)):
            x, s = layer(x, s)
            out_states.append(s)
            if self._drop_h and i != len(self.encoder) - 1:
                x = F.Dropout(x, p=self._drop_h, axes=(0,))
        if self._dropout:
            x = F.Dropout(x, p=self._dropout, axes=(0,))
        return self.decoder(x), out_states


class LSTMPCell(HybridBlock):
    """One LSTMP step, GluonNLP's `LSTMPCellWithClip` (mxnet's contrib `LSTMPCell` when both clips are None): gates
    i, f, g, o from the input and the projected state r, cell c clipped to +-cell_clip, r = h2r(h) clipped to
    +-proj_clip. Call with (x, r, c); returns (output, r, c), the output being r."""

    def __init__(self, hidden_size, projection_size, input_size, cell_clip=None, proj_clip=None, **kwargs):
        super().__init__(**kwargs)
        self._hidden, self._proj, self._clips = hidden_size, projection_size, (cell_clip, proj_clip)
        with self.name_scope():
            self.i2h_weight = self.params.get('i2h_weight', shape=(4 * hidden_size, input_size))
            self.h2h_weight = self.params.get('h2h_weight', shape=(4 * hidden_size, projection_size))
            self.h2r_weight = self.params.get('h2r_weight', shape=(projection_size, hidden_size))
            self.i2h_bias = self.params.get('i2h_bias', shape=(4 * hidden_size,), init='zeros')
            self.h2h_bias = self.params.get('h2h_bias', shape=(4 * hidden_size,), init='zeros')

    def zeros(self, F, x):
        """Zero (r, c) for a batch like x (batch, ...)."""
        col = F.zeros_like(F.slice_axis(F.reshape(x, shape=(0, -1)), axis=1, begin=0, end=1))
        return F.broadcast_axis(col, axis=1, size=self._proj), F.broadcast_axis(col, axis=1, size=self._hidden)

    def begin_state(self, batch_size=0, func=mx.nd.zeros, **kwargs):
        """[r, c] made by `func` (GluonNLP's order and call)."""
        return [func(shape=(batch_size, self._proj), **kwargs), func(shape=(batch_size, self._hidden), **kwargs)]

    def reset(self):
        """Start numbering the steps again (see hybrid_forward)."""
        self._t = 0

    def hybrid_forward(self, F, x, r, c, i2h_weight, h2h_weight, h2r_weight, i2h_bias, h2h_bias):
        # each call opens a fresh name scope, so unnamed ops of step 2 would repeat the names of step 1: ONNX
        # resolves tensors by name, so every op is named by its step
        t = f't{self._t}_'
        self._t += 1
        r, c = lstmp_step(F, t, x, r, c, (i2h_weight, h2h_weight, h2r_weight, i2h_bias, h2h_bias), self._hidden,
                          self._proj, *self._clips)
        return r, r, c


def lstmp_step(F, t, x, r, c, weights, hidden, proj, cell_clip=None, proj_clip=None):
    """One LSTMP step on the weights (i2h, h2h, h2r, i2h_bias, h2h_bias): the new (r, c), ops named `t`+..."""
    i2h_weight, h2h_weight, h2r_weight, i2h_bias, h2h_bias = weights
    n = 4 * hidden
    i2h = F.FullyConnected(x, i2h_weight, i2h_bias, num_hidden=n, name=t + 'i2h')
    h2h = F.FullyConnected(r, h2h_weight, h2h_bias, num_hidden=n, name=t + 'h2h')
    gates = F.elemwise_add(i2h, h2h, name=t + 'gates')
    i, f, g, o = F.split(gates, num_outputs=4, axis=1, name=t + 'slice')
    c = F.elemwise_add(F.elemwise_mul(F.sigmoid(f, name=t + 'f'), c, name=t + 'keep'),
                       F.elemwise_mul(F.sigmoid(i, name=t + 'i'), F.tanh(g, name=t + 'g'), name=t + 'write'),
                       name=t + 'cell')
    if cell_clip is not None:
        c = F.clip(c, -cell_clip, cell_clip, name=t + 'cell_clip')
    h = F.elemwise_mul(F.sigmoid(o, name=t + 'o'), F.tanh(c, name=t + 'cell_tanh'), name=t + 'hidden')
    r = F.FullyConnected(h, h2r_weight, num_hidden=proj, no_bias=True, name=t + 'out')
    if proj_clip is not None:
        r = F.clip(r, -proj_clip, proj_clip, name=t + 'out_clip')
    return r, c


def unroll(F, cell, xs, state, dropout=0.0):
    """Run `cell` over the time-major steps `xs` (a list of (batch, C)) from state (r, c), with dropout on each
    output (training only); returns (outputs, (r, c))."""
    outs = []
    cell.reset()
    for x in xs:
        y, *state = cell(x, *state)
        outs.append(F.Dropout(y, p=dropout) if dropout else y)
    return outs, tuple(state)


def steps(F, x, n, axis=0):
    """The n slices of x along `axis`, that axis dropped (Slice + Squeeze in ONNX)."""
    return [F.squeeze(F.slice_axis(x, axis=axis, begin=t, end=t + 1), axis=axis) for t in range(n)]


class Unrolled(HybridBlock):
    """A net whose graph unrolls a recurrence over the length of its first input (axis `_time_axis`). Inside another
    hybridized block it keeps the length of its own last imperative call."""

    _time_axis = 0
    _steps = None

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, mx.nd.NDArray) and inputs.shape[self._time_axis] != self._steps:
            self._steps = inputs.shape[self._time_axis]
            self._clear_cached_op()  # the cached graph is of the previous length
        elif self._steps is None:
            raise BadInputError(f'{type(self).__name__} unrolls over the input length: call it once on an NDArray '
                                'of the length to trace before calling it on symbols')
        return super().__call__(inputs, *args, **kwargs)


class BigRNN(Unrolled):
    """GluonNLP's BigRNN: embedding -> `num_layers` LSTMP cells -> Dense decoder (untied). Call with time-major
    ids (length, batch) and optionally the flat state list [r0, c0, r1, c1, ...]; returns (scores, states)."""

    def __init__(self, vocab_size, embed_size, hidden_size, num_layers, projection_size, embed_dropout=0.0,
                 encode_dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self._dropout = encode_dropout
        # GluonNLP's prefixes: the parameters' names (not only their places in a file) are those of GluonNLP's BigRNN
        # and of the training BigRNN (text/models/train_lm.py), so name-keyed state (a Trainer's, a collect_params()
        # dict) carries between the two
        with self.name_scope():
            self.embedding = nn.HybridSequential(prefix='embedding0_')
            with self.embedding.name_scope():
                self.embedding.add(nn.Embedding(vocab_size, embed_size, prefix='embedding0_'))
                if embed_dropout:
                    self.embedding.add(nn.Dropout(embed_dropout))
            # GluonNLP's file has a dropout cell after each layer: its index
            self.encoder = nn.HybridSequential(prefix='hybridsequentialrnncell0_')
            with self.encoder.name_scope():
                for i in range(num_layers):
                    self.encoder.add(LSTMPCell(hidden_size, projection_size, embed_size if i == 0 else projection_size,
                                               prefix=f'lstmp{i}_'))
                    if encode_dropout:
                        self.encoder.add(nn.Dropout(encode_dropout))
            self.decoder = nn.Dense(vocab_size, flatten=False, in_units=projection_size, prefix='decoder0_')

    def begin_state(self, batch_size=0, func=mx.nd.zeros, **kwargs):
        """GluonNLP's flat [r0, c0, r1, c1, ...]."""
        return [s for b in self.encoder if isinstance(b, LSTMPCell) for s in b.begin_state(batch_size, func, **kwargs)]

    def hybrid_forward(self, F, inputs, begin_state=None):
        xs = steps(F, self.embedding(inputs), self._steps)
        cells = [b for b in self.encoder if isinstance(b, LSTMPCell)]
        states = []
        for i, cell in enumerate(cells):
            state = begin_state[2 * i:2 * i + 2] if begin_state else cell.zeros(F, xs[0])
            xs, state = unroll(F, cell, xs, state, self._dropout)
            states.extend(state)
        return self.decoder(F.stack(*xs, axis=0)), states


# -- weights records ----------------------------------------------------------------------------------------------
# Trained by gluonzoo (scripts/text/lm, its README has the numbers); 19 MB, so rebuilt by its recipe, not shipped.
# Its vocabulary (the 10,000 commonest training tokens + <unk>) comes from the data: gluonzoo.text.train.datasets.austen.
STANDARD_LSTM_LM_200_AUSTEN = Weights(
    arch='standard_lstm_lm_200', tag='austen', default=True, task='language-model',
    sha1='9f983a98d7969953b62aac31c515881b77fa82dd', num_params=2653602,
    metrics={'ppl': 87.51, 'split': "Jane Austen's novels, last 10% of each (88,441 tokens)",
             'source': 'logs/standard_lstm_lm_200.austen.jsonl'},
    recipe=f'{ONE_THREAD} scripts/text/lm/train.py --progress 0 --epochs 2 --out out/austen '
           '--log out/standard_lstm_lm_200.austen.jsonl',
    log='logs/standard_lstm_lm_200.austen.jsonl', check={'log': {'ppl': 0.05}, 'rerun': {'ppl': 2.0}},
    config={'vocab_size': 10002},
    preprocess={'tokenizer': 'lower-cased words and punctuation, <eos> per paragraph', 'vocab': 'austen top 10,000'},
    source=Source(kind='recipe'), input_shape=(35, 1),
    license='public domain (the novels, Debian r-cran-janeaustenr)', paper='https://arxiv.org/abs/1409.2329')


# -- registered builders ------------------------------------------------------------------------------------------
def _lm_inputs(length=5, batch=2, vocab=20):
    def make():
        import mxnet as mx
        mx.random.seed(0)
        return (mx.nd.random.randint(0, vocab, shape=(length, batch)).astype('float32'),)
    return make


_SHAPES = ('vocab_size', 'embed_size', 'hidden_size', 'num_layers', 'tie_weights')
_REG = dict(task='language-model', protected=_SHAPES, test_input=_lm_inputs())
_TINY_STD = dict(vocab_size=20, embed_size=8, hidden_size=8)
_TINY_AWD = dict(vocab_size=20, embed_size=8, hidden_size=12)
_TINY_BIG = dict(vocab_size=20, embed_size=8, hidden_size=12, projection_size=8)


@register_model(weights=[STANDARD_LSTM_LM_200_AUSTEN, *gluonnlp_records('standard_lstm_lm_200', default=False)],
                test_kwargs=_TINY_STD, **_REG)
def standard_lstm_lm_200(vocab_size=33278, embed_size=200, hidden_size=200, num_layers=2, dropout=0.2,
                         tie_weights=True):
    """2-layer LSTM LM, 200 units, tied (arXiv:1409.2329); vocab_size defaults to WikiText-2's."""
    return StandardRNN('lstm', vocab_size, embed_size, hidden_size, num_layers, dropout, tie_weights)


@register_model(weights=gluonnlp_records('standard_lstm_lm_650'), test_kwargs=_TINY_STD, **_REG)
def standard_lstm_lm_650(vocab_size=33278, embed_size=650, hidden_size=650, num_layers=2, dropout=0.5,
                         tie_weights=True):
    """2-layer LSTM LM, 650 units, tied (arXiv:1409.2329)."""
    return StandardRNN('lstm', vocab_size, embed_size, hidden_size, num_layers, dropout, tie_weights)


@register_model(weights=gluonnlp_records('standard_lstm_lm_1500'), test_kwargs=_TINY_STD, **_REG)
def standard_lstm_lm_1500(vocab_size=33278, embed_size=1500, hidden_size=1500, num_layers=2, dropout=0.65,
                          tie_weights=True):
    """2-layer LSTM LM, 1500 units, tied (arXiv:1409.2329)."""
    return StandardRNN('lstm', vocab_size, embed_size, hidden_size, num_layers, dropout, tie_weights)


@register_model(weights=gluonnlp_records('awd_lstm_lm_600'), test_kwargs=_TINY_AWD, **_REG)
def awd_lstm_lm_600(vocab_size=33278, embed_size=200, hidden_size=600, num_layers=3, tie_weights=True, dropout=0.2,
                    drop_h=0.1, drop_i=0.3, weight_drop=0.2, drop_e=0.05):
    """AWD-LSTM, 3 layers of 600 units, embedding 200 (arXiv:1708.02182)."""
    return AWDRNN('lstm', vocab_size, embed_size, hidden_size, num_layers, tie_weights, dropout, weight_drop, drop_h,
                  drop_i, drop_e)


@register_model(weights=gluonnlp_records('awd_lstm_lm_1150'), test_kwargs=_TINY_AWD, **_REG)
def awd_lstm_lm_1150(vocab_size=33278, embed_size=400, hidden_size=1150, num_layers=3, tie_weights=True,
                     dropout=0.4, drop_h=0.2, drop_i=0.65, weight_drop=0.5, drop_e=0.1):
    """AWD-LSTM, 3 layers of 1150 units, embedding 400 (arXiv:1708.02182)."""
    return AWDRNN('lstm', vocab_size, embed_size, hidden_size, num_layers, tie_weights, dropout, weight_drop, drop_h,
                  drop_i, drop_e)


@register_model(weights=gluonnlp_records('big_rnn_lm_2048_512'), task='language-model', test_kwargs=_TINY_BIG,
                test_input=_lm_inputs(), protected=_SHAPES[:-1] + ('projection_size',))
def big_rnn_lm_2048_512(vocab_size=793471, embed_size=512, hidden_size=2048, projection_size=512, num_layers=1,
                        embed_dropout=0.1, encode_dropout=0.1):
    """1-layer LSTMP LM, 2048 units projected to 512, on the One Billion Word vocabulary (arXiv:1602.02410)."""
    return BigRNN(vocab_size, embed_size, hidden_size, num_layers, projection_size, embed_dropout, encode_dropout)
