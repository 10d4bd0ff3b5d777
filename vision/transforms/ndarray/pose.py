"""GluonCV's pose helpers (gluoncv.data.transforms.pose) and SimplePose presets with its signatures, over
gluonzoo.vision.pose (the detector-to-pose chain) and gluonzoo.vision.transforms.pose (crops and targets)."""
import random

import numpy as np

from ... import pose as _pose
from ...meta import IMAGENET_MEAN, IMAGENET_STD
from .. import bbox as _B
from .. import pose as _tpose

MEAN, STD = tuple(IMAGENET_MEAN), tuple(IMAGENET_STD)
get_max_pred = _pose.get_max_pred
upscale_bbox_fn = _pose.upscale_bbox_fn


def try_import_cv2():
    """OpenCV's module (a dependency of gluonzoo)."""
    import cv2
    return cv2


def flip_heatmap(heatmap, joint_pairs, shift=False):
    """Heatmaps of a mirrored input flipped back, the left/right `joint_pairs` swapped."""
    return _pose.flip_heatmap(heatmap, joint_pairs, shift=shift)


def heatmap_to_coord(heatmaps, bbox_list):
    """(coords (N, J, 2) in image pixels, confidences (N, J, 1)) of crop heatmaps, crop i being bbox_list[i]."""
    return _pose.heatmap_to_coord(heatmaps, bbox_list)


def crop_resize_normalize(img, bbox_list, output_size, mean=MEAN, std=STD):
    """The (N, 3, h, w) normalized batch of the boxes' crops of `img`, each resized to (h, w) = `output_size`."""
    return _pose.crop_resize_normalize(img, bbox_list, output_size, mean, std)


def detector_to_simple_pose(img, class_ids, scores, bounding_boxs, output_shape=(256, 192), scale=1.25, ctx=None,
                            thr=0.5, mean=MEAN, std=STD):
    """(pose_input, upscale_bbox) of the persons a detector found (score above `thr`) for a SimplePose net."""
    return _pose.detector_to_simple_pose(img, class_ids, scores, bounding_boxs, output_shape=output_shape,
                                         scale=scale, ctx=ctx, thr=thr, mean=mean, std=std)


def get_dir(src_point, rot_rad):
    """The point turned by `rot_rad` radians about the origin, as a list."""
    sn, cs = np.sin(rot_rad), np.cos(rot_rad)
    return [src_point[0] * cs - src_point[1] * sn, src_point[0] * sn + src_point[1] * cs]


def get_3rd_point(a, b):
    """a turned 90 degrees about b (the third point of an affine triangle)."""
    d = a - b
    return b + np.array([-d[1], d[0]], dtype=np.float32)


def get_affine_transform(center, scale, rot, output_size, shift=np.array([0, 0], dtype=np.float32), inv=0):
    """The 2x3 matrix taking the `scale`-wide window around `center`, turned by `rot` degrees, onto an output of
    (width, height) = `output_size`; `inv` the way back."""
    return _B.affine_matrix(center, scale, output_size, rot=rot, shift=shift, inv=bool(inv))


def affine_transform(pt, t):
    """The point (x, y) through the 2x3 matrix `t`."""
    return np.dot(t, np.array([pt[0], pt[1], 1.0]))[:2]


def crop(img, center, scale, output_size, rot=0):
    """The window around `center` warped onto an (width, height) = `output_size` image (bilinear)."""
    import cv2
    m = get_affine_transform(center, scale, rot, output_size)
    return cv2.warpAffine(img, m, (int(output_size[0]), int(output_size[1])), flags=cv2.INTER_LINEAR)


def transform_predictions(coords, center, scale, output_size):
    """Numpy (J, 2+) coords of an `output_size` heatmap back in image pixels (the first two columns)."""
    out = np.zeros(coords.shape)
    m = get_affine_transform(center, scale, 0, output_size, inv=1)
    for p in range(coords.shape[0]):
        out[p, 0:2] = affine_transform(coords[p, 0:2], m)
    return out


def transform_preds(coords, center, scale, output_size):
    """transform_predictions of an NDArray, as an NDArray."""
    import mxnet as mx
    return mx.nd.array(transform_predictions(coords.asnumpy(), center, scale, output_size))


