"""Pose estimation families (SimplePose, MobilePose), one file or folder a family, on backbones from the registry
(`registry.get_backbone`)."""
from . import mobile_pose  # noqa: F401
from . import simple_pose  # noqa: F401
