"""The gluoncv.loss calls of tests/compat/test_cv_loss.py, written once for both sides: `cases(L, d)` runs them
with the loss module L (gluoncv.loss in the peers venv, gluonzoo.cv.loss in ours) on the inputs d (name -> NDArray)
and returns {case: numpy array}: each loss, and the gradient of its sum with respect to the scores."""
import mxnet as mx


def _run(out, name, loss, *inputs):
    """loss(*inputs) under autograd, the first input's gradient too; outputs that are lists or tuples flattened."""
    x = inputs[0].copy()
    x.attach_grad()
    with mx.autograd.record():
        got = loss(x, *inputs[1:])
        flat = [v for g in got for v in (g if isinstance(g, (list, tuple)) else [g])] \
            if isinstance(got, (list, tuple)) else [got]
        total = mx.nd.add_n(*[v.sum() for v in flat])
    total.backward()
    for i, v in enumerate(flat):
        out[f'{name}.{i}'] = v.asnumpy()
    out[f'{name}.grad'] = x.grad.asnumpy()


def cases(L, d):
    out = {}
    _run(out, 'focal', L.FocalLoss(num_class=5), d['cls_scores'], d['cls_labels'])
    _run(out, 'focal_dense_sum', L.FocalLoss(sparse_label=False, size_average=False, alpha=0.4, gamma=1.5),
         d['cls_scores'], d['cls_onehot'])
    _run(out, 'focal_weighted', L.FocalLoss(num_class=5), d['cls_scores'], d['cls_labels'], d['cls_weight'])
    _run(out, 'distill', L.DistillationSoftmaxCrossEntropyLoss(temperature=2), d['cls_scores'], d['cls_labels'],
         d['cls_soft'])
    for w in (0, 1):
        _run(out, f'distill_{w}', L.DistillationSoftmaxCrossEntropyLoss(temperature=3, hard_weight=w),
             d['cls_scores'], d['cls_labels'], d['cls_soft'])
    # SSD over two "devices": every image normalized by the positives of both
    ssd = [d[f'ssd_{k}'] for k in ('cls_pred', 'box_pred', 'cls_t', 'box_t')]

    def two_devices(*xs):
        return L.SSDMultiBoxLoss()(*[[x[:1], x[1:]] for x in xs])
    _run(out, 'ssd', two_devices, *ssd)
    _run(out, 'ssd_mining', L.SSDMultiBoxLoss(negative_mining_ratio=1, rho=0.5, lambd=2, min_hard_negatives=7),
         *ssd)
    _run(out, 'ssd_no_positives', L.SSDMultiBoxLoss(min_hard_negatives=3), ssd[0], ssd[1], ssd[2] * 0, ssd[3])
    _run(out, 'yolo', L.YOLOV3Loss(), *[d[f'yolo_{k}'] for k in (
        'objness', 'centers', 'scales', 'cls', 'obj_t', 'center_t', 'scale_t', 'weight_t', 'cls_t', 'cls_mask')])
    _run(out, 'heatmap', L.HeatmapFocalLoss(), d['heat_pred'], d['heat_t'])
    _run(out, 'masked_l1', L.MaskedL1Loss(weight=0.1), d['wh_pred'], d['wh_t'], d['wh_mask'])
    seg, aux, label = d['seg_pred'], d['seg_aux'], d['seg_label']
    _run(out, 'mix_aux', L.MixSoftmaxCrossEntropyLoss(aux_weight=0.4), seg, aux, label)
    _run(out, 'mix', L.MixSoftmaxCrossEntropyLoss(aux=False), seg, label)
    _run(out, 'mix_ignore_255', L.MixSoftmaxCrossEntropyLoss(aux=False, ignore_label=255),
         seg, mx.nd.where(label < 0, label * 0 + 255, label))
    return out
