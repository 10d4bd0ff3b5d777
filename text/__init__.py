"""gluonzoo.text: NLP models, vocabularies, tokenizers, batchify/samplers, decoding and metrics (docs/text.md).

    import gluonzoo.text as gt
    vecs = gt.embed('bert_6_384_12', ['A cat sits.', 'A dog runs.'])   # (2, 384), unit rows
"""
from . import data, decoding, metrics, tokenizers, vocab  # noqa: F401
from .embedding import cosine_matrix, embed  # noqa: F401
