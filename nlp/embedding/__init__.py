"""gluonnlp.embedding: token embeddings and their pretrained sources (gluonzoo.text.word_embeddings)."""
from gluonzoo import aliases
from gluonzoo.nlp.embedding import evaluation  # noqa: F401
from gluonzoo.text.word_embeddings import (FastText, GloVe, TokenEmbedding, Word2Vec, create,  # noqa: F401
                                           list_sources, register)

__all__ = ['FastText', 'GloVe', 'TokenEmbedding', 'Word2Vec', 'create', 'evaluation', 'list_sources', 'register']

__getattr__ = aliases.children(__name__)
