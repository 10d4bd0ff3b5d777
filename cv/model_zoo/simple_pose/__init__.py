"""gluoncv.model_zoo.simple_pose: its `pose_target` heatmap targets; the models are gluoncv.model_zoo's
(zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.transforms.pose import SimplePoseGaussianTargetGenerator  # noqa: F401

__getattr__ = aliases.children(__name__)
