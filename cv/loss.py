"""gluoncv.loss: the training losses of gluonzoo.vision.losses (ICNetLoss and SiamRPNLoss come with their models,
issue 28; docs/from_gluoncv.md says why MixSoftmaxCrossEntropyOHEMLoss is not here)."""
from gluonzoo.vision.losses import (DistillationSoftmaxCrossEntropyLoss, FocalLoss, HeatmapFocalLoss, MaskedL1Loss,
                                    MixSoftmaxCrossEntropyLoss, SegmentationMultiLosses, SoftmaxCrossEntropyLoss,
                                    SSDMultiBoxLoss, YOLOV3Loss)

__all__ = ['DistillationSoftmaxCrossEntropyLoss', 'FocalLoss', 'MixSoftmaxCrossEntropyLoss', 'SSDMultiBoxLoss',
           'SegmentationMultiLosses', 'YOLOV3Loss']
