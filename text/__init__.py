"""gluonzoo.text: NLP models, vocabularies, tokenizers, batchify/samplers, decoding and metrics (docs/text.md).

    import gluonzoo.text as gt
    vecs = gt.embed('bert_6_384_12', ['A cat sits.', 'A dog runs.'])   # (2, 384), unit rows
    model, vocab = gt.get_model('bert_12_768_12', dataset_name='book_corpus_wiki_en_uncased')  # GluonNLP's way

`gt.get_model`, `gt.get_tokenizer` and `gt.BERTTokenizer` follow GluonNLP 0.10 (gluonnlp_api.py); `gt.model` is
that module under GluonNLP's name, so `import gluonzoo.text as nlp; nlp.model.get_model(...)` reads as before.
"""
from . import data, decoding, metrics, tokenizers, vocab  # noqa: F401
from .embedding import cosine_matrix, embed  # noqa: F401
from . import gluonnlp_api as model  # noqa: F401
from .gluonnlp_api import BERTTokenizer, get_model, get_tokenizer  # noqa: F401
