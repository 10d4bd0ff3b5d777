"""gluonnlp.metric: gluonzoo.text.training's metrics."""
from gluonzoo import aliases
from gluonzoo.text.training import LengthNormalizedLoss, MaskedAccuracy

__all__ = ['LengthNormalizedLoss', 'MaskedAccuracy']
__getattr__ = aliases.children(__name__)
