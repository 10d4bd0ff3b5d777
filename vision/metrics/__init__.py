"""Metrics on numpy, accumulated batch by batch, each an MXNet EvalMetric (`get()` -> GluonCV's (names, values),
`get_name_value()`, `reset()`; `results()` the same numbers as a dict): classification (top-k accuracy; the
confusion matrix), detection (Pascal VOC mAP, 11-point and area; COCO mAP through pycocotools' COCOeval), semantic
segmentation (pixAcc, mIoU), pose (heatmap accuracy) and COCO keypoint (OKS) and mask AP."""
from .base import Metric
from .classification import ConfusionMatrix, TopKAccuracy
from .coco import COCOInstanceMetric, COCOKeyPointsMetric, KeypointAP, MaskAP
from .detection import COCODetectionMetric, VOC07MApMetric, VOCMApMetric
from .pose import HeatmapAccuracy
from .segmentation import (SegmentationMetric, batch_intersection_union, batch_pix_accuracy, intersectionAndUnion,
                           pixelAccuracy)
from .training import (Accuracy, MaskAccMetric, MaskFGAccMetric, RCNNAccMetric, RCNNL1LossMetric, RPNAccMetric,
                       RPNL1LossMetric)

__all__ = ['Metric', 'TopKAccuracy', 'ConfusionMatrix', 'VOCMApMetric', 'VOC07MApMetric', 'COCODetectionMetric',
           'SegmentationMetric', 'HeatmapAccuracy', 'KeypointAP', 'MaskAP', 'COCOKeyPointsMetric', 'COCOInstanceMetric',
           'Accuracy', 'RPNAccMetric', 'RPNL1LossMetric', 'RCNNAccMetric', 'RCNNL1LossMetric', 'MaskAccMetric',
           'MaskFGAccMetric', 'batch_pix_accuracy', 'batch_intersection_union', 'pixelAccuracy',
           'intersectionAndUnion']
