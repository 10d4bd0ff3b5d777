"""gluoncv.data.transforms.presets.ssd (gluonzoo.vision.transforms.ndarray.presets)."""
from gluonzoo.vision.transforms.ndarray.presets import SSDDefaultTrainTransform, SSDDefaultValTransform
from gluonzoo.vision.transforms.ndarray.presets import ssd_load_test as load_test
from gluonzoo.vision.transforms.ndarray.presets import ssd_transform_test as transform_test

__all__ = ['transform_test', 'load_test', 'SSDDefaultTrainTransform', 'SSDDefaultValTransform']
