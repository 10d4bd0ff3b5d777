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


class HybridDecoder(mx.gluon.HybridBlock):
    """Decoder's step as a HybridBlock (its arrays constants), for HybridBeamSearchSampler's graph; states are a
    list [h, [memory]]."""

    def __init__(self, d):
        super().__init__()
        with self.name_scope():
            self.table = self.params.get_constant('table', d['table'])
            self.w = self.params.get_constant('w', d['w'])
            self.embed = self.params.get_constant('embed', d['embed'])

    def hybrid_forward(self, F, step_input, states, table, w, embed):
        h, extra = states
        token = step_input.astype('int32')
        logits = F.take(table, token) + F.dot(h, w)
        new_h = F.tanh(h + F.take(embed, token) + extra[0].mean(axis=1))
        return F.log_softmax(logits), [new_h, extra]


def hybrid_samplers(model, d):
    """[(case, HybridBeamSearchSampler over HybridDecoder(d))] for the batch of d['start']."""
    dec = HybridDecoder(d)
    dec.initialize()
    return [(name, model.HybridBeamSearchSampler(batch_size=len(d['start']), decoder=dec, vocab_size=7,
                                                 **{'eos_id': 2, **kwargs}))
            for name, kwargs in (('hybrid_beam', dict(beam_size=4, max_length=8)),
                                 ('hybrid_beam_short', dict(beam_size=2, max_length=2, eos_id=5)))]


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
    # imperatively: GluonNLP's hybridized graph fails on MXNet 1.9.1 (an int32/float32 clash in its cond);
    # tests/compat/test_nlp_samplers.py compares ours hybridized with these
    for name, sampler in hybrid_samplers(model, d):
        for i, v in enumerate(sampler(mx.nd.array(inputs), [mx.nd.array(d['h0']), [mx.nd.array(d['memory'])]])):
            out[f'{name}.{i}'] = v.asnumpy()
    for name, kwargs in (('sample', dict(temperature=0.7)), ('sample_short', dict(max_length=2))):
        mx.random.seed(5)
        sampler = model.SequenceSampler(3, dec, eos_id=2, **{'max_length': 8, **kwargs})
        for i, v in enumerate(sampler(inputs, states)):
            out[f'{name}.{i}'] = v.asnumpy()
    return out
