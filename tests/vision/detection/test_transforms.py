"""Box-aware transforms and GluonCV's detection presets, on real photos (OpenCV's samples).

Checked against GluonCV 0.10.5 (one peers run):
- every eval preset (SSD, YOLOv3, Faster R-CNN, CenterNet) gives GluonCV's image tensor and boxes: bit for bit
  where OpenCV's bilinear/area resize and warpAffine are used; within one pixel level where GluonCV's auto
  interpolation picks bicubic (MXNet's bundled OpenCV and OpenCV 4.11 round bicubic differently);
- every train preset (SSD and YOLOv3, one augmentation; Faster R-CNN with a random short side; CenterNet) gives
  GluonCV's sample when fed the random draws GluonCV made: the peer records each draw of a seeded run and a replay
  generator hands them to ours in the same order (float32 color arithmetic differs in the last bits).
Checked by invariants with a real numpy Generator: boxes stay inside the output, a flip mirrors the pixels under a
box exactly, SSD's crops meet one of their IoU constraints and keep only boxes whose center they hold.
"""
import json

import cv2
import numpy as np
import pytest

from gluonzoo.vision import read_image
from gluonzoo.vision.meta import IMAGENET_STD
from gluonzoo.vision.transforms import bbox as B
from gluonzoo.vision.transforms import detection as D

from ...peers import run_peer

PHOTOS = '/usr/share/doc/opencv-doc/examples/data/'
MESSI = [[200, 20, 330, 330, 14, 0], [440, 270, 480, 310, 4, 1]]  # 548x342: the player, the ball (difficult)
FRUITS = [[10, 200, 150, 330, 2, 0], [300, 50, 500, 250, 3, 0], [400, 300, 510, 470, 1, 0]]  # 512x480
ONE_LEVEL = 1.01 / 255 / min(IMAGENET_STD)  # one pixel level after normalization

EVAL = [('ssd_val', 'messi5.jpg', MESSI, 'ssd', 'SSDDefaultValTransform', dict(width=300, height=300)),
        ('yolo_val', 'messi5.jpg', MESSI, 'yolo', 'YOLO3DefaultValTransform', dict(width=416, height=416)),
        ('yolo_grow', 'fruits.jpg', FRUITS, 'yolo', 'YOLO3DefaultValTransform', dict(width=608, height=608)),
        ('rcnn_val', 'messi5.jpg', MESSI, 'rcnn', 'FasterRCNNDefaultValTransform', dict(short=600, max_size=1000)),
        ('rcnn_max', 'fruits.jpg', FRUITS, 'rcnn', 'FasterRCNNDefaultValTransform', dict(short=400, max_size=420)),
        ('cn_val', 'messi5.jpg', MESSI, 'center_net', 'CenterNetDefaultValTransform', dict(width=512, height=512)),
        ('cn_portrait', 'portrait', FRUITS, 'center_net', 'CenterNetDefaultValTransform', dict(width=384,
                                                                                               height=384))]
TRAIN = [(f'ssd_train{s}', 'messi5.jpg', MESSI, 'ssd', 'SSDDefaultTrainTransform', dict(width=300, height=300), s)
         for s in range(4)] + [
    ('yolo_train', 'fruits.jpg', FRUITS, 'yolo', 'YOLO3DefaultTrainTransform', dict(width=320, height=320), 5),
    ('rcnn_train', 'fruits.jpg', FRUITS, 'rcnn', 'FasterRCNNDefaultTrainTransform', dict(short=(300, 400),
                                                                                         max_size=500), 1),
    ('cn_train', 'fruits.jpg', FRUITS, 'center_net', 'CenterNetDefaultTrainTransform', dict(width=256, height=256,
                                                                                            num_class=20), 2)]
OURS = {'SSDDefaultValTransform': D.ssd_eval, 'YOLO3DefaultValTransform': D.yolo3_eval,
        'FasterRCNNDefaultValTransform': D.faster_rcnn_eval, 'CenterNetDefaultValTransform': D.center_net_eval,
        'SSDDefaultTrainTransform': D.ssd_train, 'YOLO3DefaultTrainTransform': D.yolo3_train,
        'FasterRCNNDefaultTrainTransform': D.faster_rcnn_train, 'CenterNetDefaultTrainTransform': D.center_net_train}


@pytest.fixture(scope='module')
def gluoncv(tmp_path_factory):
    out = tmp_path_factory.mktemp('dettransforms')
    portrait = str(out / 'portrait.png')  # taller than wide: the other branch of each resize
    cv2.imwrite(portrait, cv2.rotate(cv2.imread(PHOTOS + 'fruits.jpg'), cv2.ROTATE_90_CLOCKWISE))
    jobs = [dict(out=name, image=portrait if photo == 'portrait' else PHOTOS + photo, boxes=boxes, module=module,
                 preset=preset, kwargs=kwargs) for name, photo, boxes, module, preset, kwargs in EVAL]
    jobs += [dict(out=name, image=PHOTOS + photo, boxes=boxes, module=module, preset=preset, kwargs=kwargs, seed=seed)
             for name, photo, boxes, module, preset, kwargs, seed in TRAIN]
    run_peer('gluoncv_detection_transforms.py', out, jobs)
    return out


