"""Transforms: the ImageNet eval preset gives GluonCV's pixels exactly; train/CIFAR presets behave as specified."""
from importlib import resources

import cv2
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.vision import read_image
from gluonzoo.vision.transforms import (cifar_eval, cifar_train, from_preprocess, functional as T, imagenet_eval,
                                        imagenet_train)

from ..peers import run_peer

CHELSEA = str(resources.files('gluonzoo.vision').joinpath('assets', 'chelsea.jpg'))


def test_eval_preset_matches_gluoncv_exactly(tmp_path):
    portrait = str(tmp_path / 'portrait.png')  # taller than wide: the other branch of resize-short
    cv2.imwrite(portrait, cv2.rotate(cv2.imread(CHELSEA), cv2.ROTATE_90_CLOCKWISE))
    run_peer('gluoncv_transforms.py', tmp_path, [{'image': CHELSEA, 'out': 'land'},
                                                  {'image': portrait, 'out': 'port'},
                                                  {'image': CHELSEA, 'out': 'small',
                                                   'kwargs': {'resize_short': 160, 'crop_size': 128}}])
    pre = gz.get_weights('resnet18_v1b').preprocess  # the GluonCV record drives the transform
    land = from_preprocess(pre)(read_image(CHELSEA))
    assert np.abs(land - np.load(tmp_path / 'land.npy')[0]).max() < 1e-5
    port = imagenet_eval(read_image(portrait), **pre)
    assert np.abs(port - np.load(tmp_path / 'port.npy')).max() < 1e-5
    small = imagenet_eval(read_image(CHELSEA), resize=160, crop=128, interp='linear')
    assert small.shape == (1, 3, 128, 128) and np.abs(small - np.load(tmp_path / 'small.npy')).max() < 1e-5


def test_train_preset_is_seeded_and_augments():
    img = read_image(CHELSEA)
    a = from_preprocess(gz.get_weights('resnet18_v1b').preprocess, train=True, seed=1)
    b = from_preprocess(gz.get_weights('resnet18_v1b').preprocess, train=True, seed=1)
    x1, x2 = a(img), a(img)
    assert x1.shape == (3, 224, 224) and x1.dtype == np.float32
    assert np.array_equal(x1, b(img))  # same seed, same sample
    assert not np.array_equal(x1, x2)  # the next draw differs
    rng = np.random.default_rng(0)
    flips = [T.random_flip(img, rng) for _ in range(16)]
    mirrored = [np.array_equal(f, img[:, ::-1]) for f in flips]
    assert all(m or np.array_equal(f, img) for m, f in zip(mirrored, flips)) and 0 < sum(mirrored) < 16


def test_random_resized_crop_area_and_ratio():
    rng = np.random.default_rng(0)
    img = np.zeros((100, 200, 3), np.uint8)
    img[:, 100:] = 255  # right half white: the crop's mean tells where it came from
    same = T.random_resized_crop(img, (100, 200), rng, area=(1.0, 1.0), ratio=(2.0, 2.0))
    assert np.array_equal(same, img)  # the whole image is the only crop with area 1 and ratio 2
    means = [T.random_resized_crop(img, (32, 32), rng).mean() for _ in range(50)]
    assert min(means) < 64 and max(means) > 192  # crops land on both halves


def test_jitter_and_lighting():
    rng = np.random.default_rng(0)
    img = np.random.default_rng(1).integers(0, 256, (16, 16, 3)).astype(np.uint8)
    assert np.allclose(T.color_jitter(img, rng, 0, 0, 0), img)
    assert np.allclose(T.lighting(img, rng, 0.0), img)
    shifts = np.array([(T.lighting(np.full((2, 2, 3), 128, np.uint8), rng, 0.1) - 128)[0, 0] for _ in range(200)])
    assert 1.0 < shifts.std() < 20.0  # AlexNet PCA noise: a few pixel levels


def _factor(out, ref, centre):
    """The single factor a with out - centre == a * (ref - centre) at every pixel (asserted), i.e. the jitter's."""
    d_out, d_ref = np.asarray(out, np.float64) - centre, np.asarray(ref, np.float64) - centre
    a = float((d_out * d_ref).sum() / (d_ref * d_ref).sum())
    np.testing.assert_allclose(d_out, a * d_ref, atol=1e-3)
    return a


