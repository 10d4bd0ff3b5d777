"""features_only=True / out_indices, classes=N and in_channels over the vision families, through get_model."""
import collections
import math

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.registry import get_entry


def _one_per_family():
    """The smallest arch of every vision family (by its default checkpoint's size; archs without one last)."""
    best = collections.OrderedDict()
    for name in gz.list_models(task='image-classification'):
        entry = get_entry(name)
        if entry.domain != 'vision' or callable(entry.test_input):
            continue
        size = entry.default_weights.num_params if entry.default_weights else float('inf')
        key = entry.builder.__module__
        if key not in best or size < best[key][0]:
            best[key] = (size, name)
    return [name for _, name in best.values()]


#: families whose nets are not one chain of stages, so features_only refuses them with one clear error: HRNet keeps
#: parallel branches at four strides to the end (its head merges them); GluonCV's INT8 graphs are one fixed symbol
NO_STAGES = {'hrnet_w18_small_v1_c', 'mobilenet1.0_int8'}
FAMILIES = [n for n in _one_per_family() if n not in NO_STAGES]


@pytest.mark.parametrize('name', sorted(NO_STAGES))
def test_families_without_stages_refuse_features_only(name):
    assert name in _one_per_family()
    with pytest.raises(ValueError, match='declares no feature stages; features_only is not available'):
        gz.get_model(name, features_only=True)


@pytest.mark.parametrize('name', FAMILIES)
def test_feature_maps_have_the_declared_channels_and_strides(name):
    entry = get_entry(name)
    net = gz.get_model(name, features_only=True, **entry.test_kwargs)
    net.initialize()
    x = mx.nd.random.uniform(shape=entry.test_input)
    outs = net(x)
    assert len(outs) == len(net.channels) == len(net.strides) == len(net.names) >= 3
    assert net.strides == sorted(net.strides) and len(set(net.strides)) == len(net.strides)
    for out, c, s in zip(outs, net.channels, net.strides):
        assert out.shape[1] == c
        side = x.shape[2] / s  # 'valid' convs (Inception, SqueezeNet) lose a few pixels to the borders
        assert 0.9 * side - 3 <= out.shape[2] <= math.ceil(side)
    net.hybridize()
    for a, b in zip(outs, net(x)):
        assert np.allclose(a.asnumpy(), b.asnumpy(), rtol=1e-4, atol=1e-5)


def test_out_indices_pick_and_share_the_pretrained_parameters(pretrained_home):
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
    feats = gz.get_model('mobilenetv2_1.0', pretrained=True, features_only=True, out_indices=(1, -1))
    assert feats.channels == [24, 1280] and feats.strides == [4, 32]
    x = mx.nd.random.uniform(shape=(1, 3, 64, 64))
    low, high = feats(x)
    assert feats.names == [net.feature_info[1].name, net.feature_info[-1].name]
    ref, compared = x, 0
    for name, block in net.stages():
        ref = block(ref)
        for tap, out in zip(feats.names, (low, high)):
            if name == tap:
                assert np.allclose(out.asnumpy(), ref.asnumpy(), atol=1e-5)
                compared += 1
    assert compared == 2 and feats.weights.name == 'mobilenetv2_1.0.in1k'


def test_bad_feature_options():
    with pytest.raises(ValueError, match='out of range'):
        gz.get_model('resnet18_v1', features_only=True, out_indices=(7,))
    with pytest.raises(ValueError, match='features_only=True'):
        gz.get_model('resnet18_v1', out_indices=(1,))
    text = [n for n in gz.list_models(task='text') if not get_entry(n).test_kwargs]
    if text:
        with pytest.raises(ValueError, match='no feature stages'):
            gz.get_model(text[0], features_only=True)


def test_classes_and_in_channels():
    net = gz.get_model('resnet18_v1b', classes=10, in_channels=1)
    net.initialize()
    assert net(mx.nd.zeros((2, 1, 32, 32))).shape == (2, 10)
    with pytest.raises(BadInputError, match=r'Nx1xHxW .* got 2x3x32x32'):
        net(mx.nd.zeros((2, 3, 32, 32)))
    with pytest.raises(ValueError, match='in_channels=1 changes parameter shapes'):
        gz.get_model('resnet18_v1b.gluoncv', in_channels=1)


def test_unknown_family_option():
    with pytest.raises(ValueError, match="resnet50_v1d has no option 'depth'"):
        gz.get_model('resnet50_v1d', depth=34)


def test_fixed_size_models_name_the_expected_shape():
    net = gz.get_model('squeezenet1.1')
    net.initialize()
    with pytest.raises(BadInputError, match='Nx3x224x224 .* got 1x3x64x64'):
        net(mx.nd.zeros((1, 3, 64, 64)))
    net = gz.get_model('inceptionv3')
    net.initialize()
    with pytest.raises(BadInputError, match='Nx3x299x299'):
        net(mx.nd.zeros((1, 3, 224, 224)))
    vgg = gz.get_model('vgg11')
    vgg.initialize()
    vgg(mx.nd.zeros((1, 3, 32, 32)))  # the first Dense now takes 512x1x1: the net is fixed at 32x32
    with pytest.raises(BadInputError, match='Nx3x32x32 .* got 1x3x64x64'):
        vgg(mx.nd.zeros((1, 3, 64, 64)))
    with pytest.raises(BadInputError, match='got 3x32x32'):  # a single image without the batch axis
        gz.get_model('resnet18_v1')(mx.nd.zeros((3, 32, 32)))
