"""Read any image OpenCV can decode as an HxWx3 uint8 RGB array."""
import os
import struct

import cv2
import numpy as np

from ..errors import BadInputError


#: images whose header claims more pixels than this are refused before decoding (an image bomb: a 20000x20000 PNG
#: of a few hundred bytes decodes to 1.2 GB); $GLUONZOO_MAX_PIXELS changes it
MAX_PIXELS = 100_000_000


def image_size(data):
    """(width, height) that an image's header claims, for PNG, JPEG, GIF, BMP and WebP; None for other formats or a
    header too short to say (the decoder then decides)."""
    if data[:8] == b'\x89PNG\r\n\x1a\n' and len(data) >= 24:
        return struct.unpack('>II', data[16:24])
    if data[:6] in (b'GIF87a', b'GIF89a') and len(data) >= 10:
        return struct.unpack('<HH', data[6:10])
    if data[:2] == b'BM' and len(data) >= 26:
        w, h = struct.unpack('<ii', data[18:26])
        return abs(w), abs(h)
    if data[:4] == b'RIFF' and data[8:12] == b'WEBP' and len(data) >= 30:
        kind = data[12:16]
        if kind == b'VP8 ':
            w, h = struct.unpack('<HH', data[26:30])
            return w & 0x3FFF, h & 0x3FFF
        if kind == b'VP8L':
            bits = int.from_bytes(data[21:25], 'little')
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if kind == b'VP8X':
            return int.from_bytes(data[24:27], 'little') + 1, int.from_bytes(data[27:30], 'little') + 1
        return None
    if data[:2] == b'\xff\xd8':
        return _jpeg_size(data)
    return None


def _jpeg_size(data):
    """Walk a JPEG's marker segments to its frame header (SOF0..SOF15 but DHT, JPG, DAC): (width, height)."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # standalone markers: no length
            i += 2
            continue
        length = struct.unpack('>H', data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and i + 9 <= len(data):
            h, w = struct.unpack('>HH', data[i + 5:i + 9])
            return w, h
        i += 2 + length
    return None


def check_pixels(data, what):
    """Refuse an image whose header claims more than MAX_PIXELS (or $GLUONZOO_MAX_PIXELS) pixels."""
    size = image_size(data)
    limit = int(os.environ.get('GLUONZOO_MAX_PIXELS') or MAX_PIXELS)
    if size and size[0] * size[1] > limit:
        raise BadInputError(f'{what} claims {size[0]}x{size[1]} pixels, over the {limit:,}-pixel limit (an image '
                            'bomb?); shrink it, or raise GLUONZOO_MAX_PIXELS')


def read_bytes(path, what='file'):
    """The bytes of `path`; an unreadable one is a BadInputError naming it as `what` (an image, a mask)."""
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError as e:
        raise BadInputError(f'cannot read {what} {path}: {e.strerror or e}') from None


def read_image(path):
    """Decode `path` to RGB uint8; grayscale is replicated, alpha dropped, 16-bit scaled, EXIF orientation applied.

    cv2.imdecode with IMREAD_COLOR_RGB does all four and decodes straight to RGB (the same pixels as IMREAD_COLOR
    then BGR2RGB, without that pass over the picture); reading the bytes ourselves keeps non-ASCII paths working.
    """
    path = os.fspath(path)
    data = read_bytes(path, 'image')
    check_pixels(data, path)
    img = decode_rgb(data)
    if img is None:
        raise BadInputError(f'{path} is not an image OpenCV can decode (empty, truncated or not JPEG/PNG/BMP/...)')
    return img


def decode_rgb(data):
    """Encoded image bytes -> RGB uint8 (read_image's decoding), or None where OpenCV cannot decode them."""
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR_RGB) if data else None


# -- palette PNGs (segmentation masks: the scene generator writes them, `gluonzoo segment` too) -------------------
def voc_palette(n=256):
    """Pascal VOC's colormap (n, 3) uint8 (GluonCV's get_color_pallete 'pascal_voc'): the bits of color i dealt out
    to R, G and B from the high bit down, 3 at a time (1 dark red, 15 person pink, 255 the 'void' cream)."""
    ids = np.arange(n)
    out = np.zeros((n, 3), np.int64)
    for bit in range(8):
        for channel in range(3):
            out[:, channel] |= ((ids >> (3 * bit + channel)) & 1) << (7 - bit)
    return out.astype(np.uint8)


def encode_palette_png(index, palette=None):
    """An 8-bit palette PNG (color type 3) of the uint8 array `index` (H, W), VOC's palette by default: the bytes,
    deterministic (zlib level 9, filter 0 on every row). OpenCV writes no palette PNGs."""
    import zlib
    index = np.ascontiguousarray(index, np.uint8)
    h, w = index.shape
    palette = voc_palette() if palette is None else palette

    def chunk(tag, data):
        return struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff)
    rows = np.concatenate([np.zeros((h, 1), np.uint8), index], axis=1).tobytes()
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 3, 0, 0, 0))
            + chunk(b'PLTE', np.asarray(palette, np.uint8).tobytes()) + chunk(b'IDAT', zlib.compress(rows, 9))
            + chunk(b'IEND', b''))
