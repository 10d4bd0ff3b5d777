"""gluoncv.data.transforms: GluonCV's transforms over gluonzoo.vision.transforms.ndarray (NDArray images, numpy
boxes, GluonCV's signatures)."""
from gluonzoo import aliases

from . import bbox, block, experimental, image, mask, pose, presets, video
from .block import RandomCrop

__all__ = ['RandomCrop', 'bbox', 'block', 'experimental', 'image', 'mask', 'pose', 'presets', 'video']

__getattr__ = aliases.children(__name__)
