"""GluonCV 0.10's segmentation datasets with its signatures and outputs: `SegmentationDataset` (its base: `mode`
'train' augments as GluonCV's _sync_transform, 'val' center-crops, 'testval' gives the whole picture, 'test' the
picture and its file name), `VOCSegmentation`, `ADE20KSegmentation`, `ms_batchify_fn` and
`get_segmentation_dataset`. Images are HxWx3 float32 NDArrays and masks int32 NDArrays (-1 ignored), as GluonCV's.

The augmentation is vision.transforms.segmentation's (Pillow's resampling and blur redone in numpy), drawing from
Python's `random` module in GluonCV's order, so `random.seed(n)` gives GluonCV's crops. gluonzoo's own datasets
(numpy samples, no augmentation) stay in gluonzoo.vision.data.segmentation.
"""
import os
import random

import mxnet as mx
import numpy as np

from ...errors import BadInputError
from ..image import read_image
from ..meta import ADE20K, VOC_SEGMENTATION
from ..transforms.segmentation import sync_eval, sync_train
from .ndarray import VisionDataset
from .segmentation import read_mask

__all__ = ['ADE20KSegmentation', 'SegmentationDataset', 'VOCSegmentation', 'get_segmentation_dataset',
           'ms_batchify_fn']

MODES = ('train', 'val', 'testval', 'test')


class _PythonRandom:
    """The numpy Generator calls sync_train makes, answered by Python's `random` (what GluonCV draws from)."""

    @staticmethod
    def random():
        return random.random()

    @staticmethod
    def integers(low, high):
        return random.randint(low, high - 1)


class SegmentationDataset(VisionDataset):
    """GluonCV's segmentation base: subclasses list `images` and `masks` and set NUM_CLASS (and CLASSES)."""
    NUM_CLASS = 0
    CLASSES = ()
    _transform = None  # not `transform`: Gluon's Dataset.transform(fn) keeps working

    def __init__(self, root, split, mode, transform, base_size=520, crop_size=480):
        self.root = os.path.expanduser(os.fspath(root))
        if not os.path.isdir(self.root):
            raise BadInputError(f'{self.root} is not a folder: download or prepare the dataset there, or pass root=')
        self.split, self.mode = split, mode if mode is not None else split
        if self.mode not in MODES:
            raise BadInputError(f'mode={self.mode!r}: use one of {", ".join(MODES)}')
        self._transform, self.base_size, self.crop_size = transform, base_size, crop_size
        self.images, self.masks = [], []

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        img = read_image(self.images[index])
        if self.mode == 'test':
            img = self._img_transform(img)
            return (self._transform(img) if self._transform else img), os.path.basename(self.images[index])
        mask = read_mask(self.masks[index])
        if mask.shape != img.shape[:2]:
            raise BadInputError(f'{self.masks[index]}: a {mask.shape[0]}x{mask.shape[1]} mask for a '
                                f'{img.shape[0]}x{img.shape[1]} image ({self.images[index]})')
        if self.mode == 'train':
            img, mask = self._sync_transform(img, mask)
        elif self.mode == 'val':
            img, mask = self._val_sync_transform(img, mask)
        else:
            img, mask = self._img_transform(img), self._mask_transform(mask)
        return (self._transform(img) if self._transform else img), mask

    def _sync_transform(self, img, mask):
        # the raw mask is padded with 0, as GluonCV pads it before _mask_transform
        img, mask = sync_train(img, mask, _PythonRandom, self.base_size, self.crop_size, mask_fill=0)
        return self._img_transform(img), self._mask_transform(mask)

    def _val_sync_transform(self, img, mask):
        img, mask = sync_eval(img, mask, self.crop_size)
        return self._img_transform(img), self._mask_transform(mask)

    @staticmethod
    def _img_transform(img):
        return mx.nd.array(img)  # float32, as GluonCV's F.array(np.array(img))

    @staticmethod
    def _mask_transform(mask):
        return mx.nd.array(mask, dtype='int32')

    @property
    def classes(self):
        return type(self).CLASSES

    @property
    def num_class(self):
        return self.NUM_CLASS

    @property
    def pred_offset(self):
        return 0


def _missing(paths, where):
    lost = [p for p in paths if not os.path.isfile(p)]
    if lost:
        raise BadInputError(f'{len(lost)} file(s) that {where} lists are missing: {", ".join(lost[:5])}')


