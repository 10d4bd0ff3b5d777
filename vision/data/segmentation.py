"""Semantic segmentation datasets: Pascal VOC folders (palette PNG masks) and the ADE20K layout (grey PNG masks).

Every sample is `(image, mask)`: the image HxWx3 uint8 RGB, the mask HxW int32 class ids with -1 where a pixel is
ignored, GluonCV's convention (VOC's void 255 -> -1; ADE20K's 0 "other" -> -1 and the classes shifted down by one).
Lists are read when the dataset is made, images and masks lazily by path (the datasets pickle and work in
DataLoader worker processes); a mask whose size differs from its image's, or holding a value that is no class, is an
error naming the file when it is read. `transform(image, mask)`, when given, makes the sample (e.g.
`transforms.DetectionPreset(transforms.segmentation.segmentation_train, seed=0, crop_size=480)`).

Masks are decoded by OpenCV (no Pillow): a palette PNG comes back as colors, turned back into palette indices
through the file's own PLTE chunk.
"""
import os
import struct
import warnings

import cv2
import numpy as np

from ...errors import BadInputError
from ..image import read_bytes, read_image
from ..meta import ADE20K, VOC_SEGMENTATION
from .pairs import ImagePairs


def _png_header(data, path):
    """(color type, PLTE as (K, 3) uint8 RGB or None) of PNG bytes."""
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise BadInputError(f'{path} is not a PNG: segmentation masks are palette or grey PNGs')
    pos, color_type, palette = 8, None, None
    while pos + 8 <= len(data):
        length, tag = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if tag == b'IHDR':
            color_type = body[9]
        elif tag == b'PLTE':
            palette = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif tag in (b'IDAT', b'IEND'):
            break
        pos += 12 + length
    return color_type, palette


def read_mask(path):
    """The label values of a palette PNG (its indices) or a grey PNG (its grey levels) as an HxW int32 array.

    >>> import tempfile
    >>> from gluonzoo.vision.data.scenes import encode_palette_png
    >>> with tempfile.NamedTemporaryFile(suffix='.png') as f:
    ...     _ = f.write(encode_palette_png(np.array([[0, 1], [255, 3]], np.uint8))); f.flush()
    ...     read_mask(f.name).tolist()
    [[0, 1], [255, 3]]
    """
    path = os.fspath(path)
    data = read_bytes(path, 'mask')
    color_type, palette = _png_header(data, path)
    if color_type not in (0, 3):
        raise BadInputError(f'{path} is a PNG of color type {color_type}: a mask is a palette (3) or grey (0) PNG '
                            'of class ids')
    buf = np.frombuffer(data, np.uint8)
    if color_type == 0:
        mask = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
        if mask is None or mask.ndim != 2:
            raise BadInputError(f'{path}: OpenCV cannot decode it as a grey PNG')
        return mask.astype(np.int32)
    if palette is None:
        raise BadInputError(f'{path} is a palette PNG without a PLTE chunk')
    bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if bgr is None:
        raise BadInputError(f'{path}: OpenCV cannot decode it (truncated?)')
    key = (bgr[..., 2].astype(np.int32) << 16) | (bgr[..., 1].astype(np.int32) << 8) | bgr[..., 0]
    pal = (palette[:, 0].astype(np.int32) << 16) | (palette[:, 1].astype(np.int32) << 8) | palette[:, 2]
    colors, inverse = np.unique(key, return_inverse=True)
    first = {}
    for i, c in enumerate(pal.tolist()):
        first.setdefault(c, []).append(i)
    unknown = [c for c in colors.tolist() if c not in first]
    if unknown:
        raise BadInputError(f'{path}: {len(unknown)} color(s) are not in its palette')
    if any(len(first[c]) > 1 for c in colors.tolist()):
        raise BadInputError(f'{path}: its palette gives one color to several indices, so they cannot be told apart')
    index = np.array([first[c][0] for c in colors.tolist()], np.int32)
    return index[inverse].reshape(key.shape).astype(np.int32)


class _Segmentation(ImagePairs):
    """What the segmentation datasets share: `masks` (mask paths) beside `items`, `sample(i)` the checked pair,
    and `to_label(raw)` (the dataset's mapping of mask values to class ids)."""

    def sample(self, idx):
        img = read_image(self.items[idx])
        raw = read_mask(self.masks[idx])
        if raw.shape != img.shape[:2]:
            raise BadInputError(f'{self.masks[idx]}: a {raw.shape[0]}x{raw.shape[1]} mask for a '
                                f'{img.shape[0]}x{img.shape[1]} image ({self.items[idx]})')
        mask = self.to_label(raw)
        bad = (mask < -1) | (mask >= self.num_class)
        if bad.any():
            values = np.unique(raw[bad])
            raise BadInputError(f'{self.masks[idx]}: mask values {values[:8].tolist()} are no class of '
                                f'{self.num_class} ({self.valid})')
        return img, mask


