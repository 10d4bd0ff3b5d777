"""Evaluate a zoo object detector on a Pascal VOC folder or a COCO annotation file; mAP as JSON.

    python scripts/vision/detection/eval.py MODEL DATA [--split test] [--year 2007] [--images DIR]
        [--metric voc07|voc] [--out result.json] [--batch-size 1] [--workers 2] [--limit N]

MODEL is an arch (its default weights) or a checkpoint `arch.tag`. DATA is a VOC folder (VOCdevkit holding
VOC<year>/, or a VOC<year> folder itself: Annotations/, ImageSets/Main/<split>.txt, JPEGImages/) or a COCO JSON
whose images are under --images (default: GluonCV's layout, coco/annotations/instances_val2017.json -> coco/val2017/,
else the JSON's folder). Images go through the weights record's eval preprocessing (`weights.transforms()`); the
boxes found come back through that resize to the original image's pixels. VOC data is scored by VOC07MApMetric
(11-point, GluonCV's VOC test metric) or VOCMApMetric (--metric voc), with the model's class names as the data's
classes; COCO data by COCOeval, the model's classes matched to the JSON's categories by name. Batches bigger than 1
need a preprocessing that gives every image one size (resize to (h, w)).
"""
import argparse
import json
import os
import sys
import time

import numpy as np


class _Sample:
    """(image, label) -> (net input, label, original (height, width)): picklable, for DataLoader workers."""

    def __init__(self, transform):
        self.transform = transform

    def __call__(self, img, label):
        return self.transform(img), label, np.array(img.shape[:2], np.float32)


def _batchify(samples):
    """Stack the inputs (one size), pad the labels with -1 rows to the most objects."""
    from gluonzoo.errors import BadInputError
    xs, labels, sizes = zip(*samples)
    if len({x.shape for x in xs}) != 1:
        raise BadInputError(f'the preprocessing gives images of sizes {sorted({x.shape for x in xs})[:3]}: use '
                            '--batch-size 1')
    most = max(1, max(len(y) for y in labels))
    padded = np.full((len(labels), most, 6), -1, np.float32)
    for i, y in enumerate(labels):
        padded[i, :len(y)] = y
    return np.stack(xs), padded, np.stack(sizes)


class _First:
    """The first n samples of a dataset (--limit)."""

    def __init__(self, ds, n):
        self.ds, self.n = ds, min(n, len(ds))

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return self.ds[i]


def _coco_images(annotation_file):
    """GluonCV's layout: root/annotations/instances_<split>.json holds the boxes of root/<split>/."""
    folder, stem = os.path.split(os.path.abspath(annotation_file))
    split = os.path.splitext(stem)[0].split('_', 1)[-1]
    guess = os.path.join(os.path.dirname(folder), split)
    return guess if os.path.isdir(guess) else folder


def _voc_splits(root, year, split):
    return ((None, split),) if os.path.isdir(os.path.join(root, 'Annotations')) else ((year, split),)


