"""Generated detection scenes: real objects pasted on real photos, written as a Pascal VOC folder and as COCO JSON.

There is no labelled detection data on these machines, so `make_scenes` makes some, deterministically (a fixed
`SceneSpec` gives the same bytes): each scene is a random crop of one of OpenCV's sample photos (Debian
`opencv-doc`; the test split's scenes use other photos than train/val) with 2 to 8 objects pasted on it at random
scales and places, some overlapping, some cut by the border. An object is a real image, a Fashion-MNIST item (Debian
`dataset-fashion-mnist`; test scenes take the test items) or one of OpenCV's handwritten digits, cut out by its own
pixels: after scaling, the pixels brighter than `MASK_THRESHOLD` are the object (its mask) and get a random color
shaded by the item's grey levels; everything else stays photo. Objects pasted later cover earlier ones; one left
with a sliver visible (`MIN_VISIBLE`) is erased, the photo restored under it, so every painted pixel is labelled.

What is written, under `root`:

    JPEGImages/<id>.jpg               the scenes (quality 95)
    Annotations/<id>.xml              VOC XML: size, and per visible object name, pose, truncated (its mask is cut by
                                      the border), occluded (covered in part by a later object), difficult (less
                                      than 40% of its mask visible, or a box side under 8 pixels), bndbox (1-based
                                      pixels of its visible mask, VOC's convention)
    SegmentationClass/<id>.png        palette PNGs (VOC's colormap): class id + 1 on each object's visible pixels,
    SegmentationObject/<id>.png       resp. the object's 1-based index in the XML; 0 background; 255 on the border
                                      of the objects: background pixels touching an object (8-neighbourhood). VOC
                                      draws its 255 band across the edge; here it lies outside, so the object pixels
                                      are exactly the masks (the segmentation tasks reuse them); VOC also voids
                                      difficult objects, here they keep their class
    ImageSets/Main/<split>.txt        train, val, test and trainval ids (and the same in ImageSets/Segmentation/)
    annotations/instances_<split>.json  COCO: images, categories (ids 1..K in class order), per visible object its
                                      bbox [x, y, w, h] and area of its visible mask, the mask as RLE
                                      (pycocotools.mask), iscrowd 0; file_name relative to JPEGImages/
    classes.txt                       the class names, one a line, in class-id order
    scenes.json                       the spec, per split the images and objects, and `checksum`: sha256 over every
                                      other file (relative path and bytes, in path order)

VOCDetection(root, splits=[(None, 'train')], classes=...) and COCODetection(root/'JPEGImages',
root/'annotations/instances_train.json') read them; `scenes_folder(spec)` generates a folder once under the cache
and reuses it while its files still match its checksum.
"""
import contextlib
import dataclasses
import functools
import hashlib
import json
import os
import shutil
import tempfile
import warnings

import cv2
import numpy as np

from ...errors import BadInputError
from ..image import encode_palette_png
from ..meta import DIGITS, FASHION_MNIST

#: bumped whenever the same spec would write other bytes
VERSION = 1
#: where the Debian package opencv-doc puts OpenCV's sample photos; $GLUONZOO_OPENCV_DATA overrides it
PHOTO_DIR = '/usr/share/doc/opencv-doc/examples/data'
#: photos of real scenes (or paintings) among them; the test split's scenes are cut from the second set only
TRAIN_PHOTOS = ('aero1.jpg', 'aloeL.jpg', 'apple.jpg', 'baboon.jpg', 'basketball1.png', 'board.jpg', 'building.jpg',
                'butterfly.jpg', 'fruits.jpg', 'graf1.png', 'home.jpg', 'leuvenA.jpg', 'messi5.jpg',
                'rubberwhale1.png', 'squirrel_cls.jpg', 'starry_night.jpg')
TEST_PHOTOS = ('box_in_scene.png', 'chicky_512.png', 'ela_original.jpg', 'licenseplate_motion.jpg', 'orange.jpg',
               'smarties.png', 'stuff.jpg', 'sudoku.png')
