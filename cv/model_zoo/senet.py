"""gluoncv.model_zoo.senet: its model class and block (GluonCV's signatures); senet_154 is gluoncv.model_zoo's
(zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.models.classification.senet import SEBlock, SENet  # noqa: F401

__getattr__ = aliases.children(__name__)
