"""(peers venv) GluonCV 0.10.5's `gluoncv.utils` on the inputs of tests/compat/test_cv_utils.py: one job {inputs,
out, lr, files}; INPUTS is an .npz the test wrote, the results go to OUT.npz (arrays) and OUT.json (everything else).

Computed: bbox_iou (offset 0 and 1), bbox_xywh_to_xyxy / bbox_xyxy_to_xywh / bbox_clip_xyxy (arrays and 4-lists),
LRScheduler / LRSequential (the learning rate at each update of `lr`'s configs), get_color_pallete of the id map
for each dataset (pixels, palette, mode), expand_mask (with and without sortby), split_data's slice shapes,
check_sha1 of FILES, check_version, the viz functions' return types, and the metrics' get() / get_name_value()
on the batches of INPUTS (VOC, VOC07 with and without class names, segmentation, heatmap accuracy, the R-CNN
training metrics, Accuracy with ignored labels, the segmentation helper functions)."""
import json
import sys

import matplotlib

matplotlib.use('Agg')

import mxnet as mx  # noqa: E402
import numpy as np  # noqa: E402
from gluoncv import utils  # noqa: E402
from gluoncv.utils import viz  # noqa: E402
from gluoncv.utils.metrics import HeatmapAccuracy, SegmentationMetric, VOC07MApMetric, VOCMApMetric  # noqa: E402


def floats(x):
    if isinstance(x, np.ndarray):
        return x.astype(float).tolist()
    if isinstance(x, (list, tuple)):
        return [floats(v) for v in x]
    return x if isinstance(x, str) else float(x)


def kind(r):
    return [type(r).__name__, list(r.shape), str(r.dtype)]


def scheduler(cfg):
    if cfg['kind'] == 'sequential':
        return utils.LRSequential([utils.LRScheduler(**c) for c in cfg['parts']])
    return utils.LRScheduler(**cfg['args'])


