"""The pose scene generator: a fixed spec gives the same bytes, scene i depends on (seed, split, i) only; the COCO
keypoint JSON it writes is read by pycocotools, and its keypoints, visibility flags, boxes, areas and RLE masks agree
with each other pixel for pixel; the cache reuses a folder while it matches its checksum."""
import dataclasses
import json
import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision.data.figures import FigureSpec, figures_folder, make_figures
from gluonzoo.vision.data.scenes import cache_root, folder_checksum
from gluonzoo.vision.meta import COCO_FLIP_PAIRS, COCO_KEYPOINTS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TINY = FigureSpec(train=8, val=2, test=4, size=64)


@pytest.fixture(scope='module')
def figures(tmp_path_factory):
    root = tmp_path_factory.mktemp('figures') / 'tiny'
    return root, make_figures(root, TINY)


def _coco(path):
    import contextlib
    import io
    from pycocotools.coco import COCO
    with contextlib.redirect_stdout(io.StringIO()):
        return COCO(str(path))


def test_same_spec_same_bytes_and_scenes_depend_on_their_index_only(figures, tmp_path):
    root, manifest = figures
    assert make_figures(tmp_path / 'again', TINY)['checksum'] == manifest['checksum'] == \
        folder_checksum(root, exclude=('figures.json',))
    small = tmp_path / 'small'
    make_figures(small, FigureSpec(train=3, val=1, test=1, size=64))
    for name in ('train_000002.jpg', 'val_000000.jpg', 'test_000000.jpg'):
        with open(small / 'JPEGImages' / name, 'rb') as a, open(root / 'JPEGImages' / name, 'rb') as b:
            assert a.read() == b.read()
    other = make_figures(tmp_path / 'seed1', FigureSpec(train=8, val=2, test=4, size=64, seed=1))
    assert other['checksum'] != manifest['checksum']
    assert manifest['splits']['train']['images'] == 8 and manifest['spec'] == json.loads(
        (root / 'figures.json').read_text())['spec']


def test_keypoint_json_agrees_with_masks_and_pycocotools(figures):
    from pycocotools import mask as mask_utils
    root, _ = figures
    for split in ('train', 'val', 'test', 'trainval'):
        api = _coco(root / 'annotations' / f'person_keypoints_{split}.json')
        cat, = api.loadCats(api.getCatIds())
        assert cat['name'] == 'person' and cat['keypoints'] == list(COCO_KEYPOINTS) and len(cat['skeleton']) == 19
        assert min(min(p) for p in cat['skeleton']) == 1 and max(max(p) for p in cat['skeleton']) == 17
        for image in api.loadImgs(api.getImgIds()):
            img = cv2.imread(str(root / 'JPEGImages' / image['file_name']))
            assert img.shape == (image['height'], image['width'], 3) == (64, 64, 3)
            anns = api.loadAnns(api.getAnnIds(imgIds=image['id']))
            masks = [api.annToMask(a).astype(bool) for a in anns]
            assert sum(m.astype(int) for m in masks).max(initial=0) <= 1  # each pixel belongs to one figure at most
            for a, mask in zip(anns, masks):
                assert a['area'] == mask.sum() == mask_utils.area(a['segmentation']) and a['iscrowd'] == 0
                assert a['bbox'] == mask_utils.toBbox(a['segmentation']).tolist() and a['category_id'] == 1
                kp = np.array(a['keypoints']).reshape(17, 3)
                x, y, v = kp.T
                assert a['num_keypoints'] == (v > 0).sum() and (v == 2).sum() >= 4
                assert (x[v == 0] == 0).all() and (y[v == 0] == 0).all()
                assert ((x[v > 0] < 64) & (y[v > 0] < 64) & (x[v > 0] >= 0) & (y[v > 0] >= 0)).all()
                assert mask[y[v == 2], x[v == 2]].all()  # visible joints lie on the figure's own pixels
                for j in np.flatnonzero(v == 1):  # covered ones on a figure drawn later
                    later = [m for b, m in zip(anns, masks) if b['id'] > a['id'] and m[y[j], x[j]]]
                    assert len(later) == 1 and not mask[y[j], x[j]]


def test_figures_face_the_camera(tmp_path):
    """Left joints on the image's right (tilts stay under 90 degrees), so a flip with left/right swapped is again a
    figure facing the camera; flipped masks are figures too (both sides look the same)."""
    root = tmp_path / 'f'
    make_figures(root, FigureSpec(train=30, val=0, test=0, size=64, max_figures=2))
    api = _coco(root / 'annotations' / 'person_keypoints_train.json')
    anns = api.loadAnns(api.getAnnIds())
    kinds = set()
    for a in anns:
        kp = np.array(a['keypoints']).reshape(17, 3)
        kinds.update(kp[:, 2].tolist())
        for left, right in COCO_FLIP_PAIRS[2:3] + COCO_FLIP_PAIRS[5:6]:  # shoulders, hips: rigid, 0.16 H apart
            if kp[left, 2] and kp[right, 2]:
                assert kp[left, 0] > kp[right, 0]
                flipped = 63 - kp[:, 0]
                assert flipped[right] > flipped[left]  # after the swap: left again on the image's right
    assert kinds == {0, 1, 2}  # some joints outside the picture, some covered by a later figure
    assert len(anns) >= 30


def test_cache_and_bad_specs(tmp_path):
    spec = FigureSpec(train=2, val=1, test=1, size=48)
    path = figures_folder(spec, cache=tmp_path)
    assert os.path.basename(path) == spec.key()
    jpg = os.path.join(path, 'JPEGImages', 'train_000000.jpg')
    stamp = os.stat(jpg).st_mtime_ns
    assert figures_folder(spec, cache=tmp_path) == path and os.stat(jpg).st_mtime_ns == stamp
    with open(jpg, 'ab') as f:
        f.write(b'x')
    with pytest.warns(UserWarning, match='does not match the checksum'):
        assert figures_folder(spec, cache=tmp_path) == path
    assert not [p for p in os.listdir(tmp_path) if p.startswith('.')]  # no temp folder left behind
    assert os.environ['GLUONZOO_HOME'] in cache_root('figures')
    with pytest.raises(BadInputError, match='not empty'):
        make_figures(path, spec)
    with pytest.raises(BadInputError, match='min_figures'):
        FigureSpec(min_figures=3, max_figures=2)
    with pytest.raises(BadInputError, match='at least one scene'):
        FigureSpec(train=0, val=0, test=0)
    with pytest.raises(BadInputError, match='32 pixels'):
        FigureSpec(size=16)


def test_make_scenes_script_makes_figures(tmp_path):
    script = os.path.join(ROOT, 'scripts', 'vision', 'make_scenes.py')
    out = tmp_path / 'cli'
    p = subprocess.run([sys.executable, script, str(out), '--figures', '--train', '2', '--val', '1', '--test', '1',
                        '--size', '48', '--progress', '0'], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert f'checksum {folder_checksum(out, exclude=("figures.json",))}' in p.stdout and 'train: 2 scenes' in p.stdout
    assert json.loads((out / 'figures.json').read_text())['spec'] == dataclasses.asdict(
        FigureSpec(train=2, val=1, test=1, size=48))
    p = subprocess.run([sys.executable, script, str(tmp_path / 'x'), '--figures', '--objects', 'digits'],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and '--objects is not an option of --figures' in p.stderr
