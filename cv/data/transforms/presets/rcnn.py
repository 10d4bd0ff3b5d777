"""gluoncv.data.transforms.presets.rcnn (gluonzoo.vision.transforms.ndarray.presets)."""
from gluonzoo.vision.transforms.ndarray.presets import (FasterRCNNDefaultTrainTransform, FasterRCNNDefaultValTransform,
                                                       MaskRCNNDefaultTrainTransform, MaskRCNNDefaultValTransform)
from gluonzoo.vision.transforms.ndarray.presets import rcnn_load_test as load_test
from gluonzoo.vision.transforms.ndarray.presets import rcnn_transform_test as transform_test

__all__ = ['transform_test', 'load_test', 'FasterRCNNDefaultTrainTransform', 'FasterRCNNDefaultValTransform',
           'MaskRCNNDefaultTrainTransform', 'MaskRCNNDefaultValTransform']
