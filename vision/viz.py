"""Pictures of predictions: `save_topk` writes a PNG of an image with its top-k labels and probability bars
(`save_clip`: of a video clip's frames, in rows), `plot_bbox` draws a detector's boxes with class names and scores
(GluonCV's name, drawn with OpenCV)."""
import os

import cv2
import numpy as np

from .image import encode_palette_png, read_image, voc_palette
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


def clip_montage(frames, columns=8, side=96):
    """RGB uint8 picture of a clip's frames (T, H, W, 3), `columns` a row in time order, each scaled to `side`
    pixels high (nearest: small frames stay sharp) with its frame number; empty cells white."""
    frames = np.asarray(frames)
    if frames.ndim != 4 or frames.shape[-1] != 3 or not len(frames):
        raise ValueError(f'a clip is frames (T, H, W, 3), not an array of shape {frames.shape}')
    t, h, w, _ = frames.shape
    width = max(1, round(w * side / h))
    rows = -(-t // columns)
    canvas = np.full((rows * (side + 2), min(t, columns) * (width + 2), 3), 255, np.uint8)
    for i, f in enumerate(frames):
        y, x = (i // columns) * (side + 2), (i % columns) * (width + 2)
        cell = cv2.resize(np.ascontiguousarray(f), (width, side), interpolation=cv2.INTER_NEAREST)
        cv2.putText(cell, str(i), (3, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)
        canvas[y:y + side, x:x + width] = cell
    return canvas


def save_clip(frames, topk, path, columns=8, side=96):
    """Write a clip's frames (clip_montage) with its top-k actions and probability bars beside them, as PNG."""
    montage = clip_montage(frames, columns, side)
    return _write_png(render_topk(montage, topk, height=montage.shape[0], panel=300), path)


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


# -- segmentation and pose (GluonCV's get_color_pallete, plot_mask, plot_keypoints) -------------------------------
#: what GluonCV's get_color_pallete(ids, 'pascal_voc') puts in its palette, and plot_mask's colors of class ids
VOC_PALETTE = voc_palette()

#: GluonCV's COCO skeleton: the joint pairs plot_keypoints joins (indices into meta.COCO_KEYPOINTS)
COCO_SKELETON = ((0, 1), (1, 3), (0, 2), (2, 4), (5, 6), (5, 7), (7, 9), (6, 8), (8, 10), (5, 11), (6, 12), (11, 12),
                 (11, 13), (12, 14), (13, 15), (14, 16))


def _picture(img):
    """An RGB uint8 copy of a path or an array."""
    return np.array(as_rgb(read_image(img) if not isinstance(img, np.ndarray) else img), np.uint8)


def _array(a):
    return np.asarray(a.asnumpy() if hasattr(a, 'asnumpy') else a)


def class_colors(ids):
    """RGB uint8 (..., 3) of class ids: VOC's palette for 0-255 (-1 is drawn as 255, GluonCV's 'void'), a
    golden-ratio hue (plot_bbox's) above.

    >>> class_colors(np.array([[0, 1], [15, -1]])).tolist()
    [[[0, 0, 0], [128, 0, 0]], [[192, 128, 128], [224, 224, 192]]]
    """
    ids = np.where(_array(ids) == -1, 255, _array(ids)).astype(np.int64)
    out = VOC_PALETTE[np.clip(ids, 0, 255)]
    for i in np.unique(ids[(ids > 255) | (ids < 0)]):
        out[ids == i] = _color(int(i))
    return out


def plot_mask(img, masks, alpha=0.5, path=None):
    """An RGB uint8 copy of `img` (a path or an RGB array) with masks blended in at `alpha`: either a class-id map
    (H, W) of a semantic segmentation net, each class in its VOC palette color and the ignored ids (-1, 255) left
    as they are, or instance masks (K, H, W) (Mask R-CNN's paste_masks; nonzero = inside), one color an instance.
    The masks must have the picture's height and width. With `path`, also written there as PNG.

    >>> plot_mask(np.full((2, 3, 3), 200, np.uint8), np.array([[0, 1, 255], [-1, 15, 0]]))[:, :, 0].tolist()
    [[100, 164, 200], [200, 196, 100]]
    """
    from ..errors import BadInputError
    pic = _picture(img)
    m = _array(masks)
    if m.ndim not in (2, 3) or m.shape[-2:] != pic.shape[:2]:
        raise BadInputError(f'plot_mask takes a class-id map (H, W) or instance masks (K, H, W) of the picture\'s '
                            f'size {pic.shape[0]}x{pic.shape[1]}, got an array of shape {m.shape}: resize the '
                            f'masks to the picture (or give the picture they were made from)')
    if m.ndim == 2:
        ids = np.round(m).astype(np.int64)
        inside = (ids != -1) & (ids != 255)
        colors = class_colors(ids[inside])
    else:
        owner = np.full(pic.shape[:2], -1)
        for k, mask in enumerate(m):  # a later instance is drawn over an earlier one, as GluonCV's loop does
            owner[mask > 0] = k
        inside = owner >= 0
        colors = np.array([_color(k) for k in range(len(m))], np.float64).reshape(-1, 3)[owner[inside]]
    pic[inside] = np.round(pic[inside] * (1 - alpha) + colors * alpha).astype(np.uint8)
    if path is not None:
        _write_png(pic, path)
    return pic


def segment_palette_png(ids, path):
    """Write a class-id map (H, W) as an 8-bit palette PNG with VOC's colors (GluonCV's get_color_pallete(ids,
    'pascal_voc').save(path)): the pixel values are the class ids, -1 stored as 255, and any viewer shows the
    colors."""
    from ..errors import BadInputError
    ids = _array(ids)
    if ids.ndim != 2 or 0 in ids.shape:
        raise BadInputError(f'segment_palette_png takes a class-id map (H, W), got an array of shape {ids.shape}')
    ids = np.where(ids == -1, 255, ids)
    if ids.min() < 0 or ids.max() > 255 or (ids != np.round(ids)).any():
        raise BadInputError(f'class ids {ids.min()}..{ids.max()} do not fit a palette PNG (whole numbers 0-255, '
                            f'or -1 for ignored pixels)')
    png = encode_palette_png(ids.astype(np.uint8), VOC_PALETTE)
    path = os.fspath(path)
    tmp = path + '.part'
    with open(tmp, 'wb') as f:
        f.write(png)
    os.replace(tmp, path)
    return path


def _cool(t):
    """matplotlib's 'cool' colormap (cyan to magenta) at t in [0, 1], as RGB 0-255: GluonCV's skeleton colors."""
    return int(round(255 * t)), int(round(255 * (1 - t))), 255


def plot_keypoints(img, coords, confidence, class_ids, bboxes, scores, box_thresh=0.5, keypoint_thresh=0.2,
                   path=None):
    """An RGB uint8 copy of `img` with GluonCV's pose drawing: the person boxes (class 0 of the detector's
    `class_ids` / `bboxes` / `scores`, a batch of one, scoring at least `box_thresh`) as plot_bbox draws them, and
    for each of the N people of `coords` (N, 17, 2) the COCO skeleton's segments whose two joints have a
    `confidence` (N, 17, 1) above `keypoint_thresh`, colored cyan to magenta along GluonCV's pair order, with a
    dot on each visible joint. With `path`, also written there as PNG."""
    from ..errors import BadInputError
    pic = _picture(img)
    pts = _array(coords).astype(np.float64)
    conf = _array(confidence).astype(np.float64)
    if pts.size == 0:
        pts, conf = pts.reshape(0, 17, 2), conf.reshape(0, 17)
    if pts.ndim != 3 or pts.shape[2] != 2 or conf.size != pts.shape[0] * pts.shape[1]:
        raise BadInputError(f'plot_keypoints takes coords (N, joints, 2) and confidence (N, joints, 1), got shapes '
                            f'{pts.shape} and {conf.shape}')
    conf = conf.reshape(pts.shape[:2])
    joints = pts.shape[1]
    if joints <= max(max(p) for p in COCO_SKELETON):
        raise BadInputError(f'plot_keypoints draws the COCO skeleton of 17 joints; got {joints} joints')
    boxes, box_scores, ids = _numpy(bboxes, 4), _numpy(scores, 1)[:, 0], _numpy(class_ids, 1)[:, 0]
    person = ids == 0
    pic = plot_bbox(pic, boxes[person], box_scores[person], ids[person], ['person'], thresh=box_thresh)
    h, w = pic.shape[:2]
    thick = max(2, round(min(h, w) / 200))
    visible = conf > keypoint_thresh
    for p, seen in zip(pts, visible):
        for k, (a, b) in enumerate(COCO_SKELETON):
            if seen[a] and seen[b]:
                color = _cool(k / (len(COCO_SKELETON) - 1))
                ends = [tuple(int(round(v)) for v in p[j]) for j in (a, b)]
                cv2.line(pic, ends[0], ends[1], color, thick, cv2.LINE_AA)
        for j in np.flatnonzero(seen):
            cv2.circle(pic, tuple(int(round(v)) for v in p[j]), thick + 1, (255, 255, 255), -1, cv2.LINE_AA)
    if path is not None:
        _write_png(pic, path)
    return pic
