"""gluoncv.data.transforms.mask (gluonzoo.vision.transforms.ndarray.polygons)."""
from gluonzoo.vision.transforms.ndarray.polygons import fill, flip, resize, to_mask

__all__ = ['flip', 'resize', 'to_mask', 'fill']
