"""GluonNLP 0.10's module layout over gluonzoo: a GluonNLP script changes one import line and nothing else.

    import gluonzoo.nlp as nlp                # was: import gluonnlp as nlp
    model, vocab = nlp.model.get_model('bert_12_768_12', dataset_name='book_corpus_wiki_en_uncased')

Every name here is gluonzoo's own implementation (gluonzoo.text), re-exported where GluonNLP puts it; GluonNLP's
leaf modules come from its API snapshot (zoo/aliases.py). docs/from_gluonnlp.md lists what is provided, what differs
and why, and what is not.
"""
import os

from gluonzoo import aliases

aliases.install(__name__, 'gluonnlp', os.path.join(os.path.dirname(__file__), 'gluonnlp_api.json'))

from gluonzoo import __version__  # noqa: E402
from . import (_constants, calibration, data, embedding, initializer, loss, metric, model,  # noqa: E402,F401
               optimizer, utils, vocab)
from .vocab import Vocab  # noqa: E402,F401

__all__ = ['Vocab', 'calibration', 'data', 'embedding', 'initializer', 'loss', 'metric', 'model', 'optimizer',
           'utils', 'vocab']