def _photo(gluoncv, photo):
    return read_image(gluoncv / 'portrait.png' if photo == 'portrait' else PHOTOS + photo)


def _ours_kwargs(kwargs):
    return {k: v for k, v in kwargs.items() if k != 'num_class'}


class Replay:
    """A stand-in numpy Generator that hands out GluonCV's recorded draws, in order, checking each one's kind.
    GluonCV draws a vertical flip with probability 0 that we do not draw: those are skipped."""

    def __init__(self, draws):
        self.draws = [d for d in draws if not (d[0] == 'choice' and d[2] == 0)]

    def _next(self, kind):
        assert self.draws, f'a {kind} draw GluonCV did not make'
        got = self.draws.pop(0)
        assert got[0] == kind, f'GluonCV drew {got[0]} where we draw {kind}'
        return got[1]

    def uniform(self, low=0.0, high=1.0):
        value = self._next('uniform')
        assert low <= value <= high
        return value

    def integers(self, low, high):
        value = self._next('int')
        assert low <= value < high
        return value

    def random(self):
        return 0.0 if self._next('choice') else 1.0  # a flip: 0.0 < p flips, 1.0 never does

    def standard_normal(self):
        return self._next('normal')

    def normal(self, loc, scale, size):
        return np.array(self._next('normal'))

    def permutation(self, n):
        return self._next('perm')


@pytest.mark.parametrize('name,photo,boxes,module,preset,kwargs', EVAL, ids=[e[0] for e in EVAL])
def test_eval_presets_equal_gluoncv(gluoncv, name, photo, boxes, module, preset, kwargs):
    ref = np.load(gluoncv / f'{name}.npz')
    x, got = OURS[preset](_photo(gluoncv, photo), np.array(boxes, np.float32), **kwargs)
    assert x.shape == ref['x'].shape and x.dtype == np.float32
    diff = np.abs(x - ref['x'])
    if name == 'yolo_grow':  # both sides grow: bicubic
        assert diff.max() <= ONE_LEVEL and (diff > 1e-5).mean() < 0.05
    else:
        assert diff.max() <= 1e-5, diff.max()
    assert got.shape == ref['boxes'].shape and np.abs(got - ref['boxes']).max() < 1e-3
    assert got[:, 4:].tolist() == np.array(boxes)[:, 4:].tolist()  # class and difficult ride along
    if preset == 'FasterRCNNDefaultValTransform':
        assert ref['scale'][0] == pytest.approx(_photo(gluoncv, photo).shape[0] / x.shape[1])


@pytest.mark.parametrize('name,photo,boxes,module,preset,kwargs,seed', TRAIN, ids=[t[0] for t in TRAIN])
def test_train_presets_equal_gluoncv_fed_its_draws(gluoncv, name, photo, boxes, module, preset, kwargs, seed):
    ref = np.load(gluoncv / f'{name}.npz')
    rng = Replay(json.loads((gluoncv / f'{name}.json').read_text()))
    x, got = OURS[preset](_photo(gluoncv, photo), np.array(boxes, np.float32), rng, **_ours_kwargs(kwargs))
    assert not rng.draws, f'{len(rng.draws)} of GluonCV\'s draws left over'
    assert x.shape == ref['x'].shape and np.abs(x - ref['x']).max() < 1e-3
    assert got.shape == ref['boxes'].shape and np.abs(got - ref['boxes']).max() < 1e-3


def test_train_presets_keep_boxes_inside_with_a_real_generator():
    img, boxes = read_image(PHOTOS + 'messi5.jpg'), np.array(MESSI, np.float32)
    rng = np.random.default_rng(0)
    for _ in range(12):
        for fn, kw, bound in ((D.ssd_train, dict(width=96, height=64), (96, 64)),
                              (D.center_net_train, dict(width=64, height=64), (15, 15)),
                              (D.faster_rcnn_train, dict(short=(60, 80), max_size=100), None)):
            x, out = fn(img, boxes, rng, **kw)
            w, h = bound or (x.shape[2], x.shape[1])
            assert (out[:, 0] >= 0).all() and (out[:, 2] <= w).all() and (out[:, 1] >= 0).all()
            assert (out[:, 3] <= h).all() and (out[:, :2] <= out[:, 2:4]).all()
            if bound is None:
                assert 60 <= min(x.shape[1:]) <= 80 and max(x.shape[1:]) <= 100


