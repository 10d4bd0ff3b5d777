"""The segmentation and pose drawings (vision/viz.py): plot_mask, segment_palette_png and plot_keypoints, their
colors against GluonCV's get_color_pallete (peers venv), and their one-line errors."""
import json
import os
import subprocess
from importlib import resources

import cv2
import mxnet as mx
import numpy as np
import pytest
from PIL import Image

from gluonzoo.errors import BadInputError
from gluonzoo.vision.meta import COCO_KEYPOINTS
from gluonzoo.vision.viz import COCO_SKELETON, VOC_PALETTE, plot_keypoints, plot_mask, segment_palette_png
from tests.peers import PYTHON

CHELSEA = str(resources.files('gluonzoo.vision').joinpath('assets', 'chelsea.jpg'))

#: GluonCV's segmentation.py loaded on its own (no `import gluoncv`: its package import takes seconds), writing
#: get_color_pallete(ids, 'pascal_voc') as GluonCV users save it, and its palette
_PEER = '''
import importlib.util, json, sys
import numpy as np
from PIL import Image
root = sys.argv[1]
folder = importlib.util.find_spec('gluoncv').submodule_search_locations[0]  # finds it, runs nothing
spec = importlib.util.spec_from_file_location('seg', folder + '/utils/viz/segmentation.py')
seg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(seg)
seg.get_color_pallete(np.load(root + '/ids.npy'), 'pascal_voc').save(root + '/gluoncv.png')
json.dump(seg.vocpallete, open(root + '/palette.json', 'w'))
'''


def _ids(h=24, w=40):
    """A class-id map with every VOC class, GluonCV's ignore value 255, the -1 a metric's padding gives, and 0."""
    ids = (np.arange(h * w).reshape(h, w) % 23).astype(np.int64)
    ids[ids == 21], ids[ids == 22] = 255, -1
    ids[0, :3] = (0, 100, 254)
    return ids


