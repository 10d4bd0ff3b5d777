"""GluonNLP's batched samplers over a stateful decoder (`gluonnlp.model.BeamSearchScorer`, `BeamSearchSampler`,
`SequenceSampler`): `decoder(step_input (B*beam,), states) -> (log_probs (B*beam, V), new_states)`, states any
nesting of lists, tuples and dicts of NDArrays with the batch on axis 0 (or where the decoder's
`state_info(batch_size)` layout puts 'N').

`sampler(inputs (B,), states) -> (samples (B, beam, T), scores (B, beam), valid_length (B, beam))`, beams best first;
samples start with the input token, finished beams are padded with -1, and a beam still alive after `max_length`
steps ends with `eos_id`. For one prefix and a `step_fn`, gluonzoo.text.decoding's beam_search is simpler.
"""
import mxnet as mx
from mxnet.gluon import HybridBlock

from ..errors import BadInputError

__all__ = ['BeamSearchSampler', 'BeamSearchScorer', 'HybridBeamSearchSampler', 'SequenceSampler']

#: the score of a beam that must not be chosen (GluonNLP's LARGE_NEGATIVE_FLOAT)
NEVER = -1e18


class BeamSearchScorer(HybridBlock):
    """GNMT's length-normalized score of each candidate: (log_probs + score * lp(step - 1)) / lp(step), with
    lp(n) = ((K + n) / (K + 1)) ** alpha (lp(0) taken as 1). `from_logits=False` applies log_softmax first."""

    def __init__(self, alpha=1.0, K=5.0, from_logits=True, **kwargs):
        super().__init__(**kwargs)
        self._alpha, self._K, self._from_logits = alpha, K, from_logits

    def __call__(self, outputs, scores, step):  # pylint: disable=arguments-differ
        return super().__call__(outputs, scores, step)

    def hybrid_forward(self, F, outputs, scores, step):
        if not self._from_logits:
            outputs = F.log_softmax(outputs)
        penalty = (self._K + step) ** self._alpha / (self._K + 1) ** self._alpha
        before = (self._K + step - 1) ** self._alpha / (self._K + 1) ** self._alpha
        before = before * (step != 1) + (step == 1)
        total = F.broadcast_add(outputs, F.expand_dims(F.broadcast_mul(scores, before), axis=-1))
        return F.broadcast_div(total, penalty)


def _map_states(fn, states, info=None):
    """fn(array, batch_axis) over every NDArray of a nested structure; `info` is the decoder's state_info of the same
    nesting (a dict with '__layout__' at the leaves), or None (batch axis 0)."""
    if isinstance(states, (list, tuple)):
        infos = info if info else [None] * len(states)
        return type(states)(_map_states(fn, s, i) for s, i in zip(states, infos))
    if isinstance(states, dict):
        return {k: _map_states(fn, v, (info or {}).get(k)) for k, v in states.items()}
    if states is None:
        return None
    if not isinstance(states, (mx.nd.NDArray, mx.sym.Symbol)):
        raise BadInputError(f'decoder states must be NDArrays in lists, tuples or dicts, not {type(states).__name__}')
    return fn(states, info['__layout__'].find('N') if info else 0)


def _tile(states, beam_size, batch_size, info=None, F=mx.nd):
    """Each batch row repeated beam_size times, beam rows adjacent (row b * beam + k is beam k of sentence b)."""
    def tile(a, axis):
        if isinstance(a, mx.nd.NDArray) and a.shape[axis] != batch_size:
            raise BadInputError(f'every decoder state must have the batch ({batch_size}) on axis {axis}, got shape '
                                f'{a.shape}')
        return F.repeat(a, repeats=beam_size, axis=axis)
    return _map_states(tile, states, info)


def _state_info(decoder, batch_size):
    return decoder.state_info(batch_size) if hasattr(decoder, 'state_info') else None


def _check(beam_size, eos_id):
    if beam_size < 1:
        raise BadInputError(f'beam_size must be at least 1, got {beam_size}')
    if eos_id < 0:
        raise BadInputError(f'eos_id must be a token id (>= 0), got {eos_id}')


