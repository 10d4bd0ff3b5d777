"""gluoncv.model_zoo.rcnn: the box blocks and coders its leaf modules import (`rcnn.rcnn`, `rpn.proposal`,
`rpn.bbox_clip`, `rpn.rpn_target`, `faster_rcnn.rcnn_target`, `data_parallel`); every other name of the package and its
leaf modules is gluoncv.model_zoo's (zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.parallel import Parallelizable  # noqa: F401 (data_parallel's base, gluoncv.utils.parallel's)
from gluonzoo.vision.ops.box_blocks import BBoxClipToImage, BBoxCornerToCenter, BBoxSplit  # noqa: F401
from gluonzoo.vision.ops.targets import (MultiClassEncoder, MultiPerClassDecoder,  # noqa: F401
                                         NormalizedBoxCenterDecoder, NormalizedPerClassBoxCenterEncoder,
                                         NumPyNormalizedBoxCenterEncoder, SigmoidClassEncoder)

__getattr__ = aliases.children(__name__)