def main(job):
    d = np.load(job['inputs'])
    arrays, out = {}, {}
    arrays['iou0'] = utils.bbox_iou(d['a'], d['b'])
    arrays['iou1'] = utils.bbox_iou(d['a'], d['b'], offset=1)
    arrays['xyxy'] = utils.bbox.bbox_xywh_to_xyxy(d['xywh'].copy())
    arrays['xywh'] = utils.bbox.bbox_xyxy_to_xywh(d['a'].copy())
    arrays['clip'] = utils.bbox.bbox_clip_xyxy(d['a'].copy(), 30, 20)
    out['xyxy_list'] = floats(utils.bbox.bbox_xywh_to_xyxy(d['xywh'][0].tolist()))
    out['xywh_list'] = floats(utils.bbox.bbox_xyxy_to_xywh(d['a'][0].tolist()))
    out['clip_list'] = floats(utils.bbox.bbox_clip_xyxy(d['a'][0].tolist(), 30, 20))
    out['lr'] = [[float(scheduler(c)(i)) for i in range(c['steps'])] for c in job['lr']]
    for ds in ('pascal_voc', 'ade20k', 'citys', 'mhpv1'):
        img = viz.get_color_pallete(d['ids'].copy(), ds)
        arrays[f'pal_{ds}'] = np.array(img)
        out[f'pal_{ds}'] = {'mode': img.mode, 'palette': img.getpalette()[:3 * 256]}
    for sortby in (None, 'area'):
        full, order = viz.expand_mask(d['masks'], d['mask_boxes'].copy(), (40, 30), d['mask_scores'], thresh=0.3,
                                      sortby=sortby)
        arrays[f'mask_{sortby}'], arrays[f'order_{sortby}'] = full, order
    out['split'] = [[list(s.shape) for s in utils.split_data(mx.nd.zeros(shape), n, axis, even, mult)]
                    for shape, n, axis, even, mult in job['split']]
    out['sha1'] = [utils.check_sha1(path, h) for path, h in job['files']]
    utils.check_version('0.6.0')
    try:
        utils.check_version('99.0')
        out['version_error'] = None
    except AssertionError as e:
        out['version_error'] = type(e).__name__
    img = np.zeros((30, 40, 3), np.uint8)
    out['types'] = {
        'plot_image': type(viz.plot_image(img)).__name__,
        'plot_bbox': type(viz.plot_bbox(img, d['a'][:2], d['scores'][:2], d['labels'][:2],
                                        class_names=['x', 'y', 'z'])).__name__,
        'cv_plot_bbox': kind(viz.cv_plot_bbox(img.copy(), d['a'][:2].copy(), d['scores'][:2], d['labels'][:2])),
        'plot_mask': kind(viz.plot_mask(img, arrays['mask_None'][:, :30, :40])),
    }
    # metrics: (names, values) as get() returns them, and get_name_value()
    metrics = {}
    batches = [[d[f'{k}_{i}'] for k in ('pb', 'pl', 'ps', 'gb', 'gl', 'gd')] for i in range(2)]
    for key, m in (('voc', VOCMApMetric(0.5, ['c0', 'c1', 'c2'])), ('voc07', VOC07MApMetric(0.5, ['c0', 'c1', 'c2'])),
                   ('voc07_anon', VOC07MApMetric(iou_thresh=0.5))):
        for b in batches:
            m.update(*b)
        names, values = m.get()
        metrics[key] = {'get': [names, floats(values)], 'pairs': [[n, float(v)] for n, v in m.get_name_value()]}
    seg = SegmentationMetric(4)
    seg.update([mx.nd.array(d['seg_label'])], [mx.nd.array(d['seg_pred'])])
    metrics['seg'] = {'get': floats(seg.get())}
    hm = HeatmapAccuracy()
    hm.update(mx.nd.array(d['hm_label']), mx.nd.array(d['hm_pred']))
    metrics['heatmap'] = {'get': [hm.get()[0], float(hm.get()[1])], 'pairs': [[n, float(v)] for n, v in
                                                                            hm.get_name_value()]}
    hm.reset()
    metrics['heatmap_reset'] = floats(hm.get()[1:])
    # training metrics (gluoncv.utils.metrics.rcnn, accuracy) and the segmentation helpers
    from gluoncv.utils.metrics import accuracy, rcnn
    from gluoncv.utils.metrics import segmentation as segm
    nd = {k: mx.nd.array(d[k]) for k in ('rpn_label', 'rpn_weight', 'rpn_logits', 'box_target', 'box_weight',
                                          'box_reg', 'rcnn_label', 'rcnn_cls', 'mask_target', 'mask_weight',
                                          'mask_logits', 'acc_label', 'acc_pred')}
    training = {}
    for name, m, labels, preds in (
            ('rpn_acc', rcnn.RPNAccMetric(), [nd['rpn_label'], nd['rpn_weight']], [nd['rpn_logits']]),
            ('rpn_l1', rcnn.RPNL1LossMetric(), [nd['box_target'], nd['box_weight']], [nd['box_reg']]),
            ('rcnn_acc', rcnn.RCNNAccMetric(), [nd['rcnn_label']], [nd['rcnn_cls']]),
            ('rcnn_l1', rcnn.RCNNL1LossMetric(), [nd['box_target'], nd['box_weight']], [nd['box_reg']]),
            ('mask_acc', rcnn.MaskAccMetric(), [nd['mask_target'], nd['mask_weight']], [nd['mask_logits']]),
            ('mask_fg', rcnn.MaskFGAccMetric(), [nd['mask_target'], nd['mask_weight']], [nd['mask_logits']]),
            ('accuracy', accuracy.Accuracy(ignore_labels=[-1]), [nd['acc_label']], [nd['acc_pred']]),
            ('accuracy_all', accuracy.Accuracy(), [nd['acc_label'] + 1], [nd['acc_pred']])):
        for _ in range(2):
            m.update(labels, preds)
        training[name] = [m.get()[0], float(m.get()[1])]
    metrics['training'] = training
    label, pred = mx.nd.array(d['seg_label']), mx.nd.array(d['seg_pred'])
    metrics['seg_helpers'] = {
        'batch_pix_accuracy': floats(segm.batch_pix_accuracy(pred, label)),
        'batch_intersection_union': floats(segm.batch_intersection_union(pred, label, 4)),
        'pixelAccuracy': floats(segm.pixelAccuracy(d['seg_pred'].argmax(1) + 1, d['seg_label'] + 1)),
        'intersectionAndUnion': floats(segm.intersectionAndUnion(d['seg_pred'].argmax(1) + 1, d['seg_label'] + 1,
                                                                 4))}
    out['metrics'] = metrics
    # utils.parallel on two CPU contexts: outputs, losses and the gradient after parallel_backward
    from gluoncv.utils import parallel
    net = mx.gluon.nn.Dense(2, in_units=3)
    net.initialize()
    net.weight.set_data(mx.nd.array(d['par_w']))
    net.bias.set_data(mx.nd.zeros(2))
    ctx = [mx.cpu(0), mx.cpu(1)]
    model = parallel.DataParallelModel(net, ctx, sync=True)
    criterion = parallel.DataParallelCriterion(mx.gluon.loss.L2Loss(), ctx, sync=True)
    with mx.autograd.record():
        outs = model(mx.nd.array(d['par_x']))
        losses = criterion(outs, mx.nd.array(d['par_y']))
    parallel.parallel_backward(losses)
    arrays['par_out'] = np.concatenate([o[0].asnumpy() for o in outs])
    arrays['par_loss'] = np.concatenate([l.asnumpy() for l in losses])
    arrays['par_grad'] = sum(g.asnumpy() for g in net.weight.list_grad())
    # EfficientNet's crops of a PIL picture, Python's random seeded
    import random
    from PIL import Image
    from gluoncv.utils.transforms import EfficientNetCenterCrop, EfficientNetRandomCrop
    pic = Image.fromarray((d['hm_label'][0, 0] * 255).astype(np.uint8)).resize((37, 29))
    random.seed(4)
    crop = EfficientNetRandomCrop(24, area_range=(0.2, 0.9))
    out['crops'] = [[list(c.size), int(np.asarray(c, np.int64).sum())] for c in [crop(pic) for _ in range(12)]]
    c = EfficientNetCenterCrop(24)(pic)
    out['center_crop'] = [list(c.size), int(np.asarray(c, np.int64).sum())]
    np.savez(job['out'] + '.npz', **arrays)
    with open(job['out'] + '.json', 'w') as f:
        json.dump(out, f)


if __name__ == '__main__':
    for j in json.loads(sys.argv[2]):
        main(j)
