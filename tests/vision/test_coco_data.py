"""COCOKeyPoints gives GluonCV's COCOKeyPoints' items and labels (run in the peers venv on a copy of a tiny generated
figure folder laid out as GluonCV wants it, with crowd, unlabelled, zero-area and one-joint people added);
COCOInstance's masks, boxes and class ids are the scenes' SegmentationObject / SegmentationClass PNGs, from RLE and
from polygon files alike."""
import json
import os
import pickle
import shutil

import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision.data import COCOInstance, COCOKeyPoints
from gluonzoo.vision.data.figures import FigureSpec, make_figures
from gluonzoo.vision.data.scenes import SceneSpec, make_scenes
from gluonzoo.vision.meta import COCO_FLIP_PAIRS

from ..peers import run_peer


@pytest.fixture(scope='module')
def figures(tmp_path_factory):
    """A figure folder whose train JSON has the cases GluonCV skips: a crowd person, one with no keypoints, one of
    zero area, and one with a single labelled joint (kept)."""
    root = tmp_path_factory.mktemp('figs') / 'tiny'
    make_figures(root, FigureSpec(train=6, val=0, test=0, size=64))
    path = root / 'annotations' / 'person_keypoints_train.json'
    doc = json.loads(path.read_text())
    anns = doc['annotations']
    anns[0]['iscrowd'] = 1
    anns[1]['keypoints'] = [0] * 51
    anns[2]['area'] = 0
    kp = np.array(anns[3]['keypoints']).reshape(17, 3)
    kp[np.flatnonzero(kp[:, 2])[1:]] = 0
    anns[3]['keypoints'] = kp.ravel().tolist()
    path.write_text(json.dumps(doc))
    return root, path


def _gluoncv_layout(root, path, gcv, drop_people_of=(), off_centre=None):
    """A copy of the figure folder in GluonCV's layout (GluonCV reads the image id from the file name and the folder
    from coco_url), without the annotations of the images `drop_people_of` (so they have nobody), and annotation
    `off_centre`'s labelled joints moved to its box's corner (check_centers drops that person)."""
    doc = json.loads(path.read_text())
    if off_centre is not None:
        a = doc['annotations'][off_centre]
        kp = np.array(a['keypoints'], np.float64).reshape(17, 3)
        kp[kp[:, 2] > 0, :2] = a['bbox'][:2]
        a['keypoints'] = kp.ravel().tolist()
    os.makedirs(gcv / 'annotations')
    os.makedirs(gcv / 'figs')
    for image in doc['images']:
        name = f'{image["id"]:012d}.jpg'
        shutil.copy(root / 'JPEGImages' / image['file_name'], gcv / 'figs' / name)
        image.update(file_name=name, coco_url=f'http://example.org/figs/{name}')
    doc['annotations'] = [a for a in doc['annotations'] if a['image_id'] not in drop_people_of]
    (gcv / 'annotations' / 'kp.json').write_text(json.dumps(doc))
    return doc


def test_keypoints_match_gluoncv(figures, tmp_path):
    root, path = figures
    gcv = tmp_path / 'gcv'
    doc = _gluoncv_layout(root, path, gcv)
    run_peer('gluoncv_coco.py', tmp_path, [{'kind': 'keypoints', 'root': str(gcv), 'split': 'kp', 'out': 'kp'}])
    ref = np.load(tmp_path / 'kp.npz')

    ds = COCOKeyPoints(root / 'JPEGImages', path)
    assert len(ds) == len(ref['image_ids']) == len(doc['annotations']) - 3
    assert ds.num_joints == 17 and ds.joint_pairs == COCO_FLIP_PAIRS and ds.coco.getCatIds() == [1]
    for i in range(len(ds)):
        img, label, image_id = ds.sample(i)
        assert image_id == ref['image_ids'][i]
        np.testing.assert_array_equal(img, ref[f'image_{i}'])
        assert label['bbox'] == tuple(ref['bboxes'][i]) and all(isinstance(v, float) for v in label['bbox'])
        assert label['joints_3d'].dtype == np.float32
        np.testing.assert_array_equal(label['joints_3d'], ref['joints'][i])
    img, _, image_id = ds[0]  # ds[i] is sample(i)
    assert img.shape == (64, 64, 3) and image_id == ref['image_ids'][0]

    strict = COCOKeyPoints(root / 'JPEGImages', path, min_keypoints=5)
    labelled = ref['joints'][:, :, 0, 1].sum(axis=1)
    assert len(strict) == (labelled >= 5).sum() < len(ds)
    back = pickle.loads(pickle.dumps(strict))  # DataLoader workers get it without the COCO index
    np.testing.assert_array_equal(back.sample(0)[1]['joints_3d'], strict.sample(0)[1]['joints_3d'])


