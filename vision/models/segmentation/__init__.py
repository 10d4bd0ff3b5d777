"""Semantic and instance segmentation families (FCN, PSPNet, DeepLabV3, Mask R-CNN), one file or folder a family,
on backbones from the registry (`registry.get_backbone`)."""
from . import deeplab, deeplab_plus, fcn, pspnet  # noqa: F401
from . import mask_rcnn  # noqa: F401
from . import fcn_mobilenet  # noqa: F401
