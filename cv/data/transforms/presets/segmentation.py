"""gluoncv.data.transforms.presets.segmentation (gluonzoo.vision.transforms.ndarray.presets)."""
from gluonzoo.vision.transforms.ndarray.presets import segmentation_test_transform as test_transform

__all__ = ['test_transform']
