"""The video transform calls of tests/vision/test_video_transforms.py, written once for both sides: `cases(V, inp)`
builds them over the module V (gluoncv.data.transforms.video in the peers venv, gluonzoo.vision.transforms.video in
ours) on the frames of `inp` and returns {case: thunk}; `run` calls each after seeding Python's `random` and numpy's
generator with the case's index (GluonCV draws from both) and returns {case/i: array} of every output frame."""
import random

import numpy as np

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
RATIOS = [1.0, 0.875, 0.75, 0.66]


def cases(V, inp):
    land, port = list(inp['landscape']), list(inp['portrait'])  # 4 frames of 40x52x3 and of 52x40x3, uint8
    bgr = [f[:, :, ::-1] for f in land]  # a reversed-channel view, as VideoClsCustom hands frames on
    tensors = V.VideoToTensor()(land)
    c = {
        'ToTensor': lambda: V.VideoToTensor()(land),
        'ToTensor_max': lambda: V.VideoToTensor(max_intensity=127.5)(bgr),
        'Normalize': lambda: V.VideoNormalize(MEAN, STD)(tensors),
        'RandomHorizontalFlip': lambda: [V.VideoRandomHorizontalFlip()(land) for _ in range(4)],
        'ShortSideRescale': lambda: V.ShortSideRescale(32)(land) + V.ShortSideRescale(30)(port),
        'RandomResizedCrop': lambda: [V.RandomResizedCrop((24, 20))(land) for _ in range(4)],
        'RandomResizedCrop_fallback': lambda: V.RandomResizedCrop((16, 16), scale=(3.0, 4.0))(land),
        'MultiScaleCrop': lambda: [V.VideoMultiScaleCrop((24, 24), RATIOS)(land) for _ in range(4)],
        'MultiScaleCrop_free': lambda: [V.VideoMultiScaleCrop((20, 28), RATIOS, fix_crop=False, max_distort=2)(port)
                                        for _ in range(3)],
        'MultiScaleCrop_five': lambda: [V.VideoMultiScaleCrop((24, 24), RATIOS, more_fix_crop=False)(bgr)
                                        for _ in range(3)],
        'fillCropSize': lambda: V.VideoMultiScaleCrop((24, 24), RATIOS).fillCropSize(RATIOS, 2, 40, 52),
        'fillFixOffset': lambda: V.VideoMultiScaleCrop((24, 24), RATIOS).fillFixOffset(True, 40, 52, 26, 33),
        'CenterCrop': lambda: V.VideoCenterCrop(24)(land) + V.VideoCenterCrop((21, 37))(land),
        'ThreeCrop_wide': lambda: V.VideoThreeCrop((40, 24))(land),
        'ThreeCrop_tall': lambda: V.VideoThreeCrop((20, 40))(port),
        'TenCrop': lambda: V.VideoTenCrop(24)(land[:2]) + V.VideoTenCrop((21, 31))(port[:1]),
        'GroupTrain': lambda: [V.VideoGroupTrainTransform((24, 24), RATIOS, MEAN, STD)(land) for _ in range(4)],
        'GroupTrain_free': lambda: [V.VideoGroupTrainTransform((20, 24), RATIOS, MEAN, STD, fix_crop=False,
                                                               prob=0.7)(bgr) for _ in range(3)],
        'GroupVal': lambda: V.VideoGroupValTransform(24, MEAN, STD)(land) + V.VideoGroupValTransform(
            (21, 37), MEAN, STD, max_intensity=1.0)(port),
        'GroupTrainV2': lambda: [V.VideoGroupTrainTransformV2((24, 24), 32, RATIOS, MEAN, STD)(land)
                                 for _ in range(3)],
        'GroupValV2': lambda: V.VideoGroupValTransformV2((24, 24), 31, MEAN, STD)(land) + V.VideoGroupValTransformV2(
            (20, 25), 27, MEAN, STD)(port),
        'GroupTrainV3': lambda: [V.VideoGroupTrainTransformV3((24, 24), 26, 40, MEAN, STD)(land) for _ in range(4)],
        'GroupTrainV4': lambda: [V.VideoGroupTrainTransformV4((24, 20), MEAN, STD)(port) for _ in range(4)],
    }
    return c


def _leaves(value, out):
    if isinstance(value, np.ndarray):
        out.append(value)
    elif isinstance(value, (list, tuple)) and value and isinstance(value[0], (int, np.integer)):
        out.append(np.asarray(value))  # an offset or size pair
    elif isinstance(value, (list, tuple)):
        for v in value:
            _leaves(v, out)
    else:
        out.append(np.asarray(value))
    return out


def run(V, inp):
    """{case/i: output i} of every case, after seeding `random` and numpy with the case's index."""
    out = {}
    for i, (name, thunk) in enumerate(sorted(cases(V, inp).items())):
        random.seed(i)
        np.random.seed(i)
        for j, leaf in enumerate(_leaves(thunk(), [])):
            out[f'{name}/{j}'] = leaf
    return out
