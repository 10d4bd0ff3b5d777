"""gluoncv.data.transforms.presets.simple_pose (gluonzoo.vision.transforms.ndarray.pose)."""
from gluonzoo.vision.transforms.ndarray.pose import SimplePoseDefaultTrainTransform, SimplePoseDefaultValTransform

__all__ = ['SimplePoseDefaultTrainTransform', 'SimplePoseDefaultValTransform']
