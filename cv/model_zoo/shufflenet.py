"""gluoncv.model_zoo.shufflenet: its model classes (GluonCV's signatures); the builders are gluoncv.model_zoo's
(zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.models.classification.shufflenet import ShuffleNetV1, ShuffleNetV2  # noqa: F401

__getattr__ = aliases.children(__name__)
