"""gluoncv.data.batchify: GluonCV's detection batchify functions (gluonzoo.vision.transforms.batchify)."""
from gluonzoo import aliases
from gluonzoo.vision.transforms.batchify import Append, Pad, Stack, Tuple

__all__ = ['Append', 'Pad', 'Stack', 'Tuple']

__getattr__ = aliases.children(__name__)
