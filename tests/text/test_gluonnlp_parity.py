"""Parameter files saved from GluonNLP 0.10.0's BERT-family models load strictly into gluonzoo's, outputs match.

GluonNLP's builders accept reduced hyper-parameters (hparam_allow_override=True), so every registered name is
checked with the same small config on both sides: the structure (names, nesting, tying) is the arch's own.
"""
import pytest

import gluonzoo as gz

from .conftest import CASES, LM_CASES, LM_SMALL, NMT_SMALL, SMALL, assert_outputs_match, saved_case


def _vocab_size(files, kind):
    import json
    with open(files / ('bertvocab.json' if kind in ('bert', 'classifier') else 'vocab.json')) as f:
        return len(json.load(f)['idx_to_token'])


@pytest.mark.parametrize('name,arch,kind', CASES + [(n, n, k) for n, k in LM_CASES] +
                         [('transformer_en_de_512', 'transformer_en_de_512', 'nmt')])
def test_gluonnlp_params_load_strictly_and_match(gluonnlp_files, name, arch, kind):
    small = LM_SMALL.get(kind) or (NMT_SMALL if kind == 'nmt' else SMALL)
    kwargs = dict(small, vocab_size=_vocab_size(gluonnlp_files, kind))
    if kind == 'classifier':
        kwargs['classes'] = 3
    net = gz.get_model(name, **kwargs)
    net.load_parameters(str(gluonnlp_files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    assert_outputs_match(net, *saved_case(gluonnlp_files / f'{name}.npz'))


TIED = {'bert_12_768_12': ('word_embed.0.weight', 'decoder.3.weight'),
        'roberta_12_768_12': ('word_embed.0.weight', 'decoder.3.weight'),
        'transformer_en_de_512': ('src_embed.0.weight', 'tgt_proj.weight'),
        'gpt2_117m': ('_embed.weight', '_logits_proj.weight'),
        'standard_lstm_lm_200': ('embedding.0.weight', 'decoder.0.weight'),
        'awd_lstm_lm_600': ('embedding.0.weight', 'decoder.0.weight')}


@pytest.mark.parametrize('name', sorted(TIED))
def test_output_layer_is_the_embedding_matrix(name):
    # one Parameter under both names (a copy would load from GluonNLP's files and then drift apart in training)
    from gluonzoo.registry import get_entry
    params = gz.get_model(name, **get_entry(name).test_kwargs)._collect_params_with_prefix()
    a, b = TIED[name]
    assert params[a] is params[b]
