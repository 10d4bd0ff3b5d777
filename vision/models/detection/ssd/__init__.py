"""SSD (arXiv:1512.02325), GluonCV 0.10.5's `ssd_*` detectors: the model, records and builders (ssd.py), the VGG-16
atrous body (vgg_atrous.py) and the bodies on registry backbones, saved under GluonCV's names (bodies.py)."""
from . import bodies, ssd, vgg_atrous  # noqa: F401