def _gluoncv_pallete_image(tmp_path, ids):
    """(GluonCV's saved palette PNG of `ids`, its 256-color palette), from the peers venv."""
    if not os.path.exists(PYTHON):
        raise RuntimeError(f'{PYTHON} is missing: run `make peers` (make test does)')
    np.save(tmp_path / 'ids.npy', ids)
    p = subprocess.run([PYTHON, '-c', _PEER, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return tmp_path / 'gluoncv.png', np.array(json.loads((tmp_path / 'palette.json').read_text()), np.uint8)


def test_the_palette_png_is_gluoncvs(tmp_path):
    ids = _ids()
    ref, palette = _gluoncv_pallete_image(tmp_path, ids.copy())
    assert (VOC_PALETTE == palette.reshape(256, 3)).all()
    ours = segment_palette_png(ids, tmp_path / 'ours.png')
    assert not list(tmp_path.glob('*.part'))
    a, b = Image.open(ours), Image.open(ref)
    assert a.mode == b.mode == 'P' and a.size == b.size == (40, 24)
    assert (np.array(a) == np.array(b)).all() and (np.array(a) == np.where(ids == -1, 255, ids)).all()
    assert a.getpalette()[:768] == b.getpalette()[:768]
    # any reader shows the colors: OpenCV expands the palette to GluonCV's RGB picture
    rgb = cv2.cvtColor(cv2.imread(ours), cv2.COLOR_BGR2RGB)
    assert (rgb == np.array(b.convert('RGB'))).all()
    # plot_mask at alpha 1 paints GluonCV's colors, and leaves the ignored pixels (255, -1) as they were
    white = np.full((24, 40, 3), 255, np.uint8)
    pic = plot_mask(white, ids, alpha=1.0)
    drawn = (ids != 255) & (ids != -1)
    assert (pic[drawn] == rgb[drawn]).all() and (pic[~drawn] == 255).all() and (white == 255).all()


def test_plot_mask_blends_classes_and_instances(tmp_path):
    img = np.full((30, 50, 3), 100, np.uint8)
    ids = mx.nd.zeros((30, 50))
    ids[5:10, 5:10] = 15  # person: VOC (192, 128, 128)
    pic = plot_mask(img, ids, alpha=0.5, path=tmp_path / 'm.png')
    assert pic.tolist()[7][7] == [146, 114, 114] and pic.tolist()[0][0] == [50, 50, 50]
    assert (cv2.cvtColor(cv2.imread(str(tmp_path / 'm.png')), cv2.COLOR_BGR2RGB) == pic).all()
    masks = np.zeros((2, 30, 50), np.uint8)  # Mask R-CNN's paste_masks: binary, one a detection
    masks[0, :10, :10], masks[1, 20:, 40:] = 1, 1
    pic = plot_mask(img, masks)
    assert (pic[:10, :10] == pic[0, 0]).all() and (pic[20:, 40:] == pic[-1, -1]).all()
    assert (pic[0, 0] != pic[-1, -1]).any() and (pic[15, 20] == 100).all()  # two colors; outside untouched
    assert plot_mask(CHELSEA, np.zeros((0, 300, 451))).shape == (300, 451, 3)  # no instances: the picture


@pytest.mark.parametrize('masks', [np.zeros((30, 49)), np.zeros((2, 29, 50)), np.zeros((1, 1, 30, 50))])
def test_a_mask_of_another_size_is_one_clear_error(masks):
    with pytest.raises(BadInputError, match=r"of the picture's size 30x50, got an array of shape"):
        plot_mask(np.zeros((30, 50, 3), np.uint8), masks)


def test_palette_png_refuses_what_it_cannot_store(tmp_path):
    for bad, says in [(np.full((2, 2), 256), 'do not fit a palette PNG'), (np.full((2, 2), -2), 'do not fit'),
                      (np.full((2, 2), 1.5), 'do not fit'), (np.zeros((2, 2, 3)), r'takes a class-id map \(H, W\)')]:
        with pytest.raises(BadInputError, match=says):
            segment_palette_png(bad, tmp_path / 'x.png')
    assert not list(tmp_path.iterdir())


def test_plot_keypoints_draws_visible_pairs_and_person_boxes(tmp_path):
    img = np.zeros((120, 160, 3), np.uint8)
    coords = np.zeros((1, 17, 2))
    coords[0, :, 0], coords[0, :, 1] = 20 + np.arange(17) * 7, 60  # a horizontal row of joints
    conf = np.full((1, 17, 1), 0.9)
    conf[0, 16] = 0.1  # the right ankle: hidden, and with it the segment 14-16
    ids, scores = np.array([[[0], [0], [2]]]), np.array([[[0.9], [0.3], [0.99]]])
    boxes = np.array([[[10, 10, 150, 110], [2, 2, 8, 8], [100, 20, 140, 40]]])
    pic = plot_keypoints(img, mx.nd.array(coords), conf, ids, boxes, scores, path=tmp_path / 'k.png')
    assert (img == 0).all() and (cv2.cvtColor(cv2.imread(str(tmp_path / 'k.png')), cv2.COLOR_BGR2RGB) == pic).all()
    assert (pic[60, 20 + 7 * 13] != 0).any() and (pic[60, 20 + 7 * 16] == 0).all()  # ankle 16 not drawn
    assert (pic[60, 10] != 0).any()  # the person box (0.9)
    assert (pic[5, 5] == 0).all() and (pic[30, 120] == 0).all()  # the 0.3 person and the class-2 box: not drawn
    assert len(COCO_SKELETON) == 16 and max(max(p) for p in COCO_SKELETON) == len(COCO_KEYPOINTS) - 1
    empty = plot_keypoints(img, np.zeros((0, 17, 2)), np.zeros((0, 17, 1)), np.zeros((1, 0, 1)),
                           np.zeros((1, 0, 4)), np.zeros((1, 0, 1)))
    assert (empty == 0).all()
    with pytest.raises(BadInputError, match=r'coords \(N, joints, 2\) and confidence'):
        plot_keypoints(img, coords[0], conf, ids, boxes, scores)
    with pytest.raises(BadInputError, match='COCO skeleton of 17 joints; got 5'):
        plot_keypoints(img, coords[:, :5], conf[:, :5], ids, boxes, scores)
