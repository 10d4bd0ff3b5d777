"""GluonNLP 0.10's `gluonnlp.model.train` language models: the training forms of AWDRNN and StandardRNN, the
neural cache (`CacheCell`, Grave et al., arXiv:1612.04426) and the training BigRNN with an importance-sampled
decoder (Jozefowicz et al., arXiv:1602.02410).

The training AWDRNN/StandardRNN are lstm_lm's models (the same blocks, parameter names and files, the inference
classes there) whose forward also returns the encoder outputs that AR/TAR regularisation needs:
`(scores, states, encoded_raw, encoded_dropped)`, lists per layer as GluonNLP's (StandardRNN: [last output], []).
GluonNLP's inference classes derive from these; here it is the other way round, so `CacheCell` runs the full
forward of either kind of model through `encode_all`.

>>> import mxnet as mx
>>> net = AWDRNN('lstm', vocab_size=20, embed_size=4, hidden_size=6, num_layers=2)
>>> net.initialize()
>>> scores, states, raw, dropped = net(mx.nd.zeros((5, 3)))
>>> scores.shape, [r.shape for r in raw], len(dropped)
((5, 3, 20), [(5, 3, 6), (5, 3, 4)], 2)
"""
import mxnet as mx
from mxnet import init
from mxnet.gluon import Block, HybridBlock, nn, rnn
from mxnet.gluon.contrib.rnn import LSTMPCell

from ...errors import BadInputError
from . import lstm_lm
from .sampled_block import ISDense, SparseISDense

__all__ = ['AWDRNN', 'StandardRNN', 'BigRNN', 'CacheCell', 'get_cache_model', 'encode_all']


def _awd_forward(model, F, inputs, begin_state):
    x = model.embedding(inputs)
    states = begin_state if begin_state else [model._zeros(F, inputs, layer) for layer in model.encoder]
    out_states, raw, dropped = [], [], []
    for i, (layer, s) in enumerate(zip(model.encoder, states)):
        x, s = layer(x, s)
        raw.append(x)
        out_states.append(s)
        if model._drop_h and i != len(model.encoder) - 1:
            x = F.Dropout(x, p=model._drop_h, axes=(0,))
            dropped.append(x)
    if model._dropout:
        x = F.Dropout(x, p=model._dropout, axes=(0,))
    dropped.append(x)
    with mx.autograd.predict_mode():  # GluonNLP decodes in predict mode (the tied weight is never dropped)
        out = model.decoder(x)
    return out, out_states, raw, dropped


def _standard_forward(model, F, inputs, begin_state):
    x = model.embedding(inputs)
    state = begin_state if begin_state else model._zeros(F, inputs, model.encoder)
    x, state = model.encoder(x, state)
    raw = [x]
    if model._dropout:
        x = F.Dropout(x, p=model._dropout, axes=(0,))
    return model.decoder(x), state, raw, []  # GluonNLP's StandardRNN keeps no dropped outputs


def encode_all(model, F, inputs, begin_state=None):
    """(scores, states, encoded_raw, encoded_dropped) of an AWDRNN or StandardRNN, training or inference class."""
    if isinstance(model, lstm_lm.AWDRNN):
        return _awd_forward(model, F, inputs, begin_state)
    if isinstance(model, lstm_lm.StandardRNN):
        return _standard_forward(model, F, inputs, begin_state)
    raise BadInputError(f'the cache model runs an AWDRNN or StandardRNN, got {type(model).__name__}')


class AWDRNN(lstm_lm.AWDRNN):
    """GluonNLP's training AWDRNN (`gluonnlp.model.train.AWDRNN`): `net(inputs (T, N), begin_state=None)` ->
    (scores (T, N, vocab), states, encoded_raw, encoded_dropped)."""

    def __init__(self, mode, vocab_size, embed_size=400, hidden_size=1150, num_layers=3, tie_weights=True,
                 dropout=0.4, weight_drop=0.5, drop_h=0.2, drop_i=0.65, drop_e=0.1, **kwargs):
        super().__init__(mode, vocab_size, embed_size, hidden_size, num_layers, tie_weights, dropout, weight_drop,
                         drop_h, drop_i, drop_e, **kwargs)
        self.embedding[0].weight.init = init.Uniform(0.1)  # GluonNLP's initializer of the embedding

    def state_info(self, *args, **kwargs):
        return [layer.state_info(*args, **kwargs) for layer in self.encoder]

    def hybrid_forward(self, F, inputs, begin_state=None):
        return _awd_forward(self, F, inputs, begin_state)


