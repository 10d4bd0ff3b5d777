"""gluonnlp.initializer: gluonzoo.text.layers' initializers."""
from gluonzoo import aliases
from gluonzoo.text.layers import HighwayBias, TruncNorm

__all__ = ['HighwayBias', 'TruncNorm']
__getattr__ = aliases.children(__name__)
