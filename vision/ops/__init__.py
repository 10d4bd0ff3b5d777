"""Operations the detection, segmentation and pose families share, each written once: anchors, box coding, NMS,
RoI pooling/align wrappers (the detection-zoo issue adds them). Blocks with parameters live in vision/layers.py and
the families."""