class StandardRNN(lstm_lm.StandardRNN):
    """GluonNLP's training StandardRNN: `net(inputs (T, N), begin_state=None)` -> (scores, states,
    [encoder output], [])."""

    def __init__(self, mode, vocab_size, embed_size, hidden_size, num_layers, dropout=0.5, tie_weights=False,
                 **kwargs):
        super().__init__(mode, vocab_size, embed_size, hidden_size, num_layers, dropout, tie_weights, **kwargs)
        self.embedding[0].weight.init = init.Uniform(0.1)

    def state_info(self, *args, **kwargs):
        return self.encoder.state_info(*args, **kwargs)

    def hybrid_forward(self, F, inputs, begin_state=None):
        return _standard_forward(self, F, inputs, begin_state)


# -- the neural cache ---------------------------------------------------------------------------------------------
class CacheCell(HybridBlock):
    """GluonNLP's CacheCell: a language model's next-word probabilities mixed with a cache over the last `window`
    hidden states, p = (1 - lambdas) p_vocab + lambdas p_cache, p_cache(w) from softmax(theta h_t . h_i) over the
    steps i whose next word was w (used once more than `window` steps are in the history).

    `cell(inputs (T, 1), target (T, 1), next_word_history, cache_history, begin_state=None)` -> (the probability of
    each target (T,), next_word_history (<= window, vocab_size) one-hot, cache_history (<= window, hidden),
    states); start with both histories None. Batch size 1, as GluonNLP's (its loop reads one column)."""

    def __init__(self, lm_model, vocab_size, window, theta, lambdas, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(lm_model, (lstm_lm.AWDRNN, lstm_lm.StandardRNN)):
            raise BadInputError(f'CacheCell wraps an AWDRNN or StandardRNN, got {type(lm_model).__name__}')
        self._vocab_size, self._window, self._theta, self._lambdas = vocab_size, window, theta, lambdas
        with self.name_scope():
            self.lm_model = lm_model

    def save_parameters(self, filename, deduplicate=False):
        """The language model's parameters (the cache has none), so the file is the model's."""
        self.lm_model.save_parameters(filename, deduplicate=deduplicate)

    def load_parameters(self, filename, ctx=mx.cpu()):  # pylint: disable=arguments-differ
        self.lm_model.load_parameters(filename, ctx=ctx)

    def begin_state(self, *args, **kwargs):
        return self.lm_model.begin_state(*args, **kwargs)

    def __call__(self, inputs, target, next_word_history, cache_history, begin_state=None):
        # pylint: disable=arguments-differ
        return super().__call__(inputs, target, next_word_history, cache_history, begin_state)

    def hybrid_forward(self, F, inputs, target, next_word_history, cache_history, begin_state=None):
        # pylint: disable=arguments-differ
        if F is not mx.nd:
            raise BadInputError('CacheCell runs imperatively only (its history grows step by step): do not '
                                'hybridize it')
        if inputs.ndim != 2 or inputs.shape[1] != 1 or target.shape[:1] != inputs.shape[:1]:
            raise BadInputError(f'CacheCell takes inputs and target of shape (length, 1), got {inputs.shape} '
                                f'and {target.shape}')
        scores, states, raw, _ = encode_all(self.lm_model, F, inputs, begin_state)
        hidden = raw[-1].reshape((-3, -2))  # (T, H)
        probs = F.softmax(scores.reshape((-1, self._vocab_size)))
        labels = target.reshape((-1,))
        start = 0 if next_word_history is None else next_word_history.shape[0]
        words = F.one_hot(labels, self._vocab_size)
        if next_word_history is not None:
            words = F.concat(next_word_history, words, dim=0)
        cache = hidden if cache_history is None else F.concat(cache_history, hidden, dim=0)
        picked = []
        for t in range(probs.shape[0]):
            p, pos = probs[t], start + t
            if pos > self._window:
                lo = pos - self._window
                attention = F.softmax(self._theta * F.dot(cache[lo:pos], hidden[t]))
                p = self._lambdas * F.dot(attention, words[lo:pos]) + (1 - self._lambdas) * p
            picked.append(F.take(p, labels[t:t + 1]))
        return F.concat(*picked, dim=0), words[-self._window:], cache[-self._window:], states


def get_cache_model(name, dataset_name='wikitext-2', window=2000, theta=0.6, lambdas=0.2, ctx=mx.cpu(), **kwargs):
    """GluonNLP's get_cache_model: the pretrained language model `name` (gluonnlp.model.get_model's, with
    dataset_name and **kwargs) wrapped in a CacheCell over its vocabulary."""
    from ..gluonnlp_api import get_model
    lm_model, vocab = get_model(name, dataset_name=dataset_name, pretrained=True, ctx=ctx, **kwargs)
    return CacheCell(lm_model, len(vocab), window, theta, lambdas)


# -- the training BigRNN ------------------------------------------------------------------------------------------
class BigRNN(Block):
    """GluonNLP's training BigRNN: embedding -> LSTMP cells (MXNet's contrib LSTMPCell, dropout cells between) ->
    importance-sampled decoder. `net(inputs (T, N), label (T, N), begin_state, sampled_values)` -> (scores (T, N,
    1 + num_sampled), states, new_target (T, N)); sampled_values as a candidate sampler gives them (sampled ids,
    their expected counts, the labels' expected counts). Its parameters are the inference BigRNN's (one file
    loads into both); with sparse_weight the embedding and decoder weights are row_sparse (then no hybridizing)."""

    def __init__(self, vocab_size, embed_size, hidden_size, num_layers, projection_size, num_sampled,
                 embed_dropout=0.0, encode_dropout=0.0, sparse_weight=True, sparse_grad=True, **kwargs):
        super().__init__(**kwargs)
        if sparse_weight and not sparse_grad:
            raise BadInputError('BigRNN: sparse_weight=True needs sparse_grad=True (a row_sparse weight has a '
                                'row_sparse gradient)')
        self._vocab_size, self._embed_size, self._hidden_size = vocab_size, embed_size, hidden_size
        self._num_layers, self._projection_size, self._num_sampled = num_layers, projection_size, num_sampled
        self._embed_dropout, self._encode_dropout = embed_dropout, encode_dropout
        self._sparse_weight, self._sparse_grad = sparse_weight, sparse_grad
        with self.name_scope():
            self.embedding = (nn.Sequential if sparse_weight else nn.HybridSequential)(prefix='embedding0_')
            with self.embedding.name_scope():
                if sparse_weight:
                    self.embedding.add(mx.gluon.contrib.nn.SparseEmbedding(vocab_size, embed_size,
                                                                           prefix='embedding0_'))
                else:
                    self.embedding.add(nn.Embedding(vocab_size, embed_size, prefix='embedding0_',
                                                    sparse_grad=sparse_grad))
                if embed_dropout:
                    self.embedding.add(nn.Dropout(embed_dropout))
            self.encoder = rnn.HybridSequentialRNNCell()
            with self.encoder.name_scope():
                for _ in range(num_layers):
                    self.encoder.add(LSTMPCell(hidden_size, projection_size))
                    if encode_dropout:
                        self.encoder.add(rnn.DropoutCell(encode_dropout))
            self.decoder = (SparseISDense(vocab_size, num_sampled, projection_size, prefix='decoder0_') if sparse_weight
                            else ISDense(vocab_size, num_sampled, projection_size, sparse_grad=sparse_grad,
                                         prefix='decoder0_'))

    def begin_state(self, **kwargs):
        return self.encoder.begin_state(**kwargs)

    def forward(self, inputs, label, begin_state, sampled_values):  # pylint: disable=arguments-differ
        if inputs.ndim != 2 or label.shape != inputs.shape:
            raise BadInputError(f'BigRNN takes inputs and label of shape (length, batch), got {inputs.shape} and '
                                f'{label.shape}')
        length, batch = inputs.shape
        x = self.embedding(inputs)
        x, states = self.encoder.unroll(length, x, begin_state, layout='TNC', merge_outputs=True)
        scores, target = self.decoder(x, sampled_values, label)
        return scores.reshape((length, batch, -1)), states, target.reshape((length, batch))
