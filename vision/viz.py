"""Pictures of predictions: `save_topk` writes a PNG of an image with its top-k labels and probability bars,
`plot_bbox` draws a detector's boxes with class names and scores (GluonCV's name, drawn with OpenCV)."""
import os

import cv2
import numpy as np

from .image import read_image
from .transforms.functional import as_rgb


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
    return _write_png(render_topk(image, topk, **kwargs), path)


def _write_png(rgb, path):
    path = os.fspath(path)
    ok, buf = cv2.imencode('.png', cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    tmp = path + '.part'
    with open(tmp, 'wb') as f:
        f.write(buf.tobytes())
    os.replace(tmp, path)
    return path


def _numpy(a, width):
    """An NDArray or array-like as a float numpy array of rows `width` wide (a leading batch axis of 1 dropped)."""
    a = np.asarray(a.asnumpy() if hasattr(a, 'asnumpy') else a, dtype=np.float64)
    return a.reshape(-1, width)


def _color(class_id):
    """A bright RGB color a class keeps from picture to picture (hues spread by the golden ratio)."""
    hue = int((class_id * 0.618034 % 1.0) * 180)
    return tuple(int(v) for v in cv2.cvtColor(np.uint8([[[hue, 200, 230]]]), cv2.COLOR_HSV2RGB)[0, 0])


def plot_bbox(img, bboxes, scores, ids, class_names, thresh=0.5, path=None):
    """An RGB uint8 copy of `img` (a path or an RGB array) with each box of `bboxes` (K x 4 corner boxes in its
    pixels; a batch of one is fine) whose score is at least `thresh` drawn in its class's color, labelled with the
    class name (`class_names[id]`) and score; ids of -1 (a detector's padding) are skipped. With `path`, also
    written there as PNG.

    >>> plot_bbox(np.zeros((40, 60, 3), np.uint8), [[5, 5, 30, 20]], [0.9], [0], ['cat']).shape
    (40, 60, 3)
    """
    pic = np.array(as_rgb(read_image(img) if not isinstance(img, np.ndarray) else img), np.uint8)  # a copy
    boxes, scores, ids = _numpy(bboxes, 4), _numpy(scores, 1)[:, 0], _numpy(ids, 1)[:, 0]
    if not len(boxes) == len(scores) == len(ids):
        raise ValueError(f'plot_bbox: {len(boxes)} boxes, {len(scores)} scores and {len(ids)} ids must match')
    h, w = pic.shape[:2]
    thick, font = max(1, round(min(h, w) / 300)), max(0.4, min(h, w) / 900)
    for box, score, i in sorted(zip(boxes, scores, ids), key=lambda r: r[1]):  # the best drawn last, on top
        if i < 0 or score < thresh:
            continue
        x1, y1, x2, y2 = (int(round(v)) for v in np.clip(box, 0, [w - 1, h - 1, w - 1, h - 1]))
        color = _color(int(i))
        name = class_names[int(i)] if class_names is not None and int(i) < len(class_names) else str(int(i))
        label = f'{name} {score:.2f}'
        cv2.rectangle(pic, (x1, y1), (x2, y2), color, thick)
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font, 1)
        ty = y1 - 2 if y1 - th - base - 2 >= 0 else y1 + th + base + 2  # above the box, or inside it at the top
        cv2.rectangle(pic, (x1, ty - th - base), (x1 + tw + 2, ty + 1), color, -1)
        cv2.putText(pic, label, (x1 + 1, ty - base + 1), cv2.FONT_HERSHEY_SIMPLEX, font, (0, 0, 0), 1, cv2.LINE_AA)
    if path is not None:
        _write_png(pic, path)
    return pic
