"""gluoncv.model_zoo.segbase: the segmentation base class and evaluators; get_segmentation_model is gluoncv.model_zoo's
(zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.models.segmentation.base import SegBaseModel  # noqa: F401
from gluonzoo.vision.segmentation import MultiEvalModel, SegEvalModel  # noqa: F401

__getattr__ = aliases.children(__name__)