class VOCSegmentation(SegmentationDataset):
    """Pascal VOC 2012 segmentation: `root/VOC2012/JPEGImages/<id>.jpg`, `SegmentationClass/<id>.png` (palette:
    class id, 255 void -> -1), lists `ImageSets/Segmentation/{trainval,val,test}.txt` (split 'train' reads
    trainval, as GluonCV's)."""
    BASE_DIR = 'VOC2012'
    NUM_CLASS = 21
    CLASSES = VOC_SEGMENTATION

    def __init__(self, root=os.path.join('~', '.mxnet', 'datasets', 'voc'), split='train', mode=None,
                 transform=None, **kwargs):
        lists = {'train': 'trainval', 'val': 'val', 'test': 'test'}
        if split not in lists:
            raise BadInputError(f'VOCSegmentation: split={split!r}: use train, val or test')
        super().__init__(root, split, mode, transform, **kwargs)
        folder = os.path.join(self.root, self.BASE_DIR)
        listing = os.path.join(folder, 'ImageSets', 'Segmentation', f'{lists[split]}.txt')
        if not os.path.isfile(listing):
            raise BadInputError(f'{listing} is missing: root is the folder that holds {self.BASE_DIR}/')
        with open(listing) as f:
            ids = [line.rstrip('\n') for line in f if line.strip()]
        self.images = [os.path.join(folder, 'JPEGImages', f'{i}.jpg') for i in ids]
        if split != 'test':
            self.masks = [os.path.join(folder, 'SegmentationClass', f'{i}.png') for i in ids]
        _missing(self.images + self.masks, listing)

    @staticmethod
    def _mask_transform(mask):
        return mx.nd.array(np.where(mask == 255, -1, mask), dtype='int32')


class ADE20KSegmentation(SegmentationDataset):
    """ADE20K scene parsing: `root/ADEChallengeData2016/images/{training,validation}/<name>.jpg` and
    `annotations/...png` (0 "other" -> -1, class c + 1 -> c); split 'train' reads training, any other validation.
    Images are taken in name order (GluonCV's follow os.listdir, whose order the file system decides); a .jpg without
    its mask is skipped with a printed line, as GluonCV's."""
    BASE_DIR = 'ADEChallengeData2016'
    NUM_CLASS = 150
    CLASSES = ADE20K

    def __init__(self, root=os.path.join('~', '.mxnet', 'datasets', 'ade'), split='train', mode=None,
                 transform=None, **kwargs):
        super().__init__(root, split, mode, transform, **kwargs)
        part = 'training' if split == 'train' else 'validation'
        images, masks = (os.path.join(self.root, self.BASE_DIR, sub, part) for sub in ('images', 'annotations'))
        if not os.path.isdir(images):
            raise BadInputError(f'{images} is missing: root is the folder that holds {self.BASE_DIR}/')
        for name in sorted(n for n in os.listdir(images) if n.endswith('.jpg')):
            mask = os.path.join(masks, os.path.splitext(name)[0] + '.png')
            if os.path.isfile(mask):
                self.images.append(os.path.join(images, name))
                self.masks.append(mask)
            else:
                print('cannot find the mask:', mask)
        if not self.images:
            raise BadInputError(f'{images}: no .jpg image with its mask in {masks}')

    @staticmethod
    def _mask_transform(mask):
        return mx.nd.array(mask, dtype='int32') - 1

    @property
    def pred_offset(self):
        return 1


def ms_batchify_fn(data):
    """GluonCV's multi-size batchify: samples stay a list (images of different sizes), per field for tuples."""
    if isinstance(data[0], (str, mx.nd.NDArray)):
        return list(data)
    if isinstance(data[0], tuple):
        return [ms_batchify_fn(field) for field in zip(*data)]
    raise BadInputError(f'ms_batchify_fn batches NDArrays, strings or tuples of them, got {type(data[0]).__name__}')


_DATASETS = {'ade20k': ADE20KSegmentation, 'pascal_voc': VOCSegmentation}


def get_segmentation_dataset(name, **kwargs):
    """The segmentation dataset `name` ('ade20k', 'pascal_voc'; GluonCV's others are not provided yet)."""
    try:
        return _DATASETS[name.lower()](**kwargs)
    except KeyError:
        raise BadInputError(f'segmentation dataset {name!r}: gluonzoo.cv provides {", ".join(sorted(_DATASETS))} '
                            '(pascal_aug, coco, citys and mhpv1 not yet)') from None
