"""Object detection families (SSD, YOLOv3, Faster R-CNN, CenterNet: the detection-zoo issue), one file or folder a
family. A detector takes its backbone from the registry (`registry.get_backbone`, GluonCV's `pretrained_base`),
returns GluonCV's `(ids, scores, bboxes)` and implements `reset_class(classes, reuse_weights=None)`; the shared box,
anchor and NMS operations live in vision/ops/."""
from . import center_net  # noqa: F401
from . import yolo3  # noqa: F401
from . import yolo3_tiny  # noqa: F401
from . import faster_rcnn  # noqa: F401
from . import ssd  # noqa: F401
