"""gluoncv.model_zoo.mobilenetv3: its blocks and rounding rule; the builders are gluoncv.model_zoo's
(zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.layers import Activation, HardSigmoid, HardSwish, ReLU6  # noqa: F401
from gluonzoo.vision.models.classification.mobilenetv3 import make_divisible  # noqa: F401

__getattr__ = aliases.children(__name__)
