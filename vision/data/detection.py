"""Object detection datasets: Pascal VOC folders, COCO JSON (through pycocotools), GluonCV's .lst / .rec detection
files, and the packer behind scripts/vision/pack_detection.py.

Every sample is `(image, label)`: the image HxWx3 uint8 RGB, the label a float32 array (N, 6) of
`x1, y1, x2, y2, class id, difficult` in pixels of that image, GluonCV's layout (its VOC labels have these six
columns; its COCO labels the first five, so ours add difficult = 0, or 1 for kept crowd boxes). Annotations are
read when the dataset is made (so bad ones are reported once, up front); images are read lazily by path, so the
datasets pickle and work in DataLoader worker processes. `transform(image, label)`, when given, makes the sample
(e.g. `transforms.detection.ssd_eval`).

GluonCV's .lst / .rec detection label (MXNet im2rec's packing) is one flat float vector: a header of A values
(A itself, then B, then anything else, e.g. width and height), then one object per B values:
`class id, x1, y1, x2, y2[, difficult, ...]`, the corners normalized to 0-1 by default.
"""
import contextlib
import glob
import io
import os
import warnings
import xml.etree.ElementTree as ET

import cv2
import numpy as np

from ...errors import BadInputError
from ..image import decode_rgb, read_image
from ..meta import VOC
from .pairs import ImagePairs
from .recordio import ImageRecordDataset, packing

#: label header of the files pack_detection writes: A = 4 values (A, B, image width, image height), B = 6 per object
HEADER, WIDTH = 4, 6


def _names(items, limit=5):
    more = f' and {len(items) - limit} more' if len(items) > limit else ''
    return ', '.join(str(i) for i in items[:limit]) + more


class _Detection(ImagePairs):
    """What every detection dataset shares: `labels` (one (N, 6) array an image) beside `items`."""

    def sample(self, idx):
        return read_image(self.items[idx]), self.labels[idx].copy()


def voc_folder(root, year):
    """The folder of one VOC year under a VOCdevkit `root`: VOC<year> (a year that is not a number names the folder
    itself; none: `root` is that folder)."""
    if year is None or year == '':
        return os.fspath(root)
    year = str(year)
    return os.path.join(root, f'VOC{year}' if year.isdigit() else year)


def _read_xml(xml):
    """The root element of VOC annotation file `xml`."""
    try:
        return ET.parse(xml).getroot()
    except (OSError, ET.ParseError) as e:
        raise BadInputError(f'cannot read VOC annotation {xml}: {e}') from None


def _object_name(obj):
    return (obj.findtext('name') or '').strip().lower()  # names are matched stripped and in lower case


def voc_object_names(root, splits):
    """The sorted object names (as the labels match them) of every annotation file of the VOC years of `splits`."""
    names = set()
    for year, _ in splits:
        ann = os.path.join(voc_folder(root, year), 'Annotations')
        if not os.path.isdir(ann):
            raise BadInputError(f'{ann} is missing: a VOC folder holds Annotations/, ImageSets/Main/ and JPEGImages/')
        for xml in sorted(glob.glob(os.path.join(ann, '*.xml'))):
            names.update(_object_name(obj) for obj in _read_xml(xml).iter('object'))
    return sorted(names - {''})


