"""gluonzoo.nlp.model's attention cells (text/models/attention.py), PositionwiseFFN and TransformerEncoderCell
against GluonNLP 0.10.0's: the same constructors load the parameter files GluonNLP's blocks saved and give the
same contexts and weights, masked or not, hybridized too; then the errors."""
import numpy as np
import pytest

import gluonzoo.nlp as nlp

from ..peers import run_peer_cases
from ..peers.attention_cases import cases


def _inputs(rng):
    B, Tq, Tk = 2, 3, 4
    mask = (rng.random((B, Tq, Tk)) > 0.3).astype(np.float32)
    mask[1, 2] = 0  # a fully masked row attends to nothing
    self_mask = np.ones((B, Tq, Tq), np.float32)
    self_mask[1, :, 2] = 0
    return dict(query=rng.normal(size=(B, Tq, 6)), key=rng.normal(size=(B, Tk, 6)),
                value=rng.normal(size=(B, Tk, 6)), mask=mask, self_mask=self_mask)


@pytest.fixture(scope='module')
def both(tmp_path_factory):
    folder = tmp_path_factory.mktemp('attention')
    d, ref = run_peer_cases('gluonnlp_attention.py', folder, _inputs(np.random.default_rng(0)))
    return cases(nlp.model, d, str(folder), save=False), ref


def test_cells_give_gluonnlps_answers(both):
    ours, ref = both
    assert sorted(ours) == sorted(ref)
    for name, want in ref.items():
        np.testing.assert_allclose(ours[name], want, rtol=1e-4, atol=1e-5, err_msg=name)
    assert not ours['mlp.True.weights'][1, 2].any()  # the fully masked row
    assert ours['multi_head.True.weights'].shape == (2, 2, 3, 4)


def test_spellings_and_errors():
    assert nlp.model.attention_cell.MultiHeadAttentionCell is nlp.model.MultiHeadAttentionCell
    assert nlp.model.transformer.PositionwiseFFN is nlp.model.PositionwiseFFN
    with pytest.raises(ValueError, match='not divisible by num_heads=3'):
        nlp.model.MultiHeadAttentionCell(nlp.model.DotProductAttentionCell(), 8, 8, 8, num_heads=3)
    with pytest.raises(ValueError, match='needs units'):
        nlp.model.DotProductAttentionCell(luong_style=True)
    with pytest.raises(ValueError, match='one of multi_head'):
        nlp.model.TransformerEncoderCell(attention_cell='nope')
