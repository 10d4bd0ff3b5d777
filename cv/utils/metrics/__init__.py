"""gluoncv.utils.metrics: gluonzoo's metrics (gluonzoo.vision.metrics), MXNet EvalMetrics whose get() returns what
GluonCV's return, with GluonCV's constructor arguments."""
from gluonzoo import aliases
from gluonzoo.vision.bbox_utils import bbox_iou
from gluonzoo.vision.metrics import (Accuracy, COCODetectionMetric, COCOInstanceMetric, COCOKeyPointsMetric,
                                     HeatmapAccuracy, MaskAccMetric, MaskFGAccMetric, RCNNAccMetric, RCNNL1LossMetric,
                                     RPNAccMetric, RPNL1LossMetric, SegmentationMetric, VOC07MApMetric, VOCMApMetric,
                                     batch_intersection_union, batch_pix_accuracy, intersectionAndUnion,
                                     pixelAccuracy)

__all__ = ['COCODetectionMetric', 'COCOKeyPointsMetric', 'HeatmapAccuracy', 'SegmentationMetric', 'VOC07MApMetric',
           'VOCMApMetric']

__getattr__ = aliases.children(__name__)
