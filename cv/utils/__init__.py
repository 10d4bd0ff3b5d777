"""gluoncv.utils: gluonzoo's downloads and files (gluonzoo.filesystem), learning-rate schedules
(gluonzoo.lr_scheduler), training-loop helpers (gluonzoo.gluon_helpers), box helpers (gluonzoo.vision.bbox_utils),
export (gluonzoo.vision.export_helper over gluonzoo.export), and the viz and metrics packages."""
from gluonzoo import aliases
from gluonzoo.filesystem import (PathTree, check_sha1, download, import_try_install, is_valid_url, makedirs,
                                 temporary_filename, try_import, try_import_colorama, try_import_cv2, try_import_dali,
                                 try_import_decord, try_import_gdfDownloader, try_import_html5lib, try_import_mmcv,
                                 try_import_munkres, try_import_rarfile, try_import_skimage, untar, unzip)
from gluonzoo.gluon_helpers import (TrainingHistory, freeze_bn, import_dummy_module, purge_model_nan,
                                    recursive_visit, seed, set_lr_mult, split_and_load, split_data)
from gluonzoo.lr_scheduler import LRScheduler, LRSequential
from gluonzoo.parallel import DataParallelCriterion, DataParallelModel, Parallel, Parallelizable, parallel_backward
from gluonzoo.vision.bbox_utils import bbox_clip_xyxy, bbox_iou, bbox_xywh_to_xyxy, bbox_xyxy_to_xywh
from gluonzoo.vision.compat import check_version
from gluonzoo.vision.export_helper import export_block
from gluonzoo.vision.pil_crops import EfficientNetCenterCrop, EfficientNetRandomCrop

from . import metrics, viz  # noqa: E402,F401

__all__ = ['LRScheduler', 'LRSequential', 'TrainingHistory', 'bbox_iou', 'check_sha1', 'check_version', 'download',
           'export_block', 'freeze_bn', 'import_dummy_module', 'makedirs', 'recursive_visit', 'set_lr_mult',
           'split_and_load', 'split_data', 'try_import_cv2', 'try_import_dali', 'metrics', 'viz']

__getattr__ = aliases.children(__name__)
