"""Read any image OpenCV can decode as an HxWx3 uint8 RGB array."""
import os

import cv2
import numpy as np

from ..errors import BadInputError


def read_image(path):
    """Decode `path` to RGB uint8; grayscale is replicated, alpha dropped, 16-bit scaled, EXIF orientation applied.

    cv2.imdecode with IMREAD_COLOR does all four; reading the bytes ourselves keeps non-ASCII paths working.
    """
    path = os.fspath(path)
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError as e:
        raise BadInputError(f'cannot read image {path}: {e.strerror or e}') from None
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if img is None:
        raise BadInputError(f'{path} is not an image OpenCV can decode (empty, truncated or not JPEG/PNG/BMP/...)')
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
