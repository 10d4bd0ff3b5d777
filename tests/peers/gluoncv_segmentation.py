"""(peers venv) GluonCV's segmentation data, transforms, metric and MultiEvalModel on files the test wrote. Jobs:

{kind: 'data', dataset: 'voc'|'ade', root, split, out}: the dataset in mode 'testval' (untransformed), saved to
    OUT/<out>.npz as `items` (image paths), `image_<i>` (RGB uint8) and `mask_<i>` (int32, -1 ignored).
{kind: 'transform', root, split, base_size, crop_size, seed, n, out}: VOCSegmentation's train (`_sync_transform`)
    and val (`_val_sync_transform`) samples of the first n images: `train_image_<i>`, `train_mask_<i>`,
    `val_image_<i>`, `val_mask_<i>`; the random draws of each train sample, in order, to OUT/<out>.json as
    [[kind, value], ...] with kind 'random' (random.random()) or 'int' (random.randint).
{kind: 'metric', data, nclass, out}: SegmentationMetric fed the pairs label_<i>, pred_<i> of the .npz DATA one by one
    (a pair may be a list: labels_<i>_<j>, preds_<i>_<j>), get() to OUT/<out>.json as [pixAcc, mIoU].
{kind: 'multieval', model: 'toy'|GluonCV name, kwargs, nclass, scales, flip, image (an .npz's `x`, CxHxW), out}:
    the net with random weights (and random BN statistics), its parameters to OUT/<out>.params, MultiEvalModel's
    scores of the image to OUT/<out>.npz as `scores`. 'toy' is the block tests/vision/test_segmentation_metrics.py
    defines the same way.
"""
import json
import os
import random
import sys

import mxnet as mx
import numpy as np
from mxnet.gluon import nn

DRAWS = []


def _record(kind, fn):
    def wrapped(*args):
        value = fn(*args)
        DRAWS.append([kind, value])
        return value
    return wrapped


random.random = _record('random', random.random)
random.randint = _record('int', random.randint)


class Toy(nn.HybridBlock):
    """conv 3x3 (8) - relu - conv 1x1 (nclass), returning a tuple as GluonCV's segmentation nets do."""

    def __init__(self, nclass, base_size, crop_size):
        super().__init__()
        self.base_size, self.crop_size = base_size, crop_size
        with self.name_scope():
            self.body = nn.HybridSequential()
            self.body.add(nn.Conv2D(8, 3, padding=1, in_channels=3), nn.Activation('relu'),
                          nn.Conv2D(nclass, 1, in_channels=8))

    def hybrid_forward(self, F, x):
        return (self.body(x),)

    def evaluate(self, x):  # what GluonCV's MultiEvalModel calls (SegBaseModel's)
        return self.forward(x)[0]


def _dataset(job, **kwargs):
    from gluoncv.data import ADE20KSegmentation, VOCSegmentation
    cls = VOCSegmentation if job.get('dataset', 'voc') == 'voc' else ADE20KSegmentation
    return cls(root=job['root'], split=job['split'], **kwargs)


def data(out, job):
    ds = _dataset(job, mode='testval')
    arrays = {}
    for i in range(len(ds)):
        img, mask = ds[i]
        arrays[f'image_{i}'], arrays[f'mask_{i}'] = img.asnumpy(), mask.asnumpy().astype(np.int32)
    np.savez(os.path.join(out, job['out'] + '.npz'), items=np.array(ds.images), **arrays)


def transform(out, job):
    kwargs = dict(base_size=job['base_size'], crop_size=job['crop_size'])
    train, val = _dataset(job, mode='train', **kwargs), _dataset(job, mode='val', **kwargs)
    random.seed(job['seed'])
    arrays, draws = {}, []
    for i in range(job['n']):
        DRAWS.clear()
        img, mask = train[i]
        draws.append(list(DRAWS))
        arrays[f'train_image_{i}'], arrays[f'train_mask_{i}'] = img.asnumpy(), mask.asnumpy()
        img, mask = val[i]
        arrays[f'val_image_{i}'], arrays[f'val_mask_{i}'] = img.asnumpy(), mask.asnumpy()
    np.savez(os.path.join(out, job['out'] + '.npz'), **arrays)
    with open(os.path.join(out, job['out'] + '.json'), 'w') as f:
        json.dump(draws, f)


def metric(out, job):
    from gluoncv.utils.metrics.segmentation import SegmentationMetric
    d = np.load(job['data'])
    m = SegmentationMetric(job['nclass'])
    i = 0
    while f'label_{i}' in d or f'labels_{i}_0' in d:
        if f'label_{i}' in d:
            m.update(mx.nd.array(d[f'label_{i}']), mx.nd.array(d[f'pred_{i}']))
        else:
            n = sum(1 for k in d.files if k.startswith(f'labels_{i}_'))
            m.update([mx.nd.array(d[f'labels_{i}_{j}']) for j in range(n)],
                     [mx.nd.array(d[f'preds_{i}_{j}']) for j in range(n)])
        i += 1
    with open(os.path.join(out, job['out'] + '.json'), 'w') as f:
        json.dump([float(v) for v in m.get()], f)


def multieval(out, job):
    from gluoncv.model_zoo import get_model
    from gluoncv.model_zoo.segbase import MultiEvalModel
    mx.random.seed(0)
    np.random.seed(0)
    kwargs = job.get('kwargs', {})
    if job['model'] == 'toy':
        net = Toy(job['nclass'], kwargs['base_size'], kwargs['crop_size'])
    else:
        net = get_model(job['model'], pretrained=False, pretrained_base=False, **kwargs)
    net.initialize(mx.init.Xavier(magnitude=2.0))
    x = mx.nd.array(np.load(job['image'])['x'])
    net(mx.nd.zeros((1, 3, net.crop_size, net.crop_size)))  # settle deferred shapes
    for name, p in net.collect_params().items():
        if name.endswith(('running_mean', 'running_var', 'beta', 'gamma')):
            lo = 0.5 if name.endswith(('running_var', 'gamma')) else -0.5
            p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))
    net.save_parameters(os.path.join(out, job['out'] + '.params'))
    evaluator = MultiEvalModel(net, job['nclass'], ctx_list=[mx.cpu()], flip=job['flip'], scales=job['scales'])
    scores = evaluator.parallel_forward([x])[0]
    np.savez(os.path.join(out, job['out'] + '.npz'), scores=scores.asnumpy())


def main(out, jobs):
    for job in jobs:
        {'data': data, 'transform': transform, 'metric': metric, 'multieval': multieval}[job['kind']](out, job)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
