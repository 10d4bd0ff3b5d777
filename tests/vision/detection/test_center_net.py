"""CenterNet: GluonCV 0.10.5's parameter files load strictly and give the same head outputs and detections (plain,
flip test, hybridized); the decoder's box arithmetic; reset_class, custom classes, set_nms; bad inputs."""
import mxnet as mx
import numpy as np
import pytest
from mxnet import autograd

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.registry import load_checkpoint
from gluonzoo.tasks import get_task
from gluonzoo.vision.meta import VOC
from gluonzoo.vision.models.detection.center_net import HEATMAP_BIAS, center_net_resnet18_v1b_voc, decode_centers

from ...peers import run_peer

#: the smallest member of each body (ResNet V1b + deconv, MobileNetV3 small and large + DUC), both datasets, and a
#: bottleneck ResNet (2048 channels into the deconv)
CASES = ['center_net_resnet18_v1b_voc', 'center_net_resnet50_v1b_coco', 'center_net_mobilenetv3_small_duc_voc',
         'center_net_mobilenetv3_large_duc_coco']
SHAPE = (2, 3, 64, 96)  # two pictures, not square: batch and axis mix-ups show
SMALL = 'center_net_mobilenetv3_small_duc_voc'


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_center_net')
    run_peer('gluoncv_center_net.py', out, [{'name': n, 'shape': list(SHAPE)} for n in CASES])
    return out


def _close(got, want):
    assert got.shape == want.shape
    assert np.abs(got - want).max() <= 1e-5 * np.abs(want).max()


@pytest.mark.parametrize('name', CASES)
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, name):
    ref = np.load(gluoncv_files / f'{name}.npz')
    for scores in (ref['scores'], ref['scores_flip']):  # tied scores would leave GluonCV's order arbitrary
        assert all(len(np.unique(row)) == len(row) for row in scores), 'the reference has tied scores'
    x = mx.nd.array(ref['x'])
    net = gz.get_model(name, pretrained_base=False)
    net.initialize()
    net(x)  # every shape known, so loading checks them all
    net.load_parameters(str(gluoncv_files / f'{name}.params'))  # strict: no missing, no extra, same shapes
    feat = net.base_network(x)
    for i, head in enumerate(net.heads):
        _close(head(feat).asnumpy(), ref[f'head{i}'])
    for suffix, flip in (('', False), ('_flip', True)):
        net.flip_test = flip
        for hybrid in (False, True):
            net.hybridize(hybrid)
            ids, scores, boxes = (o.asnumpy() for o in net(x))
            k = ref['ids' + suffix].shape[1]
            assert ids.shape == (2, k) and scores.shape == (2, k) and boxes.shape == (2, k, 4)  # GluonCV's
            assert (ids == ref['ids' + suffix]).all(), f'class ids or their order differ ({suffix}, {hybrid})'
            _close(scores, ref['scores' + suffix])
            _close(boxes, ref['bboxes' + suffix])


def test_decoder_box_arithmetic():
    heat = mx.nd.zeros((2, 3, 4, 5))
    heat[1, 2, 3, 1] = 0.9  # image 1, class 2, row 3, column 1
    heat[1, 0, 0, 4] = 0.5
    wh, reg = mx.nd.zeros((2, 2, 4, 5)), mx.nd.zeros((2, 2, 4, 5))
    wh[1, :, 3, 1] = mx.nd.array([2, 4])
    reg[1, :, 3, 1] = mx.nd.array([0.5, 0.25])
    ids, scores, boxes = decode_centers(mx.nd, heat, wh, reg, topk=2, scale=4.0)
    assert ids[1].asnumpy().tolist() == [2, 0]
    np.testing.assert_allclose(scores[1].asnumpy(), [0.9, 0.5])
    # centre (1 + 0.5, 3 + 0.25) cells, 2 x 4 cells, times 4 pixels a cell
    np.testing.assert_allclose(boxes[1, 0].asnumpy(), [(1.5 - 1) * 4, (3.25 - 2) * 4, (1.5 + 1) * 4, (3.25 + 2) * 4])
    np.testing.assert_allclose(boxes[1, 1].asnumpy(), [16, 0, 16, 0])


@pytest.fixture(scope='module')
def small_net():
    mx.random.seed(0)
    net = gz.get_model(SMALL, pretrained_base=False)
    net.initialize()
    x = mx.nd.random.uniform(shape=(1, 3, 64, 64))
    net(x)
    return net, x


