"""gluoncv.data.transforms.presets.center_net (gluonzoo.vision.transforms.ndarray.presets)."""
from gluonzoo.vision.transforms.ndarray.presets import (CenterNetDefaultTrainTransform, CenterNetDefaultValTransform,
                                                       get_post_transform)
from gluonzoo.vision.transforms.ndarray.presets import center_net_load_test as load_test
from gluonzoo.vision.transforms.ndarray.presets import center_net_transform_test as transform_test

__all__ = ['transform_test', 'load_test', 'CenterNetDefaultTrainTransform', 'CenterNetDefaultValTransform',
           'get_post_transform']
