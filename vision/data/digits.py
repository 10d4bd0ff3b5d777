"""OpenCV's handwritten digits sheet (Debian `opencv-doc`, examples/data/digits.png): 5,000 grey 20x20 cells,
50 rows x 100 columns, five rows per digit 0-9.
"""
import os

import cv2
import numpy as np

from ...errors import BadInputError

#: where `apt-get install opencv-doc` puts the sheet; $GLUONZOO_OPENCV_DIGITS overrides it
DIGITS_PNG = '/usr/share/doc/opencv-doc/examples/data/digits.png'


def load_opencv_digits(split='train', path=None):
    """(cells uint8 Nx20x20, labels int64 N) of `split`: per digit the first 400 cells train, the last 100 test,
    interleaved (0, 1, ..., 9, 0, 1, ...) so that the first N of a split cover every digit."""
    if split not in ('train', 'test'):
        raise ValueError(f'OpenCV digits split {split!r} is not train or test')
    path = path or os.environ.get('GLUONZOO_OPENCV_DIGITS') or DIGITS_PNG
    sheet = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    if sheet is None:
        raise BadInputError(f'{path} is missing or unreadable: install the Debian package opencv-doc '
                            '(apt-get install opencv-doc) or set $GLUONZOO_OPENCV_DIGITS')
    if sheet.shape != (1000, 2000):
        raise BadInputError(f'{path} is {sheet.shape}, not the 1000x2000 digits sheet')
    cells = sheet.reshape(50, 20, 100, 20).transpose(0, 2, 1, 3).reshape(10, 500, 20, 20)
    labels = np.repeat(np.arange(10), 500).reshape(10, 500)
    part = slice(0, 400) if split == 'train' else slice(400, 500)
    return cells[:, part].swapaxes(0, 1).reshape(-1, 20, 20), labels[:, part].T.reshape(-1)