def test_reset_class_keeps_reused_rows(small_net):
    net, x = small_net
    old_w, old_b = (p.data().asnumpy() for p in (net.heads[0][2].weight, net.heads[0][2].bias))
    net.hybridize()
    net(x)
    net.reset_class(['person', 'cow', 'unicorn'], reuse_weights={'person': 'person', 'cow': VOC.index('cow')})
    w, b = (p.data().asnumpy() for p in (net.heads[0][2].weight, net.heads[0][2].bias))
    assert w.shape == (3, 64, 1, 1) and net.classes == ['person', 'cow', 'unicorn']
    assert (w[0] == old_w[VOC.index('person')]).all() and b[0] == old_b[VOC.index('person')]
    assert (w[1] == old_w[VOC.index('cow')]).all() and b[1] == old_b[VOC.index('cow')]
    assert not any((w[2] == row).all() for row in old_w) and b[2] == pytest.approx(HEATMAP_BIAS)  # a fresh row
    assert 'heads.0.2.weight' in net._collect_params_with_prefix()  # still GluonCV's name
    ids, scores, boxes = net(x)  # hybridized: the cached graph saw the new head
    get_task('object-detection').check_outputs([ids, scores, boxes], [x], 3)
    kept = w[0].copy()
    net.reset_class(['cow', 'person'], reuse_weights=['person'])  # a list: the names kept
    assert (net.heads[0][2].weight.data().asnumpy()[1] == kept).all()


def test_custom_classes_and_nms():
    mx.random.seed(0)
    net = center_net_resnet18_v1b_voc(classes=('cat', 'dog'), pretrained_base=False)
    net.initialize()
    x = mx.nd.random.uniform(shape=(1, 3, 64, 64))
    ids, scores, boxes = net(x)
    assert net.classes == ['cat', 'dog'] and ids.shape == (1, 40)
    get_task('object-detection').check_outputs([ids, scores, boxes], [x], 2)
    net.hybridize()
    net.set_nms(0.45, 400, 10)  # GluonCV's CenterNet ignores it; here it suppresses, per class
    ids, scores, boxes = net(x)
    assert ids.shape == (1, 10)
    get_task('object-detection').check_outputs([ids, scores, boxes], [x], 2)
    net.set_nms(0.45)  # GluonCV's post_nms 100, capped at the 40 rows there are
    assert net(x)[0].shape == (1, 40)
    net.set_nms()
    assert net(x)[0].shape == (1, 40) and net.nms_thresh == 0
    count = gz.get_model(SMALL, classes=3, pretrained_base=False)
    count.initialize()
    assert count.classes == ['class0', 'class1', 'class2'] and count.heads[0][2].weight.shape[0] == 3
    with autograd.train_mode():  # the training outputs: clipped heatmap, sizes, offsets at stride 4
        heat, wh, reg = count(mx.nd.random.uniform(shape=(1, 3, 64, 64)))
    assert heat.shape == (1, 3, 16, 16) and wh.shape == reg.shape == (1, 2, 16, 16)


def test_bad_inputs_are_one_line_errors(small_net, gluoncv_files):
    net, _ = small_net
    with pytest.raises(ValueError, match="old class 'unicorns' is not one of the old classes"):
        net.reset_class(['a'], reuse_weights={'a': 'unicorns'})
    with pytest.raises(ValueError, match='non-empty list of class names'):
        net.reset_class([])
    with pytest.raises(ValueError, match='non-empty list of class names'):
        net.reset_class('person')
    with pytest.raises(ValueError, match='more than once'):
        center_net_resnet18_v1b_voc(classes=['a', 'a'], pretrained_base=False)
    with pytest.raises(BadInputError, match='Nx3xHxW'):
        net(mx.nd.zeros((1, 1, 64, 64)))
    other = gz.get_model(SMALL, classes=['a', 'b'], pretrained_base=False)  # a class list of the wrong length
    other.initialize()
    other(mx.nd.zeros((1, 3, 64, 64)))
    with pytest.raises(BadInputError, match=r'heads\.0\.2\.weight has shape \(20, 64, 1, 1\), the net wants '
                                            r'\(2, 64, 1, 1\)'):
        load_checkpoint(other, gluoncv_files / f'{SMALL}.params', mx.cpu())
