"""Image transforms on OpenCV + numpy, driven by a weights record's `preprocess`."""
from .presets import imagenet_eval

__all__ = ['imagenet_eval']
