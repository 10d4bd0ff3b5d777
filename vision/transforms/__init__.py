"""Image transforms on OpenCV + numpy, driven by a weights record's `preprocess`; box-aware ops (bbox) and GluonCV's
detection presets (detection), segmentation's and SimplePose's (pose)."""
from . import bbox, detection, functional, pose, segmentation
from .detection import (DetectionPreset, center_net_eval, center_net_train, faster_rcnn_eval, faster_rcnn_train,
                        ssd_eval, ssd_train, yolo3_eval, yolo3_train)
from .presets import cifar_eval, cifar_train, from_preprocess, image_eval, imagenet_eval, imagenet_train

__all__ = ['functional', 'image_eval', 'imagenet_eval', 'imagenet_train', 'cifar_eval', 'cifar_train',
           'from_preprocess', 'bbox', 'detection', 'DetectionPreset', 'ssd_train', 'ssd_eval', 'yolo3_train',
           'yolo3_eval', 'faster_rcnn_train', 'faster_rcnn_eval', 'center_net_train', 'center_net_eval',
           'segmentation', 'pose']
