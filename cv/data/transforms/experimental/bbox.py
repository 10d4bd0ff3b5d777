"""gluoncv.data.transforms.experimental.bbox (gluonzoo.vision.transforms.ndarray.distort)."""
from gluonzoo.vision.bbox_utils import bbox_iou
from gluonzoo.vision.transforms.ndarray.boxes import crop as bbox_crop
from gluonzoo.vision.transforms.ndarray.distort import random_crop_with_constraints

__all__ = ['random_crop_with_constraints', 'bbox_crop', 'bbox_iou']
