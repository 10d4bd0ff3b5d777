"""Image datasets: Fashion-MNIST (Debian idx files), OpenCV's digits sheet, ImageFolder / ImageNet layout, RecordIO
(.rec + .idx), in-memory arrays in the training engine's batch order, and detection datasets (VOC, COCO, .lst/.rec),
COCO keypoints and instance masks, and generated pose scenes (figures)."""
from .arrays import ArrayData
from .detection import (COCODetection, LstDetection, RecordFileDetection, VOCDetection, pack_detection,
                        parse_label)
from .digits import load_opencv_digits
from .fashion_mnist import CLASSES as FASHION_MNIST_CLASSES, FashionMNIST, load_fashion_mnist, read_idx
from .figures import FigureSpec, figures_folder, make_figures
from .folder import ImageFolder, ImageNet, looks_like_image
from .keypoints import COCOInstance, COCOKeyPoints
from .recordio import ImageRecordDataset, pack
from .segmentation import ADE20KSegmentation, VOCSegmentation, read_mask

__all__ = ['ArrayData', 'load_opencv_digits', 'load_fashion_mnist', 'read_idx', 'FASHION_MNIST_CLASSES',
           'FashionMNIST', 'ImageFolder', 'ImageNet', 'looks_like_image', 'ImageRecordDataset', 'pack',
           'VOCDetection', 'COCODetection', 'LstDetection', 'RecordFileDetection', 'pack_detection', 'parse_label',
           'VOCSegmentation', 'ADE20KSegmentation', 'read_mask', 'COCOKeyPoints', 'COCOInstance', 'FigureSpec',
           'figures_folder', 'make_figures']
