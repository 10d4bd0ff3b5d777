"""Xception beyond the registry-wide tests: GluonCV's `output_stride` (dilated middle and exit flows) and
`norm_kwargs` give GluonCV's outputs from its parameter file, and the feature maps keep the declared stride; bad
options are refused."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.vision.models.classification.xception import Xception

from ..peers import run_peer


def test_gluoncv_options_match(tmp_path):
    # output_stride=8 takes every dilated path (block3 unstrided, middle flow 2, exit flow 2 and 4)
    kwargs = {'output_stride': 8, 'norm_kwargs': {'epsilon': 1e-3}}
    run_peer('gluoncv_models.py', tmp_path, [{'name': 'xception', 'shape': [1, 3, 32, 32], 'kwargs': kwargs}])
    net = gz.get_model('xception', **kwargs)
    net.load_parameters(str(tmp_path / 'xception.params'))  # strict: no missing, no extra, same shapes
    ref = np.load(tmp_path / 'xception.npz')
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert np.abs(y - ref['y']).max() / np.abs(ref['y']).max() <= 1e-5
    feats = net.feature_extractor((-1,))
    assert feats.strides == [8] and feats(mx.nd.array(ref['x']))[0].shape == (1, 2048, 4, 4)


def test_bad_options():
    with pytest.raises(ValueError, match=r'output_stride 4 is not one of \[8, 16, 32\]'):
        gz.get_model('xception', output_stride=4)
    with pytest.raises(ValueError, match=r'depth 41 is not one of \[65, 71\]'):
        Xception(41)
