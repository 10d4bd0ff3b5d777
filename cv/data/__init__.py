"""gluoncv.data: GluonCV's datasets with its signatures and NDArray images (gluonzoo.vision.data.ndarray, over
gluonzoo's readers), transforms and batchify."""
from gluonzoo import aliases
from gluonzoo.vision.data.ndarray import (COCODetection, ImageNet, ImageNet1kAttr, LstDetection,  # noqa: F401
                                         RecordFileDetection, VOCDetection)

__all__ = ['COCODetection', 'ImageNet', 'ImageNet1kAttr', 'LstDetection', 'RecordFileDetection', 'VOCDetection']
__getattr__ = aliases.children(__name__)
