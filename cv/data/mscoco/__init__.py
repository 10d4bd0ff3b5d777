"""gluoncv.data.mscoco: the dataset base, box helpers and import guards its leaf modules import (`keypoints`,
`segmentation`, `utils`); the datasets are gluoncv.data's (zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.filesystem import import_try_install, try_import_pycocotools  # noqa: F401
from gluonzoo.vision.bbox_utils import bbox_clip_xyxy, bbox_xywh_to_xyxy  # noqa: F401
from gluonzoo.vision.data.ndarray import VisionDataset  # noqa: F401

__getattr__ = aliases.children(__name__)
