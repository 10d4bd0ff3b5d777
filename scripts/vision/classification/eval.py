"""Evaluate a zoo classifier on an ImageFolder or a RecordIO file; top-1/top-5 (and per-class accuracy) as JSON.

    python scripts/vision/classification/eval.py MODEL DATA [--out result.json] [--batch-size 32] [--workers 2]

MODEL is an arch (its default weights) or a checkpoint `arch.tag`. DATA is a folder root/<class>/<images> or a
.rec packed by scripts/vision/pack_rec.py (its .idx beside it). Folder classes named like the model's classes
(e.g. `Egyptian cat`, or ImageNet wnids sorted into their standard order) are mapped by name; otherwise the
sorted folder order must be the model's class order. Preprocessing is the weights record's eval preset.
"""
import argparse
import json
import os
import sys
import time


def _label_map(folder_classes, model_classes, num_outputs):
    """Folder label -> model output index."""
    if model_classes and all(c in model_classes for c in folder_classes):
        return [model_classes.index(c) for c in folder_classes]
    if len(folder_classes) > num_outputs:
        from gluonzoo.errors import BadInputError
        raise BadInputError(f'the data has {len(folder_classes)} classes, the model only {num_outputs} outputs '
                            f'and the folder names are not its class names')
    return list(range(len(folder_classes)))


def evaluate(model, data, batch_size=32, workers=2, limit=None, progress=True):
    import mxnet as mx
    import numpy as np
    from tqdm import tqdm

    import gluonzoo as gz
    from gluonzoo.vision.data import ImageFolder, ImageRecordDataset
    from gluonzoo.vision.metrics import ConfusionMatrix, TopKAccuracy
    from gluonzoo.vision.transforms import from_preprocess

    net = gz.get_model(model, pretrained=True)
    transform = from_preprocess(net.weights.preprocess)
    if os.path.isdir(data):
        ds = ImageFolder(data, transform=transform)
        classes = ds.classes
    else:
        ds = ImageRecordDataset(data, transform=transform)
        names = os.path.splitext(data)[0] + '.classes.txt'
        classes = open(names).read().split('\n')[:-1] if os.path.isfile(names) else None
    if limit:
        ds = mx.gluon.data.SimpleDataset([ds[i] for i in range(min(limit, len(ds)))])
    num_outputs = net.weights.num_classes
    if classes is None:
        classes = [str(i) for i in range(num_outputs)]
    mapping = np.asarray(_label_map(classes, net.classes, num_outputs))
    loader = mx.gluon.data.DataLoader(ds, batch_size=batch_size, num_workers=workers, last_batch='keep')
    topk, confusion = TopKAccuracy((1, 5)), ConfusionMatrix(num_outputs)
    t0 = time.perf_counter()
    for x, y in tqdm(loader, desc=f'eval {net.weights.name}', disable=not progress, file=sys.stderr):
        x = x.as_in_context(mx.cpu())
        gz.optimize(net, x)  # the first batch: fused oneDNN graph, checked against the plain net; then a no-op
        scores = net(x).asnumpy()
        labels = mapping[y.asnumpy().astype(int)]
        topk.update(labels, scores)
        confusion.update(labels, scores)
    seconds = time.perf_counter() - t0
    per_class = confusion.per_class_accuracy()
    return {'model': net.weights.name, 'sha1': net.weights.sha1, 'data': os.path.abspath(data),
            'images': int(confusion.matrix.sum()), **topk.results(), 'seconds': round(seconds, 3),
            'per_class_top1': {c: float(per_class[m]) for c, m in zip(classes, mapping)},
            'preprocess': dict(net.weights.preprocess)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('model')
    p.add_argument('data')
    p.add_argument('--out', help='write the result JSON here (default: stdout only)')
    p.add_argument('--batch-size', type=int, default=32)
    p.add_argument('--workers', type=int, default=2)
    p.add_argument('--limit', type=int, help='evaluate only the first N images')
    p.add_argument('--no-progress', action='store_true')
    args = p.parse_args(argv)
    from gluonzoo.errors import GluonzooError
    try:
        result = evaluate(args.model, args.data, args.batch_size, args.workers, args.limit, not args.no_progress)
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
