"""Top-down pose estimation around the zoo's pose nets: person boxes from a detector -> crops the pose net takes
(`detector_to_simple_pose`) -> heatmaps (`flip_heatmap` for a flip test) -> keypoints in image pixels
(`heatmap_to_coord`): GluonCV 0.10.5's functions (gluoncv/data/transforms/pose.py) with its numbers.
`estimate_poses` runs the whole chain on a picture.

Arrays come in as NDArrays or numpy; what comes out is numpy, except the crops (an NDArray batch for the net).

>>> hm = np.zeros((1, 2, 4, 4), np.float32); hm[0, 0, 1, 2] = 1; hm[0, 1, 3, 0] = 1
>>> coords, conf = get_max_pred(hm)
>>> coords[0].tolist(), conf[0, :, 0].tolist()
([[2.0, 1.0], [0.0, 3.0]], [1.0, 1.0])
>>> heatmap_to_coord(hm, [[10, 20, 50, 100]])[0][0].tolist()  # x0 + x / 4 * 40, y0 + y / 4 * 80
[[30.0, 40.0], [10.0, 80.0]]
"""
import warnings

import cv2
import numpy as np

from ..errors import BadInputError
from ..optimizing import optimize as _optimize
from .meta import COCO_FLIP_PAIRS, IMAGENET_MEAN, IMAGENET_STD


def _np(x):
    return x.asnumpy() if hasattr(x, 'asnumpy') else np.asarray(x)


def _heatmaps(heatmaps):
    hm = _np(heatmaps).astype(np.float32, copy=False)
    if hm.ndim != 4:
        raise BadInputError(f'heatmaps must be (N, joints, h, w), got shape {hm.shape}')
    return hm