def evaluate(model, data, split='test', year='2007', images=None, metric='voc07', batch_size=1, workers=2,
             limit=None, progress=True):
    import mxnet as mx
    from tqdm import tqdm

    import gluonzoo as gz
    from gluonzoo.errors import BadInputError
    from gluonzoo.vision.data import COCODetection, VOCDetection
    from gluonzoo.vision.metrics import COCODetectionMetric, VOC07MApMetric, VOCMApMetric

    net = gz.get_model(model, pretrained=True)
    w = net.weights
    if not net.classes:
        raise BadInputError(f'{w.name} has no class names to match with the data\'s')
    sample = _Sample(w.transforms())
    if os.path.isdir(data):
        ds = VOCDetection(data, _voc_splits(data, year, split), classes=net.classes, transform=sample)
        to_data = np.arange(len(net.classes))
        scorer = {'voc07': VOC07MApMetric, 'voc': VOCMApMetric}[metric](class_names=list(net.classes))
    elif os.path.isfile(data):
        ds = COCODetection(images or _coco_images(data), data, transform=sample, skip_empty=False)
        to_data = np.array([ds.classes.index(c) if c in ds.classes else -1 for c in net.classes])
        if (to_data < 0).all():
            raise BadInputError(f'{w.name} predicts none of the categories of {data} ({", ".join(ds.classes[:5])}'
                                f'...): no class name in common')
        scorer = COCODetectionMetric(ds)
        metric = 'coco'
    else:
        raise BadInputError(f'{data} is neither a VOC folder nor a COCO annotation file')
    classes = ds.classes
    if limit:
        ds = _First(ds, limit)
    loader = mx.gluon.data.DataLoader(ds, batch_size=batch_size, num_workers=workers, batchify_fn=_batchify,
                                      last_batch='keep')
    nhwc = w.preprocess.get('layout') == 'NHWC'
    ctx = next(iter(net.collect_params().values())).list_ctx()[0]
    count, t0 = 0, time.perf_counter()
    for x, gt, sizes in tqdm(loader, desc=f'eval {w.name}', disable=not progress, file=sys.stderr):
        x_nd = mx.nd.array(x, ctx=ctx)
        # the first batch: fused oneDNN graph, checked against the plain net; then a no-op. Memory is planned for one
        # shape only when the record resizes to an exact (h, w) (a short-side resize gives each picture its own)
        gz.optimize(net, x_nd, static_shape=isinstance(w.preprocess.get('resize'), (list, tuple)))
        ids, scores, boxes = (o.asnumpy() for o in net(x_nd))
        h, w_ = (x.shape[1:3] if nhwc else x.shape[2:4])
        boxes[:, :, [0, 2]] *= (sizes[:, 1] / w_)[:, None, None]  # back to the original image's pixels
        boxes[:, :, [1, 3]] *= (sizes[:, 0] / h)[:, None, None]
        ids = np.where(ids >= 0, to_data[np.maximum(ids, 0).astype(int)], -1)
        if metric == 'coco':
            scorer.update(boxes, ids, scores)
        else:
            scorer.update(boxes, ids, scores, gt[:, :, :4], gt[:, :, 4], gt[:, :, 5])
        count += len(x)
    seconds = time.perf_counter() - t0
    result = scorer.results()
    result = {k: None if v != v else v for k, v in result.items()}  # nan (a class never seen): JSON null
    out = {'model': w.name, 'sha1': w.sha1, 'data': os.path.abspath(data), 'metric': metric, 'images': count,
           'mAP': result['mAP'], 'per_class_AP': {c: result.get(c) for c in classes}, 'seconds': round(seconds, 3),
           'preprocess': dict(w.preprocess)}
    if metric == 'coco':
        out['coco_stats'] = {k: v for k, v in result.items() if k not in classes}
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('model')
    p.add_argument('data', help='a VOC folder or a COCO annotation JSON')
    p.add_argument('--split', default='test', help='VOC: the ImageSets/Main split (default test)')
    p.add_argument('--year', default='2007', help='VOC: the VOC<year> folder under a VOCdevkit (default 2007)')
    p.add_argument('--images', help='COCO: the image folder')
    p.add_argument('--metric', choices=('voc07', 'voc'), default='voc07', help='VOC: 11-point (voc07) or area AP')
    p.add_argument('--out', help='write the result JSON here (default: stdout only)')
    p.add_argument('--batch-size', type=int, default=1)
    p.add_argument('--workers', type=int, default=2)
    p.add_argument('--limit', type=int, help='evaluate only the first N images')
    p.add_argument('--no-progress', action='store_true')
    args = p.parse_args(argv)
    from gluonzoo.errors import GluonzooError
    try:
        result = evaluate(args.model, args.data, args.split, args.year, args.images, args.metric, args.batch_size,
                          args.workers, args.limit, not args.no_progress)
    except GluonzooError as e:
        print(f'eval.py: error: {e}', file=sys.stderr)
        return 1
    text = json.dumps(result, indent=2)
    if args.out:
        tmp = args.out + '.part'
        with open(tmp, 'w') as f:
            f.write(text + '\n')
        os.replace(tmp, args.out)
    print(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
