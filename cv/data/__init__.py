"""gluoncv.data: GluonCV's datasets with its signatures and NDArray images (gluonzoo.vision.data.ndarray, over
gluonzoo's readers), transforms and batchify."""
from gluonzoo import aliases
from gluonzoo.vision.data.ndarray import (COCODetection, COCOInstance, COCOKeyPoints,  # noqa: F401
                                         CustomVOCDetection, CustomVOCDetectionBase, ImageNet, ImageNet1kAttr,
                                         LstDetection, MixupDetection, RecordFileDetection, VOCDetection)
# the leaf modules data.sampler and data.dataloader are served from here, so their names are attributes here too
from gluonzoo.vision.data.gluoncv_loading import (DetectionDataLoader, RandomTransformDataLoader,  # noqa: F401
                                                  ShuffleSplitSampler, SplitSampler, SplitSortedBucketSampler,
                                                  default_mp_pad_batchify_fn, default_pad_batchify_fn,
                                                  tsn_mp_batchify_fn)
from gluonzoo.vision.data.video import (HMDB51, UCF101, HMDB51Attr, Kinetics400, Kinetics400Attr,  # noqa: F401
                                       Kinetics700, Kinetics700Attr, SomethingSomethingV2, SomethingSomethingV2Attr,
                                       UCF101Attr, VideoClsCustom)
from gluonzoo.vision.data.gluoncv_segmentation import (ADE20KSegmentation, SegmentationDataset,  # noqa: F401
                                                       VOCSegmentation, get_segmentation_dataset, ms_batchify_fn)

__all__ = ['ADE20KSegmentation', 'COCODetection', 'COCOInstance', 'COCOKeyPoints', 'CustomVOCDetection',
           'CustomVOCDetectionBase', 'DetectionDataLoader', 'HMDB51', 'HMDB51Attr', 'ImageNet', 'ImageNet1kAttr',
           'Kinetics400', 'Kinetics400Attr', 'Kinetics700', 'Kinetics700Attr', 'LstDetection', 'MixupDetection',
           'RandomTransformDataLoader', 'RecordFileDetection', 'SegmentationDataset', 'ShuffleSplitSampler',
           'SomethingSomethingV2', 'SomethingSomethingV2Attr', 'SplitSampler', 'UCF101', 'UCF101Attr', 'VOCDetection',
           'VOCSegmentation', 'VideoClsCustom', 'get_segmentation_dataset', 'ms_batchify_fn']
__getattr__ = aliases.children(__name__)
