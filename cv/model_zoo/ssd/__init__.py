"""gluoncv.model_zoo.ssd: its `target` module's generator and the box blocks, matchers, samplers and coders it
imports, `anchor`'s generator and `resnet_v1b_ssd`'s body (what gluoncv.model_zoo does not export itself); every
other name of the package and its leaf modules is gluoncv.model_zoo's (zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.models.detection.ssd.bodies import ResNetV1bSSD, resnet34_v1b_ssd  # noqa: F401
from gluonzoo.vision.models.detection.ssd.custom import SSDAnchorGenerator  # noqa: F401
from gluonzoo.vision.ops.box_blocks import BBoxCenterToCorner  # noqa: F401
from gluonzoo.vision.ops.targets import (BipartiteMatcher, CompositeMatcher, MaximumMatcher,  # noqa: F401
                                         MultiClassEncoder, NaiveSampler, NormalizedBoxCenterEncoder, OHEMSampler)
from gluonzoo.vision.train.detection.families import SSDTargetGenerator  # noqa: F401

__getattr__ = aliases.children(__name__)