SPLITS = ('train', 'val', 'test')
#: a scaled item's pixels above this grey level are the object (Fashion-MNIST and the digits are black-backed)
MASK_THRESHOLD = 32
#: an object is difficult when less of its mask than this shows (covered, or cut by the border)
DIFFICULT_VISIBLE = 0.4
#: objects left with fewer visible pixels than this, or a visible box under 3 pixels a side, are erased
MIN_VISIBLE = 12
#: the largest IoU a new object's box may have with an earlier one (some overlap, never one hiding another)
MAX_OVERLAP = 0.35
_CLASSES = {'fashion_mnist': FASHION_MNIST, 'digits': DIGITS}
_SOURCES = {'fashion_mnist': 'Fashion-MNIST items (Debian dataset-fashion-mnist)',
            'digits': "OpenCV's handwritten digits (Debian opencv-doc digits.png)"}


@dataclasses.dataclass(frozen=True)
class SceneSpec:
    """What a scene folder holds: scenes per split, their side in pixels, the object source ('fashion_mnist' or
    'digits'), objects per scene and the seed. Scene i of a split depends on (seed, split, i) only, so a spec with
    fewer scenes gives the first scenes of a larger one."""
    train: int = 2000
    val: int = 200
    test: int = 500
    size: int = 128
    objects: str = 'fashion_mnist'
    min_objects: int = 2
    max_objects: int = 8
    seed: int = 0

    def __post_init__(self):
        if self.objects not in _CLASSES:
            raise BadInputError(f'scene objects {self.objects!r} are not one of {sorted(_CLASSES)}')
        if min(self.train, self.val, self.test) < 0 or self.train + self.val + self.test < 1:
            raise BadInputError('a scene folder needs at least one scene (train, val, test >= 0)')
        if not 1 <= self.min_objects <= self.max_objects:
            raise BadInputError(f'objects per scene: 1 <= min_objects ({self.min_objects}) <= max_objects '
                                f'({self.max_objects})')
        if self.size < 32:
            raise BadInputError(f'scenes are at least 32 pixels wide, not {self.size}')

    @property
    def classes(self):
        return _CLASSES[self.objects]

    def key(self):
        """The folder name of this spec in the cache."""
        return (f'{self.objects}-{self.size}px-{self.train}-{self.val}-{self.test}-'
                f'{self.min_objects}to{self.max_objects}-seed{self.seed}-v{VERSION}')


# -- PNG with a palette (VOC's segmentation format), written without Pillow -------------------------------------
# -- rendering ----------------------------------------------------------------------------------------------------
def _photo_dir():
    return os.environ.get('GLUONZOO_OPENCV_DATA') or PHOTO_DIR


