"""Generated pose scenes: stick figures whose 17 COCO keypoints are known, drawn on real photos, written as COCO
person-keypoint JSON.

There is no labelled pose data on these machines, so `make_figures` makes some, deterministically (a fixed
`FigureSpec` gives the same bytes). A scene is a crop of one of OpenCV's sample photos (the scene generator's
`_background`; the test split's scenes use the other photos) with 1 to 3 figures drawn over it with OpenCV, each a
person facing the camera: legs, a filled torso, arms with hands and feet marked, a neck and a round head carrying
the five face joints as marks (eyes and nose in a color contrasting with the skin, ears as small disks on the sides
of the head). A figure's left joints lie on the image's right in its rest pose, and it looks the same on both sides,
so a horizontal flip with left and right swapped (meta.COCO_FLIP_PAIRS) is again a correctly labelled figure. Each
figure gets a random height (`HEIGHT`, in pixels of a 128-pixel scene), tilt (up to `MAX_TILT` degrees), limb
angles within what people do, limb thickness from its height, and clothes and skin colors chosen away from the
photo's mean color under it. Later figures are drawn over earlier ones (boxes overlap by at most `MAX_OVERLAP`).

Visibility follows COCO: v=2 a joint inside the picture and on its own figure's pixels, v=1 inside but covered by a
later figure, v=0 outside the picture (written as x = y = 0). A figure left with fewer than `MIN_JOINTS` visible
joints or `MIN_AREA` visible pixels is erased (the scene is drawn again without it), so every painted pixel is
labelled.

What is written, under `root`:

    JPEGImages/<split>_<i:06d>.jpg             the scenes (quality 95)
    annotations/person_keypoints_<split>.json  COCO, for train, val, test and trainval: images (id, file_name
                                               relative to JPEGImages/, width, height); one category 'person' with
                                               COCO's keypoint names and 1-based skeleton; per figure keypoints
                                               [x, y, v] * 17 (integer pixels, the points the figure was drawn
                                               from), num_keypoints (v > 0), bbox [x, y, w, h] and area of its
                                               visible pixels, their RLE mask (pycocotools.mask), iscrowd 0
    classes.txt                                "person"
    figures.json                               the spec, per split the images and figures, and `checksum` (sha256
                                               over every other file, scenes.folder_checksum)

`figures_folder(spec)` generates a folder once under $GLUONZOO_HOME/datasets/figures and reuses it while its files
still match the checksum; `COCOKeyPoints(root/'JPEGImages', root/'annotations/person_keypoints_train.json')`
reads it.
"""
import dataclasses
import json
import os

import cv2
import numpy as np

from ...errors import BadInputError
from ..meta import COCO_KEYPOINTS
from .scenes import (TEST_PHOTOS, TRAIN_PHOTOS, _background, _box_iou, _load_photos, _rle, _write, cache_root,
                     cached_folder, folder_checksum)

#: bumped whenever the same spec would write other bytes
VERSION = 1
SPLITS = ('train', 'val', 'test')
#: COCO's person skeleton as its person_keypoints files give it (1-based joint numbers)
COCO_SKELETON = ((16, 14), (14, 12), (17, 15), (15, 13), (12, 13), (6, 12), (7, 13), (6, 7), (6, 8), (7, 9),
                 (8, 10), (9, 11), (2, 3), (1, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7))
#: figure heights (head top to ankles, standing straight) in pixels of a 128-pixel scene; scaled with the scene
HEIGHT = (35, 115)
MAX_TILT = 25
#: a figure keeps at least this many visible joints and visible pixels, or it is erased
MIN_JOINTS, MIN_AREA = 4, 40
#: the largest IoU a new figure's box may have with an earlier one's
MAX_OVERLAP = 0.3
#: colors are drawn until one is this far (RGB distance) from the photo's mean under the figure, 8 tries
CONTRAST = 120

# The body in figure heights, y down, the origin between the hips; x = +1 is the figure's left (the image's right)
_SHOULDER, _HIP, _NECK = (0.12, -0.30), (0.08, 0.0), (0.0, -0.30)
_HEAD, _HEAD_RADIUS = 0.13, 0.075  # head center above the neck; radius
_BONES = {'upper_arm': 0.16, 'forearm': 0.15, 'thigh': 0.24, 'shin': 0.23}
#: angles from straight down in degrees, positive away from the body: (low, high) of the upper bone, then of the
#: lower bone relative to the upper one
_ARM_ANGLES, _LEG_ANGLES = ((5, 150), (-110, 40)), ((-8, 35), (-30, 15))
#: face joints around the head center, in head radii: nose, left eye, right eye, left ear, right ear
_FACE = ((0.0, 0.25), (0.38, -0.15), (-0.38, -0.15), (1.0, 0.05), (-1.0, 0.05))
_J = {name: j for j, name in enumerate(COCO_KEYPOINTS)}


