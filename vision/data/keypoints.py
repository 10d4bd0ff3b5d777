"""COCO person keypoints and instance masks through pycocotools: `COCOKeyPoints` (one sample a person, GluonCV's
COCOKeyPoints' items and labels) and `COCOInstance` (one sample an image: boxes, class ids, masks).

Both read the annotation file when made (bad files are reported once, up front) and the images lazily by path, so
they pickle into DataLoader workers; `coco` is the pycocotools COCO the metrics (metrics.coco) take. Images are
`root/<file_name>` (e.g. root = figures/JPEGImages or coco/val2017).
"""
import os

import numpy as np
from mxnet.gluon.data import Dataset

from ...errors import BadInputError
from ..image import read_image
from ..meta import COCO_FLIP_PAIRS
from .detection import load_coco



class _COCOFile(Dataset):
    """The pycocotools COCO of `ann_file`, built on first use and again after unpickling, and image paths."""

    def __init__(self, images_dir, ann_file, coco=None):
        self.images_dir, self.ann_file = os.fspath(images_dir), os.fspath(ann_file)
        self._coco = coco  # the file's pycocotools COCO when the caller has read it already

    @property
    def coco(self):
        if getattr(self, '_coco', None) is None:
            self._coco = load_coco(self.ann_file)
        return self._coco

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != '_coco'}

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.sample(idx)

    def _check_images(self):
        missing = sorted({p for p in self.items if not os.path.isfile(p)})
        if missing:
            more = f' and {len(missing) - 3} more' if len(missing) > 3 else ''
            raise BadInputError(f'{len(missing)} image(s) of {self.ann_file} are missing under {self.images_dir}: '
                                f'{", ".join(missing[:3])}{more}')


class COCOKeyPoints(_COCOFile):
    """COCO person keypoints: one item per person annotation, in image-id order, then the file's order, as
    GluonCV's COCOKeyPoints. Crowd annotations, ones without keypoints, boxes of zero area (after GluonCV's
    corners: x + w - 1, clipped to the image) and people with fewer than `min_keypoints` labelled joints (v > 0) are
    skipped. The category is the one named 'person'; annotations of other categories are skipped.

    `sample(i)` -> (image RGB uint8 HxWx3, {'bbox': (x1, y1, x2, y2) floats, 'joints_3d': float32 (joints, 3, 2):
    [:, :2, 0] x, y in pixels, [:, :2, 1] 1 where labelled (v > 0) else 0, [:, 2] zero}, COCO image id);
    `ds[i]` is the same (so Gluon's `ds.transform(fn)` gets fn(image, label, image_id)). `image_ids` holds each
    item's image id, `ann_ids` its annotation id.
    """

    def __init__(self, images_dir, ann_file, min_keypoints=1, coco=None):
        super().__init__(images_dir, ann_file, coco)
        if min_keypoints < 1:
            raise BadInputError(f'min_keypoints must be >= 1 (a person with no labelled joint teaches nothing), '
                                f'not {min_keypoints}')
        self.min_keypoints = min_keypoints
        coco = self.coco
        person = [c for c in coco.loadCats(coco.getCatIds()) if c.get('name') == 'person']
        if not person:
            raise BadInputError(f'{self.ann_file} has no category named "person": not a COCO keypoints file')
        self.category_id = person[0]['id']
        self.num_joints = len(person[0].get('keypoints') or ()) or 17
        self.items, self.labels, self.image_ids, self.ann_ids = [], [], [], []
        for entry in coco.loadImgs(sorted(coco.getImgIds())):
            for a in coco.loadAnns(coco.getAnnIds(imgIds=entry['id'], iscrowd=False)):
                label = self._label(a, entry)
                if label is not None:
                    self.items.append(os.path.join(self.images_dir, entry['file_name']))
                    self.labels.append(label)
                    self.image_ids.append(int(entry['id']))
                    self.ann_ids.append(a['id'])
        self._check_images()

    @property
    def joint_pairs(self):
        """The joint pairs a horizontal flip swaps (0-based)."""
        return COCO_FLIP_PAIRS

    def _label(self, a, entry):
        kp = a.get('keypoints')
        if a['category_id'] != self.category_id or not kp or max(kp) == 0:
            return None
        if len(kp) != 3 * self.num_joints:
            raise BadInputError(f'{self.ann_file}: annotation {a["id"]} has {len(kp)} keypoint values, not '
                                f'3 x {self.num_joints} joints')
        w, h = entry['width'], entry['height']
        x, y, bw, bh = a['bbox']
        x1, y1 = min(max(x, 0), w - 1), min(max(y, 0), h - 1)
        x2, y2 = min(max(x + max(bw - 1, 0), 0), w - 1), min(max(y + max(bh - 1, 0), 0), h - 1)
        if a['area'] <= 0 or x2 <= x1 or y2 <= y1:
            return None
        kp = np.asarray(kp, np.float32).reshape(-1, 3)
        joints = np.zeros((self.num_joints, 3, 2), np.float32)
        joints[:, :2, 0] = kp[:, :2]
        joints[:, :2, 1] = np.minimum(kp[:, 2:], 1)
        if joints[:, 0, 1].sum() < self.min_keypoints:
            return None
        return {'bbox': (float(x1), float(y1), float(x2), float(y2)), 'joints_3d': joints}

    def sample(self, idx):
        label = self.labels[idx]
        return (read_image(self.items[idx]), {'bbox': label['bbox'], 'joints_3d': label['joints_3d'].copy()},
                self.image_ids[idx])