@pytest.mark.parametrize('which', ['brightness', 'contrast', 'saturation'])
def test_each_jitter_scales_what_it_names_by_one_factor_in_range(which):
    # mid-range pixels, so no factor in [0.6, 1.4] clips: the effect is seen exactly, not hidden by the clip
    img = np.random.default_rng(1).integers(100, 157, (16, 16, 3)).astype(np.uint8)
    f = img.astype(np.float64)
    luma = f @ np.array([0.299, 0.587, 0.114])
    centre = {'brightness': 0.0, 'contrast': luma.mean(), 'saturation': luma[:, :, None]}[which]
    amounts = {**dict(brightness=0, contrast=0, saturation=0), which: 0.4}
    factors = [_factor(T.color_jitter(img, np.random.default_rng(seed), **amounts), f, centre) for seed in range(40)]
    assert 0.6 <= min(factors) < 0.8 and 1.2 < max(factors) <= 1.4  # uniform in [1 - 0.4, 1 + 0.4], spread over it
    if which != 'brightness':  # contrast and saturation keep the mean luma; brightness scales it
        out = T.color_jitter(img, np.random.default_rng(0), **amounts)
        assert abs((out @ np.array([0.299, 0.587, 0.114])).mean() - luma.mean()) < 1e-2


def test_cifar_presets():
    rng = np.random.default_rng(0)
    img = np.random.default_rng(1).integers(0, 256, (32, 32, 3)).astype(np.uint8)
    x = cifar_train(img, rng)
    assert x.shape == (3, 32, 32)
    e = cifar_eval(img)
    assert np.allclose(cifar_train(img, rng, pad=0), e) or np.allclose(cifar_train(img, rng, pad=0), e[:, :, ::-1])
    assert abs(cifar_eval(np.full((32, 32, 3), 125, np.uint8))[0].mean() - (125 / 255 - 0.4914) / 0.2023) < 1e-4


@pytest.mark.parametrize('shape,dtype', [((40, 50), np.uint8), ((40, 50, 1), np.uint8), ((40, 50, 4), np.uint8),
                                         ((40, 50, 3), np.uint16)])
def test_odd_arrays_are_normalized(shape, dtype):
    img = np.full(shape, 200 * (257 if dtype == np.uint16 else 1), dtype)
    x = imagenet_eval(img, resize=32, crop=32)
    assert x.shape == (1, 3, 32, 32)
    assert abs(x[0, 0].mean() - (200 / 255 - 0.485) / 0.229) < 1e-3


@pytest.mark.parametrize('dtype', [np.uint8, np.uint16, np.float32, np.float64, np.int32])
@pytest.mark.parametrize('channels', [1, 3, 4])
def test_normalize_is_numpy_arithmetic_bit_for_bit(dtype, channels):
    """OpenCV's split for the types it takes, numpy's strided channels for the rest: the same float32 result as
    plain numpy, for whole arrays and for the views the transforms hand it (crop windows, flips, reversed channels)."""
    img = (np.random.default_rng(channels).random((37, 53, channels)) * 200).astype(dtype)
    mean, std = np.float32([0.485, 0.456, 0.406, 0.5][:channels]), np.float32([0.229, 0.224, 0.225, 0.25][:channels])
    for x in (img, img[3:30, 5:40], img[:, ::-1], img[..., ::-1]):
        want = ((x.astype(np.float32) / np.float32(255.0) - mean) / std).transpose(2, 0, 1)
        got = T.normalize(x, mean.tolist(), std.tolist())
        assert got.dtype == np.float32 and got.flags.c_contiguous and np.array_equal(got, want)


def test_bad_arrays():
    with pytest.raises(BadInputError, match='must be HxW'):
        imagenet_eval(np.zeros((4, 4, 2), np.uint8))
    with pytest.raises(BadInputError, match='cannot center-crop'):
        T.center_crop(np.zeros((10, 10, 3), np.uint8), (20, 20))
    with pytest.raises(ValueError, match='preset'):
        from_preprocess({'preset': 'coco'})
