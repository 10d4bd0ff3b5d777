"""gluonnlp.embedding.evaluation: word similarity and analogy blocks (gluonzoo.text.word_embedding_evaluation)."""
from gluonzoo import aliases
from gluonzoo.text.word_embedding_evaluation import (CosineSimilarity, ThreeCosAdd, ThreeCosMul,  # noqa: F401
                                                     WordEmbeddingAnalogy, WordEmbeddingAnalogyFunction,
                                                     WordEmbeddingSimilarity, WordEmbeddingSimilarityFunction,
                                                     create, list_evaluation_functions, register)

__all__ = ['CosineSimilarity', 'ThreeCosAdd', 'ThreeCosMul', 'WordEmbeddingAnalogy', 'WordEmbeddingAnalogyFunction',
           'WordEmbeddingSimilarity', 'WordEmbeddingSimilarityFunction', 'create', 'list_evaluation_functions',
           'register']

__getattr__ = aliases.children(__name__)
