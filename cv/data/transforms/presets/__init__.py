"""gluoncv.data.transforms.presets: GluonCV's presets (gluonzoo.vision.transforms.ndarray.presets)."""
from gluonzoo import aliases

from . import center_net, imagenet, rcnn, segmentation, simple_pose, ssd, yolo

__all__ = ['center_net', 'imagenet', 'rcnn', 'segmentation', 'simple_pose', 'ssd', 'yolo']

__getattr__ = aliases.children(__name__)
