"""GluonCV 0.10's detection and ImageNet datasets with its signatures and outputs, over gluonzoo's readers
(.detection, .folder): images are HxWx3 uint8 MXNet NDArrays, labels numpy rows (VOC and the .lst/.rec files:
xmin, ymin, xmax, ymax, class, difficult; COCO: the first five), default roots under ~/.mxnet/datasets, and
GluonCV's subclassing hooks: a subclass sets `CLASSES` (and optionally passes `index_map`, class name -> id) to read
its own VOC-style folders, as GluonCV's "prepare a custom dataset" tutorial does. `gluonzoo.cv.data` re-exports
them; gluonzoo's own (numpy images, a `classes=` argument) stay in gluonzoo.vision.data.
"""
import os
import warnings

import mxnet as mx
import numpy as np
from mxnet.gluon.data import Dataset

from .. import meta
from ..meta import COCO, VOC
from ...errors import BadInputError
from ..image import read_image
from . import detection as _ours
from . import keypoints as _keypoints
from .folder import ImageNet as _ImageNet

__all__ = ['COCODetection', 'COCOInstance', 'COCOKeyPoints', 'ClassProperty', 'CustomVOCDetection',
           'CustomVOCDetectionBase', 'ImageNet', 'ImageNet1kAttr', 'KeyPointDataset', 'LstDetection', 'MixupDetection',
           'RecordFileDetection', 'VOCDetection', 'VisionDataset']


def _splits(splits):
    return [splits] if isinstance(splits, str) else list(splits)


def _one_coco(readers):
    """The pycocotools COCO of the one split (GluonCV's: an error with several)."""
    if len(readers) != 1:
        raise ValueError(f'coco: this dataset holds {len(readers)} splits; make one a split')
    return readers[0].coco


def _root(path, default):
    return os.path.expanduser(os.fspath(path if path is not None else os.path.join('~', '.mxnet', 'datasets',
                                                                                   default)))


# -- GluonCV's dataset bases (gluoncv.data.base): what a user's own dataset subclasses ------------------------------
class ClassProperty:
    """A read-only property of the class (`@ClassProperty def classes(cls)`), as GluonCV's data.base has it."""

    def __init__(self, fget):
        self.fget = fget

    def __get__(self, owner_self, owner_cls):
        return self.fget(owner_cls)


class VisionDataset(Dataset):
    """A dataset over the folder `root`, which must exist; a subclass gives `classes` (`num_class` counts them)."""

    def __init__(self, root):
        if not os.path.isdir(os.path.expanduser(root)):
            # FileNotFoundError is an OSError, the type GluonCV's raises here
            raise FileNotFoundError(f'{root} is not a folder: the dataset reads its files from there (prepare the '
                                    'dataset once, or pass root=)')

    @property
    def classes(self):
        raise NotImplementedError(f'{type(self).__name__} must define classes')

    @property
    def num_class(self):
        return len(self.classes)


class KeyPointDataset(VisionDataset):
    """A VisionDataset of keypoints: a subclass gives `num_joints`, `joint_pairs` (swapped by a horizontal flip) and
    `parent_joints` (joint id -> parent joint id)."""

    @property
    def num_joints(self):
        return 0

    @property
    def joint_pairs(self):
        return []

    @property
    def parent_joints(self):
        return {}


class _Samples(Dataset):
    """(NDArray image, label) of the reader's samples, through the optional `transform(image, label)`."""
    _transform = None  # not `transform`: Gluon's Dataset.transform(fn) keeps working

    def __len__(self):
        return len(self._reader)

    def _label(self, label):
        return label

    def __getitem__(self, idx):
        img, label = self._reader.sample(idx)
        img, label = mx.nd.array(img, dtype='uint8'), self._label(label)
        return self._transform(img, label) if self._transform else (img, label)

    @property
    def num_class(self):
        return len(self.classes)


_VOC_SPLITS = ((2007, 'trainval'), (2012, 'trainval'))


class VOCDetection(_Samples, VisionDataset):
    """GluonCV's VOCDetection: `root/VOC<year>/...` for each (year, split) of `splits`; the class names are the
    class's `CLASSES`, their ids `index_map` (default: their order). Labels are read when it is made
    (`preload_label` is accepted: GluonCV's lazy reading gives the same samples)."""
    CLASSES = VOC

    def __init__(self, root=None, splits=_VOC_SPLITS, transform=None, index_map=None, preload_label=True):
        self._reader = _ours.VOCDetection(_root(root, 'voc'), splits, classes=self.classes)
        self._transform, self.preload_label = transform, preload_label
        self.index_map = index_map or dict(zip(self.classes, range(self.num_class)))
        self._ids = np.array([self.index_map[c] for c in self.classes], np.float32)

    @property
    def classes(self):
        return type(self).CLASSES

    def _label(self, label):
        label[:, 4] = self._ids[label[:, 4].astype(int)]
        return label


