"""gluoncv.model_zoo.yolo: the box blocks its `yolo_target` module imports; every other name of the package and
its leaf modules is gluoncv.model_zoo's (zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.ops.box_blocks import BBoxBatchIOU, BBoxCenterToCorner, BBoxCornerToCenter  # noqa: F401

__getattr__ = aliases.children(__name__)