class COCOInstance(_COCOFile):
    """COCO instance masks: one sample an image with at least one object, in image-id order. Objects are GluonCV's
    COCOInstance's: crowd and `ignore` ones skipped, boxes (x, y, x + w, y + h) clipped to the image and kept when
    the area is over `min_object_area` and the box covers at least 4 square pixels. Masks come from pycocotools' annToMask, so
    RLE (the generated scenes' instances_<split>.json) and polygon files alike.

    `sample(i)` -> (image RGB uint8 HxWx3, {'boxes': float32 (N, 4) x1, y1, x2, y2, 'ids': int64 (N,) class index
    (categories in id order, `classes` their names), 'masks': uint8 (N, H, W) 0/1}); `image_ids` holds each
    sample's COCO image id, `contiguous_id_to_json` the category id of each class index.
    """

    def __init__(self, images_dir, ann_file, min_object_area=0):
        super().__init__(images_dir, ann_file)
        coco = self.coco
        cats = sorted(coco.loadCats(coco.getCatIds()), key=lambda c: c['id'])
        if not cats:
            raise BadInputError(f'{self.ann_file} lists no categories')
        self.classes = tuple(c['name'] for c in cats)
        self.contiguous_id_to_json = {i: c['id'] for i, c in enumerate(cats)}
        to_index = {c: i for i, c in self.contiguous_id_to_json.items()}
        self.items, self.image_ids, self.objects = [], [], []
        for entry in coco.loadImgs(sorted(coco.getImgIds())):
            objects = []
            for a in coco.loadAnns(coco.getAnnIds(imgIds=entry['id'])):
                if a.get('iscrowd', 0) or a.get('ignore', 0) == 1:
                    continue
                if a['category_id'] not in to_index:
                    raise BadInputError(f'{self.ann_file}: annotation {a["id"]} has category id {a["category_id"]} '
                                        'that its `categories` do not list')
                w, h = entry['width'], entry['height']
                x, y, bw, bh = a['bbox']
                x1, y1 = min(max(x, 0), w), min(max(y, 0), h)
                x2, y2 = min(max(x + max(bw, 0), 0), w), min(max(y + max(bh, 0), 0), h)
                if a['area'] > min_object_area and x2 > x1 and y2 > y1 and (x2 - x1) * (y2 - y1) >= 4:
                    objects.append(((x1, y1, x2, y2), to_index[a['category_id']], a['id']))
            if objects:
                self.items.append(os.path.join(self.images_dir, entry['file_name']))
                self.image_ids.append(int(entry['id']))
                self.objects.append(objects)
        self._check_images()

    @property
    def num_class(self):
        return len(self.classes)

    def sample(self, idx):
        img = read_image(self.items[idx])
        objects = self.objects[idx]
        anns = self.coco.loadAnns([o[2] for o in objects])
        masks = np.stack([self.coco.annToMask(a) for a in anns]).astype(np.uint8)
        if masks.shape[1:] != img.shape[:2]:
            raise BadInputError(f'{self.items[idx]} is {img.shape[1]}x{img.shape[0]} but {self.ann_file} gives its '
                                f'masks as {masks.shape[2]}x{masks.shape[1]}')
        return img, {'boxes': np.array([o[0] for o in objects], np.float32).reshape(-1, 4),
                     'ids': np.array([o[1] for o in objects], np.int64), 'masks': masks}
