"""Vision model families by task (classification/, detection/, segmentation/, pose/), one file or folder a family;
importing this package registers them all."""
from . import classification, detection, pose, segmentation  # noqa: F401
