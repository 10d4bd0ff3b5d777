"""Operations the detection, segmentation and pose families share, each written once, on NDArray or Symbol:
box arithmetic and center-offset decoding (boxes.py), per-class NMS into GluonCV's `(ids, scores, bboxes)`
(nms.py); the detection families add anchors and RoI operations here. Blocks with parameters live in
vision/layers.py and the families."""
from . import boxes, nms  # noqa: F401