class VOCDetection(_Detection):
    """Pascal VOC: `root/VOC<year>/{Annotations/<id>.xml, ImageSets/Main/<split>.txt, JPEGImages/<id>.jpg}`.

    `splits` lists (year, split) pairs as GluonCV's: a year (2007 or '2007') is the folder `VOC<year>`, another
    string is a folder name as it is, None or '' the root itself. `classes` gives the class ids (their order);
    objects of other classes are skipped, as GluonCV does, and counted in one warning. Corners are GluonCV's: the
    XML's 1-based pixel indices minus 1. Boxes reaching outside the image (the XML's <size>) are clipped to it,
    boxes left empty or with x2 <= x1 dropped; both are counted in one warning naming the files (GluonCV drops
    every box it finds outside and logs each). `difficult` is the XML's flag (0 when missing).
    """

    def __init__(self, root, splits=(('2007', 'trainval'),), classes=VOC, transform=None):
        self.root, self.splits, self._transform = os.fspath(root), tuple(splits), transform
        self.classes = tuple(classes)
        index = {c.strip().lower(): i for i, c in enumerate(self.classes)}
        self.items, self.labels, self.ids = [], [], []
        fixed, skipped = {}, {}  # xml path -> [clipped, dropped]; class name -> count
        for year, split in self.splits:
            folder = self._folder(year)
            ann, listing = os.path.join(folder, 'Annotations'), os.path.join(folder, 'ImageSets', 'Main',
                                                                              f'{split}.txt')
            if not os.path.isdir(ann):
                raise BadInputError(f'{ann} is missing: a VOC folder holds Annotations/, ImageSets/Main/ and '
                                    'JPEGImages/')
            if not os.path.isfile(listing):
                raise BadInputError(f'{listing} is missing: no split {split!r} in {folder}')
            with open(listing) as f:
                ids = [line.split()[0] for line in f if line.strip()]
            for image_id in ids:
                xml = os.path.join(ann, f'{image_id}.xml')
                self.labels.append(self._parse(xml, index, fixed, skipped))
                self.items.append(os.path.join(folder, 'JPEGImages', f'{image_id}.jpg'))
                self.ids.append((folder, image_id))
        missing = [p for p in self.items if not os.path.isfile(p)]
        if missing:
            raise BadInputError(f'{len(missing)} image(s) of {self.root} are missing: {_names(missing)}')
        self.clipped = sum(c for c, _ in fixed.values())
        self.dropped = sum(d for _, d in fixed.values())
        self.skipped = dict(skipped)
        #: the annotation files with a box clipped or dropped
        self.fixed_files = frozenset(fixed)
        if fixed:
            warnings.warn(f'{self.root}: clipped {self.clipped} box(es) to their image and dropped {self.dropped} '
                          f'(empty, or x2 <= x1) in {len(fixed)} file(s): '
                          f'{_names(sorted(map(os.path.basename, fixed)))}', stacklevel=2)
        if skipped:
            counts = ', '.join(f'{k} ({v})' for k, v in sorted(skipped.items()))
            warnings.warn(f'{self.root}: skipped {sum(skipped.values())} object(s) of classes not in `classes`: '
                          f'{counts}', stacklevel=2)

    def _folder(self, year):
        return voc_folder(self.root, year)

    @staticmethod
    def _parse(xml, index, fixed, skipped):
        root = _read_xml(xml)
        size = root.find('size')
        try:
            width, height = float(size.find('width').text), float(size.find('height').text)
        except (AttributeError, TypeError, ValueError):
            raise BadInputError(f'{xml} has no <size><width>/<height>: boxes cannot be checked') from None
        rows = []
        for obj in root.iter('object'):
            cls = _object_name(obj)
            if cls not in index:
                skipped[cls] = skipped.get(cls, 0) + 1
                continue
            try:
                difficult = int(obj.findtext('difficult'))
            except (TypeError, ValueError):
                difficult = 0
            box = obj.find('bndbox')
            try:
                x1, y1, x2, y2 = (float(box.findtext(k)) - 1 for k in ('xmin', 'ymin', 'xmax', 'ymax'))
            except (AttributeError, TypeError, ValueError):
                raise BadInputError(f'{xml}: an object {cls!r} has no numeric <bndbox> xmin/ymin/xmax/ymax') from None
            # GluonCV's valid range: 0 <= x1 < x2 <= width (and the same for y)
            cx1, cx2 = min(max(x1, 0.0), width), min(max(x2, 0.0), width)
            cy1, cy2 = min(max(y1, 0.0), height), min(max(y2, 0.0), height)
            if cx2 <= cx1 or cy2 <= cy1:
                fixed.setdefault(xml, [0, 0])[1] += 1
                continue
            if (cx1, cy1, cx2, cy2) != (x1, y1, x2, y2):
                fixed.setdefault(xml, [0, 0])[0] += 1
            rows.append((cx1, cy1, cx2, cy2, index[cls], difficult))
        return np.array(rows, np.float32).reshape(-1, 6)