def _check_files(items, masks, where):
    missing = [p for p in items + masks if not os.path.isfile(p)]
    if missing:
        more = f' and {len(missing) - 5} more' if len(missing) > 5 else ''
        raise BadInputError(f'{len(missing)} file(s) of {where} are missing: {", ".join(missing[:5])}{more}')


class VOCSegmentation(_Segmentation):
    """Pascal VOC segmentation: `JPEGImages/<id>.jpg`, `SegmentationClass/<id>.png` (palette PNGs: class id, 255
    void -> -1) and the id lists `ImageSets/Segmentation/<list>.txt` (else `ImageSets/Main/<list>.txt`, as the
    scene generator also writes) under `root/VOC2012` as GluonCV's (`root` being the VOCdevkit), or under `root`
    itself when it has no VOC2012 folder (e.g. vision.data.scenes' folders). `split` 'train' reads the list
    trainval, as GluonCV's does; any other split reads its own list ('val', 'test', ...). `classes` names the
    class ids (default meta.VOC_SEGMENTATION, background + VOC's 20; the scenes': `('background',) +
    spec.classes`).
    """
    valid = '0 .. classes - 1, or 255 for void'

    def __init__(self, root, split='train', transform=None, classes=VOC_SEGMENTATION):
        self.root, self.split, self._transform = os.fspath(root), split, transform
        self.classes = tuple(classes)
        folder = os.path.join(self.root, 'VOC2012')
        self.folder = folder if os.path.isdir(folder) else self.root
        name = 'trainval' if split == 'train' else split
        lists = [os.path.join(self.folder, 'ImageSets', sub, f'{name}.txt') for sub in ('Segmentation', 'Main')]
        listing = next((p for p in lists if os.path.isfile(p)), None)
        if listing is None:
            raise BadInputError(f'no list of split {split!r}: neither {lists[0]} nor {lists[1]} exists')
        with open(listing) as f:
            ids = [line.split()[0] for line in f if line.strip()]
        self.ids = ids
        self.items = [os.path.join(self.folder, 'JPEGImages', f'{i}.jpg') for i in ids]
        self.masks = [os.path.join(self.folder, 'SegmentationClass', f'{i}.png') for i in ids]
        _check_files(self.items, self.masks, listing)

    @staticmethod
    def to_label(raw):
        return np.where(raw == 255, -1, raw).astype(np.int32)


class ADE20KSegmentation(_Segmentation):
    """ADE20K (SceneParsing) layout: `images/{training,validation}/<name>.jpg` and
    `annotations/{training,validation}/<name>.png` (grey PNGs: 0 "other" -> -1, class c + 1 -> c) under
    `root/ADEChallengeData2016` as GluonCV's, or under `root` itself when it has no such folder. `split` 'train'
    reads training, any other split validation (GluonCV's). Images are taken in name order; a .jpg without its mask
    is skipped, as GluonCV does, with one warning naming them.
    """
    valid = '0 .. classes, 0 meaning other (ignored)'

    def __init__(self, root, split='train', transform=None, classes=ADE20K):
        self.root, self.split, self._transform = os.fspath(root), split, transform
        self.classes = tuple(classes)
        folder = os.path.join(self.root, 'ADEChallengeData2016')
        self.folder = folder if os.path.isdir(folder) else self.root
        part = 'training' if split == 'train' else 'validation'
        images, annotations = (os.path.join(self.folder, sub, part) for sub in ('images', 'annotations'))
        if not os.path.isdir(images):
            raise BadInputError(f'{images} is missing: an ADE20K folder holds images/ and annotations/, each with '
                                'training/ and validation/')
        names = sorted(os.path.splitext(f)[0] for f in os.listdir(images) if f.endswith('.jpg'))
        have = [n for n in names if os.path.isfile(os.path.join(annotations, f'{n}.png'))]
        if len(have) < len(names):
            lost = sorted(set(names) - set(have))
            warnings.warn(f'{annotations}: no mask for {len(lost)} image(s), skipped: {", ".join(lost[:5])}',
                          stacklevel=2)
        if not have:
            raise BadInputError(f'{images}: no .jpg image with a mask in {annotations}')
        self.ids = have
        self.items = [os.path.join(images, f'{n}.jpg') for n in have]
        self.masks = [os.path.join(annotations, f'{n}.png') for n in have]

    @staticmethod
    def to_label(raw):
        return raw.astype(np.int32) - 1