def get_max_pred(heatmaps):
    """(coords (N, J, 2) as (x, y) heatmap cells, maxvals (N, J, 1)) of the maximum of each heatmap; a joint whose
    maximum is not positive gets (0, 0), as GluonCV's."""
    hm = _heatmaps(heatmaps)
    n, j, _, w = hm.shape
    flat = hm.reshape(n, j, -1)
    idx = flat.argmax(axis=2)
    maxvals = np.take_along_axis(flat, idx[..., None], axis=2)
    coords = np.stack([idx % w, idx // w], axis=-1).astype(np.float32)
    return coords * (maxvals > 0), maxvals


def _shift_quarter(hm, coords):
    """Each joint moved a quarter cell toward its higher neighbour in x and in y, away from the heatmap's border
    (GluonCV's get_final_preds refinement, which its heatmap_to_coord leaves out)."""
    h, w = hm.shape[2:]
    out = coords.copy()
    for n, j in np.ndindex(*coords.shape[:2]):
        px, py = (int(np.floor(v + 0.5)) for v in coords[n, j])
        if 1 < px < w - 1 and 1 < py < h - 1:
            m = hm[n, j]
            out[n, j] += 0.25 * np.sign([m[py, px + 1] - m[py, px - 1], m[py + 1, px] - m[py - 1, px]])
    return out


def heatmap_to_coord(heatmaps, boxes, shift=False):
    """(keypoints (N, J, 2) as (x, y) image pixels, confidences (N, J, 1)) of the heatmaps of N crops, crop i being
    `boxes[i]` = [x0, y0, x1, y1] of the image: heatmap cell (x, y) of a w x h map is x0 + x / w * (x1 - x0),
    y0 + y / h * (y1 - y0) (GluonCV's heatmap_to_coord). `shift=True` first moves each joint a quarter cell
    toward its higher neighbour (GluonCV's evaluation refinement)."""
    hm = _heatmaps(heatmaps)
    b = _np(boxes).astype(np.float64).reshape(-1, 4) if len(boxes) else np.zeros((0, 4))
    if len(b) != len(hm):
        raise BadInputError(f'{len(hm)} heatmaps but {len(b)} boxes: give the box of each crop')
    size = b[:, 2:] - b[:, :2]
    if (size <= 0).any():
        bad = int(np.flatnonzero((size <= 0).any(axis=1))[0])
        raise BadInputError(f'box {bad} {b[bad].tolist()} has zero or negative area: no keypoints can be placed in it')
    coords, maxvals = get_max_pred(hm)
    if shift:
        coords = _shift_quarter(hm, coords)
    cells = np.array([hm.shape[3], hm.shape[2]], np.float64)
    return (b[:, None, :2] + coords / cells * size[:, None]).astype(np.float32), maxvals


def flip_heatmap(heatmaps, joint_pairs=COCO_FLIP_PAIRS, shift=False):
    """The heatmaps of the mirrored crops turned back: mirrored left-right, the channels of each (left, right)
    joint pair swapped, and with `shift` moved one column right (GluonCV's flip_heatmap, for averaging a flip
    test in; the input is left as it is)."""
    out = _heatmaps(heatmaps)[:, :, :, ::-1].copy()
    for a, b in joint_pairs:
        out[:, [a, b]] = out[:, [b, a]]
    if shift:
        out[:, :, :, 1:] = out[:, :, :, :-1].copy()
    return out


def upscale_bbox_fn(bbox, img, scale=1.25):
    """[x0, y0, x1, y1] scaled by `scale` about its centre, clipped to `img` (an HxWxC array; GluonCV's)."""
    x0, y0, x1, y1 = (float(v) for v in bbox[:4])
    cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    height, width = img.shape[:2]
    return [max(cx - hw * scale, 0), max(cy - hh * scale, 0), min(cx + hw * scale, width),
            min(cy + hh * scale, height)]


def _crop_window(bbox, img):
    """The integer pixel window (x0, y0, x1, y1) of a box, clipped to the image (GluonCV truncates with int())."""
    height, width = img.shape[:2]
    return max(int(bbox[0]), 0), max(int(bbox[1]), 0), min(int(bbox[2]), width), min(int(bbox[3]), height)


def crop_resize_normalize(img, boxes, output_size=(256, 192), mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """The (N, 3, h, w) float32 NDArray batch of the `boxes` of the HxWx3 RGB uint8 `img`, each cropped (integer
    window), resized to (h, w) = `output_size` (bicubic on float pixels, as MXNet's fixed_crop), scaled to [0, 1]
    and normalized (GluonCV's crop_resize_normalize)."""
    import mxnet as mx
    img = _np(img)
    out = []
    for i, bbox in enumerate(boxes):
        x0, y0, x1, y1 = _crop_window(bbox, img)
        if x1 <= x0 or y1 <= y0:
            raise BadInputError(f'box {i} {list(bbox)} covers no pixel of the {img.shape[1]}x{img.shape[0]} image')
        crop = img[y0:y1, x0:x1].astype(np.float32)  # GluonCV resizes floats (nd.array): no rounding to uint8
        if crop.shape[:2] != tuple(output_size):
            crop = cv2.resize(crop, (int(output_size[1]), int(output_size[0])), interpolation=cv2.INTER_CUBIC)
        x = (crop / 255 - np.asarray(mean, np.float32)) / np.asarray(std, np.float32)
        out.append(x.transpose(2, 0, 1))
    return mx.nd.array(np.stack(out)) if out else None


def _people(img, class_ids, scores, bounding_boxs, scale, thr, person):
    """[(widened box, score)] of the first image's boxes of class `person` scoring at least `thr`, those that
    cover no whole pixel of the image left out with a warning."""
    ids, sc, bx = (_np(a)[0] for a in (class_ids, scores, bounding_boxs))
    kept, empty = [], 0
    for i, s, b in zip(ids.reshape(-1), sc.reshape(-1), bx.reshape(-1, 4)):
        if i != person or s < thr:
            continue
        box = upscale_bbox_fn(b.tolist(), img, scale=scale)
        x0, y0, x1, y1 = _crop_window(box, img)
        if x1 <= x0 or y1 <= y0:
            empty += 1
        else:
            kept.append((box, float(s)))
    if empty:
        warnings.warn(f'{empty} person box(es) covering no whole pixel of the {img.shape[1]}x{img.shape[0]} image '
                      f'skipped', stacklevel=3)
    return kept


def detector_to_simple_pose(img, class_ids, scores, bounding_boxs, output_shape=(256, 192), scale=1.25, ctx=None,
                            thr=0.5, mean=IMAGENET_MEAN, std=IMAGENET_STD, person=0):
    """(pose_input, upscale_bbox): the crops of the image's people for a pose net and their boxes, from a
    detector's (ids, scores, boxes) of the first image of the batch (GluonCV's detector_to_simple_pose): every box
    of class `person` (COCO's 0) scoring at least `thr`, widened by `scale` (upscale_bbox_fn), cropped and
    resized to `output_shape` (h, w) with `mean` / `std`. pose_input is None when nobody is found. A box that
    covers no whole pixel of the image is skipped with a warning (GluonCV's fails in its resize)."""
    img = _np(img)
    kept = [box for box, _ in _people(img, class_ids, scores, bounding_boxs, scale, thr, person)]
    pose_input = crop_resize_normalize(img, kept, output_shape, mean, std)
    if pose_input is not None and ctx is not None:
        pose_input = pose_input.as_in_context(ctx)
    return pose_input, kept


def estimate_poses(detector, pose_net, image, threshold=0.5, scale=1.25, shift=False, optimize=True):
    """Per person the `detector` finds in `image` (a path or an RGB array) scoring at least `threshold`: a dict
    with `box` (the widened crop box), `score`, `keypoints` (J, 2) image pixels and `confidence` (J,) from
    `pose_net`, whose weights record (or GluonCV's 256x192 ImageNet default) says how to feed it. `detector` is a
    zoo detector with a 'person' class (COCO's). `optimize`: both nets through `gluonzoo.optimize` (in place; the
    pose net without static shapes, as the number of people changes from picture to picture)."""
    from .image import read_image
    from .inference import detect
    if 'person' not in (getattr(detector, 'classes', None) or ()):
        raise BadInputError(f'{type(detector).__name__} has no class "person": pose estimation needs a detector '
                            f'of people (e.g. a COCO one)')
    img = read_image(image) if not isinstance(image, np.ndarray) else image
    found = [(s, b) for name, s, b in detect(detector, [img], threshold, optimize=optimize)[0] if name == 'person']
    people = _people(img, np.zeros((1, len(found))), np.array([[s for s, _ in found]]),
                     np.array([[b for _, b in found]]).reshape(1, -1, 4), scale, threshold, 0)
    if not people:
        return []
    w = getattr(pose_net, 'weights', None)
    pre = dict(w.preprocess) if w is not None else {}
    size = pre.get('resize', (256, 192))
    size = (size, size) if isinstance(size, int) else tuple(size)
    boxes = [box for box, _ in people]
    crops = crop_resize_normalize(img, boxes, size, pre.get('mean', IMAGENET_MEAN), pre.get('std', IMAGENET_STD))
    ctx = next(iter(pose_net.collect_params().values())).list_ctx()[0]
    crops = crops.as_in_context(ctx)
    if optimize:
        _optimize(pose_net, crops, static_shape=False)
    coords, conf = heatmap_to_coord(pose_net(crops), boxes, shift=shift)
    return [{'box': box, 'score': s, 'keypoints': c, 'confidence': f[:, 0]}
            for (box, s), c, f in zip(people, coords, conf)]
