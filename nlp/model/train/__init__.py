"""gluonnlp.model.train: GluonNLP's training-time models (AWDRNN/StandardRNN/BigRNN that also return the encoder
outputs for AR/TAR, CacheCell, EmbeddingModel) are other classes than the inference ones in gluonnlp.model, so a
package of its own: none of them is provided yet (docs/from_gluonnlp.md)."""
from gluonzoo import aliases

__getattr__ = aliases.children(__name__)