@dataclasses.dataclass(frozen=True)
class FigureSpec:
    """What a figure folder holds: scenes per split, their side in pixels, figures per scene and the seed. Scene i
    of a split depends on (seed, split, i) only, so a spec with fewer scenes gives the first scenes of a larger
    one."""
    train: int = 1500
    val: int = 100
    test: int = 300
    size: int = 128
    min_figures: int = 1
    max_figures: int = 3
    seed: int = 0

    def __post_init__(self):
        if min(self.train, self.val, self.test) < 0 or self.train + self.val + self.test < 1:
            raise BadInputError('a figure folder needs at least one scene (train, val, test >= 0)')
        if not 1 <= self.min_figures <= self.max_figures:
            raise BadInputError(f'figures per scene: 1 <= min_figures ({self.min_figures}) <= max_figures '
                                f'({self.max_figures})')
        if self.size < 32:
            raise BadInputError(f'scenes are at least 32 pixels wide, not {self.size}')

    def key(self):
        """The folder name of this spec in the cache."""
        return (f'figures-{self.size}px-{self.train}-{self.val}-{self.test}-'
                f'{self.min_figures}to{self.max_figures}-seed{self.seed}-v{VERSION}')


# -- one figure -----------------------------------------------------------------------------------------------------
def _pose(rng):
    """The 17 joints (17, 2) of a random pose in figure heights, the neck and the head center."""
    joints = np.zeros((17, 2))
    for side, s in (('left', 1), ('right', -1)):
        for root, (j1, j2), bones, (upper, lower) in (
                (_SHOULDER, ('elbow', 'wrist'), ('upper_arm', 'forearm'), _ARM_ANGLES),
                (_HIP, ('knee', 'ankle'), ('thigh', 'shin'), _LEG_ANGLES)):
            a = np.radians(rng.uniform(*upper))
            b = a + np.radians(rng.uniform(*lower))
            start = np.array([s * root[0], root[1]])
            mid = start + _BONES[bones[0]] * np.array([s * np.sin(a), np.cos(a)])
            joints[_J[f'{side}_{"shoulder" if root is _SHOULDER else "hip"}']] = start
            joints[_J[f'{side}_{j1}']] = mid
            joints[_J[f'{side}_{j2}']] = mid + _BONES[bones[1]] * np.array([s * np.sin(b), np.cos(b)])
    nod = np.radians(rng.uniform(-12, 12))
    head = np.array(_NECK) + _HEAD * np.array([np.sin(nod), -np.cos(nod)])
    for j, (x, y) in enumerate(_FACE):
        joints[j] = head + _HEAD_RADIUS * np.array([x, y])
    return joints, np.array(_NECK), head


def _color(tries, background):
    """The first of the RGB colors `tries` at least CONTRAST away from `background`, else the farthest."""
    dist = np.linalg.norm(tries - background, axis=1)
    far = np.flatnonzero(dist >= CONTRAST)
    return tuple(int(v) for v in tries[far[0] if len(far) else dist.argmax()])


