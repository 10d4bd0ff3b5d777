"""What cannot be exported yet, as data: {model name: reason}. The registry parity test expects every model NOT
listed here to export and match MXNet in ONNX Runtime, and every model listed to still fail (so an entry that
starts working is noticed and removed). Keep reasons one line, naming the op and what would fix it."""

#: why every GluonCV-style detector fails today: the detection-export issue writes NonMaxSuppression per class
_BOX_NMS = ("cannot export op '_contrib_box_nms': per-class NMS has no ONNX form yet (MXNet's converter would "
            'suppress across classes: wrong detections); the graph without NMS exports and matches ONNX Runtime')

KNOWN_FAILURES = {
    'ssd_300_vgg16_atrous_voc': _BOX_NMS,
    'ssd_300_vgg16_atrous_coco': _BOX_NMS,
    'ssd_300_vgg16_atrous_custom': _BOX_NMS,
    'ssd_512_vgg16_atrous_voc': _BOX_NMS,
    'ssd_512_vgg16_atrous_coco': _BOX_NMS,
    'ssd_512_vgg16_atrous_custom': _BOX_NMS,
    'ssd_512_resnet50_v1_voc': _BOX_NMS,
    'ssd_512_resnet50_v1_coco': _BOX_NMS,
    'ssd_512_resnet50_v1_custom': _BOX_NMS,
    'ssd_512_resnet18_v1_voc': _BOX_NMS,
    'ssd_512_resnet18_v1_coco': _BOX_NMS,
    'ssd_512_resnet101_v2_voc': _BOX_NMS,
    'ssd_512_mobilenet1.0_voc': _BOX_NMS,
    'ssd_512_mobilenet1.0_coco': _BOX_NMS,
    'ssd_512_mobilenet1.0_custom': _BOX_NMS,
    'ssd_300_mobilenet0.25_voc': _BOX_NMS,
    'ssd_300_mobilenet0.25_coco': _BOX_NMS,
    'ssd_300_mobilenet0.25_custom': _BOX_NMS,
    'ssd_300_resnet34_v1b_voc': _BOX_NMS,
    'ssd_300_resnet34_v1b_coco': _BOX_NMS,
    'ssd_300_resnet34_v1b_custom': _BOX_NMS,
    'yolo3_darknet53_voc': _BOX_NMS,
    'yolo3_darknet53_coco': _BOX_NMS,
    'yolo3_darknet53_custom': _BOX_NMS,
    'yolo3_mobilenet1.0_voc': _BOX_NMS,
    'yolo3_mobilenet1.0_coco': _BOX_NMS,
    'yolo3_mobilenet1.0_custom': _BOX_NMS,
    'yolo3_mobilenet0.25_voc': _BOX_NMS,
    'yolo3_mobilenet0.25_coco': _BOX_NMS,
    'yolo3_mobilenet0.25_custom': _BOX_NMS,
    'yolo3_tiny_darknet_coco': _BOX_NMS,
    'faster_rcnn_resnet50_v1b_voc': _BOX_NMS,
    'faster_rcnn_resnet50_v1b_coco': _BOX_NMS,
    'faster_rcnn_resnet50_v1b_custom': _BOX_NMS,
    'faster_rcnn_resnet101_v1d_voc': _BOX_NMS,
    'faster_rcnn_resnet101_v1d_coco': _BOX_NMS,
    'faster_rcnn_resnet101_v1d_custom': _BOX_NMS,
    'faster_rcnn_fpn_resnet50_v1b_coco': _BOX_NMS,
    'faster_rcnn_fpn_resnet101_v1d_coco': _BOX_NMS,
}

#: runtimes of the docs support table (docs/export_support.md, scripts/export/support_table.py)
RUNTIMES = ('ORT Python', 'ORT C++', 'OpenCV C++', 'OpenCV Java')
