"""Faster R-CNN (GluonCV 0.10.5's `faster_rcnn_*` models, inference): rpn.py (anchors, head, proposals), fpn.py
(the feature pyramid under GluonCV's parameter names), rcnn.py (the network), builders.py (records and builders).
The RoI operations and RPN anchors are shared with Mask R-CNN through vision/ops (roi.py, rpn_anchors.py)."""
from . import builders  # noqa: F401
