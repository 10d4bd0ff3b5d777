"""YOLOv3: GluonCV 0.10.5's parameter files load strictly and give the same raw predictions, decoded rows and final
detections (one case per backbone variant, the smallest member; odd sizes and a batch of 2 included); reset_class,
set_nms, the custom builders (transfer too) and the one-line errors for bad inputs."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.errors import BadInputError
from gluonzoo.vision.meta import VOC

from ...peers import run_peer

CASES = [('yolo3_darknet53_voc', (1, 3, 64, 96), {}),
         ('yolo3_mobilenet0.25_coco', (2, 3, 70, 100), {}),  # odd sizes: the upsampled maps are cut to fit
         ('yolo3_mobilenet1.0_custom', (1, 3, 64, 64), {'classes': ['cat', 'dog', 'person']})]


def _close(got, want):
    return np.abs(got - want).max() <= 1e-5 * max(np.abs(want).max(), 1e-30)


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('yolo3')
    run_peer('gluoncv_yolo3.py', out, [{'name': n, 'shape': list(s), 'kwargs': k} for n, s, k in CASES])
    return out


def _small(**kwargs):
    net = gz.get_model('yolo3_mobilenet0.25_voc', pretrained_base=False, **kwargs)
    net.initialize()  # random weights (get_model leaves them to the caller, as GluonCV's)
    return net


@pytest.mark.parametrize('name,shape,kwargs', CASES)
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, name, shape, kwargs):
    net = gz.get_model(name, pretrained_base=False, **kwargs)
    net.load_parameters(str(gluoncv_files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    assert list(net._collect_params_with_prefix())[0] == ('stages.0.0.0.weight' if 'darknet' in name
                                                          else 'stages.0.0.weight')
    ref = np.load(gluoncv_files / f'{name}.npz')
    x = mx.nd.array(ref['x'])
    raw = []
    hooks = [o.prediction.register_forward_hook(lambda block, inputs, y: raw.append(y.asnumpy()))
             for o in net.yolo_outputs]
    ids, scores, bboxes = (a.asnumpy() for a in net(x))
    for hook in hooks:
        hook.detach()
    for i in range(3):
        assert _close(raw[i], ref[f'raw{i}']), f'raw predictions of output {i}'
    assert np.array_equal(ids, ref['ids']), 'class ids or their order differ'
    assert _close(scores, ref['scores']) and _close(bboxes, ref['bboxes'])
    net.hybridize()
    hids, hscores, hbboxes = (a.asnumpy() for a in net(x))
    assert np.array_equal(hids, ref['ids']) and _close(hscores, ref['scores']) and _close(hbboxes, ref['bboxes'])
    net.set_nms(nms_thresh=0)  # every decoded row, in GluonCV's order
    rows = [a.asnumpy() for a in net(x)]
    assert np.array_equal(rows[0], ref['rows_ids'])
    assert _close(rows[1], ref['rows_scores']) and _close(rows[2], ref['rows_bboxes'])


def test_reset_class_keeps_the_reused_rows():
    net = _small()
    net(mx.nd.zeros((1, 3, 64, 64)))
    old = [(o.prediction.weight.data().asnumpy(), o.prediction.bias.data().asnumpy()) for o in net.yolo_outputs]
    net.hybridize()
    net.reset_class(['person', 'zebra', 'dog'], reuse_weights={'person': 'person', 'dog': VOC.index('dog')})
    assert net.classes == ['person', 'zebra', 'dog'] and net.num_class == 3
    n_old, n_new = 5 + len(VOC), 5 + 3
    for output, (w, b) in zip(net.yolo_outputs, old):
        nw, nb = output.prediction.weight.data().asnumpy(), output.prediction.bias.data().asnumpy()
        assert nw.shape[0] == 3 * n_new
        for a in range(3):
            for new, old_index in ((0, VOC.index('person')), (2, VOC.index('dog'))):
                assert np.array_equal(nw[a * n_new + 5 + new], w[a * n_old + 5 + old_index])
                assert nb[a * n_new + 5 + new] == b[a * n_old + 5 + old_index]
            assert np.array_equal(nw[a * n_new:a * n_new + 5], w[a * n_old:a * n_old + 5])  # box + objectness
            assert not any(np.array_equal(nw[a * n_new + 6], row) for row in w)  # zebra: new
    ids, scores, bboxes = net(mx.nd.random.uniform(shape=(1, 3, 64, 64)))  # the hybridized graph was rebuilt
    assert set(np.unique(ids.asnumpy())) <= {-1, 0, 1, 2}
    net.reset_class(['dog', 'cat'], reuse_weights=['dog'])  # a list keeps those names
    assert net.classes == ['dog', 'cat']
    net.reset_class(4)  # a count: placeholder names, every row new
    assert net.classes == ['class0', 'class1', 'class2', 'class3']


def test_set_nms():
    net = _small()
    x = mx.nd.random.uniform(shape=(1, 3, 64, 64))
    net.set_nms(nms_thresh=0.45, nms_topk=400, post_nms=5)
    assert net(x)[0].shape == (1, 5, 1)
    net.set_nms(nms_thresh=-1)
    assert net(x)[1].shape == (1, len(VOC) * 3 * (2 * 2 + 4 * 4 + 8 * 8), 1)


def test_custom_builder_and_transfer(monkeypatch, tmp_path):
    net = gz.get_model('yolo3_mobilenet1.0_custom', classes=['cat', 'zebra'], pretrained_base=False)
    net.initialize()
    assert net.classes == ['cat', 'zebra'] and net(mx.nd.zeros((1, 3, 64, 64)))[0].shape == (1, 100, 1)
    voc = gz.get_model('yolo3_mobilenet1.0_voc', pretrained_base=False)  # stands in for GluonCV's VOC checkpoint
    voc.initialize()
    voc(mx.nd.zeros((1, 3, 32, 32)))
    voc.save_parameters(str(tmp_path / 'voc.params'))
    monkeypatch.setattr(store, 'fetch', lambda w, root=None, **kw: tmp_path / 'voc.params')
    net = gz.get_model('yolo3_mobilenet1.0_custom', classes=['zebra', 'cat'], transfer='voc')
    net.initialize()
    assert net.classes == ['zebra', 'cat']
    n_old, n_new = 5 + len(VOC), 5 + 2
    w, nw = voc.yolo_outputs[0].prediction.weight.data(), net.yolo_outputs[0].prediction.weight.data()
    assert np.array_equal(nw[5 + 1].asnumpy(), w[5 + VOC.index('cat')].asnumpy())
    assert np.array_equal(nw[n_new:n_new + 5].asnumpy(), w[n_old:n_old + 5].asnumpy())
    assert np.array_equal(net.stages[0][0].weight.data().asnumpy(), voc.stages[0][0].weight.data().asnumpy())


def test_bad_inputs_say_what_is_wrong():
    with pytest.raises(ValueError, match='needs classes='):
        gz.get_model('yolo3_mobilenet0.25_custom', pretrained_base=False)
    with pytest.raises(ValueError, match="transfer='kitti'"):
        gz.get_model('yolo3_mobilenet0.25_custom', classes=['a'], transfer='kitti', pretrained_base=False)
    with pytest.raises(ValueError, match='has no pretrained weights'):
        gz.get_model('yolo3_mobilenet0.25_custom', classes=['a'], transfer='voc', pretrained_base=False)
    net = _small()
    with pytest.raises(ValueError, match="old class 'unicorn'"):
        net.reset_class(['a'], reuse_weights={'a': 'unicorn'})
    with pytest.raises(ValueError, match="new class 'b'"):
        net.reset_class(['a'], reuse_weights={'b': 'dog'})
    with pytest.raises(ValueError, match='index 25'):
        net.reset_class(['a'], reuse_weights={0: 25})
    with pytest.raises(ValueError, match='non-empty list of class names'):
        net.reset_class([])
    with pytest.raises(ValueError, match=r"classes names \['a'\] more than once"):
        net.reset_class(['a', 'b', 'a'])
    assert net.classes == list(VOC)  # nothing changed
    with pytest.raises(BadInputError, match='Nx3xHxW'):
        net(mx.nd.zeros((1, 1, 64, 64)))
    with pytest.raises(BadInputError, match='up to 1024x1024'):
        net(mx.nd.zeros((1, 3, 64, 1056)))
    with pytest.raises(BadInputError, match='one input'):
        net(mx.nd.zeros((1, 3, 64, 64)), mx.nd.zeros((1, 1)))
    with pytest.raises(ValueError, match='alloc_size'):
        gz.get_model('yolo3_mobilenet1.0_voc.gluoncv', pretrained=True, alloc_size=(64, 64))
