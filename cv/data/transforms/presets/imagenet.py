"""gluoncv.data.transforms.presets.imagenet (gluonzoo.vision.transforms.ndarray.presets)."""
from gluonzoo.vision.transforms.ndarray.presets import imagenet_transform_eval as transform_eval

__all__ = ['transform_eval']
