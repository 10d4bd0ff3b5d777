"""gluoncv.model_zoo.ssd: the box blocks, matchers, samplers and coders its `target` module imports (what
gluoncv.model_zoo does not export itself); every other name of the package and its leaf modules is
gluoncv.model_zoo's (zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.ops.box_blocks import BBoxCenterToCorner  # noqa: F401
from gluonzoo.vision.ops.targets import (BipartiteMatcher, CompositeMatcher, MaximumMatcher,  # noqa: F401
                                         MultiClassEncoder, NaiveSampler, NormalizedBoxCenterEncoder, OHEMSampler)

__getattr__ = aliases.children(__name__)