class COCODetection(_Detection):
    """COCO boxes of `annotation_file` (read by pycocotools), images at `root/<file_name>` (e.g. root = coco/val2017).

    Class ids are the categories in category-id order (GluonCV's contiguous ids); `classes` their names,
    `contiguous_id_to_json` the way back. Boxes are GluonCV's: COCO's (x, y, w, h) as corners x + w - 1 (a 1x1 box
    is one pixel), clipped to the image, kept when their area is positive; objects under `min_object_area` or marked
    `ignore` are skipped. Crowd boxes are skipped (`use_crowd=True` keeps them with difficult = 1, so the VOC
    metrics ignore them as COCOeval does; GluonCV keeps them by default, as ordinary boxes). Images without objects
    are skipped (`skip_empty=True`, GluonCV's default) or kept with one row of -1, GluonCV's placeholder, which the
    metrics ignore. An annotation whose category id is not among `categories` is an error naming the ids.
    `image_ids` holds each sample's COCO image id; `coco` the pycocotools COCO object (COCODetectionMetric's).
    """

    def __init__(self, root, annotation_file, transform=None, skip_empty=True, use_crowd=False, min_object_area=0):
        self.root, self.annotation_file = os.fspath(root), os.fspath(annotation_file)
        self._transform, self.skip_empty, self.use_crowd = transform, skip_empty, use_crowd
        coco = self.coco
        cats = sorted(coco.loadCats(coco.getCatIds()), key=lambda c: c['id'])
        if not cats:
            raise BadInputError(f'{self.annotation_file} lists no categories')
        self.classes = tuple(c['name'] for c in cats)
        self.json_id_to_contiguous = {c['id']: i for i, c in enumerate(cats)}
        self.contiguous_id_to_json = {i: c for c, i in self.json_id_to_contiguous.items()}
        unknown = sorted({a['category_id'] for a in coco.dataset.get('annotations', [])}
                         - set(self.json_id_to_contiguous))
        if unknown:
            raise BadInputError(f'{self.annotation_file}: annotations use category ids {unknown} that its '
                                f'`categories` do not list')
        self.items, self.labels, self.image_ids, self.dropped = [], [], [], 0
        for entry in coco.loadImgs(sorted(coco.getImgIds())):
            rows = self._rows(coco.imgToAnns[entry['id']], entry, min_object_area)
            if not rows and skip_empty:
                continue
            self.items.append(os.path.join(self.root, entry['file_name']))
            self.labels.append(np.array(rows or [(-1,) * 6], np.float32).reshape(-1, 6))
            self.image_ids.append(entry['id'])
        missing = [p for p in self.items if not os.path.isfile(p)]
        if missing:
            raise BadInputError(f'{len(missing)} image(s) of {self.annotation_file} are missing under {self.root}: '
                                f'{_names(missing)}')

    def _rows(self, anns, entry, min_area):
        width, height, rows = entry['width'], entry['height'], []
        for a in anns:
            crowd = a.get('iscrowd', 0)
            if a['area'] < min_area or a.get('ignore', 0) == 1 or (crowd and not self.use_crowd):
                continue
            x, y, w, h = a['bbox']
            x1, y1 = min(max(x, 0), width - 1), min(max(y, 0), height - 1)
            x2, y2 = min(max(x + max(w - 1, 0), 0), width - 1), min(max(y + max(h - 1, 0), 0), height - 1)
            if a['area'] > 0 and x2 > x1 and y2 > y1:
                rows.append((x1, y1, x2, y2, self.json_id_to_contiguous[a['category_id']], 1 if crowd else 0))
            else:
                self.dropped += 1
        return rows

    @property
    def coco(self):
        """pycocotools' COCO of the annotation file (built on first use, again after unpickling)."""
        if getattr(self, '_coco', None) is None:
            self._coco = load_coco(self.annotation_file)
        return self._coco

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != '_coco'}  # workers need no COCO index


def load_coco(ann_file):
    """pycocotools' COCO of annotation file `ann_file`, quietly; one BadInputError when it is missing or not COCO."""
    from pycocotools.coco import COCO
    if not os.path.isfile(ann_file):
        raise BadInputError(f'{ann_file} does not exist: give a COCO annotation JSON file')
    with contextlib.redirect_stdout(io.StringIO()):  # its "loading annotations..." chatter
        try:
            return COCO(ann_file)
        except (ValueError, KeyError, TypeError) as e:
            raise BadInputError(f'{ann_file} is not COCO JSON: {e!r}') from None


def parse_label(raw, width=None, height=None, where='label'):
    """GluonCV's flat .lst / .rec detection label -> (N, 6) x1, y1, x2, y2, class id, difficult (the sixth value of
    an object when B >= 6, else 0; further values are dropped); corners times width/height when given.

    >>> parse_label([2, 5, 1, 0.1, 0.2, 0.5, 1.0], width=200, height=100).tolist()
    [[20.0, 20.0, 100.0, 100.0, 1.0, 0.0]]
    """
    raw = np.asarray(raw, np.float64).ravel()
    if raw.size < 2:
        raise BadInputError(f'{where}: a detection label starts with A (the header length) and B (values per '
                            f'object); got {raw.size} value(s)')
    a, b = int(raw[0]), int(raw[1])
    if a < 2 or b < 5 or raw.size < a or (raw.size - a) % b:
        raise BadInputError(f'{where}: header length A={raw[0]:g} and object width B={raw[1]:g} (A >= 2, B >= 5) '
                            f'do not fit a label of {raw.size} values')
    objs = raw[a:].reshape(-1, b)
    out = np.zeros((len(objs), 6), np.float32)
    out[:, :4], out[:, 4] = objs[:, 1:5], objs[:, 0]
    if b >= 6:
        out[:, 5] = objs[:, 5]
    if width is not None:
        out[:, [0, 2]] *= width
        out[:, [1, 3]] *= height
    return out


