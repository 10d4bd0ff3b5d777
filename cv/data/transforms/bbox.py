"""gluoncv.data.transforms.bbox (gluonzoo.vision.transforms.ndarray.boxes)."""
from gluonzoo.vision.transforms.ndarray.boxes import (affine_transform, crop, flip, get_affine_transform, resize,
                                                     translate)

__all__ = ['crop', 'flip', 'resize', 'translate', 'affine_transform', 'get_affine_transform']
