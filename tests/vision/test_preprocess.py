"""A record's preprocess is honoured everywhere: classify / `gluonzoo predict` feed a 28x28 grey checkpoint grey
28x28 pictures and a CIFAR checkpoint 32x32 CIFAR-normalized ones (as GluonCV's own pipeline does), and
export(preprocess=True) bakes the same normalization into the graph for every kind of image record."""
import collections
import dataclasses
import json
import os
import subprocess
import sys

import cv2
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.exporting.verify import ort_session
from gluonzoo.registry import get_entry
from gluonzoo.vision import classify, read_image
from gluonzoo.vision.data import ArrayData, load_fashion_mnist
from gluonzoo.vision.meta import FASHION_MNIST_MEAN, FASHION_MNIST_STD
from gluonzoo.vision.transforms import image_eval

from ..conftest import registered, sha1, zipped
from ..peers import run_peer

FMNIST = 'cifar_resnet20_v1.fmnist'
N = 200
CHELSEA = os.path.join(os.path.dirname(gz.__file__), '..', 'vision', 'assets', 'chelsea.jpg')


@pytest.fixture(scope='module')
def fashion(tmp_path_factory):
    """The first 200 Fashion-MNIST test images as 28x28 grey PNGs, and their labels."""
    folder = tmp_path_factory.mktemp('fashion')
    images, labels = load_fashion_mnist('test')
    paths = []
    for i in range(N):
        paths.append(str(folder / f'{i}.png'))
        cv2.imwrite(paths[-1], images[i])
    return paths, labels[:N]


def test_a_grey_28x28_checkpoint_classifies_grey_pictures(fashion):
    """Read back from PNG files, classify gives the logits of the recipe's own evaluation (ArrayData), exactly."""
    paths, labels = fashion
    net = gz.get_model(FMNIST, pretrained=True)
    x = np.stack([net.weights.transforms()(read_image(p)) for p in paths])
    images, _ = load_fashion_mnist('test')
    ref, _ = next(ArrayData(images[:N], labels, FASHION_MNIST_MEAN, FASHION_MNIST_STD, size=28).eval_batches(N))
    assert x.shape == (N, 1, 28, 28) and np.array_equal(x, ref)
    top = [r[0][0] for r in classify(net, paths, topk=1)]
    right = sum(t == net.classes[y] for t, y in zip(top, labels))
    assert right / N >= 0.9, f'{right}/{N} right (the checkpoint scores 92.7% on the test set)'


def test_a_32x32_colour_picture_is_converted_and_resized(fashion, tmp_path):
    """The same test pictures upscaled to 32x32 and saved as colour: the record's resize and grey conversion make
    28x28 grey inputs of them again."""
    paths, labels = fashion
    big = []
    for i, p in enumerate(paths):
        big.append(str(tmp_path / f'{i}.png'))
        grey = cv2.imread(p, cv2.IMREAD_GRAYSCALE)
        cv2.imwrite(big[-1], cv2.cvtColor(cv2.resize(grey, (32, 32), interpolation=cv2.INTER_LINEAR),
                                          cv2.COLOR_GRAY2BGR))
    net = gz.get_model(FMNIST, pretrained=True)
    top = [r[0][0] for r in classify(net, big, topk=1)]
    right = sum(t == net.classes[y] for t, y in zip(top, labels))
    assert right / N >= 0.85, f'{right}/{N} right after a 28 -> 32 -> 28 round trip'