def test_gluoncv_signature_keypoints_match_gluoncv(figures, tmp_path):
    """gluonzoo.cv.data.COCOKeyPoints(root, splits, check_centers, skip_empty): GluonCV's samples, NDArray images,
    a picture without people as GluonCV's dummy person."""
    import gluonzoo.cv as gcv
    root, path = figures
    first = json.loads(path.read_text())['images'][1]['id']
    doc = _gluoncv_layout(root, path, tmp_path / 'gcv', drop_people_of={first}, off_centre=-1)
    jobs = [{'kind': 'keypoints', 'root': str(tmp_path / 'gcv'), 'split': 'kp', 'out': name, 'kwargs': kwargs}
            for name, kwargs in (('plain', {}), ('centred', {'check_centers': True, 'skip_empty': False}))]
    run_peer('gluoncv_coco.py', tmp_path, jobs)
    for job in jobs:
        ref = np.load(tmp_path / f'{job["out"]}.npz')
        ds = gcv.data.COCOKeyPoints(str(tmp_path / 'gcv'), splits=['kp'], **job['kwargs'])
        assert len(ds) == len(ref['image_ids']) > 0 and ds.num_joints == 17
        for i in range(len(ds)):
            img, label, image_id = ds[i]
            assert image_id == ref['image_ids'][i]
            np.testing.assert_array_equal(img.asnumpy(), ref[f'image_{i}'])
            np.testing.assert_array_equal(np.asarray(label['bbox'], np.float64), ref['bboxes'][i])
            np.testing.assert_array_equal(label['joints_3d'], ref['joints'][i])
    dummies = (ref['bboxes'] == [-1, -1, 0, 0]).all(axis=1).sum()  # pictures without (valid) people: 2
    assert dummies == 2 and len(ref['image_ids']) == len(np.load(tmp_path / 'plain.npz')['image_ids']) - 1 + dummies
    assert len(doc['images']) and ds.coco.getCatIds() == [1]


def _png(path):
    from PIL import Image
    return np.array(Image.open(path))


def test_instance_masks_are_the_scene_pngs(tmp_path):
    root = tmp_path / 'scenes'
    make_scenes(root, SceneSpec(train=3, val=0, test=1, size=48))
    for split in ('train', 'test'):
        ds = COCOInstance(root / 'JPEGImages', root / 'annotations' / f'instances_{split}.json')
        assert len(ds) == (3 if split == 'train' else 1) and ds.num_class == 10
        for i in range(len(ds)):
            img, target = ds.sample(i)
            stem = os.path.basename(ds.items[i])[:-4]
            objects, classes = (_png(root / folder / f'{stem}.png') for folder in ('SegmentationObject',
                                                                                    'SegmentationClass'))
            n = objects[objects != 255].max()
            masks, boxes = target['masks'], target['boxes']
            assert masks.dtype == np.uint8 and masks.shape == (n, 48, 48) and img.shape == (48, 48, 3)
            assert boxes.dtype == np.float32 and boxes.shape == (n, 4)
            for t in range(n):
                np.testing.assert_array_equal(masks[t], objects == t + 1)
                ys, xs = np.nonzero(objects == t + 1)
                assert boxes[t].tolist() == [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]  # GluonCV's x + w
                assert target['ids'][t] == classes[ys[0], xs[0]] - 1


def test_instance_from_polygons_and_bad_input(tmp_path):
    import cv2
    cv2.imwrite(str(tmp_path / 'a.jpg'), np.zeros((20, 30, 3), np.uint8))
    doc = {'images': [{'id': 7, 'file_name': 'a.jpg', 'width': 30, 'height': 20}],
           'categories': [{'id': 3, 'name': 'cat'}, {'id': 9, 'name': 'dog'}],
           'annotations': [
               {'id': 1, 'image_id': 7, 'category_id': 9, 'bbox': [2, 3, 10, 5], 'area': 50, 'iscrowd': 0,
                'segmentation': [[2, 3, 12, 3, 12, 8, 2, 8]]},
               {'id': 2, 'image_id': 7, 'category_id': 3, 'bbox': [20, 0, 10, 10], 'area': 50, 'iscrowd': 0,
                'segmentation': [[20, 0, 30, 0, 20, 10]]},
               {'id': 3, 'image_id': 7, 'category_id': 3, 'bbox': [0, 0, 30, 20], 'area': 600, 'iscrowd': 1,
                'segmentation': [[0, 0, 30, 0, 30, 20, 0, 20]]}]}
    path = tmp_path / 'poly.json'
    path.write_text(json.dumps(doc))
    ds = COCOInstance(tmp_path, path)
    img, target = ds.sample(0)
    assert ds.classes == ('cat', 'dog') and ds.image_ids == [7] and target['ids'].tolist() == [1, 0]
    assert target['boxes'].tolist() == [[2, 3, 12, 8], [20, 0, 30, 10]]  # the crowd one skipped
    square = target['masks'][0]
    assert square[4:8, 3:12].all() and square.sum() == square[3:9, 2:13].sum() and not square[:, 14:].any()
    assert target['masks'][1][0, 21] == 1 and target['masks'][1][9, 29] == 0  # the triangle's hypotenuse
    with pytest.raises(BadInputError, match='no category named "person"'):
        COCOKeyPoints(tmp_path, path)
    with pytest.raises(BadInputError, match='does not exist'):
        COCOInstance(tmp_path, tmp_path / 'none.json')
    (tmp_path / 'bad.json').write_text('{"images": 3}')
    with pytest.raises(BadInputError, match='not COCO JSON'):
        COCOInstance(tmp_path, tmp_path / 'bad.json')
    os.remove(tmp_path / 'a.jpg')
    with pytest.raises(BadInputError, match='1 image.* missing'):
        COCOInstance(tmp_path, path)
