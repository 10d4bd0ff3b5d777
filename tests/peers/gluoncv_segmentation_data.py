"""(peers venv) GluonCV 0.10's VOCSegmentation and ADE20KSegmentation over a job's folders, every mode, each sample
after random.seed(seed + index): OUT/seg.npz (<dataset>_<split>_<mode>_<i>_img / _mask, or _name; _names, the
images in the dataset's order). One job:
{voc, ade, base_size, crop_size, seed, cases: [[dataset, split, mode], ...]}."""
import json
import os
import random
import sys

import numpy as np
from gluoncv.data import ADE20KSegmentation, VOCSegmentation, ms_batchify_fn


def main(out, job):
    ref = {}
    for dataset, split, mode in job['cases']:
        cls, root = (VOCSegmentation, job['voc']) if dataset == 'voc' else (ADE20KSegmentation, job['ade'])
        ds = cls(root=root, split=split, mode=mode, base_size=job['base_size'], crop_size=job['crop_size'])
        for i in range(len(ds)):
            random.seed(job['seed'] + i)
            img, second = ds[i]
            key = f'{dataset}_{split}_{mode}_{i}'
            ref[key + '_img'] = img.asnumpy()
            ref[key + ('_name' if mode == 'test' else '_mask')] = np.array(second) if mode == 'test' else \
                second.asnumpy()
        ref[f'{dataset}_{split}_{mode}_names'] = np.array([os.path.basename(p) for p in ds.images])
    ref['batch'] = np.array([len(f) for f in ms_batchify_fn([(ds[0][0], 'a'), (ds[0][0], 'b')])])
    np.savez(os.path.join(out, 'seg.npz'), **ref)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2])[0])
