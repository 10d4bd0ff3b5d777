"""gluoncv.data.transforms.experimental (gluonzoo.vision.transforms.ndarray.distort)."""
from gluonzoo import aliases

from . import bbox, image

__all__ = ['bbox', 'image']

__getattr__ = aliases.children(__name__)