def get_final_preds(batch_heatmaps, center, scale):
    """(preds (N, J, 2), maxvals (N, J, 1)) NDArrays: each heatmap's maximum moved a quarter cell toward its higher
    neighbour, then mapped back through the crop window of (center[i], scale[i])."""
    import mxnet as mx
    hm = batch_heatmaps.asnumpy() if hasattr(batch_heatmaps, 'asnumpy') else np.asarray(batch_heatmaps)
    coords, maxvals = get_max_pred(hm)
    n, j, h, w = hm.shape
    for i in range(n):
        for p in range(j):
            px, py = int(np.floor(coords[i, p, 0] + 0.5)), int(np.floor(coords[i, p, 1] + 0.5))
            if 1 < px < w - 1 and 1 < py < h - 1:
                m = hm[i, p]
                coords[i, p] += np.sign([m[py, px + 1] - m[py, px - 1], m[py + 1, px] - m[py - 1, px]]) * 0.25
    center = center.asnumpy() if hasattr(center, 'asnumpy') else np.asarray(center)
    scale = scale.asnumpy() if hasattr(scale, 'asnumpy') else np.asarray(scale)
    preds = np.stack([transform_predictions(coords[i], center[i], scale[i], [w, h]) for i in range(n)])
    return mx.nd.array(preds), mx.nd.array(maxvals)


def flip_joints_3d(joints_3d, width, joint_pairs):
    """(K, 3, 2) joints (x, y, z by value, visibility) of a mirrored image: x -> width - x - 1, the pairs swapped,
    x zeroed where not visible."""
    joints = joints_3d.copy()
    joints[:, 0, 0] = width - joints[:, 0, 0] - 1
    for a, b in joint_pairs:
        joints[[a, b]] = joints[[b, a]]
    joints[:, :, 0] *= joints[:, :, 1]
    return joints


class SimplePoseDefaultTrainTransform:
    """SimplePose's training transform of (image NDArray, {'bbox', 'joints_3d'}, img_path): the window scaled by
    N(1, scale_factor) (numpy's generator), 6 times in 10 (Python's `random`) turned by N(0, rotation_factor)
    degrees, half the time mirrored -> (image, target heatmaps, target weight, img_path)."""

    def __init__(self, num_joints, joint_pairs, image_size=(256, 256), heatmap_size=(64, 64), sigma=2, mean=MEAN,
                 std=STD, random_flip=True, scale_factor=0.25, rotation_factor=30, **kwargs):
        self._num_joints, self._joint_pairs, self._image_size = num_joints, joint_pairs, image_size
        self._heatmap_size, self._sigma, self._mean, self._std = heatmap_size, sigma, mean, std
        self._random_flip, self._scale_factor, self._rotation_factor = random_flip, scale_factor, rotation_factor

    def __call__(self, src, label, img_path):
        import mxnet as mx
        if len(label['bbox']) != 4:
            raise ValueError(f"label['bbox'] must be [xmin, ymin, xmax, ymax], got {label['bbox']!r}")
        sf, rf = self._scale_factor, self._rotation_factor
        s = float(np.clip(np.random.randn() * sf + 1, 1 - sf, 1 + sf))
        r = float(np.clip(np.random.randn() * rf, -rf * 2, rf * 2)) if random.random() <= 0.6 else 0.0
        flipped = bool(self._random_flip and random.random() > 0.5)
        img = src.asnumpy() if hasattr(src, 'asnumpy') else np.asarray(src)
        x, target, weight = _tpose.pose_crop(img, label, s, r, flipped, tuple(self._image_size),
                                             tuple(self._heatmap_size), self._sigma, self._joint_pairs, self._mean,
                                             self._std)
        return mx.nd.array(x), target, weight, img_path


class SimplePoseDefaultValTransform:
    """SimplePose's evaluation transform -> (image, scale, center, score, img_path) of the box's window."""

    def __init__(self, num_joints, joint_pairs, image_size=(256, 256), mean=MEAN, std=STD, **kwargs):
        self._num_joints, self._joint_pairs, self._image_size, self._mean, self._std = (
            num_joints, joint_pairs, image_size, mean, std)

    def __call__(self, src, label, img_path):
        import mxnet as mx
        if len(label['bbox']) != 4:
            raise ValueError(f"label['bbox'] must be [xmin, ymin, xmax, ymax], got {label['bbox']!r}")
        img = src.asnumpy() if hasattr(src, 'asnumpy') else np.asarray(src)
        x, center, scale = _tpose.simple_pose_eval(img, label['bbox'], tuple(self._image_size), self._mean, self._std)
        return mx.nd.array(x), scale, center, label.get('score', 1), img_path
