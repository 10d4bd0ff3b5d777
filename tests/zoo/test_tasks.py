"""The task-generic core: records checked against their task at registration, `classes=` through the model's own
reset_class, backbones through the registry, and the per-task output contracts the registry-wide tests rely on."""
import dataclasses

import mxnet as mx
import numpy as np
import pytest
from mxnet.gluon import nn

import gluonzoo as gz
from gluonzoo.errors import BadInputError, UnknownTaskError
from gluonzoo.heads import reset_head
from gluonzoo.registry import get_backbone
from gluonzoo.tasks import get_task, list_tasks
from gluonzoo.weights import Source, Weights

from ..conftest import registered

MBV2 = gz.get_weights('mobilenetv2_0.25')


def test_each_domain_registers_its_tasks():
    assert {'image-classification', 'object-detection'} <= set(list_tasks('vision'))
    assert {'text-embedding', 'text-classification', 'language-model', 'translation'} <= set(list_tasks('text'))
    with pytest.raises(UnknownTaskError, match="unknown task 'image-classificaton'; did you mean "
                                               "'image-classification'"):
        get_task('image-classificaton')


@pytest.mark.parametrize('change,error', [
    ({'resise': 224}, "unknown preprocess key 'resise' .*did you mean 'resize'"),
    ({'crop': 0}, 'crop must be a positive int or'),
    ({'color': 'RGBA'}, "color must be one of 'RGB', 'BGR', 'grey'"),
    ({'mean': (0.5,)}, 'mean has 1 values for 3 channel'),
    ({'color': 'grey'}, 'does not have the 1 channel'),
    ({'crop': 192}, 'crop 192 does not give the input_shape'),
])
def test_a_bad_preprocess_is_refused_at_registration(change, error):
    w = dataclasses.replace(MBV2, arch='bad_pre_net', preprocess=dict(MBV2.preprocess, **change))
    with pytest.raises(ValueError, match=error):
        gz.register_model('bad_pre_net', task='image-classification', weights=[w])(lambda classes=1000: None)
    assert 'bad_pre_net' not in gz.list_models()


def test_a_record_of_another_task_or_without_class_names_is_refused():
    w = dataclasses.replace(MBV2, arch='other_task_net')
    with pytest.raises(ValueError, match="for task 'image-classification', the arch other_task_net for "
                                         "'text-embedding'"):
        gz.register_model('other_task_net', task='text-embedding', weights=[w])(lambda: None)
    nameless = dataclasses.replace(MBV2, arch='nameless_net', classes=None)
    with pytest.raises(ValueError, match='must name its classes'):
        gz.register_model('nameless_net', task='image-classification', weights=[nameless])(lambda: None)
    with pytest.raises(UnknownTaskError):
        gz.register_model('no_task_net', task='image-classfication')(lambda: None)
    with pytest.raises(ValueError, match='classes must be a non-empty sequence of class names'):
        dataclasses.replace(MBV2, classes='imagenet1k')


@pytest.mark.parametrize('classes,error', [
    (0, 'classes=0 must be at least 1'), ([], 'non-empty list of class names'), (['cat', 3], 'non-empty list'),
    (2.5, 'a count or a list of class names'), (True, 'a count or a list of class names')])
def test_classes_the_head_cannot_take_are_one_clear_error(classes, error):
    with pytest.raises(ValueError, match=error):
        gz.get_model('mobilenetv2_0.25', classes=classes)


def test_classes_on_a_model_without_classes():
    with pytest.raises(ValueError, match='bert_12_768_12 is a text-embedding model: it has no classes to set'):
        gz.get_model('bert_12_768_12', classes=3, vocab_size=20, units=16, hidden_size=32, num_layers=1,
                     num_heads=4, max_length=8)


def test_class_names_without_weights():
    net = gz.get_model('resnet18_v1', classes=['cat', 'dog'])
    net.initialize()
    assert net.classes == ['cat', 'dog'] and net(mx.nd.zeros((1, 3, 32, 32))).shape == (1, 2)


def test_reset_class_reuses_the_rows_it_is_told_to(pretrained_home):
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
    old = net.output[0].weight.data().asnumpy()
    cat, espresso = net.classes.index('Egyptian cat'), net.classes.index('espresso')
    net.reset_class(['espresso', 'cat', 'new'], reuse_weights={'cat': 'Egyptian cat', 'espresso': espresso})
    new = net.output[0].weight.data().asnumpy()
    assert new.shape == (3, 1280, 1, 1) and net.classes == ['espresso', 'cat', 'new']
    np.testing.assert_array_equal(new[0], old[espresso])
    np.testing.assert_array_equal(new[1], old[cat])
    assert not np.array_equal(new[2], old[cat]) and not np.array_equal(new[2], old[espresso])
    assert net(mx.nd.zeros((1, 3, 64, 64))).shape == (1, 3)
    with pytest.raises(ValueError, match="reuse_weights: old class 'unicorn' is not one of the old classes"):
        net.reset_class(['a'], reuse_weights={'a': 'unicorn'})


def test_pretrained_with_other_classes_goes_through_reset_class(pretrained_home):
    with pytest.warns(UserWarning, match=r"head re-initialized for classes=\['a', 'b'\]"):
        net = gz.get_model('mobilenetv2_1.0', pretrained=True, classes=['a', 'b'])
    assert net.classes == ['a', 'b'] and net(mx.nd.zeros((1, 3, 64, 64))).shape == (1, 2)
    same = gz.get_model('mobilenetv2_1.0', pretrained=True, classes=1000)  # the checkpoint's own: no reset
    assert same.classes[285] == 'Egyptian cat'


