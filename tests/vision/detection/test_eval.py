"""scripts/vision/detection/eval.py with a tiny detector registered for the test (a real Gluon block with a real
checkpoint file and weights record) on a tiny VOC folder and COCO JSON the test writes: the record's
preprocessing is applied, boxes come back to the original pixels, mAP JSON is written."""
import importlib.util
import json
import os
import subprocess
import sys

import cv2
import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import HybridBlock

from gluonzoo.weights import Source, Weights

from ...conftest import registered, sha1
from .test_data import voc_xml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
EVAL = os.path.join(ROOT, 'scripts', 'vision', 'detection', 'eval.py')
ARCH = 'bright_box_test_detector'
#: the record's preprocess: an exact (h, w) resize of the 64x96 test pictures, y halved and x divided by 3, so
#: boxes left in the input's pixels, or scaled back with one factor, would miss the truth
PRE = dict(resize=(32, 32), mean=(0.5, 0.5, 0.5), std=(0.5, 0.5, 0.5), scale=1 / 255.0, interp='area')


class BrightBox(HybridBlock):
    """Finds the one bright (above mid-gray) region of a picture: its bounding box, class 0, score sigmoid(gain)."""

    def __init__(self, classes=('square', 'disk'), **kwargs):
        super().__init__(**kwargs)
        self.classes = list(classes)
        self.gain = self.params.get('gain', shape=(1,), init=mx.init.Constant(2.0))

    def hybrid_forward(self, F, x, gain):
        bright = F.mean(x, axis=1) > 0  # (N, H, W)
        cols, rows = F.max(bright, axis=1), F.max(bright, axis=2)
        at_x, at_y = F.contrib.arange_like(cols, axis=1), F.contrib.arange_like(rows, axis=1)
        box = F.stack(F.argmax(cols, axis=1), F.argmax(rows, axis=1), F.max(F.broadcast_mul(cols, at_x), axis=1) + 1,
                      F.max(F.broadcast_mul(rows, at_y), axis=1) + 1, axis=1)  # x2 past the last bright pixel
        ones = F.ones_like(F.slice_axis(box, axis=1, begin=0, end=1))
        return (F.expand_dims(ones * 0, 1), F.expand_dims(F.broadcast_mul(ones, F.sigmoid(gain)), 1),
                F.expand_dims(box, 1))


@pytest.fixture
def detector(tmp_path, monkeypatch):
    """BrightBox registered with a weights record whose file sits in a $GLUONZOO_PATH folder."""
    net = BrightBox()
    net.initialize()
    folder = tmp_path / 'weights'
    folder.mkdir()
    net.save_parameters(str(folder / 'x.params'))
    data = (folder / 'x.params').read_bytes()
    w = Weights(arch=ARCH, tag='t', default=True, sha1=sha1(data), task='object-detection', num_params=1,
                classes=('square', 'disk'), source=Source(kind='mirror', url='http://127.0.0.1:9/never/'),
                preprocess=PRE, input_shape=(1, 3, 32, 32))
    os.replace(folder / 'x.params', folder / f'{w.file_stem}.params')
    monkeypatch.setenv('GLUONZOO_PATH', str(folder))
    with registered(ARCH, lambda classes=('square', 'disk'): BrightBox(classes), task='object-detection',
                    weights=[w], test_input=(1, 3, 32, 32)):
        yield w


# image id: (the white square's 1-based VOC box, the gray disk's center) on a 64x96 picture
SCENES = {'a': ((11, 21, 40, 50), (70, 40)), 'b': ((51, 5, 90, 28), (20, 45)), 'c': ((3, 33, 18, 60), (60, 20))}