@functools.lru_cache(maxsize=4)
def _load_photos(names):
    out = []
    for name in names:
        path = os.path.join(_photo_dir(), name)
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        if img is None:
            raise BadInputError(f'{path} is missing or unreadable: the scenes need the Debian package opencv-doc '
                                '(apt-get install opencv-doc) or $GLUONZOO_OPENCV_DATA')
        out.append(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    return tuple(out)


@functools.lru_cache(maxsize=4)
def _load_objects(kind, part):
    if kind == 'fashion_mnist':
        from .fashion_mnist import load_fashion_mnist
        return load_fashion_mnist(part)
    from .digits import load_opencv_digits
    return load_opencv_digits(part)


def _background(rng, photos, size):
    """A random square crop of a random photo (at least a quarter of its short side), maybe mirrored, resized."""
    photo = photos[rng.randint(len(photos))]
    h, w = photo.shape[:2]
    short = min(h, w)
    lo = min(max(size, short // 4), short)
    side = rng.randint(lo, short + 1)
    y, x = rng.randint(0, h - side + 1), rng.randint(0, w - side + 1)
    crop = photo[y:y + side, x:x + side]
    if rng.rand() < 0.5:
        crop = crop[:, ::-1]
    interp = cv2.INTER_AREA if side > size else cv2.INTER_LINEAR
    return cv2.resize(np.ascontiguousarray(crop), (size, size), interpolation=interp)


def _box_iou(a, b):
    ix = min(a[2], b[2]) - max(a[0], b[0]) + 1
    iy = min(a[3], b[3]) - max(a[1], b[1]) + 1
    if ix <= 0 or iy <= 0:
        return 0.0
    inter = ix * iy
    area = (a[2] - a[0] + 1) * (a[3] - a[1] + 1) + (b[2] - b[0] + 1) * (b[3] - b[1] + 1)
    return inter / (area - inter)


def render_scene(rng, photos, items, labels, spec):
    """One scene: (RGB uint8 image, instance map int32 (0: background, t: the t-th object of the list), objects:
    [{'class', 'box' (x1, y1, x2, y2 inclusive pixels of the visible mask), 'area' (visible pixels), 'truncated',
    'occluded', 'difficult'}]). Every draw comes from `rng`, a numpy RandomState."""
    size = spec.size
    img = _background(rng, photos, size)
    photo = img.copy()
    inst = np.zeros((size, size), np.int32)
    placed = []  # (class, full mask area, pixels inside the image, full box in scene pixels)
    for _ in range(rng.randint(spec.min_objects, spec.max_objects + 1)):
        j = rng.randint(len(items))
        side = rng.uniform(0.2, 0.55) * size
        aspect = np.exp(rng.uniform(-0.2, 0.2))
        w, h = max(4, int(round(side * aspect))), max(4, int(round(side / aspect)))
        grey = cv2.resize(items[j], (w, h), interpolation=cv2.INTER_LINEAR)
        mask = grey > MASK_THRESHOLD
        color = rng.randint(40, 256, 3).astype(np.float32)
        tries = [(rng.randint(-w // 3, size - 2 * w // 3 + 1), rng.randint(-h // 3, size - 2 * h // 3 + 1))
                 for _ in range(10)]
        if not mask.any():
            continue
        ys, xs = np.nonzero(mask)
        for x, y in tries:
            full = (x + xs.min(), y + ys.min(), x + xs.max(), y + ys.max())
            if all(_box_iou(full, other[3]) <= MAX_OVERLAP for other in placed):
                break
        else:
            continue
        # the part of the item's frame inside the image
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, size), min(y + h, size)
        if x1 <= x0 or y1 <= y0:
            continue
        sub = mask[y0 - y:y1 - y, x0 - x:x1 - x]
        if not sub.any():
            continue
        shade = 0.35 + 0.65 * grey[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32) / 255.0
        pixels = (shade[..., None] * color).round().clip(0, 255).astype(np.uint8)
        img[y0:y1, x0:x1][sub] = pixels[sub]
        placed.append((int(labels[j]), int(mask.sum()), int(sub.sum()), full))
        inst[y0:y1, x0:x1][sub] = len(placed)
    objects, remap = [], np.zeros(len(placed) + 1, np.int32)
    for t, (cls, area, inside, _) in enumerate(placed, 1):
        where = inst == t
        ys, xs = np.nonzero(where)
        if len(xs) < MIN_VISIBLE or min(xs.max() - xs.min(), ys.max() - ys.min()) + 1 < 3:
            # (nearly) covered by later objects: a sliver nobody could label, so the photo shows there again
            img[where], inst[where] = photo[where], 0
            continue
        box = (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max()))
        small = min(box[2] - box[0], box[3] - box[1]) + 1 < 8
        objects.append({'class': cls, 'box': box, 'area': int(len(xs)), 'truncated': int(inside < area),
                        'occluded': int(len(xs) < inside),
                        'difficult': int(len(xs) < DIFFICULT_VISIBLE * area or small)})
        remap[t] = len(objects)
    return img, remap[inst], objects


def _border(inst):
    """Background pixels 8-adjacent to an object: VOC's 255 band, kept outside the objects."""
    fg = (inst > 0).astype(np.uint8)
    return (cv2.dilate(fg, np.ones((3, 3), np.uint8)) > 0) & (fg == 0)


# -- writing ------------------------------------------------------------------------------------------------------
def _voc_xml(image_id, size, objects, classes, source):
    lines = ['<annotation>', '\t<folder>scenes</folder>', f'\t<filename>{image_id}.jpg</filename>',
             f'\t<source><database>gluonzoo scenes v{VERSION}</database><annotation>generated</annotation>'
             f'<image>{source}</image></source>',
             f'\t<size><width>{size}</width><height>{size}</height><depth>3</depth></size>',
             '\t<segmented>1</segmented>']
    for o in objects:
        x1, y1, x2, y2 = o['box']
        lines += ['\t<object>', f'\t\t<name>{classes[o["class"]]}</name>', '\t\t<pose>Unspecified</pose>',
                  f'\t\t<truncated>{o["truncated"]}</truncated>', f'\t\t<occluded>{o["occluded"]}</occluded>',
                  f'\t\t<difficult>{o["difficult"]}</difficult>',
                  f'\t\t<bndbox><xmin>{x1 + 1}</xmin><ymin>{y1 + 1}</ymin><xmax>{x2 + 1}</xmax><ymax>{y2 + 1}</ymax>'
                  '</bndbox>', '\t</object>']
    return '\n'.join(lines + ['</annotation>']) + '\n'


def _rle(mask):
    from pycocotools import mask as mask_utils
    rle = mask_utils.encode(np.asfortranarray(mask.astype(np.uint8)))
    return {'size': [int(s) for s in rle['size']], 'counts': rle['counts'].decode('ascii')}


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def folder_checksum(root, exclude=('scenes.json',)):
    """sha256 over the files under `root` (but `exclude`): each relative path (/-separated), its size and bytes, in
    path order."""
    paths = []
    for folder, _, files in os.walk(root):
        for f in files:
            rel = os.path.relpath(os.path.join(folder, f), root).replace(os.sep, '/')
            if rel not in exclude:
                paths.append(rel)
    h = hashlib.sha256()
    for rel in sorted(paths):
        with open(os.path.join(root, rel), 'rb') as f:
            data = f.read()
        h.update(f'{rel}\0{len(data)}\0'.encode())
        h.update(data)
    return h.hexdigest()


def make_scenes(root, spec=SceneSpec(), progress=None):
    """Write the scenes of `spec` into folder `root` (created; it must not hold files yet) as described in the module
    docstring; returns the manifest (also written to root/scenes.json). `progress(n)` is called after each scene."""
    root = os.fspath(root)
    if os.path.isdir(root) and os.listdir(root):
        raise BadInputError(f'{root} is not empty: make_scenes writes into a new folder')
    classes, source = spec.classes, _SOURCES[spec.objects]
    photos = {'train': _load_photos(TRAIN_PHOTOS), 'test': _load_photos(TEST_PHOTOS)}
    coco = {s: {'images': [], 'annotations': []} for s in SPLITS}
    counts, image_no, ann_no = {}, 0, 0
    for s, split in enumerate(SPLITS):
        items, labels = _load_objects(spec.objects, 'test' if split == 'test' else 'train')
        pool = photos['test' if split == 'test' else 'train']
        ids, objects_in_split = [], 0
        for i in range(getattr(spec, split)):
            rng = np.random.RandomState([spec.seed, s, i])
            img, inst, objects = render_scene(rng, pool, items, labels, spec)
            image_id = f'{split}_{i:06d}'
            ok, jpg = cv2.imencode('.jpg', cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95])
            if not ok:
                raise BadInputError(f'OpenCV could not encode scene {image_id} as JPEG')
            _write(os.path.join(root, 'JPEGImages', f'{image_id}.jpg'), jpg.tobytes())
            _write(os.path.join(root, 'Annotations', f'{image_id}.xml'),
                   _voc_xml(image_id, spec.size, objects, classes, source))
            border = _border(inst)
            cls_map = np.zeros(inst.shape, np.uint8)
            for t, o in enumerate(objects, 1):
                cls_map[inst == t] = o['class'] + 1
            obj_map = inst.astype(np.uint8)
            cls_map[border], obj_map[border] = 255, 255
            _write(os.path.join(root, 'SegmentationClass', f'{image_id}.png'), encode_palette_png(cls_map))
            _write(os.path.join(root, 'SegmentationObject', f'{image_id}.png'), encode_palette_png(obj_map))
            image_no += 1
            coco[split]['images'].append({'id': image_no, 'file_name': f'{image_id}.jpg', 'width': spec.size,
                                          'height': spec.size})
            for t, o in enumerate(objects, 1):
                ann_no += 1
                x1, y1, x2, y2 = o['box']
                coco[split]['annotations'].append({
                    'id': ann_no, 'image_id': image_no, 'category_id': o['class'] + 1,
                    'bbox': [x1, y1, x2 - x1 + 1, y2 - y1 + 1], 'area': o['area'], 'iscrowd': 0,
                    'segmentation': _rle(inst == t)})
            ids.append(image_id)
            objects_in_split += len(objects)
            if progress:
                progress(1)
        counts[split] = {'images': len(ids), 'objects': objects_in_split}
        for folder in ('Main', 'Segmentation'):
            _write(os.path.join(root, 'ImageSets', folder, f'{split}.txt'), ''.join(f'{i}\n' for i in ids))
    trainval = [f'train_{i:06d}' for i in range(spec.train)] + [f'val_{i:06d}' for i in range(spec.val)]
    for folder in ('Main', 'Segmentation'):
        _write(os.path.join(root, 'ImageSets', folder, 'trainval.txt'), ''.join(f'{i}\n' for i in trainval))
    coco['trainval'] = {k: coco['train'][k] + coco['val'][k] for k in ('images', 'annotations')}
    categories = [{'id': c + 1, 'name': name, 'supercategory': spec.objects} for c, name in enumerate(classes)]
    for split, part in coco.items():
        doc = {'info': {'description': f'gluonzoo scenes v{VERSION} ({split})', 'version': str(VERSION)},
               'licenses': [], 'categories': categories, **part}
        _write(os.path.join(root, 'annotations', f'instances_{split}.json'),
               json.dumps(doc, sort_keys=True, separators=(',', ':')))
    _write(os.path.join(root, 'classes.txt'), ''.join(f'{c}\n' for c in classes))
    manifest = {'version': VERSION, 'spec': dataclasses.asdict(spec), 'classes': list(classes), 'source': source,
                'photos': {'train_val': list(TRAIN_PHOTOS), 'test': list(TEST_PHOTOS)}, 'splits': counts,
                'checksum': folder_checksum(root)}
    _write(os.path.join(root, 'scenes.json'), json.dumps(manifest, indent=1, sort_keys=True) + '\n')
    return manifest


def read_manifest(root, name='scenes.json'):
    """root/<name> (the manifest a generator wrote), or None when there is none or it is not JSON."""
    try:
        with open(os.path.join(root, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def cache_root(kind, cache=None):
    """The folder generated sets of `kind` are cached in: `cache` when given, else $GLUONZOO_HOME/datasets/<kind>
    (default ~/.gluonzoo)."""
    if cache:
        return os.path.abspath(os.path.expanduser(os.fspath(cache)))
    home = os.environ.get('GLUONZOO_HOME') or os.path.join('~', '.gluonzoo')
    return os.path.join(os.path.abspath(os.path.expanduser(home)), 'datasets', kind)


def cached_folder(root, spec, make, manifest, progress=None):
    """The folder `root/spec.key()` made by `make(folder, spec, progress)`, which writes the manifest file named
    `manifest` with the spec (dataclasses.asdict) and the `folder_checksum` of every other file. It is generated
    on first use and reused while its files still hash to the checksum the manifest recorded; a folder that no
    longer does (edited, truncated) is generated again, with a warning. Generation writes a temp folder and
    renames it into place, under a lock, so concurrent callers never see half a folder."""
    import portalocker
    path = os.path.join(root, spec.key())
    os.makedirs(root, exist_ok=True)
    with portalocker.Lock(path + '.lock', timeout=int(os.environ.get('GLUONZOO_LOCK_TIMEOUT', '600'))):
        recorded = read_manifest(path, manifest)
        if recorded is not None and recorded.get('spec') == dataclasses.asdict(spec) \
                and folder_checksum(path, exclude=(manifest,)) == recorded.get('checksum'):
            return path
        if os.path.exists(path):
            warnings.warn(f'{path} does not match the checksum its {manifest} recorded: generating it again',
                          stacklevel=3)
        tmp = tempfile.mkdtemp(dir=root, prefix='.' + spec.key() + '-')
        try:
            make(tmp, spec, progress)
            if os.path.exists(path):
                shutil.rmtree(path)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                shutil.rmtree(tmp)
    return path


def scenes_root(cache=None):
    """The folder generated scene sets are cached in: $GLUONZOO_HOME/datasets/scenes (default ~/.gluonzoo)."""
    return cache_root('scenes', cache)


def scenes_folder(spec=SceneSpec(), cache=None, progress=None):
    """The folder holding the scenes of `spec` under the cache (`scenes_root`), generated on first use and reused
    while it still matches its checksum (`cached_folder`)."""
    return cached_folder(scenes_root(cache), spec, make_scenes, 'scenes.json', progress)
