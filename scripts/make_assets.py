"""Re-create the bundled photos in vision/assets/ from scikit-image's data (pip install scikit-image).

Run once by a maintainer; the JPEGs are committed so that the demo and tests need neither scikit-image nor a network.
"""
import os
import sys

import cv2
from skimage import data

OUT = os.path.join(os.path.dirname(__file__), '..', 'vision', 'assets')

if __name__ == '__main__':
    for name in sys.argv[1:] or ['chelsea', 'coffee', 'rocket']:
        rgb = getattr(data, name)()
        cv2.imwrite(os.path.join(OUT, f'{name}.jpg'), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92])
        print('wrote', name)
