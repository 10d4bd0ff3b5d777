"""Mask R-CNN (GluonCV 0.10.5's `mask_rcnn_*` models, inference) on the Faster R-CNN pieces of
detection/faster_rcnn: model.py (the mask head and the network), masks.py (masks pasted onto the picture, as
GluonCV's `expand_mask`), builders.py (records and builders)."""
from . import builders  # noqa: F401
from .masks import paste_masks  # noqa: F401
