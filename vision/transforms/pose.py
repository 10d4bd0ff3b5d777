"""GluonCV's SimplePose transforms (gluoncv/data/transforms/presets/simple_pose.py) on OpenCV + numpy: a person is
cut out of the picture by an affine warp around its box, and its joints become Gaussian heatmap targets.

The box gives a centre and a size: the box widened to the crop's aspect ratio, times 1.25 (`box_to_center_scale`).
The warp maps that window, scaled by s and turned by r degrees about its centre, onto the image_size crop (OpenCV's
warpAffine, bilinear, as GluonCV's). Joint j (x, y, visibility) becomes a Gaussian of `sigma` heatmap cells, peak
1, at its cell; its weight is its visibility (0 for an unlabelled joint), and 0 for a joint whose Gaussian falls
wholly outside the heatmap (GluonCV's rule: `stats['outside']` counts those, a labelled joint the crop lost).

    simple_pose_train(img, label, rng, ...)  SimplePoseDefaultTrainTransform: random scale / rotation / flip
    pose_crop(img, label, s, r, flipped)     the same with the draws given (what the parity tests drive)
    simple_pose_eval(img, bbox, ...)         SimplePoseDefaultValTransform -> (x, center, scale)
    crop_box(center, scale)                  the image window of an eval crop: `vision.pose.heatmap_to_coord`
                                             maps the heatmaps of the crop back to image pixels with it

Random draws come from `rng` (a numpy Generator) in GluonCV's order: the scale (a normal), the rotation (uniform:
a turn at all 6 times in 10, then a normal), the flip (uniform > 0.5). The joint pairs swap on a flip, so a
mirrored left wrist is a right wrist.
"""
import cv2
import numpy as np

from ...errors import BadInputError
from ..meta import COCO_FLIP_PAIRS, IMAGENET_MEAN, IMAGENET_STD
from .functional import normalize

MARGIN = 1.25  # the window around the box (GluonCV's scale_mult)


def box_to_center_scale(bbox, aspect_ratio, margin=MARGIN):
    """(center (2,), scale (2,) = window width, height) float32 of box (x0, y0, x1, y1): the box grown to
    `aspect_ratio` (width / height) about its centre, times `margin`. A box of zero area is an error."""
    x0, y0, x1, y1 = (float(v) for v in bbox[:4])
    w, h = x1 - x0, y1 - y0
    if not (w > 0 and h > 0):
        raise BadInputError(f'person box {[x0, y0, x1, y1]} has zero area: a pose crop needs x1 > x0 and y1 > y0 '
                            '(drop the person or fix its box)')
    center = np.array([x0 + w * 0.5, y0 + h * 0.5], np.float32)
    w, h = max(w, h * aspect_ratio), max(h, w / aspect_ratio)
    return center, np.array([w, h], np.float32) * np.float32(margin)


def crop_box(center, scale):
    """[x0, y0, x1, y1] (N, 4) of the unrotated windows (center, scale) (N, 2) each: the image area an eval crop
    shows, so heatmap_to_coord(heatmaps, crop_box(c, s)) is GluonCV's transform_preds."""
    c, s = np.asarray(center, np.float64).reshape(-1, 2), np.asarray(scale, np.float64).reshape(-1, 2)
    return np.concatenate([c - s / 2, c + s / 2], axis=1)


def _warp(center, scale, rot, size):
    """The 2x3 affine taking the window (center, scale[0] wide) turned by `rot` degrees onto a (w, h) = `size`
    crop: a similarity, zoom w / scale[0], the window's centre to the crop's."""
    k = size[0] / float(scale[0])
    t = np.deg2rad(rot)
    m = k * np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    return np.hstack([m, (np.array(size, np.float64) / 2 - m @ np.asarray(center, np.float64))[:, None]])


def joint_targets(joints, image_size, heatmap_size, sigma=2):
    """(target (K, hh, hw), weight (K, 1, 1), outside) float32 of joints (K, 3, 2) (x, y in crop pixels; [:, 0, 1]
    the visibility) for a crop of image_size (h, w): GluonCV's SimplePoseGaussianTargetGenerator."""
    (h, w), (hh, hw) = image_size, heatmap_size
    k = len(joints)
    target = np.zeros((k, hh, hw), np.float32)
    weight = joints[:, 0, 1].astype(np.float32).copy()
    radius = sigma * 3
    span = np.arange(2 * radius + 1, dtype=np.float32)
    gauss = np.exp(-((span - radius) ** 2 + (span[:, None] - radius) ** 2) / (2 * sigma ** 2))
    outside = 0
    for j in range(k):
        mx_, my = int(joints[j, 0, 0] / (w / hw) + 0.5), int(joints[j, 1, 0] / (h / hh) + 0.5)  # int(): truncates
        x0, y0, x1, y1 = int(mx_ - radius), int(my - radius), int(mx_ + radius + 1), int(my + radius + 1)
        if x0 >= hw or y0 >= hh or x1 < 0 or y1 < 0:
            outside += weight[j] > 0
            weight[j] = 0
            continue
        if weight[j] > 0.5:
            target[j, max(y0, 0):min(y1, hh), max(x0, 0):min(x1, hw)] = \
                gauss[max(0, -y0):min(y1, hh) - y0, max(0, -x0):min(x1, hw) - x0]
    return target, weight[:, None, None], int(outside)


