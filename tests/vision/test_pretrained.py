"""The real pretrained MobileNetV2 on real photos, and the image reader on awkward files."""
import os
from importlib import resources

import cv2
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.vision import classify, read_image

ASSETS = resources.files('gluonzoo.vision').joinpath('assets')


def photo(name):
    return str(ASSETS.joinpath(name))


def test_top1_on_real_photos(pretrained_home):
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
    (cat, p_cat), (coffee, p_coffee) = [r[0] for r in classify(net, [photo('chelsea.jpg'), photo('coffee.jpg')])]
    assert cat == 'Egyptian cat' and p_cat > 0.5
    assert coffee == 'espresso' and p_coffee > 0.9


def test_first_use_converts_from_the_package_and_caches(tmp_path):
    from gluonzoo import store
    w = gz.get_weights('mobilenetv2_1.0')
    path = store.fetch(w, root=tmp_path, progress=False)
    assert os.path.basename(path) == 'mobilenetv2_1.0-d78ff03a.params' and store.file_hash(path) == w.sha1


def test_hybridized_equals_imperative(pretrained_home):
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
    x = mx.nd.random.uniform(shape=(2, 3, 96, 96))
    a = net(x).asnumpy()
    net.hybridize()
    b = net(x).asnumpy()
    assert np.abs(a - b).max() / np.abs(a).max() < 1e-5


@pytest.mark.parametrize('kind', ['gray', 'rgba', 'u16', 'exif'])
def test_read_image_normalizes_odd_inputs(tmp_path, kind):
    rgb = read_image(photo('chelsea.jpg'))
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    path = str(tmp_path / f'{kind}.png')
    if kind == 'gray':
        cv2.imwrite(path, cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
    elif kind == 'rgba':
        cv2.imwrite(path, cv2.cvtColor(bgr, cv2.COLOR_BGR2BGRA))
    elif kind == 'u16':
        cv2.imwrite(path, bgr.astype(np.uint16) * 257)
    else:
        path = str(tmp_path / 'rot.jpg')
        _write_jpeg_with_orientation(path, bgr, orientation=6)  # "rotate 90 CW to display"
    img = read_image(path)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    if kind == 'exif':
        assert img.shape[:2] == rgb.shape[1::-1]
    elif kind != 'gray':
        assert np.abs(img.astype(int) - rgb).mean() < 1.0


def _write_jpeg_with_orientation(path, bgr, orientation):
    ok, jpg = cv2.imencode('.jpg', bgr)
    # a minimal APP1 Exif segment: big-endian TIFF header, one IFD entry 0x0112 (Orientation), SHORT, count 1
    tiff = b'MM\x00\x2a\x00\x00\x00\x08' + b'\x00\x01' + b'\x01\x12\x00\x03\x00\x00\x00\x01' + \
        orientation.to_bytes(2, 'big') + b'\x00\x00' + b'\x00\x00\x00\x00'
    body = b'Exif\x00\x00' + tiff
    app1 = b'\xff\xe1' + (len(body) + 2).to_bytes(2, 'big') + body
    with open(path, 'wb') as f:
        f.write(jpg[:2].tobytes() + app1 + jpg[2:].tobytes())


def test_read_image_bad_files(tmp_path):
    (tmp_path / 'notes.txt').write_text('not an image')
    data = open(photo('coffee.jpg'), 'rb').read()
    (tmp_path / 'cut.jpg').write_bytes(data[:200])
    (tmp_path / 'empty.jpg').write_bytes(b'')
    for name in ('notes.txt', 'cut.jpg', 'empty.jpg'):
        with pytest.raises(BadInputError, match='not an image OpenCV can decode'):
            read_image(tmp_path / name)
    with pytest.raises(BadInputError, match='No such file'):
        read_image(tmp_path / 'missing.jpg')
