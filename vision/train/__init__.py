"""What the training engine runs for the vision tasks: the tasks (gluonzoo.train.protocol) and the dataset loaders
recipes name with --dataset (registered with gluonzoo.train.datasets)."""
from . import datasets  # noqa: F401
from .classification import ImageClassification
from .detection import ObjectDetection, build_detector
from .pose import PoseEstimation, build_pose_net
from .segmentation import SemanticSegmentation, build_segmenter

__all__ = ['ImageClassification', 'ObjectDetection', 'build_detector', 'SemanticSegmentation', 'build_segmenter',
           'PoseEstimation', 'build_pose_net']