class _Headless(nn.HybridBlock):
    def __init__(self, classes=4, **kwargs):
        super().__init__(**kwargs)
        self.body = nn.Dense(classes, in_units=6)

    def hybrid_forward(self, F, x):
        return self.body(x)


def test_a_model_without_reset_class_says_so(http_server, tmp_path):
    from ..conftest import sha1, zipped
    net = _Headless()
    net.initialize()
    net.save_parameters(str(tmp_path / 'h.params'))
    data = (tmp_path / 'h.params').read_bytes()
    w = Weights(arch='headless_net', tag='t', default=True, sha1=sha1(data), task='image-classification',
                num_params=28, classes=tuple('abcd'), source=Source(kind='mirror', url=http_server.base),
                input_shape=(1, 3, 2, 1))
    http_server.files[f'/gluon/models/{w.file_stem}.zip'] = zipped(f'{w.file_stem}.params', data)
    with registered('headless_net', _Headless, task='image-classification', weights=[w]):
        assert gz.get_model('headless_net', pretrained=True).classes == list('abcd')
        with pytest.raises(ValueError, match='_Headless .* has no reset_class: its head cannot take classes=2'):
            gz.get_model('headless_net', pretrained=True, classes=2)
    with pytest.raises(BadInputError, match='is not a Dense/Conv2D head'):
        reset_head(net, 'missing', 3)


class ToyDetector(nn.HybridBlock):
    """A detector shape only: a registry backbone's last feature map -> per-class box scores, GluonCV's output."""

    def __init__(self, classes=('cat', 'dog'), pretrained_base=True, **kwargs):
        super().__init__(**kwargs)
        self.classes = list(classes)
        with self.name_scope():
            self.features = get_backbone('mobilenetv2_0.25', pretrained=pretrained_base, out_indices=('features.22',))
            self.cls = nn.Conv2D(len(classes), 1)
            self.box = nn.Conv2D(4, 1)

    def hybrid_forward(self, F, x):
        feat = self.features(x)[0]
        scores = F.sigmoid(self.cls(feat)).reshape((0, 0, -1)).transpose((0, 2, 1))  # (N, K, classes)
        ids = F.argmax(scores, axis=-1, keepdims=True)
        best = F.max(scores, axis=-1, keepdims=True)
        keep = best > 0.5
        boxes = self.box(feat).reshape((0, 0, -1)).transpose((0, 2, 1))
        return F.where(keep, ids, -F.ones_like(ids)), F.where(keep, best, -F.ones_like(best)), boxes


def test_a_detector_gets_its_backbone_from_the_registry_and_meets_the_detection_contract():
    task = get_task('object-detection')
    with registered('toy_detector', ToyDetector, task='object-detection', test_input=(2, 3, 64, 64)):
        net = gz.get_model('toy_detector', pretrained_base=False)
        net.initialize()
        assert net.features.names == ['features.22'] and net.features.strides == [32]
        x = gz.registry.get_entry('toy_detector').example_inputs()
        outs = net(*x)
        task.check_outputs(list(outs), x, 2)
        net.hybridize()
        task.check_outputs(list(net(*x)), x, 2)
        with pytest.raises(AssertionError, match='class ids outside'):
            task.check_outputs([outs[0] + 5, outs[1], outs[2]], x, 2)
        with pytest.raises(AssertionError, match='returns \\(ids, scores, bboxes\\)'):
            task.check_outputs(list(outs[:2]), x, 2)


def test_backbone_taps_by_name_share_the_classifier_weights():
    feats = get_backbone('resnet18_v1b', pretrained=False, out_indices=('layer2', -1))
    assert feats.names == ['layer2', 'layer4'] and feats.channels == [128, 512] and feats.strides == [8, 32]
    assert [len(s) for s in feats.stages] == [6, 2]  # conv1 .. layer2, then layer3 + layer4
    with pytest.raises(ValueError, match=r"out of range: ResNetV1b has 5 feature stages \['relu', 'layer1'"):
        get_backbone('resnet18_v1b', pretrained=False, out_indices=('layer9',))


def test_record_transforms_is_the_eval_preprocessing():
    from gluonzoo.vision.transforms import from_preprocess
    img = np.random.default_rng(0).integers(0, 256, (50, 70, 3)).astype(np.uint8)
    w = gz.get_weights('cifar_resnet20_v1.fmnist')
    x = w.transforms()(img)
    assert x.shape == (1, 28, 28)
    np.testing.assert_array_equal(x, from_preprocess(w.preprocess)(img))
    with pytest.raises(ValueError, match='the text-embedding task defines no transforms'):
        gz.get_weights('bert_6_384_12').transforms()


def test_reset_class_before_the_first_forward():
    net = gz.get_model('mobilenetv2_0.25')  # initialized below, the head's input size still deferred
    net.initialize()
    net.reset_class(5)
    assert net(mx.nd.zeros((1, 3, 64, 64))).shape == (1, 5) and net.classes is None
    fresh = gz.get_model('mobilenetv2_0.25')
    fresh.initialize()
    with pytest.raises(ValueError, match="reuse_weights needs the old head's weights"):
        fresh.reset_class(['a'], reuse_weights={'a': 0})