class SimplePoseGaussianTargetGenerator:
    """GluonCV's SimplePoseGaussianTargetGenerator: joint_targets for crops of `image_size` and heatmaps of
    `heatmap_size`, both (width, height) as GluonCV gives them; a call on joints (num_joints, 3, 2) returns
    (target (K, h, w), target_weight (K, 1, 1))."""

    def __init__(self, num_joints, image_size, heatmap_size, sigma=2):
        if np.shape(image_size) != (2,) or np.shape(heatmap_size) != (2,):
            raise BadInputError(f'image_size and heatmap_size are (width, height) each, not {image_size!r} and '
                                f'{heatmap_size!r}')
        self._num_joints, self._sigma = num_joints, sigma
        self._image_hw, self._heatmap_hw = tuple(image_size)[::-1], tuple(heatmap_size)[::-1]

    def __call__(self, joints_3d):
        joints = np.asarray(joints_3d)
        if joints.shape[:1] != (self._num_joints,):
            raise BadInputError(f'joints of shape {joints.shape}: the generator makes {self._num_joints} heatmaps, '
                                'one a joint (num_joints, 3, 2)')
        target, weight, _ = joint_targets(joints, self._image_hw, self._heatmap_hw, self._sigma)
        return target, weight


def _flip_joints(joints, width, joint_pairs):
    """Joints of the mirrored picture: x -> width - 1 - x, each (left, right) pair swapped, the x and y of an
    unlabelled joint zeroed (as GluonCV's flip_joints_3d)."""
    out = joints.copy()
    out[:, 0, 0] = width - 1 - out[:, 0, 0]
    for a, b in joint_pairs:
        out[[a, b]] = out[[b, a]]
    out[:, :, 0] *= out[:, :, 1]
    return out


def pose_crop(img, label, scale_mult=1.0, rotation=0.0, flipped=False, image_size=(256, 192),
              heatmap_size=(64, 48), sigma=2, joint_pairs=COCO_FLIP_PAIRS, mean=IMAGENET_MEAN, std=IMAGENET_STD,
              stats=None):
    """(x (3, h, w), target, target_weight) of person `label` ({'bbox', 'joints_3d' (K, 3, 2)}) in the HxWx3 RGB
    uint8 `img`, its window scaled by `scale_mult`, turned by `rotation` degrees, mirrored when `flipped`."""
    h, w = image_size
    center, scale = box_to_center_scale(label['bbox'], w / h)
    scale = scale * scale_mult
    joints = np.array(label['joints_3d'], np.float32)
    if flipped:
        img = img[:, ::-1]
        joints = _flip_joints(joints, img.shape[1], joint_pairs)
        center[0] = img.shape[1] - center[0] - 1
    m = _warp(center, scale, rotation, (w, h))
    crop = cv2.warpAffine(np.ascontiguousarray(img), m, (int(w), int(h)), flags=cv2.INTER_LINEAR)
    seen = joints[:, 0, 1] > 0
    joints[seen, :2, 0] = joints[seen, :2, 0] @ m[:, :2].T + m[:, 2]
    target, weight, outside = joint_targets(joints, image_size, heatmap_size, sigma)
    if stats is not None:
        stats['outside'] = stats.get('outside', 0) + outside
    return normalize(crop, mean, std), target, weight


def simple_pose_train(img, label, rng, image_size=(256, 192), heatmap_size=(64, 48), sigma=2, scale_factor=0.25,
                      rotation_factor=30, flip=True, joint_pairs=COCO_FLIP_PAIRS, mean=IMAGENET_MEAN,
                      std=IMAGENET_STD, stats=None):
    """GluonCV's SimplePoseDefaultTrainTransform of one person: the window scaled by N(1, scale_factor) clipped
    to 1 +- scale_factor, 6 times in 10 turned by N(0, rotation_factor) degrees clipped to +-2 rotation_factor,
    half the time mirrored (when `flip`); -> pose_crop's (x, target, target_weight)."""
    sf, rf = scale_factor, rotation_factor
    s = float(np.clip(rng.standard_normal() * sf + 1, 1 - sf, 1 + sf))
    r = float(np.clip(rng.standard_normal() * rf, -2 * rf, 2 * rf)) if rng.random() <= 0.6 else 0.0
    flipped = bool(flip and rng.random() > 0.5)
    return pose_crop(img, label, s, r, flipped, image_size, heatmap_size, sigma, joint_pairs, mean, std, stats)


def simple_pose_eval(img, bbox, image_size=(256, 192), mean=IMAGENET_MEAN, std=IMAGENET_STD):
    """GluonCV's SimplePoseDefaultValTransform: (x (3, h, w) float32, center, scale) of the window around `bbox`;
    crop_box(center, scale) is where the crop's heatmaps lie in the picture."""
    h, w = image_size
    center, scale = box_to_center_scale(bbox, w / h)
    crop = cv2.warpAffine(np.ascontiguousarray(img), _warp(center, scale, 0, (w, h)), (int(w), int(h)),
                          flags=cv2.INTER_LINEAR)
    return normalize(crop, mean, std), center, scale


__all__ = ['box_to_center_scale', 'crop_box', 'joint_targets', 'pose_crop', 'simple_pose_eval',
           'simple_pose_train']
