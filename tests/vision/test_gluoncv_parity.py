"""A parameter file saved from GluonCV 0.10.5's model loads strictly into gluonzoo's and gives the same output.

Registry-driven: every variant of every family with a GluonCV checkpoint is covered by its smallest member. A
variant is the arch name with its size tokens (depth 18-201, width 0.25-1.0, cardinality 32/64) taken out, so
resnet*_v1 and resnet*_v2, vgg* and vgg*_bn, mobilenetv3_small and _large are separate cases. Archs GluonCV
defines but publishes no checkpoint for (SE-ResNet) are listed in EXTRA.
"""
import collections
import re

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.registry import get_entry

from ..peers import run_peer

#: archs GluonCV defines without a published checkpoint, one a variant (the smallest); NASNet (GluonCV's use_aux
#: default) and resnet*_v1b_custom (GluonCV's builder always downloads) are compared in their own test files, and
#: hrnet_w48_s is hrnet_w18_small's `_s` head on hrnet_w18_c's layout, wider
EXTRA = ['se_resnet18_v1', 'se_resnet18_v2', 'senet_154e', 'resnext101e_64x4d', 'se_resnext101e_64x4d',
         'residualattentionnet56', 'cifar_residualattentionnet56', 'cifar_resnext29_32x4d', 'xception71',
         'shufflenet_v1', 'shufflenet_v2', 'hrnet_w18_small_v1_s', 'hrnet_w18_small_v2_s', 'resnet50_v1e']
_SIZE = re.compile(r'\d{2,3}(?=_|x|$)|\d\.\d+')


def variant(arch):
    """'resnet50_v1b' -> 'resnet#_v1b', 'resnext101_64x4d' -> 'resnext#_#x4d', 'mobilenet0.25' -> 'mobilenet#'."""
    return _SIZE.sub('#', arch)


def _smallest_per_variant():
    best = collections.OrderedDict()
    for name in gz.list_models(task='image-classification', pretrained=True, tags=True):
        if not name.endswith('.gluoncv'):
            continue
        w = gz.get_weights(name)
        key = (get_entry(w.arch).builder.__module__, variant(w.arch))
        if key not in best or w.num_params < best[key].num_params:
            best[key] = w
    return [(w.arch, get_entry(w.arch).test_input) for w in best.values()] + \
        [(n, get_entry(n).test_input) for n in EXTRA]


CASES = _smallest_per_variant()


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv')
    run_peer('gluoncv_models.py', out, [{'name': n, 'shape': list(s)} for n, s in CASES])
    return out


def test_every_gluoncv_family_is_covered():
    names = [n for n, _ in CASES]
    for expected in ('mobilenetv2_0.25', 'resnet18_v1', 'resnet18_v2', 'resnet18_v1b', 'resnet50_v1c',
                     'resnet50_v1d', 'resnet50_v1s', 'resnext50_32x4d', 'se_resnext50_32x4d', 'mobilenet0.25',
                     'mobilenetv3_small', 'mobilenetv3_large', 'vgg11', 'vgg11_bn', 'densenet121', 'squeezenet1.1',
                     'inceptionv3', 'alexnet', 'darknet53', 'se_resnet18_v1', 'se_resnet18_v2'):
        assert expected in names
    families = {get_entry(n).builder.__module__ for n in gz.list_models(task='image-classification')
                if any(w.tag == 'gluoncv' for w in get_entry(n).weights.values())}
    assert families <= {get_entry(n).builder.__module__ for n in names}


@pytest.mark.parametrize('name,shape', CASES)
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, name, shape):
    net = gz.get_model(f'{name}.gluoncv' if name not in EXTRA else name)  # GluonCV's checkpoint shape, random init
    net.load_parameters(str(gluoncv_files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    ref = np.load(gluoncv_files / f'{name}.npz')
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert np.abs(y - ref['y']).max() / np.abs(ref['y']).max() <= 1e-5


def test_every_gluoncv_classifier_is_registered():
    # GluonCV's own model list, each name's task read from the module that defines it: the same reader as
    # docs/model_zoo.md's coverage table (scripts/docs/model_zoo.py)
    import importlib.util
    import os
    from ..peers import ROOT
    path = os.path.join(ROOT, 'scripts', 'docs', 'model_zoo.py')
    spec = importlib.util.spec_from_file_location('model_zoo_doc', path)
    doc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(doc)
    names = [n for n, task in doc.gluoncv_names().items() if task == 'image-classification']
    assert len(names) >= 132
    assert sorted(set(names) - set(gz.list_models())) == []
