"""Metrics on numpy, accumulated batch by batch: classification (top-k accuracy, confusion matrix), detection
(Pascal VOC mAP, 11-point and area; COCO mAP through pycocotools' COCOeval), and COCO keypoint (OKS) and mask AP."""
from .classification import ConfusionMatrix, TopKAccuracy
from .coco import KeypointAP, MaskAP
from .detection import COCODetectionMetric, VOC07MApMetric, VOCMApMetric
from .segmentation import SegmentationMetric

__all__ = ['TopKAccuracy', 'ConfusionMatrix', 'VOCMApMetric', 'VOC07MApMetric', 'COCODetectionMetric',
           'SegmentationMetric', 'KeypointAP', 'MaskAP']
