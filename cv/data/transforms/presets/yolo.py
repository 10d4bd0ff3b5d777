"""gluoncv.data.transforms.presets.yolo (gluonzoo.vision.transforms.ndarray.presets)."""
from gluonzoo.vision.transforms.ndarray.presets import YOLO3DefaultTrainTransform, YOLO3DefaultValTransform
from gluonzoo.vision.transforms.ndarray.presets import yolo_load_test as load_test
from gluonzoo.vision.transforms.ndarray.presets import yolo_transform_test as transform_test

__all__ = ['transform_test', 'load_test', 'YOLO3DefaultTrainTransform', 'YOLO3DefaultValTransform']