def test_flip_mirrors_the_pixels_under_each_box():
    img = read_image(PHOTOS + 'fruits.jpg')
    boxes = np.array(FRUITS, np.float32)
    out, flipped = B.hflip(img, boxes)
    w = img.shape[1]
    assert np.array_equal(flipped, B.flip_boxes(B.flip_boxes(flipped, w), w))
    for (x1, y1, x2, y2), (f1, _, f2, _) in zip(boxes[:, :4].astype(int), flipped[:, :4].astype(int)):
        assert (f1, f2) == (w - x2, w - x1)
        assert np.array_equal(out[y1:y2, f1:f2], img[y1:y2, x1:x2][:, ::-1])
    rng = np.random.default_rng(1)
    _, twice = D._flip(img, boxes, rng, p=1.0)
    assert np.array_equal(twice, flipped)


def test_random_crop_meets_an_iou_constraint():
    boxes = np.array(FRUITS, np.float32)
    rng = np.random.default_rng(2)
    cropped = 0
    for _ in range(30):
        kept, (x, y, w, h) = B.random_crop_window(boxes, (480, 512), rng)
        assert len(kept) and (kept[:, :2] >= 0).all() and (kept[:, 2] <= w).all() and (kept[:, 3] <= h).all()
        if (x, y, w, h) == (0, 0, 512, 480):
            continue
        cropped += 1
        overlap = B.iou(boxes, np.array([[x, y, x + w, y + h]]))
        assert any((lo is None or lo <= overlap.min()) and (hi is None or overlap.max() <= hi)
                   for lo, hi in B.SSD_CONSTRAINTS)
        centers = (boxes[:, :2] + boxes[:, 2:4]) / 2
        inside = ((centers >= (x, y)) & (centers < (x + w, y + h))).all(axis=1)
        assert sorted(kept[:, 4].tolist()) == sorted(boxes[inside, 4].tolist())
        assert 0.5 - 1e-6 <= (w / 512) / (h / 480) <= 2 + 1e-6 and w * h >= 0.3 ** 2 * 512 * 480 - 2 * 1024
    assert cropped > 10
    assert B.random_crop_window(np.zeros((0, 6)), (480, 512), rng)[0].shape == (0, 6)


def test_expand_letterbox_and_affine_move_boxes_with_the_pixels():
    img = np.zeros((30, 40, 3), np.uint8)
    img[10:20, 5:15] = 255
    box = np.array([[5, 10, 15, 20, 3, 0]], np.float32)
    out, moved, (left, top, w, h) = B.random_expand(img, box, np.random.default_rng(3), max_ratio=3, fill=(1, 2, 3))
    x1, y1, x2, y2 = moved[0, :4].astype(int)
    assert out.shape == (h, w, 3) and (out[y1:y2, x1:x2] == 255).all() and (left, top) == (x1 - 5, y1 - 10)
    assert np.array_equal(out[top:top + 30, left:left + 40], img) and out.sum() == img.sum() + 6 * (h * w - 1200)
    boxed, lb, how = B.letterbox(img, box, (64, 48), fill=7)
    assert boxed.shape == (64, 48, 3) and boxed[0, 0].tolist() == [7, 7, 7]
    assert np.allclose(B.unletterbox_boxes(lb, *how), box) and lb[0, 4] == 3
    x1, y1, x2, y2 = np.round(lb[0, :4]).astype(int)
    assert (boxed[y1 + 1:y2 - 1, x1 + 1:x2 - 1] == 255).all()
    m = B.affine_matrix((20, 15), 40, (80, 80))
    back = B.affine_matrix((20, 15), 40, (80, 80), inv=True)
    warped, wb = B.warp_affine(img, box, m, (80, 80))
    assert np.allclose(B.affine_boxes(wb, back)[:, :4], box[:, :4], atol=1e-4)
    x1, y1, x2, y2 = wb[0, :4].astype(int)
    assert (warped[y1 + 1:y2 - 1, x1 + 1:x2 - 1] == 255).all()
    cropped, cb = B.crop(img, box, (10, 12, 20, 10), allow_outside_center=False)
    assert cropped.shape == (10, 20, 3) and cb.tolist() == [[0, 0, 5, 8, 3, 0]]


def test_detection_preset_reseeds_and_pickles():
    import pickle
    img, boxes = read_image(PHOTOS + 'messi5.jpg'), np.array(MESSI, np.float32)
    a = D.DetectionPreset(D.ssd_train, seed=4, width=64, height=64)
    b = pickle.loads(pickle.dumps(D.DetectionPreset(D.ssd_train, seed=4, width=64, height=64)))
    xa, ba = a(img, boxes)
    xb, bb = b(img, boxes)
    assert np.array_equal(xa, xb) and np.array_equal(ba, bb) and not np.array_equal(a(img, boxes)[0], xa)
    x, _ = D.DetectionPreset(D.faster_rcnn_eval, short=100, max_size=120)(img, boxes)
    assert x.shape == (3, 75, 120)