def _finish(samples, scores, valid_length, alive, eos_id, F=mx.nd):
    """After max_length steps: beams still alive end with eos_id, the others with -1."""
    last = F.where(alive, F.ones_like(alive) * eos_id, -F.ones_like(alive))
    return F.concat(samples, last.expand_dims(2), dim=2), scores, valid_length + alive


def _beam_search(F, decoder, scorer, inputs, states, B, K, eos_id, max_length, V=None):
    """The beam search of B sentences with K beams for up to max_length steps, in F (mx.nd or mx.sym). With V
    (the vocabulary size) known the steps form one static graph and run to max_length (finished beams carried on,
    padded with -1); imperatively (V None) they stop once every beam has finished."""
    info = _state_info(decoder, B)
    states = _tile(states, K, B, info, F)
    step_input = F.repeat(inputs, repeats=K, axis=0).astype('int32')
    samples = step_input.reshape((B, K, 1))
    alive = F.ones((B, K), dtype='int32')
    valid_length = F.ones((B, K), dtype='int32')
    scores = F.zeros((B, K))
    if K > 1:  # one start: the first step chooses among beam 0's extensions only
        scores = F.concat(F.zeros((B, 1)), F.ones((B, K - 1)) * NEVER, dim=1)
    offsets = F.arange(0, B * K, K, dtype='int32').reshape((-1, 1))  # row of beam 0 of each sentence
    for step in range(1, max_length + 1):
        log_probs, states = decoder(step_input, states)
        vocab = V or log_probs.shape[1]
        live = alive.expand_dims(2).astype('float32')
        candidates = scorer(log_probs.reshape((B, K, vocab)), scores, F.ones((1,)) * step)
        candidates = F.broadcast_mul(live, candidates) + F.broadcast_mul(1 - live, F.ones_like(candidates) * NEVER)
        carried = F.where(alive, F.ones_like(scores) * NEVER, scores)  # finished beams, as they are
        scores, picks = F.topk(F.concat(candidates.reshape((B, -1)), carried, dim=1), axis=1, k=K, ret_typ='both')
        picks = picks.astype('int32')
        is_carried = picks >= K * vocab
        beam = F.where(is_carried, picks - K * vocab, F.floor(picks / vocab))
        word = F.where(is_carried, -F.ones_like(picks), picks % vocab)
        rows = F.broadcast_add(beam, offsets).reshape((-1,))
        samples = F.concat(F.take(samples.reshape((B * K, -1)), rows), word.reshape((-1, 1)),
                           dim=1).reshape((B, K, -1))
        valid_length = F.take(valid_length.reshape((-1,)), rows).reshape((B, K)) + 1 - is_carried
        states = _map_states(lambda a, axis: F.take(a, rows, axis=axis), states, info)
        alive = F.take(alive.reshape((-1,)), rows).reshape((B, K)) * (word != eos_id)
        step_input = F.relu(word).reshape((-1,))
        if V is None and alive.sum().asscalar() == 0:
            return samples, scores, valid_length
    return _finish(samples, scores, valid_length, alive, eos_id, F)


class BeamSearchSampler:
    """Beam search over a stateful decoder, GluonNLP's: each step keeps the `beam_size` best of the live beams'
    extensions (scored by `scorer`) and of the beams already finished, a finished beam carried on as is."""

    def __init__(self, beam_size, decoder, eos_id, scorer=BeamSearchScorer(alpha=1.0, K=5), max_length=100):
        _check(beam_size, eos_id)
        self._beam_size, self._decoder, self._eos_id = beam_size, decoder, eos_id
        self._scorer, self._max_length = scorer, max_length

    def __call__(self, inputs, states):
        return _beam_search(mx.nd, self._decoder, self._scorer, inputs, states, inputs.shape[0], self._beam_size,
                            self._eos_id, self._max_length)


