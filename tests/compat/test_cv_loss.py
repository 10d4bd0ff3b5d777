"""gluonzoo.cv.loss against GluonCV 0.10.5's gluoncv.loss: the same calls (tests/peers/loss_cases.py) on the same
inputs give the same losses and the same gradients; where GluonCV's class fails or reduces over the wrong axis,
ours does what its docstring says (docs/from_gluoncv.md)."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo.cv as gcv
from gluonzoo.cv import loss as L

from ..peers import run_peer_cases
from ..peers.loss_cases import cases


def _inputs(rng):
    B, N, C = 2, 40, 4
    scores = rng.normal(size=(6, 5)) * 2
    labels = rng.integers(0, 5, 6)
    soft = np.exp(rng.normal(size=(6, 5)))
    ssd_cls = rng.integers(1, C, (B, N)) * (rng.random((B, N)) < 0.15)
    obj_t = rng.choice([1.0, 0.0, -1.0], (B, 20, 1), p=[0.2, 0.7, 0.1])
    heat = np.clip(rng.random((2, 3, 8, 8)) ** 3, 0, 0.99)
    heat[0, 1, 2, 3] = heat[1, 0, 5, 5] = 1
    label = rng.integers(-1, 4, (2, 6, 5))
    return dict(
        cls_scores=scores, cls_labels=labels, cls_onehot=np.eye(5)[labels], cls_weight=rng.random((6, 1)),
        cls_soft=soft / soft.sum(1, keepdims=True),
        ssd_cls_pred=rng.normal(size=(B, N, C)), ssd_box_pred=rng.normal(size=(B, N, 4)), ssd_cls_t=ssd_cls,
        ssd_box_t=rng.normal(size=(B, N, 4)),
        yolo_objness=rng.normal(size=(B, 20, 1)), yolo_centers=rng.normal(size=(B, 20, 2)),
        yolo_scales=rng.normal(size=(B, 20, 2)), yolo_cls=rng.normal(size=(B, 20, 3)), yolo_obj_t=obj_t,
        yolo_center_t=rng.random((B, 20, 2)), yolo_scale_t=rng.normal(size=(B, 20, 2)),
        yolo_weight_t=rng.random((B, 20, 2)), yolo_cls_t=(rng.random((B, 20, 3)) < 0.3) * 1.0,
        yolo_cls_mask=np.repeat(obj_t > 0, 3, axis=2) * 1.0,
        heat_pred=rng.normal(size=(2, 3, 8, 8)), heat_t=heat, wh_pred=rng.normal(size=(2, 2, 8, 8)),
        wh_t=rng.normal(size=(2, 2, 8, 8)), wh_mask=(rng.random((2, 2, 8, 8)) < 0.1) * 1.0,
        seg_pred=rng.normal(size=(2, 4, 6, 5)), seg_aux=rng.normal(size=(2, 4, 6, 5)), seg_label=label)


@pytest.fixture(scope='module')
def both(tmp_path_factory):
    """(our cases, GluonCV's, the inputs): one peer run for the file."""
    d, ref = run_peer_cases('gluoncv_losses.py', tmp_path_factory.mktemp('losses'),
                            _inputs(np.random.default_rng(0)))
    return cases(L, d), ref, d


def test_losses_and_gradients_equal_gluoncvs(both):
    ours, ref, _ = both
    assert sorted(ours) == sorted(k for k in ref if '.' in k) and len(ours) > 40
    for name, want in ours.items():
        np.testing.assert_allclose(want, ref[name], rtol=1e-5, atol=1e-6, err_msg=name)
    assert ours['ssd.0'].shape == (1,) and ours['ssd_mining.0'].shape == (2,)  # (B,) a device


def test_segmentation_multi_losses_reduce_per_image(both):
    ours, ref, d = both
    seg, label = d['seg_pred'], d['seg_label']
    got = L.SegmentationMultiLosses()(seg, seg * 2, seg * 3, label)
    one = L.MixSoftmaxCrossEntropyLoss(aux=False)
    want = sum(one(seg * k, label).asnumpy() for k in (1, 2, 3))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
    # GluonCV's passes size_average and ignore_label as sparse_label and batch_axis: one value per image column
    assert got.shape == (2,) and ref['multi_shape'].tolist() == [5]


def test_mixup_is_the_mixed_cross_entropy(both):
    _, ref, d = both
    seg = d['seg_pred']
    rng = np.random.default_rng(1)
    a, b = (mx.nd.array(rng.integers(0, 4, (2, 6, 5))) for _ in range(2))
    got = L.MixSoftmaxCrossEntropyLoss(aux=False, mixup=True)(seg, a, b, 0.3).asnumpy()
    s = seg.asnumpy()
    logp = s - np.log(np.exp(s).sum(1, keepdims=True))

    def ce(y):
        return -np.take_along_axis(logp, y.asnumpy().astype(int)[:, None], axis=1).reshape(2, -1).mean(1)
    np.testing.assert_allclose(got, 0.3 * ce(a) + 0.7 * ce(b), rtol=1e-5)
    aux = L.MixSoftmaxCrossEntropyLoss(mixup=True, aux_weight=0.5)(seg, seg * 2, a, b, 0.3).asnumpy()
    np.testing.assert_allclose(aux, got + 0.5 * L.MixSoftmaxCrossEntropyLoss(aux=False, mixup=True)(
        seg * 2, a, b, 0.3).asnumpy(), rtol=1e-5)
    assert ref['mixup_error'] == 'AttributeError'  # GluonCV's mixup path reads attributes it never sets


def test_bad_arguments_are_one_clear_error():
    with pytest.raises(ValueError, match='sparse_label=True needs num_class, a positive int, not None'):
        L.FocalLoss()
    assert gcv.loss.SSDMultiBoxLoss is L.SSDMultiBoxLoss


def test_hybridized_losses_give_the_same(both):
    _, _, d = both
    for loss, args in ((L.YOLOV3Loss(), [d[f'yolo_{k}'] for k in (
            'objness', 'centers', 'scales', 'cls', 'obj_t', 'center_t', 'scale_t', 'weight_t', 'cls_t', 'cls_mask')]),
            (L.MixSoftmaxCrossEntropyLoss(), (d['seg_pred'], d['seg_aux'], d['seg_label'])),
            (L.FocalLoss(num_class=5), (d['cls_scores'], d['cls_labels']))):
        def flat(out):
            return list(out) if isinstance(out, (list, tuple)) else [out]
        plain = flat(loss(*args))
        loss.hybridize()
        for a, b in zip(plain, flat(loss(*args)), strict=True):
            np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
