"""gluonnlp.optimizer: gluonzoo.text.layers' BERTAdam (registered with MXNet as 'bertadam')."""
from gluonzoo import aliases
from gluonzoo.text.layers import BERTAdam

__all__ = ['BERTAdam']
__getattr__ = aliases.children(__name__)