def _figure(rng, photo, boxes):
    """A random figure on `photo` whose box overlaps none of `boxes` by more than MAX_OVERLAP, or None: {'joints'
    (17, 2) int pixels, 'box' (its drawing's extent), 'shapes' (what _paint draws)}."""
    size = photo.shape[0]
    height = rng.uniform(*HEIGHT) * size / 128
    tilt = np.radians(rng.uniform(-MAX_TILT, MAX_TILT))
    joints, neck, head = _pose(rng)
    rot = np.array([[np.cos(tilt), -np.sin(tilt)], [np.sin(tilt), np.cos(tilt)]])
    points = np.vstack([joints, neck, head]) @ rot.T * height
    thick = max(2, int(round(0.05 * height)))
    radius = max(2, int(round(_HEAD_RADIUS * height)))
    lo, hi = points.min(0) - radius, points.max(0) + radius
    tries = rng.uniform(0.15 * size, 0.85 * size, (10, 2))
    palette = rng.randint(0, 256, (3, 8, 3))  # skin, shirt, pants candidates
    for center in tries:
        shift = center - (lo + hi) / 2
        box = tuple(lo + shift) + tuple(hi + shift)
        if all(_box_iou(box, other) <= MAX_OVERLAP for other in boxes):
            break
    else:
        return None
    p = np.round(points + shift).astype(int)
    x0, y0 = (min(max(int(v), 0), size - 1) for v in box[:2])
    x1, y1 = max(int(np.ceil(box[2])), x0 + 1), max(int(np.ceil(box[3])), y0 + 1)
    mean = photo[y0:y1, x0:x1].reshape(-1, 3).mean(0)
    skin, shirt, pants = (_color(c, mean) for c in palette)
    mark = (20, 20, 20) if np.dot(skin, (0.299, 0.587, 0.114)) > 110 else (235, 235, 235)
    ear = tuple(int(v * 0.75) for v in skin)
    pt = {name: (int(p[j, 0]), int(p[j, 1])) for name, j in _J.items()}
    neck_pt, head_pt = (int(p[17, 0]), int(p[17, 1])), (int(p[18, 0]), int(p[18, 1]))
    dot = max(1, thick // 2)
    shapes = [('line', pt[f'{s}_hip'], pt[f'{s}_knee'], pants, thick) for s in ('left', 'right')]
    shapes += [('line', pt[f'{s}_knee'], pt[f'{s}_ankle'], pants, thick) for s in ('left', 'right')]
    shapes += [('disk', pt[f'{s}_ankle'], dot + 1, mark) for s in ('left', 'right')]
    shapes += [('poly', [pt['left_shoulder'], pt['right_shoulder'], pt['right_hip'], pt['left_hip']], shirt),
               ('line', neck_pt, head_pt, skin, thick)]
    for s in ('left', 'right'):
        shapes += [('line', pt[f'{s}_shoulder'], pt[f'{s}_elbow'], shirt, thick),
                   ('line', pt[f'{s}_elbow'], pt[f'{s}_wrist'], skin, max(2, thick - 1)),
                   ('disk', pt[f'{s}_wrist'], dot + 1, skin)]
    shapes += [('disk', pt[f'{s}_ear'], max(1, radius // 3), ear) for s in ('left', 'right')]
    shapes += [('disk', head_pt, radius, skin)]
    shapes += [('disk', pt[name], max(0, radius // 5), mark) for name in ('nose', 'left_eye', 'right_eye')]
    return {'joints': p[:17], 'box': box, 'shapes': shapes}


def _paint(target, shapes, color=None):
    """Draw `shapes` on `target` in their colors, or all in `color` (a mask)."""
    for kind, *args in shapes:
        c = color or args[-1 if kind != 'line' else 2]
        if kind == 'line':
            cv2.line(target, args[0], args[1], c, args[3], cv2.LINE_8)
        elif kind == 'disk':
            cv2.circle(target, args[0], args[1], c, -1, cv2.LINE_8)
        else:
            cv2.fillPoly(target, [np.array(args[0], np.int32)], c, cv2.LINE_8)


def _compose(photo, figures):
    """(image, instance map (0: photo, t: the t-th figure), visibility (N, 17) per COCO) of `figures` drawn in
    order on `photo`."""
    size = photo.shape[0]
    img, inst = photo.copy(), np.zeros(photo.shape[:2], np.int32)
    for t, f in enumerate(figures, 1):
        mask = np.zeros(photo.shape[:2], np.uint8)
        _paint(img, f['shapes'])
        _paint(mask, f['shapes'], color=1)
        inst[mask > 0] = t
    vis = np.zeros((len(figures), 17), np.int64)
    for t, f in enumerate(figures, 1):
        x, y = f['joints'].T
        inside = (x >= 0) & (x < size) & (y >= 0) & (y < size)
        on = inst[y.clip(0, size - 1), x.clip(0, size - 1)]
        vis[t - 1] = np.where(inside, np.where(on > t, 1, 2), 0)
    return img, inst, vis


def render_figures(rng, photos, spec):
    """One scene: (RGB uint8 image, instance map int32 (0: photo, t: the t-th figure), figures: [{'keypoints' (17, 3)
    int x, y, v per COCO, 'box' (x1, y1, x2, y2 inclusive pixels of its visible pixels), 'area'}]). Every draw
    comes from `rng`, a numpy RandomState."""
    photo = _background(rng, photos, spec.size)
    figures = []
    for _ in range(rng.randint(spec.min_figures, spec.max_figures + 1)):
        f = _figure(rng, photo, [g['box'] for g in figures])
        if f is not None:
            figures.append(f)
    img, inst, vis = _compose(photo, figures)
    keep = [f for t, f in enumerate(figures, 1)
            if (vis[t - 1] == 2).sum() >= MIN_JOINTS and (inst == t).sum() >= MIN_AREA]
    if len(keep) < len(figures):  # erased figures uncover the ones below: draw again, visibility can only grow
        figures = keep
        img, inst, vis = _compose(photo, figures)
    out = []
    for t, (f, v) in enumerate(zip(figures, vis), 1):
        ys, xs = np.nonzero(inst == t)
        kp = np.concatenate([f['joints'] * (v[:, None] > 0), v[:, None]], axis=1)
        out.append({'keypoints': kp, 'box': (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())),
                    'area': int(len(xs))})
    return img, inst, out


# -- writing --------------------------------------------------------------------------------------------------------
def make_figures(root, spec=FigureSpec(), progress=None):
    """Write the scenes of `spec` into folder `root` (created; it must not hold files yet) as described in the
    module docstring; returns the manifest (also written to root/figures.json). `progress(n)` is called after each
    scene."""
    root = os.fspath(root)
    if os.path.isdir(root) and os.listdir(root):
        raise BadInputError(f'{root} is not empty: make_figures writes into a new folder')
    photos = {'train': _load_photos(TRAIN_PHOTOS), 'test': _load_photos(TEST_PHOTOS)}
    coco = {s: {'images': [], 'annotations': []} for s in SPLITS}
    counts, image_no, ann_no = {}, 0, 0
    for s, split in enumerate(SPLITS):
        pool = photos['test' if split == 'test' else 'train']
        n_figures = 0
        for i in range(getattr(spec, split)):
            img, inst, figures = render_figures(np.random.RandomState([spec.seed, s, i]), pool, spec)
            name = f'{split}_{i:06d}.jpg'
            ok, jpg = cv2.imencode('.jpg', cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95])
            if not ok:
                raise BadInputError(f'OpenCV could not encode scene {name} as JPEG')
            _write(os.path.join(root, 'JPEGImages', name), jpg.tobytes())
            image_no += 1
            coco[split]['images'].append({'id': image_no, 'file_name': name, 'width': spec.size,
                                          'height': spec.size})
            for t, f in enumerate(figures, 1):
                ann_no += 1
                x1, y1, x2, y2 = f['box']
                kp = f['keypoints']
                coco[split]['annotations'].append({
                    'id': ann_no, 'image_id': image_no, 'category_id': 1,
                    'keypoints': [int(v) for v in kp.ravel()], 'num_keypoints': int((kp[:, 2] > 0).sum()),
                    'bbox': [x1, y1, x2 - x1 + 1, y2 - y1 + 1], 'area': f['area'], 'iscrowd': 0,
                    'segmentation': _rle(inst == t)})
            n_figures += len(figures)
            if progress:
                progress(1)
        counts[split] = {'images': getattr(spec, split), 'figures': n_figures}
    coco['trainval'] = {k: coco['train'][k] + coco['val'][k] for k in ('images', 'annotations')}
    categories = [{'id': 1, 'name': 'person', 'supercategory': 'person', 'keypoints': list(COCO_KEYPOINTS),
                   'skeleton': [list(p) for p in COCO_SKELETON]}]
    for split, part in coco.items():
        doc = {'info': {'description': f'gluonzoo figures v{VERSION} ({split})', 'version': str(VERSION)},
               'licenses': [], 'categories': categories, **part}
        _write(os.path.join(root, 'annotations', f'person_keypoints_{split}.json'),
               json.dumps(doc, sort_keys=True, separators=(',', ':')))
    _write(os.path.join(root, 'classes.txt'), 'person\n')
    manifest = {'version': VERSION, 'spec': dataclasses.asdict(spec), 'classes': ['person'],
                'photos': {'train_val': list(TRAIN_PHOTOS), 'test': list(TEST_PHOTOS)}, 'splits': counts,
                'checksum': folder_checksum(root, exclude=('figures.json',))}
    _write(os.path.join(root, 'figures.json'), json.dumps(manifest, indent=1, sort_keys=True) + '\n')
    return manifest


def figures_folder(spec=FigureSpec(), cache=None, progress=None):
    """The folder holding the figures of `spec` under `cache` (default $GLUONZOO_HOME/datasets/figures), generated
    on first use and reused while it still matches its checksum (scenes.cached_folder)."""
    return cached_folder(cache_root('figures', cache), spec, make_figures, 'figures.json', progress)
