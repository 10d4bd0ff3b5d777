"""Pictures of predictions: `save_topk` writes a PNG of an image with its top-k labels and probability bars."""
import os

import cv2
import numpy as np

from .image import read_image


def render_topk(image, topk, height=320, panel=360):
    """RGB uint8 picture: the image scaled to `height` on the left, one bar + label per (label, prob) on the right."""
    img = read_image(image) if not isinstance(image, np.ndarray) else image
    h, w = img.shape[:2]
    img = cv2.resize(img, (max(1, round(w * height / h)), height), interpolation=cv2.INTER_AREA)
    canvas = np.full((height, img.shape[1] + panel, 3), 255, np.uint8)
    canvas[:, :img.shape[1]] = img
    x0, row = img.shape[1] + 10, max(20, height // max(len(topk), 1))
    for i, (label, p) in enumerate(topk):
        y = 10 + i * row
        cv2.rectangle(canvas, (x0, y + 14), (x0 + int((panel - 20) * float(p)), y + 24), (66, 133, 244), -1)
        cv2.putText(canvas, f'{float(p):.3f} {label}'[:40], (x0, y + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (0, 0, 0), 1, cv2.LINE_AA)
    return canvas


def save_topk(image, topk, path, **kwargs):
    """Write render_topk(...) to `path` as PNG (through a temporary file, so no half-written PNG is left)."""
    path = os.fspath(path)
    ok, buf = cv2.imencode('.png', cv2.cvtColor(render_topk(image, topk, **kwargs), cv2.COLOR_RGB2BGR))
    tmp = path + '.part'
    with open(tmp, 'wb') as f:
        f.write(buf.tobytes())
    os.replace(tmp, path)
    return path
