"""Image reading: header sizes agree with OpenCV's decode for every format it writes, and image bombs are refused
from their header before any decoding."""
import struct
import zlib

import cv2
import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision.image import image_size, read_image


@pytest.mark.parametrize('ext, params', [('.png', []), ('.jpg', []), ('.jpg', [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
                                         ('.bmp', []), ('.webp', []), ('.webp', [cv2.IMWRITE_WEBP_QUALITY, 101])])
def test_header_size_is_the_decoded_size(ext, params):
    img = np.random.RandomState(0).randint(0, 255, (37, 53, 3)).astype(np.uint8)
    data = cv2.imencode(ext, img, params)[1].tobytes()
    h, w = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).shape[:2]  # OpenCV: the reference
    assert image_size(data) == (w, h)


def _png_header(width, height):
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)) + \
        chunk(b'IDAT', zlib.compress(b'\0' * 64)) + chunk(b'IEND', b'')


def test_an_image_bomb_is_refused_from_its_header(tmp_path, monkeypatch):
    bomb = tmp_path / 'bomb.png'
    bomb.write_bytes(_png_header(20000, 20000))  # 377 bytes that claim 1.2 GB of pixels
    with pytest.raises(BadInputError, match='claims 20000x20000 pixels, over the 100,000,000-pixel limit'):
        read_image(bomb)
    monkeypatch.setenv('GLUONZOO_MAX_PIXELS', '1000')
    small = tmp_path / 'small.png'
    small.write_bytes(cv2.imencode('.png', np.zeros((40, 40, 3), np.uint8))[1].tobytes())
    with pytest.raises(BadInputError, match='claims 40x40 pixels, over the 1,000-pixel limit'):
        read_image(small)
    monkeypatch.delenv('GLUONZOO_MAX_PIXELS')
    assert read_image(small).shape == (40, 40, 3)


def test_unknown_or_short_headers_leave_it_to_the_decoder():
    assert image_size(b'') is None and image_size(b'\xff\xd8\xff') is None and image_size(b'GIF89a') is None
    assert image_size(b'GIF89a\x10\x00\x20\x00') == (16, 32)
