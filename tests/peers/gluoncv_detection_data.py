"""(peers venv) For each job {kind: 'voc', root, splits, out}, {kind: 'coco', root, split, skip_empty, use_crowd,
out}, {kind: 'rec', rec, out} or {kind: 'lst', lst, out}: GluonCV's VOCDetection / COCODetection /
RecordFileDetection / LstDetection of files the test wrote, saved to OUT/<out>.npz as `items` (image paths; VOC
and COCO decode no image) and `label_<i>`, and for .rec / .lst also `image_<i>` (RGB uint8)."""
import json
import logging
import os
import sys

import numpy as np
from gluoncv.data import COCODetection, LstDetection, RecordFileDetection, VOCDetection


def main(out, jobs):
    logging.disable(logging.WARNING)  # VOC logs each invalid box; the test counts them itself
    for job in jobs:
        extra = {}
        if job['kind'] == 'voc':
            ds = VOCDetection(root=job['root'], splits=[tuple(s) for s in job['splits']])
            items = [os.path.join(root, 'JPEGImages', f'{i}.jpg') for root, i in ds._items]
            labels = ds._label_cache
        elif job['kind'] == 'coco':
            ds = COCODetection(root=job['root'], splits=[job['split']], skip_empty=job['skip_empty'],
                               use_crowd=job['use_crowd'])
            items, labels = ds._items, ds._labels
        else:
            ds = RecordFileDetection(job['rec']) if job['kind'] == 'rec' else LstDetection(job['lst'])
            samples = [ds[i] for i in range(len(ds))]
            items, labels = [], [label for _, label in samples]
            extra = {f'image_{i}': img.asnumpy() for i, (img, _) in enumerate(samples)}
        np.savez(os.path.join(out, job['out'] + '.npz'), items=np.array(items),
                 **{f"label_{i}": np.array(l, np.float64).reshape(len(l), -1) if len(l) else np.zeros((0, 6))
                    for i, l in enumerate(labels)}, **extra)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