class CustomVOCDetection(VOCDetection):
    """GluonCV's CustomVOCDetection: VOCDetection's arguments; `generate_classes` names the classes after the
    objects the splits' annotation files hold (sorted) instead of CLASSES."""

    def __init__(self, generate_classes=False, **kwargs):
        if generate_classes:
            self._own_classes = _ours.voc_object_names(_root(kwargs.get('root'), 'voc'),
                                                       kwargs.get('splits', _VOC_SPLITS))
        super().__init__(**kwargs)

    @property
    def classes(self):
        return getattr(self, '_own_classes', None) or type(self).CLASSES


class CustomVOCDetectionBase(CustomVOCDetection):
    """GluonCV's CustomVOCDetectionBase: a dataset of `classes` (default CLASSES) in VOC's format whose `splits`
    are (sub-folder of `root`, split name) pairs ('' for `root` itself); a picture with a box of its classes that
    does not fit inside it (which VOCDetection would clip or drop) is left out."""

    def __init__(self, classes=None, root=None, splits=_VOC_SPLITS, transform=None, index_map=None,
                 preload_label=True):
        if classes:
            self._own_classes = tuple(classes)
        with warnings.catch_warnings():  # the pictures it warns of are the ones left out
            warnings.simplefilter('ignore')
            super().__init__(root=root, splits=splits, transform=transform, index_map=index_map,
                             preload_label=preload_label)
        bad = self._reader.fixed_files
        self._keep = [i for i, (folder, image_id) in enumerate(self._reader.ids)
                      if os.path.join(folder, 'Annotations', f'{image_id}.xml') not in bad]

    def __len__(self):
        return len(self._keep)

    def __getitem__(self, idx):
        return super().__getitem__(self._keep[idx])


class _COCOSplits(_Samples, VisionDataset):
    """What GluonCV's COCO datasets share: one reader per split (`root/annotations/<split>.json`, images in
    `root/<year dir>`: instances_val2017 -> val2017), their samples one after another, `classes` and `coco`."""
    CLASSES = COCO

    def _open(self, root, splits, transform, make_reader):
        """The readers `make_reader(images_dir, ann_file)` of each split, and the category id maps of the first."""
        root = _root(root, 'coco')
        self._readers = [make_reader(os.path.join(root, split.split('_')[-1]),
                                     os.path.join(root, 'annotations', f'{split}.json'))
                         for split in _splits(splits)]
        self._reader = _Concat(self._readers)
        self._transform = transform
        self.contiguous_id_to_json = self._readers[0].contiguous_id_to_json
        self.json_id_to_contiguous = {v: k for k, v in self.contiguous_id_to_json.items()}

    @property
    def classes(self):
        return type(self).CLASSES

    @property
    def coco(self):
        return _one_coco(self._readers)


class COCODetection(_COCOSplits):
    """GluonCV's COCODetection: labels (N, 5), an image without objects one row of -1 (`skip_empty=False`).
    Crowd boxes are kept as ordinary boxes (`use_crowd=True`, GluonCV's default)."""

    def __init__(self, root=None, splits=('instances_val2017',), transform=None, min_object_area=0,
                 skip_empty=True, use_crowd=True):
        self._open(root, splits, transform, lambda images, ann: _ours.COCODetection(
            images, ann, skip_empty=skip_empty, use_crowd=use_crowd, min_object_area=min_object_area))

    def _label(self, label):
        return label[:, :5]


