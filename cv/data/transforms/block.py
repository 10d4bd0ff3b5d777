"""gluoncv.data.transforms.block (gluonzoo.vision.transforms.ndarray.blocks)."""
from gluonzoo.vision.transforms.ndarray.blocks import RandomCrop, RandomErasing

__all__ = ['RandomCrop', 'RandomErasing']