def test_gluonzoo_predict_on_a_grey_picture(fashion):
    paths, labels = fashion
    p = subprocess.run([sys.executable, '-m', 'gluonzoo.cli', 'predict', FMNIST, paths[0], '--topk', '3'],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == paths[0] and lines[1].split(None, 1)[1] == gz.get_weights(FMNIST).classes[labels[0]]


def test_a_cifar_checkpoint_sees_what_gluoncv_feeds_it(tmp_path, http_server, monkeypatch):
    """GluonCV's cifar_resnet20_v1 file (random weights here: its published one is not reachable offline) served
    from a local mirror under a record like the real one: classify on a 32x32 picture gives GluonCV's own
    transform_test + softmax, and a bigger picture is resized to 32 (not to 256 and cropped to 224)."""
    small = str(tmp_path / 'cat32.png')
    cv2.imwrite(small, cv2.resize(cv2.imread(CHELSEA), (32, 32), interpolation=cv2.INTER_AREA))
    run_peer('gluoncv_cifar_classify.py', tmp_path, [{'name': 'cifar_resnet20_v1', 'images': [small]}])
    ref = np.load(tmp_path / 'cifar_resnet20_v1.npz')
    data = (tmp_path / 'cifar_resnet20_v1.params').read_bytes()
    real = gz.get_weights('cifar_resnet20_v1.gluoncv')
    w = dataclasses.replace(real, arch='cifar_peer_net', sha1=sha1(data))
    http_server.files[f'/gluon/models/{w.file_stem}.zip'] = zipped(f'{w.file_stem}.params', data)
    monkeypatch.setenv('GLUONZOO_REPO', http_server.base)
    entry = get_entry('cifar_resnet20_v1')
    with registered('cifar_peer_net', entry.builder, task=entry.task, weights=[w], protected=entry.protected):
        net = gz.get_model('cifar_peer_net', pretrained=True)
        x = w.transforms()(read_image(small))
        assert x.shape == (3, 32, 32) and np.abs(x - ref['x'][0]).max() < 1e-5
        top = classify(net, [small], topk=10)[0]
        assert [label for label, _ in top][0] == real.classes[int(ref['prob'][0].argmax())]
        got = {label: p for label, p in top}
        assert max(abs(got[c] - ref['prob'][0][i]) for i, c in enumerate(real.classes)) < 1e-5
        assert w.transforms()(read_image(CHELSEA)).shape == (3, 32, 32)


def _one_per_preprocess():
    """The smallest classifier checkpoint of every distinct (preprocess, input shape): each kind of record once
    (detectors export with their post-processing: the detection-export issue)."""
    best = collections.OrderedDict()
    for name in gz.list_models(task='image-classification', tags=True):
        w = gz.get_weights(name)
        key = (json.dumps(dict(w.preprocess), sort_keys=True), w.input_shape)
        if key not in best or w.num_params < best[key].num_params:
            best[key] = w
    return [w.name for w in best.values()]


@pytest.mark.parametrize('name', _one_per_preprocess())
def test_export_with_preprocess_matches_the_python_transform(name, tmp_path):
    w = gz.get_weights(name)
    # the shipped grey checkpoint with its weights; the others with random weights (the graph is what is tested),
    # and where the record's own net is big (ResNeSt-269: 111M parameters at 416 pixels) a small body under the
    # record's preprocessing, which is what this checks: the resize, crop, colour and normalization in the graph
    big = w.num_params > 30e6 and name != FMNIST
    net = gz.get_model('mobilenet0.25', classes=w.num_classes) if big else gz.get_model(name, pretrained=name == FMNIST)
    if big or name != FMNIST:
        net.initialize()
    net.weights = w
    written = gz.export(net, str(tmp_path / 'm'), preprocess=True, formats=('onnx',))
    sess = ort_session(written['onnx'])
    c = 1 if w.preprocess.get('color') == 'grey' else 3
    assert sess.get_inputs()[0].type == 'tensor(uint8)' and sess.get_inputs()[0].shape[1:] == [*w.input_shape[2:], c]
    img = read_image(CHELSEA)
    x = w.transforms()(img)[None]  # what classify feeds MXNet
    pixels = dict(w.preprocess, mean=None, std=None, scale=1.0)  # the same resize/crop/color, 0..255
    raw = np.rint(image_eval(img, **pixels)).astype(np.uint8).transpose(1, 2, 0)[None]
    got = sess.run(None, {sess.get_inputs()[0].name: raw})[0]
    want = net(mx.nd.array(x)).asnumpy()
    assert np.abs(got - want).max() <= 1e-4 * np.abs(want).max()
    meta = {p.key: p.value for p in __import__('onnx').load(written['onnx']).metadata_props}
    assert meta['gluonzoo.input_layout'] == f'NHWC-uint8-{w.preprocess.get("color", "RGB")}'


def test_export_with_preprocess_of_a_text_record_is_refused(tmp_path):
    from gluonzoo.errors import ExportError
    net = gz.get_model('bert_6_384_12', vocab_size=20, units=16, hidden_size=32, num_layers=1, num_heads=4,
                       max_length=8)
    net.initialize()
    net.weights = gz.get_weights('bert_6_384_12')
    with pytest.raises(ExportError, match='preprocess=True needs an image weights record with mean/std'):
        gz.export(net, str(tmp_path / 'bert'), input_shape=(1, 8), preprocess=True)
    assert os.listdir(tmp_path) == []
