"""gluoncv.nn: GluonCV's building blocks over gluonzoo's (box blocks: gluonzoo.vision.ops.box_blocks; coders,
matchers, samplers: gluonzoo.vision.ops.targets; activations: gluonzoo.vision.layers; GroupNorm: the ResNetV1b
family's; the rest: gluonzoo.vision.nn_blocks)."""
from gluonzoo import aliases
from gluonzoo.vision.feature_blocks import FeatureExpander, FeatureExtractor
from gluonzoo.vision.layers import HardSigmoid, HardSwish, ReLU6
from gluonzoo.vision.models.classification.resnetv1b import GroupNorm
from gluonzoo.vision.nn_blocks import (BatchNormCudnnOff, Consensus, ConvPredictor, DropBlock, DropBlockScheduler,
                                      FCPredictor, Identity, set_drop_prob)
from gluonzoo.vision.ops.box_blocks import (BBoxArea, BBoxBatchIOU, BBoxCenterToCorner, BBoxClipToImage,
                                            BBoxCornerToCenter, BBoxSplit, NumPyBBoxCornerToCenter)
from gluonzoo.vision.ops.targets import (BipartiteMatcher, CenterNetDecoder, CompositeMatcher, MaximumMatcher,
                                         MultiClassDecoder, MultiClassEncoder, MultiPerClassDecoder, NaiveSampler,
                                         NormalizedBoxCenterDecoder, NormalizedBoxCenterEncoder,
                                         NormalizedPerClassBoxCenterEncoder, NumPyNormalizedBoxCenterEncoder,
                                         OHEMSampler, QuotaSampler, QuotaSamplerOp, QuotaSamplerProp,
                                         SigmoidClassEncoder)

__all__ = ['BatchNormCudnnOff', 'Consensus', 'GroupNorm', 'HardSigmoid', 'HardSwish', 'Identity', 'ReLU6']

__getattr__ = aliases.children(__name__)
