"""gluoncv.data.base: the bases a user's own dataset subclasses (gluonzoo.vision.data.ndarray's, which GluonCV's
datasets in gluonzoo.cv.data derive from)."""
from gluonzoo.vision.data.ndarray import ClassProperty, KeyPointDataset, VisionDataset

__all__ = ['ClassProperty', 'KeyPointDataset', 'VisionDataset']
