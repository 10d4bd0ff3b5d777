"""The scene generator: a fixed spec gives the same bytes; the VOC folder and the COCO JSON it writes are read by
VOCDetection, COCODetection and pycocotools alike, with masks, boxes and areas that agree pixel for pixel; the cache
reuses a folder while it matches its checksum."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision.data import COCODetection, VOCDetection
from gluonzoo.vision.data.scenes import SceneSpec, encode_palette_png, folder_checksum, make_scenes, scenes_folder
from gluonzoo.vision.image import voc_palette
from gluonzoo.vision.meta import DIGITS, FASHION_MNIST

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TINY = SceneSpec(train=6, val=2, test=4, size=64)


@pytest.fixture(scope='module')
def scenes(tmp_path_factory):
    root = tmp_path_factory.mktemp('scenes') / 'tiny'
    return root, make_scenes(root, TINY)


def _png(path):
    from PIL import Image  # matplotlib's dependency in the test extra; the writer itself needs no Pillow
    img = Image.open(path)
    assert img.mode == 'P'
    return np.array(img), np.array(img.getpalette()[:768], np.uint8).reshape(256, 3)


def test_same_spec_same_bytes_other_seed_other_bytes(scenes, tmp_path):
    root, manifest = scenes
    again = make_scenes(tmp_path / 'again', TINY)
    assert again['checksum'] == manifest['checksum'] == folder_checksum(root)
    assert make_scenes(tmp_path / 'seed1', SceneSpec(train=6, val=2, test=4, size=64, seed=1))['checksum'] != \
        manifest['checksum']
    # scene i depends on (seed, split, i) only: a smaller spec writes the first scenes of a larger one
    small = make_scenes(tmp_path / 'small', SceneSpec(train=2, val=1, test=1, size=64))
    for rel in ('JPEGImages/train_000001.jpg', 'Annotations/test_000000.xml', 'SegmentationObject/val_000000.png'):
        assert (tmp_path / 'small' / rel).read_bytes() == (root / rel).read_bytes()
    assert small['splits']['train']['images'] == 2


def test_voc_folder_reads_and_masks_match_boxes(scenes):
    root, manifest = scenes
    assert (root / 'classes.txt').read_text().split('\n')[:-1] == list(FASHION_MNIST)
    for split, n in (('train', 6), ('val', 2), ('test', 4), ('trainval', 8)):
        assert len((root / 'ImageSets' / 'Main' / f'{split}.txt').read_text().split()) == n
        assert (root / 'ImageSets' / 'Segmentation' / f'{split}.txt').exists()
    ds = VOCDetection(root, [(None, 'train'), (None, 'val'), (None, 'test')], classes=FASHION_MNIST)
    assert len(ds) == 12 and ds.clipped == ds.dropped == 0
    assert sum(len(lb) for lb in ds.labels) == sum(s['objects'] for s in manifest['splits'].values())
    flags = {'truncated': 0, 'occluded': 0}
    for (folder, image_id), label in zip(ds.ids, ds.labels):
        img, _ = ds.sample(ds.ids.index((folder, image_id)))
        assert img.shape == (64, 64, 3)
        objects, palette = _png(root / 'SegmentationObject' / f'{image_id}.png')
        classes, palette2 = _png(root / 'SegmentationClass' / f'{image_id}.png')
        assert np.array_equal(palette, voc_palette()) and np.array_equal(palette2, voc_palette())
        xml = ET.parse(root / 'Annotations' / f'{image_id}.xml').getroot()
        for t, (obj, row) in enumerate(zip(xml.iter('object'), label), 1):
            mask = objects == t
            ys, xs = np.nonzero(mask)
            # the box is the visible mask's extent (VOCDetection's corners: 1-based XML minus 1)
            assert row[:4].tolist() == [xs.min(), ys.min(), xs.max(), ys.max()]
            assert (classes[mask] == row[4] + 1).all()
            assert int(obj.findtext('difficult')) == row[5]
            for k in flags:
                flags[k] += int(obj.findtext(k))
        fg = (objects > 0) & (objects < 255)
        assert np.array_equal(fg, (classes > 0) & (classes < 255))
        border = objects == 255
        assert np.array_equal(border, classes == 255) and not (border & fg).any()
        # 255 lies on background pixels next to an object
        near = np.zeros_like(fg)
        padded = np.pad(fg, 1)
        for dy in (0, 1, 2):
            for dx in (0, 1, 2):
                near |= padded[dy:dy + 64, dx:dx + 64]
        assert np.array_equal(border, near & ~fg)
    assert flags['truncated'] and flags['occluded']  # some objects are cut by the border, some partly covered


def test_coco_json_agrees_with_voc_and_pycocotools(scenes):
    from pycocotools import mask as mask_utils
    root, _ = scenes
    for split in ('train', 'test', 'trainval'):
        coco = COCODetection(root / 'JPEGImages', root / 'annotations' / f'instances_{split}.json')
        voc = VOCDetection(root, [(None, split)], classes=FASHION_MNIST)
        assert coco.classes == FASHION_MNIST and len(coco) == len(voc)
        for i in range(len(voc)):
            assert os.path.basename(coco.items[i]) == os.path.basename(voc.items[i])
            # corners and class ids agree; COCO has no difficult flag
            assert np.array_equal(coco.labels[i][:, :5], voc.labels[i][:, :5])
        api = coco.coco
        for ann in api.loadAnns(api.getAnnIds()):
            image = api.loadImgs(ann['image_id'])[0]
            mask = api.annToMask(ann)
            objects, _ = _png(root / 'SegmentationObject' / image['file_name'].replace('.jpg', '.png'))
            same = [t for t in range(1, 9) if np.array_equal(objects == t, mask.astype(bool))]
            assert len(same) == 1  # the RLE is exactly one object's pixels
            assert ann['area'] == mask.sum() == mask_utils.area(ann['segmentation'])
            assert ann['bbox'] == mask_utils.toBbox(ann['segmentation']).tolist() and ann['iscrowd'] == 0


def test_digits_scenes_and_bad_specs(tmp_path):
    manifest = make_scenes(tmp_path / 'd', SceneSpec(train=2, val=0, test=1, size=48, objects='digits'))
    assert manifest['classes'] == list(DIGITS) and manifest['splits']['val']['images'] == 0
    with pytest.raises(BadInputError, match='not empty'):
        make_scenes(tmp_path / 'd', SceneSpec(train=1, val=0, test=1))
    with pytest.raises(BadInputError, match='objects'):
        SceneSpec(objects='letters')
    with pytest.raises(BadInputError, match='min_objects'):
        SceneSpec(min_objects=3, max_objects=2)


def test_palette_png_is_a_real_png():
    import zlib
    index = np.arange(12, dtype=np.uint8).reshape(3, 4)
    data = encode_palette_png(index)
    assert data[:8] == b'\x89PNG\r\n\x1a\n' and data[12:16] == b'IHDR'
    idat = data.index(b'IDAT')
    n = int.from_bytes(data[idat - 4:idat], 'big')
    rows = np.frombuffer(zlib.decompress(data[idat + 4:idat + 4 + n]), np.uint8).reshape(3, 5)
    assert (rows[:, 0] == 0).all() and np.array_equal(rows[:, 1:], index)


def test_cache_reuses_a_matching_folder_and_remakes_a_damaged_one(tmp_path):
    spec = SceneSpec(train=2, val=1, test=1, size=48)
    path = scenes_folder(spec, cache=tmp_path)
    assert os.path.basename(path) == spec.key()
    jpg = os.path.join(path, 'JPEGImages', 'train_000000.jpg')
    stamp = os.stat(jpg).st_mtime_ns
    assert scenes_folder(spec, cache=tmp_path) == path and os.stat(jpg).st_mtime_ns == stamp
    with open(jpg, 'ab') as f:
        f.write(b'x')
    with pytest.warns(UserWarning, match='does not match the checksum'):
        assert scenes_folder(spec, cache=tmp_path) == path
    with open(os.path.join(path, 'scenes.json')) as f:
        assert json.load(f)['checksum'] == folder_checksum(path)
    assert not [p for p in os.listdir(tmp_path) if p.startswith('.')]  # no temp folder left behind


def test_make_scenes_script(tmp_path):
    out = tmp_path / 'cli'
    p = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'vision', 'make_scenes.py'), str(out),
                        '--train', '2', '--val', '1', '--test', '1', '--size', '48', '--progress', '0'],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert f'checksum {folder_checksum(out)}' in p.stdout and 'train: 2 scenes' in p.stdout
    p = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'vision', 'make_scenes.py'), str(out),
                        '--progress', '0'], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stderr.startswith('make_scenes.py: error:') and 'not empty' in p.stderr
