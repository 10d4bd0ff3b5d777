"""A parameter file saved from GluonCV 0.10.5's FCN / PSPNet / DeepLabV3 / DeepLabV3+ loads strictly into
gluonzoo's and gives the same outputs, main and auxiliary.

Registry-driven over the semantic-segmentation `.gluoncv` records of this package: one case a variant (the arch
with its depth and dataset taken out: fcn_resnet#, psp_resnet#, deeplab_resnet#, deeplab_resnest#,
deeplab_v3b_plus_wideresnet), its smallest member, plus the GluonCV archs without a checkpoint (EXTRA). Nets are
built with crop_size 64 on a 64x64 picture: stride-8 maps of 8x8, so layer4's dilation-4 taps land inside them.
"""
import collections
import re

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.registry import get_entry

from ..peers import run_peer

EXTRA = ['fcn_resnet50_voc']  # GluonCV defines it, its model_store has no file for it
SIZE = 64
KWARGS = {'pretrained_base': False, 'crop_size': SIZE}  # GluonCV's options, the same on both sides
_PACKAGE = 'gluonzoo.vision.models.segmentation.'


def variant(arch):
    """'deeplab_resnet101_citys' -> 'deeplab_resnet#'."""
    return re.sub(r'\d{2,3}', '#', arch.rsplit('_', 1)[0])


def _smallest_per_variant():
    best = collections.OrderedDict()
    for name in gz.list_models(task='semantic-segmentation', pretrained=True, tags=True):
        w = gz.get_weights(name)
        if w.tag != 'gluoncv' or not get_entry(w.arch).builder.__module__.startswith(_PACKAGE):
            continue
        key = variant(w.arch)
        if key not in best or w.num_params < best[key].num_params:
            best[key] = w
    return [w.arch for w in best.values()] + EXTRA


CASES = _smallest_per_variant()


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_seg')
    run_peer('gluoncv_models.py', out, [{'name': n, 'shape': [1, 3, SIZE, SIZE], 'kwargs': KWARGS} for n in CASES])
    return out


def test_every_variant_is_covered():
    assert sorted(variant(n) for n in CASES if n not in EXTRA) == [
        'deeplab_resnest#', 'deeplab_resnet#', 'deeplab_v3b_plus_wideresnet', 'fcn_resnet#', 'psp_resnet#']


@pytest.mark.parametrize('name', CASES)
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, name):
    # the checkpoint's options (aux, classes) with the small crop; random init, then GluonCV's parameters
    net = gz.get_model(f'{name}.gluoncv' if name not in EXTRA else name, **KWARGS)
    net.load_parameters(str(gluoncv_files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    ref = np.load(gluoncv_files / f'{name}.npz')
    ys = net(mx.nd.array(ref['x']))
    want = [ref[k] for k in sorted(ref.files, key=lambda k: int(k[1:]) if k[1:].isdigit() else -1)
            if re.fullmatch(r'y\d+', k)]
    assert len(ys) == len(want) == (2 if net.aux else 1)
    for y, r in zip(ys, want):
        assert y.shape == r.shape
        assert np.abs(y.asnumpy() - r).max() / np.abs(r).max() <= 1e-5, name
