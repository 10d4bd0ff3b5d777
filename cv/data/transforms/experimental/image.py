"""gluoncv.data.transforms.experimental.image (gluonzoo.vision.transforms.ndarray.distort)."""
from gluonzoo.vision.transforms.ndarray.distort import np_random_color_distort, random_color_distort

__all__ = ['random_color_distort', 'np_random_color_distort']
