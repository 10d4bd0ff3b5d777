"""gluonzoo.vision: image models, transforms and the helpers that run them."""
from .image import read_image
from .inference import classify

__all__ = ['read_image', 'classify']