class LstDetection(_Detection):
    """GluonCV's .lst detection file: `index <tab> label values... <tab> image path` a line, paths relative to
    `root`; corners normalized to 0-1 unless `coord_normalized=False`. Labels are checked when the file is read."""

    def __init__(self, lst_file, root='', coord_normalized=True, transform=None, classes=None):
        self.lst_file, self.root, self._transform = os.fspath(lst_file), os.fspath(root), transform
        self.coord_normalized, self.classes = coord_normalized, tuple(classes) if classes else None
        if not os.path.isfile(self.lst_file):
            raise BadInputError(f'{self.lst_file} does not exist')
        self.items, self.raw = [], []
        with open(self.lst_file) as f:
            for n, line in enumerate(f, 1):
                fields = line.rstrip('\n').split('\t')
                if not line.strip():
                    continue
                where = f'{self.lst_file} line {n}'
                try:
                    raw = np.array(fields[1:-1], np.float32)
                except ValueError:
                    raise BadInputError(f'{where}: label values are not numbers') from None
                parse_label(raw, where=where)
                self.items.append(os.path.join(self.root, fields[-1]))
                self.raw.append(raw)

    def sample(self, idx):
        img = read_image(self.items[idx])
        h, w = img.shape[:2]
        scale = (w, h) if self.coord_normalized else (None, None)
        return img, parse_label(self.raw[idx], *scale, where=f'{self.lst_file} item {idx}')


class RecordFileDetection(ImageRecordDataset):
    """GluonCV's .rec detection file (with its .idx): images and flat labels as MXNet's ImageDetRecordIter reads
    them; corners normalized to 0-1 unless `coord_normalized=False`."""

    def __init__(self, rec_file, coord_normalized=True, transform=None, classes=None):
        super().__init__(rec_file)
        self.coord_normalized, self.det_transform = coord_normalized, transform
        self.classes = tuple(classes) if classes else None

    def sample(self, idx):
        import mxnet as mx
        header, data = mx.recordio.unpack(self._io.read_idx(self.keys[idx]))
        img = decode_rgb(data)
        if img is None:
            raise BadInputError(f'{self.rec}: record {self.keys[idx]} does not hold a decodable image')
        h, w = img.shape[:2]
        scale = (w, h) if self.coord_normalized else (None, None)
        return img, parse_label(header.label, *scale, where=f'{self.rec} record {self.keys[idx]}')

    def __getitem__(self, idx):
        img, label = self.sample(idx)
        return self.det_transform(img, label) if self.det_transform else (img, label)


def pack_detection(dataset, prefix, quality=95, encoding='.jpg', progress=None):
    """Write `prefix.lst`, `prefix.rec` and `prefix.idx` (GluonCV's detection formats) from a dataset with `items`
    and `sample(i)` (VOCDetection, COCODetection, LstDetection); returns (records, objects) written.

    Each label is the header (4, 6, width, height) then `class id, x1/w, y1/h, x2/w, y2/h, difficult` per object;
    GluonCV's placeholder rows (class -1) are left out, so an image without objects has the header only (our
    readers take it; GluonCV's RecordFileDetection wants at least one object). Images are re-encoded ('.jpg' at
    `quality`, or '.png', lossless), through recordio.packing (nothing half-written is left behind).
    """
    import mxnet as mx
    params = [cv2.IMWRITE_JPEG_QUALITY, quality] if encoding == '.jpg' else []
    n = objects = 0
    with packing(prefix) as (writer, lst):
        for i in range(len(dataset)):
            img, label = dataset.sample(i)
            h, w = img.shape[:2]
            label = label[label[:, 4] >= 0]
            objs = np.concatenate([label[:, 4:5], label[:, :4] / np.float32([w, h, w, h]), label[:, 5:6]], 1)
            flat = np.concatenate([[HEADER, WIDTH, w, h], objs.ravel()]).astype(np.float32)
            ok, buf = cv2.imencode(encoding, cv2.cvtColor(img, cv2.COLOR_RGB2BGR), params)
            if not ok:
                raise BadInputError(f'cannot encode {dataset.items[i]} as {encoding}')
            writer.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, flat, i, 0), buf.tobytes()))
            values = '\t'.join(str(v) for v in flat)  # float32's shortest repr: the .lst reads back as the .rec
            lst.write(f'{i}\t{values}\t{dataset.items[i]}\n')
            n, objects = n + 1, objects + len(label)
            if progress:
                progress(1)
    return n, objects
