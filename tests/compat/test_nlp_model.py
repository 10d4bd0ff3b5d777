"""gluonzoo.nlp.model against GluonNLP 0.10.0's gluonnlp.model: the builder functions take GluonNLP's arguments with
GluonNLP's `pretrained` default and return what get_model returns; the classes whose constructors the migration page
calls GluonNLP's take GluonNLP's parameters (the others are noted there); list_models is the builders'."""
import inspect
import json

import mxnet as mx
import pytest

import gluonzoo.nlp as nlp
from gluonzoo.errors import BadInputError
from gluonzoo.nlp import _notes
from gluonzoo.text.vocab import Vocab, count_tokens

from ..peers import run_peer

#: classes exported with GluonNLP's own constructor (not in the page's "differs" list)
SAME_CONSTRUCTOR = ['BERTClassifier', 'BigRNN', 'ELMoBiLM', 'ELMoCharacterEncoder', 'Highway']


@pytest.fixture(scope='module')
def peer(tmp_path_factory):
    return json.loads(run_peer('gluonnlp_model_api.py', tmp_path_factory.mktemp('nlp_model'),
                               SAME_CONSTRUCTOR + ['StandardRNN', 'AWDRNN'], timeout=300))


def _params(fn):
    return [[k, None if p.default is inspect.Parameter.empty else repr(p.default)]
            for k, p in inspect.signature(fn).parameters.items() if k not in ('self', 'kwargs', 'prefix', 'params')]


def test_builders_take_gluonnlps_arguments(peer):
    builders = [n for n in peer['list_models'] if n[0].islower()]
    assert nlp.model.list_models() == builders
    for name in builders:
        ours = dict(_params(getattr(nlp.model, name)))
        theirs = dict(peer['signatures'][name])
        # every argument GluonNLP's takes by name, with its pretrained default; ctx and root default to None here
        # (the CPU and gluonzoo's cache), and GluonNLP's vocab arguments go through **kwargs for the Transformer
        # (DistilBERT's output_attention / output_all_encodings are not built: the page says so)
        assert set(theirs) - set(ours) <= {'src_vocab', 'tgt_vocab', 'use_pooler', 'use_decoder', 'use_classifier',
                                           'pretrained_allow_missing', 'hparam_allow_override', 'output_attention',
                                           'output_all_encodings'}, name
        assert ours['pretrained'] == theirs['pretrained'], name
        assert not set(ours) - set(theirs) - {'vocab'}, name  # ELMo's has no vocab=; ours accepts and ignores None


def test_same_constructors_are_gluonnlps(peer):
    for name in SAME_CONSTRUCTOR:
        assert [k for k, _ in _params(getattr(nlp.model, name).__init__)] == \
            [k for k, _ in peer['signatures'][name]], name
        assert f'gluonnlp.model.{name}' not in _notes.DIFFERS
    for name in ('StandardRNN', 'AWDRNN'):  # GluonNLP's positional order, mode first
        assert [k for k, _ in _params(getattr(nlp.model, name).__init__)] == \
            [k for k, _ in peer['signatures'][name]], name


def test_builders_build_what_get_model_builds():
    vocab = Vocab(count_tokens('the cat sat on the mat'.split()))
    net, got = nlp.model.standard_lstm_lm_200(vocab=vocab)  # GluonNLP's default: random weights
    assert got is vocab and net.embedding[0].weight.shape == (len(vocab), 200)
    with pytest.raises(BadInputError, match='pretrained=True needs dataset_name='):
        nlp.model.bert_12_768_12()  # GluonNLP's BERT builders default to pretrained=True
    lm = nlp.model.StandardRNN('lstm', len(vocab), 8, 8, 1, 0.0, True)
    lm.initialize()
    out, state = lm(mx.nd.array([[1, 2], [3, 4], [5, 0]]), lm.begin_state(batch_size=2))
    assert out.shape == (3, 2, len(vocab)) and len(state) == 2
    with pytest.raises(ValueError, match="mode='gru' is not built here, only mode='lstm'"):
        nlp.model.AWDRNN('gru', 10, 8, 8, 1)


def test_training_models_are_not_the_inference_ones():
    # GluonNLP's model.train.AWDRNN also returns the encoder outputs AR/TAR need: a class of its own
    # (tests/compat/test_nlp_model_train.py compares them with GluonNLP's)
    assert nlp.model.train.language_model.AWDRNN is nlp.model.train.AWDRNN is not nlp.model.AWDRNN
    assert nlp.model.train.StandardRNN is not nlp.model.StandardRNN
