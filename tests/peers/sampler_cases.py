"""The gluonnlp.model sampler calls of tests/compat/test_nlp_samplers.py, written once for both sides:
`cases(model, d)` runs them with the module `model` (gluonnlp.model in the peers venv, gluonzoo.nlp.model in ours)
over a small stateful decoder made from the arrays in d, and returns {case: numpy array}."""
import mxnet as mx


class Decoder:
    """log_probs = log_softmax(table[token] + h W); h' = tanh(h + embed[token] + mean(memory)): its states, a
    tuple (h, [memory (N, 2, C)]) (GluonNLP's hybridized step takes no dicts), must follow their beams for the
    answers to agree."""

    def __init__(self, d):
        self.table, self.w, self.embed = d['table'], d['w'], d['embed']

    def __call__(self, step_input, states):
        h, extra = states
        token = step_input.astype('int32')
        logits = mx.nd.take(self.table, token) + mx.nd.dot(h, self.w)
        new_h = mx.nd.tanh(h + mx.nd.take(self.embed, token) + extra[0].mean(axis=1))
        return mx.nd.log_softmax(logits), (new_h, extra)


def cases(model, d):
    out = {}
    dec = Decoder(d)
    states = (d['h0'], [d['memory']])
    inputs = d['start']
    out['scorer'] = model.BeamSearchScorer(alpha=0.8, K=3.0)(d['outputs'], d['scores'], mx.nd.array([3])).asnumpy()
    out['scorer_first'] = model.BeamSearchScorer()(d['outputs'], d['scores'], mx.nd.array([1])).asnumpy()
    out['scorer_logits'] = model.BeamSearchScorer(from_logits=False)(d['outputs'], d['scores'],
                                                                      mx.nd.array([2])).asnumpy()
    for name, sampler in (
            ('beam', model.BeamSearchSampler(4, dec, eos_id=2, max_length=8)),
            ('beam_alpha0', model.BeamSearchSampler(3, dec, eos_id=2, scorer=model.BeamSearchScorer(alpha=0.0),
                                                    max_length=5)),
            ('beam_short', model.BeamSearchSampler(2, dec, eos_id=5, max_length=2)),
            ('beam_one', model.BeamSearchSampler(1, dec, eos_id=2, max_length=6))):
        for i, v in enumerate(sampler(inputs, states)):
            out[f'{name}.{i}'] = v.asnumpy()
    for name, kwargs in (('sample', dict(temperature=0.7)), ('sample_short', dict(max_length=2))):
        mx.random.seed(5)
        sampler = model.SequenceSampler(3, dec, eos_id=2, **{'max_length': 8, **kwargs})
        for i, v in enumerate(sampler(inputs, states)):
            out[f'{name}.{i}'] = v.asnumpy()
    return out
