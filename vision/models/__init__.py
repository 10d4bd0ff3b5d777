"""Vision model families by task (classification/, detection/, segmentation/, pose/), one file or folder a family,
and GluonCV's INT8 graphs over their base checkpoints (quantized.py, after the bases); importing this package
registers them all."""
from . import action, classification, detection, pose, segmentation  # noqa: F401
from . import quantized  # noqa: F401
