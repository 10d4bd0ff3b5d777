"""GluonCV's training-target generators of tests/compat/test_cv_targets.py, written once for both sides:
`cases(model_zoo)` calls SSD's, CenterNet's and SimplePose's through the given module (gluoncv.model_zoo in the peers
venv, gluonzoo.cv.model_zoo in ours) on seeded random boxes and joints and returns {case: numpy array}."""
import importlib

import numpy as np


def cases(model_zoo):
    out = {}
    rng = np.random.RandomState(0)
    center = importlib.import_module(model_zoo.__name__ + '.center_net.target_generator')
    gen = center.CenterNetTargetGenerator(3, 24, 16)
    for n in (0, 1, 5):
        xy = rng.uniform(0, 12, size=(n, 2))
        boxes = np.hstack([xy, xy + rng.uniform(0.5, 10, size=(n, 2))]).clip(0, [23, 15, 23, 15])
        ids = rng.randint(0, 3, size=n)
        for i, t in enumerate(gen(boxes, ids)):
            out[f'center_net{n}.{i}'] = t.asnumpy()
    import mxnet as mx
    ssd = importlib.import_module(model_zoo.__name__ + '.ssd.target')
    xy = rng.uniform(0, 40, size=(1, 60, 2))
    anchors = mx.nd.array(np.concatenate([xy, rng.uniform(4, 20, size=(1, 60, 2))], -1))  # centre form
    corner = rng.uniform(0, 30, size=(2, 3, 2))
    boxes = mx.nd.array(np.concatenate([corner, corner + rng.uniform(5, 15, size=(2, 3, 2))], -1))
    ids = mx.nd.array(rng.randint(0, 4, size=(2, 3, 1)))
    preds = mx.nd.array(rng.normal(size=(2, 60, 5)))
    for ratio in (3, 0):
        for i, t in enumerate(ssd.SSDTargetGenerator(negative_mining_ratio=ratio)(anchors, preds, boxes, ids)):
            out[f'ssd{ratio}.{i}'] = t.asnumpy()
    pose = importlib.import_module(model_zoo.__name__ + '.simple_pose.pose_target')
    for sigma, (image, heat) in ((2, ((48, 64), (12, 16))), (3, ((192, 256), (48, 64)))):
        joints = np.zeros((6, 3, 2), np.float32)
        joints[:, :2, 0] = rng.uniform(-10, max(image) + 10, size=(6, 2))
        joints[:, :2, 1] = rng.randint(0, 2, size=(6, 1))
        target, weight = pose.SimplePoseGaussianTargetGenerator(6, image, heat, sigma)(joints)
        out[f'pose{sigma}.target'], out[f'pose{sigma}.weight'] = target, weight
    return out
