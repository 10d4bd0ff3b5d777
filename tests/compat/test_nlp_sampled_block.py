"""gluonzoo.nlp.model's ISDense, NCEDense, SparseISDense and SparseNCEDense against GluonNLP 0.10's (the peers
venv, one run): its parameter files load, and the same inputs (accidental hits among the samples included) give
its scores and new labels, the dense layers hybridized too."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo.nlp as nlp
from tests.peers import run_peer

NUM_CLASSES, NUM_SAMPLED, IN_UNIT = 12, 4, 5
CASES = {'is': ['ISDense', {}], 'nce': ['NCEDense', {}], 'nce_hits': ['NCEDense', {'remove_accidental_hits': True}],
         'is_keep_hits': ['ISDense', {'remove_accidental_hits': False, 'sparse_grad': False}],
         'sparse_is': ['SparseISDense', {}], 'sparse_nce': ['SparseNCEDense', {'remove_accidental_hits': False}]}


@pytest.fixture(scope='module')
def case(tmp_path_factory):
    out = tmp_path_factory.mktemp('sampled_block_peer')
    rng = np.random.RandomState(0)
    inputs = dict(x=rng.normal(size=(6, IN_UNIT)), sampled=np.array([3, 7, 0, 9]), label=np.array([7, 1, 3, 11, 0, 7]),
                  count_sampled=rng.uniform(0.1, 2, size=NUM_SAMPLED), count_true=rng.uniform(0.1, 2, size=6))
    np.savez(out / 'inputs.npz', **{k: v.astype('float32') for k, v in inputs.items()})
    run_peer('gluonnlp_sampled_block.py', out, [{'cases': CASES, 'num_classes': NUM_CLASSES,
                                                  'num_sampled': NUM_SAMPLED, 'in_unit': IN_UNIT}], timeout=120)
    return out, {k: mx.nd.array(v) for k, v in np.load(out / 'inputs.npz').items()}, dict(np.load(out / 'ref.npz'))


@pytest.mark.parametrize('name', sorted(CASES))
def test_same_scores_and_labels_as_gluonnlp(case, name):
    out, d, ref = case
    cls, kw = CASES[name]
    layer = getattr(nlp.model, cls)(NUM_CLASSES, NUM_SAMPLED, IN_UNIT, **kw)
    layer.load_parameters(str(out / f'{name}.params'))
    mx.gluon.Trainer(layer.collect_params(), 'sgd')  # a row_sparse weight is pulled through its Trainer
    for hybrid in (False, True) if not cls.startswith('Sparse') else (False,):
        if hybrid:
            layer.hybridize()
        scores, label = layer(d['x'], (d['sampled'], d['count_sampled'], d['count_true']), d['label'])
        np.testing.assert_allclose(scores.asnumpy(), ref[f'{name}_scores'], rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(label.asnumpy(), ref[f'{name}_label'])
    assert nlp.model.sampled_block.ISDense is nlp.model.ISDense