class COCOInstance(_COCOSplits):
    """GluonCV's COCOInstance: samples (image, label (N, 5): x1, y1, x2, y2, class, segm: per object its polygons as
    (K, 2) float32 arrays), through the optional `transform(image, label, segm)`. The objects are
    gluonzoo.vision.data.COCOInstance's (GluonCV's filter); the file's categories must be the class's CLASSES. Only
    images with objects are samples (skip_empty=True)."""

    def __init__(self, root=None, splits=('instances_val2017',), transform=None, min_object_area=1,
                 skip_empty=True):
        if not skip_empty:
            raise BadInputError('COCOInstance(skip_empty=False) is not provided: an image without objects has no '
                                'instances to learn (GluonCV gives it label None)')
        self._open(root, splits, transform,
                   lambda images, ann: _keypoints.COCOInstance(images, ann, min_object_area))
        for reader in self._readers:
            if list(reader.classes) != list(self.classes):
                raise BadInputError(f'{reader.ann_file}: its categories {list(reader.classes)[:5]}... are not '
                                    f'{type(self).__name__}.CLASSES; subclass it with CLASSES = those names')

    def get_im_aspect_ratio(self):
        return [e['width'] / e['height'] for r in self._readers for e in r.coco.loadImgs(r.image_ids)]

    def __getitem__(self, idx):
        reader, i = self._reader.locate(idx)
        objects = reader.objects[i]
        img = mx.nd.array(read_image(reader.items[i]), dtype='uint8')
        label = np.array([[*box, cls] for box, cls, _ in objects], np.float32)
        segm = []
        for ann in reader.coco.loadAnns([o[2] for o in objects]):
            if not isinstance(ann['segmentation'], list):
                raise BadInputError(f'{reader.ann_file}: annotation {ann["id"]} is an RLE mask; COCOInstance reads '
                                    'polygons (GluonCV\'s too): use gluonzoo.vision.data.COCOInstance for RLE')
            segm.append([np.asarray(p, np.float32).reshape(-1, 2) for p in ann['segmentation'] if len(p) >= 6])
        return self._transform(img, label, segm) if self._transform else (img, label, segm)


class COCOKeyPoints(KeyPointDataset):
    """GluonCV's COCOKeyPoints: one sample a person (image NDArray, {'bbox', 'joints_3d'}, image id) of
    `root/annotations/<split>.json` for each of `splits`, the pictures in `root/<coco_url's folder>` (else
    `root/<year dir>`: person_keypoints_val2017 -> val2017). The people are gluonzoo.vision.data.COCOKeyPoints'
    (GluonCV's filter); `check_centers` also drops those whose labelled joints' centre is far from the box's
    centre, and `skip_empty=False` keeps a picture without people as one dummy person (box -1, -1, 0, 0)."""
    CLASSES = ['person']

    def __init__(self, root=None, splits=('person_keypoints_val2017',), check_centers=False, skip_empty=True):
        root = _root(root, 'coco')
        super().__init__(root)
        self._readers, self._samples = [], []
        for split in _splits(splits):
            ann = os.path.join(root, 'annotations', f'{split}.json')
            coco = _ours.load_coco(ann)  # read once: the pictures' folder comes from it, then the people
            images = coco.dataset.get('images') or [{}]
            url = images[0].get('coco_url')
            folder = os.path.join(root, url.split('/')[-2] if url else split.split('_')[-1])
            reader = _keypoints.COCOKeyPoints(folder, ann, coco=coco)
            self._readers.append(reader)
            people = {}
            for i, image_id in enumerate(reader.image_ids):
                if not check_centers or _centred(reader.labels[i]):
                    people.setdefault(image_id, []).append(i)
            for image_id in sorted(reader.coco.getImgIds()):
                if image_id in people:
                    self._samples += [(reader, i, None) for i in people[image_id]]
                elif not skip_empty:
                    self._samples.append((reader, None, image_id))  # GluonCV's dummy person
        self.json_id_to_contiguous = {self._readers[0].category_id: 0} if self._readers else {}
        self.contiguous_id_to_json = {v: k for k, v in self.json_id_to_contiguous.items()}

    @property
    def num_joints(self):
        return 17

    @property
    def joint_pairs(self):
        return [list(p) for p in meta.COCO_FLIP_PAIRS]

    @property
    def coco(self):
        return _one_coco(self._readers)

    def __len__(self):
        return len(self._samples)

    def __getitem__(self, idx):
        reader, i, empty = self._samples[idx]
        if empty is None:
            img, label, image_id = reader.sample(i)
        else:
            entry = reader.coco.loadImgs([empty])[0]
            img, image_id = read_image(os.path.join(reader.images_dir, entry['file_name'])), empty
            label = {'bbox': np.array([-1, -1, 0, 0]), 'joints_3d': np.zeros((self.num_joints, 3, 2), np.float32)}
        return mx.nd.array(img, dtype='uint8'), label, image_id


def _centred(label):
    """GluonCV's check_centers test of one person: exp(-2 |box centre - labelled joints' centre|^2 / box area)
    at least (labelled joints / 80 + 47 / 80)."""
    x1, y1, x2, y2 = label['bbox']
    joints = label['joints_3d']
    seen = joints[:, 0, 1] > 0
    count = float(joints[:, 0, 1].sum())
    kp = np.array([np.sum(joints[:, 0, 0] * seen), np.sum(joints[:, 1, 0] * (joints[:, 1, 1] > 0))]) / count
    box = np.array([(x1 + x2) / 2.0, (y1 + y2) / 2.0])
    ks = np.exp(-2 * np.sum(np.square(box - kp)) / ((y2 - y1) * (x2 - x1)))
    return not (count / 80.0 + 47 / 80.0) > ks


