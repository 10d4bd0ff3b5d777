"""gluonnlp.model.train: GluonNLP's training-time models (gluonzoo.text.models.train_lm, train_embedding): AWDRNN
and StandardRNN that also return the encoder outputs for AR/TAR, BigRNN with its importance-sampled decoder, the
neural cache (CacheCell, get_cache_model) and the trainable embedding models."""
from gluonzoo import aliases
from gluonzoo.text.models.train_lm import AWDRNN, BigRNN, CacheCell, StandardRNN, get_cache_model
from gluonzoo.text.models.train_embedding import CSREmbeddingModel, EmbeddingModel, FasttextEmbeddingModel

__all__ = ['AWDRNN', 'BigRNN', 'CSREmbeddingModel', 'CacheCell', 'EmbeddingModel', 'FasttextEmbeddingModel',
           'StandardRNN', 'get_cache_model']

__getattr__ = aliases.children(__name__)