class HybridBeamSearchSampler(HybridBlock):
    """BeamSearchSampler as a HybridBlock, GluonNLP's: `batch_size` and `vocab_size` (default the decoder's
    `_vocab_size`) are fixed, so hybridized the whole search, `max_length` steps, is one graph; the samples run
    to max_length + 1 tokens (finished beams padded with -1), the first valid_length of each being
    BeamSearchSampler's."""

    def __init__(self, batch_size, beam_size, decoder, eos_id, scorer=BeamSearchScorer(alpha=1.0, K=5),
                 max_length=100, vocab_size=None, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        _check(beam_size, eos_id)
        vocab_size = vocab_size or getattr(decoder, '_vocab_size', None)
        if vocab_size is None:
            raise BadInputError('HybridBeamSearchSampler needs vocab_size (or a decoder with _vocab_size): its graph '
                                'is built for one vocabulary size')
        if getattr(decoder, '_vocab_size', vocab_size) != vocab_size:
            raise BadInputError(f'vocab_size={vocab_size} but the decoder\'s _vocab_size is {decoder._vocab_size}')
        self._batch_size, self._beam_size, self._eos_id = batch_size, beam_size, eos_id
        self._max_length, self._vocab_size = max_length, vocab_size
        self._decoder, self._scorer = decoder, scorer  # children: a hybridized graph takes their parameters

    def hybrid_forward(self, F, inputs, states):  # pylint: disable=arguments-differ
        return _beam_search(F, self._decoder, self._scorer, inputs, states, self._batch_size, self._beam_size,
                            self._eos_id, self._max_length, self._vocab_size)


class SequenceSampler:
    """`beam_size` independent samples a sentence from softmax(log_probs / temperature), optionally among the
    `top_k` most likely tokens only; scores are the samples' summed log-probabilities (at temperature 1). Draws
    come from MXNet's generator (mx.random.seed fixes them)."""

    def __init__(self, beam_size, decoder, eos_id, max_length=100, temperature=1.0, top_k=None):
        _check(beam_size, eos_id)
        self._beam_size, self._decoder, self._eos_id = beam_size, decoder, eos_id
        self._max_length, self._temperature, self._top_k = max_length, temperature, top_k

    def __call__(self, inputs, states):
        B, K = inputs.shape[0], self._beam_size
        states = _tile(states, K, B, _state_info(self._decoder, B))
        step_input = mx.nd.repeat(inputs, repeats=K, axis=0)
        samples = step_input.reshape((B, K, 1)).astype('int32')
        alive = mx.nd.ones((B, K), dtype='int32')
        valid_length = mx.nd.ones((B, K), dtype='int32')
        scores = mx.nd.zeros((B, K))
        for _ in range(self._max_length):
            outputs, states = self._decoder(step_input, states)
            outputs = outputs.reshape((B, K, -1))
            if self._top_k:  # the top_k largest per row: their rank (argsort of argsort) below top_k
                rank = mx.nd.argsort(mx.nd.argsort(outputs, axis=2, is_ascend=False), axis=2)
                outputs = mx.nd.where(rank < self._top_k, outputs, mx.nd.ones_like(outputs) * -99999)
            probs = mx.nd.softmax(outputs / self._temperature, axis=2)
            log_probs = mx.nd.log_softmax(outputs, axis=2)
            word = mx.nd.sample_multinomial(probs, dtype='int32')
            word = mx.nd.where(alive, word, -mx.nd.ones_like(alive))
            gained = mx.nd.pick(log_probs, mx.nd.relu(word), axis=2)
            scores = scores + mx.nd.where(alive, gained, mx.nd.zeros_like(gained))
            valid_length = valid_length + alive
            samples = mx.nd.concat(samples, word.expand_dims(2), dim=2)
            alive = alive * (word != self._eos_id)
            step_input = mx.nd.relu(word).reshape((-1,))
            if alive.sum().asscalar() == 0:
                return samples, scores, valid_length
        return _finish(samples, scores, valid_length, alive, self._eos_id)
