import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo import model_zoo
from gluonzoo.errors import UnknownModelError

from ..conftest import registered


def test_model_zoo_spelling_is_the_same_functions():
    assert model_zoo.get_model is gz.get_model and model_zoo.list_models is gz.list_models


def test_unknown_name_names_three_closest():
    with pytest.raises(ValueError) as e:
        gz.get_model('mobilenetv2_1.O')
    msg = str(e.value)
    assert "'mobilenetv2_1.O'" in msg and msg.count('mobilenetv2_') >= 4  # the name + three suggestions


def test_unknown_tag_lists_tags():
    with pytest.raises(UnknownModelError, match=r"tags are \['digits', 'gluoncv', 'in1k'\]"):
        gz.get_weights('mobilenetv2_1.0.imagenet22k')


def test_list_models_filters():
    assert gz.list_models('mobilenetv2_0.*') == ['mobilenetv2_0.25', 'mobilenetv2_0.5', 'mobilenetv2_0.75']
    assert gz.list_models(task='text-embedding', pattern='mobilenet*') == []
    assert 'mobilenetv2_1.0' in gz.list_models(pretrained=True, task='image-classification')
    assert 'mobilenetv2_1.0.in1k' in gz.list_models('*.in1k', tags=True)
    assert gz.list_models('mobilenetv2_1*', task='vision') == ['mobilenetv2_1.0']
    assert gz.list_models('mobilenetv2_1*', task='text') == []


def test_duplicate_registration_is_an_error():
    with registered('dup_test_net', lambda classes=2: None, task='image-classification'):
        with pytest.raises(ValueError, match='already registered'):
            gz.register_model('dup_test_net', task='image-classification')(lambda: None)


def test_record_of_another_arch_or_two_defaults_is_refused():
    import dataclasses
    w = gz.get_weights('mobilenetv2_0.5')
    with pytest.raises(ValueError, match='registered under arch'):
        gz.register_model('other_arch', task='image-classification', weights=[w])(lambda: None)
    a, b = (dataclasses.replace(w, arch='two_defaults', tag=t) for t in ('a', 'b'))
    with pytest.raises(ValueError, match='exactly one weights record default=True'):
        gz.register_model('two_defaults', task='image-classification', weights=[a, b])(lambda: None)
    assert 'two_defaults' not in gz.list_models()


def test_default_hashtag_and_tag_resolve_to_records():
    assert gz.get_weights('mobilenetv2_1.0').tag == 'in1k'
    assert gz.get_weights('mobilenetv2_1.0', 'gluoncv').sha1.startswith('f9952bcd')
    assert gz.get_weights('mobilenetv2_1.0.f9952bcd').tag == 'gluoncv'


def test_unknown_option_names_the_closest():
    with pytest.raises(ValueError, match="no option 'head_bais'; did you mean 'head_bias'"):
        gz.get_model('mobilenetv2_0.25', head_bais=True)


def test_shape_option_contradicting_checkpoint_is_refused():
    with pytest.raises(ValueError, match='trained with head_bias=True'):
        gz.get_model('mobilenetv2_1.0', pretrained=True, head_bias=False)
    # without weights the option is free
    net = gz.get_model('mobilenetv2_1.0', head_bias=True)
    net.initialize()
    assert 'output.0.bias' in net._collect_params_with_prefix()


def test_checkpoint_name_without_pretrained_builds_its_config_unloaded():
    net = gz.get_model('mobilenetv2_1.0.in1k')
    net.initialize()
    assert 'output.0.bias' in net._collect_params_with_prefix()
    assert not hasattr(net, 'weights')


def test_no_weights_for_random_arch():
    with registered('noweights_test_net', lambda classes=2: None, task='image-classification'):
        with pytest.raises(UnknownModelError, match='has no pretrained weights'):
            gz.get_model('noweights_test_net', pretrained=True)


def test_pretrained_loads_and_classes_resets_head(pretrained_home):
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
    assert net.weights.tag == 'in1k' and net.classes[285] == 'Egyptian cat'
    with pytest.warns(UserWarning, match='re-initialized for classes=10'):
        net10 = gz.get_model('mobilenetv2_1.0', pretrained=True, classes=10)
    assert net10(mx.nd.zeros((1, 3, 64, 64))).shape == (1, 10)
    full, ten = net._collect_params_with_prefix(), net10._collect_params_with_prefix()
    assert ten['output.0.weight'].shape == (10, 1280, 1, 1) and net10.classes is None
    for k in full:
        if not k.startswith('output.'):
            np.testing.assert_array_equal(full[k].data().asnumpy(), ten[k].data().asnumpy())


def test_pretrained_by_hashtag(pretrained_home):
    net = gz.get_model('mobilenetv2_1.0', pretrained='d78ff03a')
    assert net.weights.tag == 'in1k'
