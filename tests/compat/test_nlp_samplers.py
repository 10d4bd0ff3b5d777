"""gluonzoo.nlp.model's BeamSearchScorer, BeamSearchSampler, HybridBeamSearchSampler and SequenceSampler against
GluonNLP 0.10.0's: the same calls (tests/peers/sampler_cases.py) over the same stateful decoder give the same
samples, scores and lengths (the sampler's draws too, under the same mx.random.seed); then what GluonNLP's gets wrong
(top_k) and bad input."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo.nlp as nlp
from gluonzoo.errors import BadInputError

from ..peers import run_peer_cases
from ..peers.sampler_cases import Decoder, cases, hybrid_samplers


def _inputs(rng):
    V, C, B = 7, 3, 3
    return dict(table=rng.normal(size=(V, V)) * 2, w=rng.normal(size=(C, V)), embed=rng.normal(size=(V, C)),
                h0=rng.normal(size=(B, C)), memory=rng.normal(size=(B, 2, C)), start=np.array([1, 3, 4]),
                outputs=rng.normal(size=(2, 3, V)), scores=rng.normal(size=(2, 3)))


@pytest.fixture(scope='module')
def both(tmp_path_factory):
    d, ref = run_peer_cases('gluonnlp_samplers.py', tmp_path_factory.mktemp('samplers'),
                            _inputs(np.random.default_rng(0)))
    return cases(nlp.model, d), ref, d


def test_samplers_give_gluonnlps_answers(both):
    ours, ref, _ = both
    assert sorted(ours) == sorted(ref)
    for name, want in ref.items():
        if want.dtype.kind in 'iu':
            np.testing.assert_array_equal(ours[name], want, err_msg=name)
        else:
            np.testing.assert_allclose(ours[name], want, rtol=1e-5, atol=1e-5, err_msg=name)
    samples, lengths = ours['beam.0'], ours['beam.2']
    assert samples.shape[:2] == (3, 4) and (samples[:, :, 0] == [[1], [3], [4]]).all()
    assert (ours['beam_short.0'][:, :, -1] == 5).any() or (ours['beam_short.0'][:, :, -1] == -1).any()
    assert lengths.max() <= samples.shape[2]


def test_hybridized_beam_search_is_gluonnlps_imperative_one(both):
    """One graph for the whole search gives GluonNLP's HybridBeamSearchSampler's answers (GluonNLP's own hybridized
    graph fails on MXNet 1.9.1, so its imperative run is the reference), and BeamSearchSampler's on the valid part."""
    _, ref, d = both
    for name, sampler in hybrid_samplers(nlp.model, d):
        sampler.hybridize()
        got = sampler(mx.nd.array(d['start']), [mx.nd.array(d['h0']), [mx.nd.array(d['memory'])]])
        got = [g.asnumpy() for g in got]
        np.testing.assert_array_equal(got[0], ref[f'{name}.0'], err_msg=name)
        np.testing.assert_allclose(got[1], ref[f'{name}.1'], rtol=1e-5, atol=1e-5, err_msg=name)
        np.testing.assert_array_equal(got[2], ref[f'{name}.2'], err_msg=name)
    imperative = nlp.model.BeamSearchSampler(4, Decoder(d), eos_id=2, max_length=8)(d['start'],
                                                                                   (d['h0'], [d['memory']]))
    samples, lengths = ref['hybrid_beam.0'], ref['hybrid_beam.2']
    np.testing.assert_array_equal(lengths, imperative[2].asnumpy())
    for b in range(3):
        for k in range(4):
            n = lengths[b, k]
            np.testing.assert_array_equal(samples[b, k, :n], imperative[0].asnumpy()[b, k, :n])
            assert (samples[b, k, n:] == -1).all()
    with pytest.raises(BadInputError, match='needs vocab_size'):
        nlp.model.HybridBeamSearchSampler(3, 2, Decoder(d), eos_id=2)


def test_top_k_samples_only_the_k_most_likely_tokens(both):
    _, _, d = both
    dec = Decoder(d)
    mx.random.seed(1)
    samples, _, _ = nlp.model.SequenceSampler(50, dec, eos_id=6, max_length=1, top_k=2)(
        d['start'], (d['h0'], [d['memory']]))
    first_step, _ = dec(mx.nd.array([1, 3, 4]), (d['h0'], [d['memory']]))
    best2 = np.argsort(-first_step.asnumpy(), axis=1)[:, :2]
    drawn = samples.asnumpy()[:, :, 1]
    for row, allowed in zip(drawn, best2):
        assert set(row.tolist()) <= set(allowed.tolist()) and len(set(row.tolist())) == 2


def test_bad_arguments_are_one_clear_error(both):
    _, _, d = both
    with pytest.raises(BadInputError, match='beam_size must be at least 1'):
        nlp.model.BeamSearchSampler(0, Decoder(d), eos_id=2)
    with pytest.raises(BadInputError, match=r'eos_id must be a token id \(>= 0\)'):
        nlp.model.SequenceSampler(2, Decoder(d), eos_id=-1)
    with pytest.raises(BadInputError, match=r'the batch \(3\) on axis 0, got shape \(2, 3\)'):
        nlp.model.BeamSearchSampler(2, Decoder(d), eos_id=2)(d['start'], (d['h0'][:2], [d['memory']]))


def test_dict_states_follow_their_beams_too(both):
    ours, _, d = both
    dec = Decoder(d)

    def dict_decoder(step_input, states):
        log_probs, (h, extra) = dec(step_input, (states['h'], [states['memory']]))
        return log_probs, {'h': h, 'memory': extra[0]}
    got = nlp.model.BeamSearchSampler(4, dict_decoder, eos_id=2, max_length=8)(
        d['start'], {'h': d['h0'], 'memory': d['memory']})
    for i, v in enumerate(got):
        np.testing.assert_allclose(v.asnumpy(), ours[f'beam.{i}'], rtol=1e-6)