@pytest.fixture
def voc(tmp_path):
    """VOC2007/ with three pictures: a white square (found) and a gray disk (never found) each; test split."""
    folder = tmp_path / 'VOCdevkit' / 'VOC2007'
    for sub in ('Annotations', 'ImageSets/Main', 'JPEGImages'):
        (folder / sub).mkdir(parents=True)
    for image_id, ((x1, y1, x2, y2), (cx, cy)) in SCENES.items():
        img = np.zeros((64, 96, 3), np.uint8)
        img[y1 - 1:y2, x1 - 1:x2] = 255
        cv2.circle(img, (cx, cy), 8, (90, 90, 90), -1)
        cv2.imwrite(str(folder / 'JPEGImages' / f'{image_id}.jpg'), img, [cv2.IMWRITE_JPEG_QUALITY, 100])
        (folder / 'Annotations' / f'{image_id}.xml').write_text(voc_xml(image_id, (64, 96), [
            ('square', (x1, y1, x2, y2), 0), ('disk', (cx - 7, cy - 7, cx + 9, cy + 9), int(image_id == 'c'))]))
    (folder / 'ImageSets' / 'Main' / 'test.txt').write_text('a\nb\nc\n')
    return tmp_path / 'VOCdevkit'


@pytest.fixture
def coco(voc, tmp_path):
    """The same pictures as COCO: annotations/instances_val2017.json and val2017/ (GluonCV's layout)."""
    (tmp_path / 'coco' / 'annotations').mkdir(parents=True)
    os.symlink(voc / 'VOC2007' / 'JPEGImages', tmp_path / 'coco' / 'val2017')
    images, anns = [], []
    for n, (image_id, ((x1, y1, x2, y2), _)) in enumerate(SCENES.items(), 1):
        images.append({'id': n, 'file_name': f'{image_id}.jpg', 'width': 96, 'height': 64})
        w, h = x2 - x1 + 1, y2 - y1 + 1
        anns.append({'id': n, 'image_id': n, 'category_id': 5, 'bbox': [x1 - 1, y1 - 1, w, h], 'area': w * h,
                     'iscrowd': 0})
    path = tmp_path / 'coco' / 'annotations' / 'instances_val2017.json'
    path.write_text(json.dumps({'images': images, 'annotations': anns,
                                'categories': [{'id': 5, 'name': 'square'}, {'id': 9, 'name': 'cube'}]}))
    return path


def _script():
    spec = importlib.util.spec_from_file_location('detection_eval_script', EVAL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # DataLoader workers unpickle its batchify function by module name
    spec.loader.exec_module(module)
    return module


def test_eval_on_voc_writes_the_map_json(detector, voc, tmp_path, capsys):
    script = _script()
    out = tmp_path / 'result.json'
    assert script.main([ARCH, str(voc), '--out', str(out), '--workers', '2', '--batch-size', '2']) == 0
    result = json.loads(out.read_text())
    assert result['model'] == f'{ARCH}.t' and result['sha1'] == detector.sha1 and result['images'] == 3
    # every square found (its box came back through the resize: IoU >= 0.5), no disk: AP 1 and 0
    assert result['per_class_AP'] == {'square': pytest.approx(1.0), 'disk': 0.0}
    assert result['mAP'] == pytest.approx(0.5)
    assert result['metric'] == 'voc07' and result['preprocess']['resize'] == [32, 32]
    assert f'eval {ARCH}.t' in capsys.readouterr().err  # the progress bar
    area = script.evaluate(ARCH, str(voc / 'VOC2007'), metric='voc', workers=0, limit=2, progress=False)
    assert area['images'] == 2 and area['metric'] == 'voc' and area['per_class_AP']['square'] == pytest.approx(1.0)


def test_eval_on_coco(detector, coco):
    result = _script().evaluate(ARCH, str(coco), workers=0, progress=False)  # images found by GluonCV's layout
    assert result['metric'] == 'coco' and result['images'] == 3
    assert result['coco_stats']['AP50'] == 1.0 and result['mAP'] > 0.3
    assert result['per_class_AP']['square'] == result['mAP'] and result['per_class_AP']['cube'] is None


def test_eval_errors_are_one_line(tmp_path):
    p = subprocess.run([sys.executable, EVAL, 'yolo3_no_such_net', str(tmp_path), '--no-progress'],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 1 and p.stderr.startswith('eval.py: error:') and len(p.stderr.strip().splitlines()) == 1