class MixupDetection(Dataset):
    """GluonCV's MixupDetection (Zhang et al., arXiv:1902.04103): each (image, label) of `dataset` blended with
    another sample, drawn by np.random among the others, at weight lambd = clip(mixup(*args), 0, 1) for the first and
    1 - lambd for the second, on a canvas as large as both (uint8, truncated); the labels of both, each row with its
    weight as a last column. mixup None (or lambd 1): the sample itself, weights 1."""

    def __init__(self, dataset, mixup=None, *args):
        self._dataset = dataset
        self.set_mixup(mixup, *args)

    def set_mixup(self, mixup=None, *args):
        """A new weight sampler (e.g. np.random.beta, 1.5, 1.5), or None to stop mixing."""
        self._mixup, self._mixup_args = mixup, args

    def __len__(self):
        return len(self._dataset)

    def __getitem__(self, idx):
        img1, label1 = self._dataset[idx]
        lambd = 1 if self._mixup is None else max(0, min(1, self._mixup(*self._mixup_args)))
        if lambd >= 1:
            return img1, np.hstack((label1, np.ones((label1.shape[0], 1))))
        if len(self) < 2:
            raise BadInputError('MixupDetection needs at least two samples to mix')
        # another sample, uniformly: np.random.randint draws what GluonCV's np.random.choice over the others draws,
        # without building that list for every sample
        other = int(np.random.randint(0, len(self) - 1))
        img2, label2 = self._dataset[other + (other >= idx)]
        a, b = (x.asnumpy() if isinstance(x, mx.nd.NDArray) else np.asarray(x) for x in (img1, img2))
        canvas = np.zeros((max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1]), 3), np.float32)
        canvas[:a.shape[0], :a.shape[1]] = a.astype(np.float32) * np.float32(lambd)
        canvas[:b.shape[0], :b.shape[1]] += b.astype(np.float32) * np.float32(1. - lambd)
        label = np.vstack((np.hstack((label1, np.full((label1.shape[0], 1), lambd))),
                           np.hstack((label2, np.full((label2.shape[0], 1), 1. - lambd)))))
        return mx.nd.array(canvas.astype(np.uint8), dtype='uint8'), label


class _Concat:
    """The samples of several readers, one after another."""

    def __init__(self, readers):
        self._readers = readers
        self._starts = np.cumsum([0] + [len(r) for r in readers])

    def __len__(self):
        return int(self._starts[-1])

    def locate(self, idx):
        """(the reader, its index) of sample `idx`."""
        if not 0 <= idx < len(self):
            raise IndexError(f'index {idx} is out of range for {len(self)} samples')
        part = int(np.searchsorted(self._starts, idx, side='right')) - 1
        return self._readers[part], idx - int(self._starts[part])

    def sample(self, idx):
        reader, i = self.locate(idx)
        return reader.sample(i)


class LstDetection(_Samples):
    """GluonCV's LstDetection: the .lst file `filename`, image paths relative to `root`."""

    def __init__(self, filename, root=''):
        self._reader = _ours.LstDetection(filename, root)


class RecordFileDetection(_Samples):
    """GluonCV's RecordFileDetection: the .rec (+ .idx) `filename`."""

    def __init__(self, filename, coord_normalized=True):
        self._reader = _ours.RecordFileDetection(filename, coord_normalized)


class ImageNet1kAttr:
    """GluonCV's ImageNet1kAttr: the 1000 classes' `synset` ids, short `classes` names (the first of WordNet's
    words: 'tench') and `classes_long` (all of them: 'tench, Tinca tinca'), in class-index order."""

    def __init__(self):
        self.num_class = len(meta.IMAGENET1K)
        self.synset = list(meta.IMAGENET1K_SYNSETS)
        self.classes_long = list(meta.IMAGENET1K)
        self.classes = [words.split(',')[0] for words in self.classes_long]


class ImageNet(Dataset):
    """GluonCV's ImageNet: `root/train` (train=True) or `root/val`, one folder a class: (NDArray image, label),
    through the optional `transform(image, label)` (Gluon's ImageFolderDataset convention)."""

    def __init__(self, root=None, train=True, transform=None):
        self._reader = _ImageNet(_root(root, 'imagenet'), 'train' if train else 'val')
        self._transform = transform
        self.synsets = self.classes = self._reader.classes

    def __len__(self):
        return len(self._reader)

    def __getitem__(self, idx):
        img, label = self._reader[idx]
        img = mx.nd.array(img, dtype='uint8')
        return self._transform(img, label) if self._transform else (img, label)
