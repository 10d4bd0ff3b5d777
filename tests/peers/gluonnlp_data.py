"""(peers venv) Run GluonNLP 0.10's batchify functions and samplers on the jobs' samples; write OUT/data.json.
Each job: {id, kind: 'pad'|'stack'|'fixed'|'sorted', kwargs, data, seed}; results are lists (plus dtype)."""
import json
import os
import sys

import numpy as np
import gluonnlp.data as nlp_data
from gluonnlp.data import FixedBucketSampler, SortedBucketSampler
from gluonnlp.data.batchify import Pad, Stack


def main(out, jobs):
    results = {}
    for job in jobs:
        kind, kw, data = job['kind'], job['kwargs'], job['data']
        if job.get('numpy'):
            data = [np.array(d, dtype=job['numpy']) for d in data]
        if kind in ('pad', 'stack'):
            fn = Pad(**kw) if kind == 'pad' else Stack(**kw)
            res = fn(data)
            res = res if isinstance(res, tuple) else (res,)
            results[job['id']] = [[r.asnumpy().tolist(), str(r.dtype.__name__ if hasattr(r.dtype, '__name__')
                                                              else r.dtype)] for r in res]
        else:
            np.random.seed(job.get('seed', 0))
            scheme = kw.pop('scheme', None)
            if scheme == 'linear':
                kw['bucket_scheme'] = nlp_data.LinearWidthBucket()
            elif scheme:
                kw['bucket_scheme'] = nlp_data.ExpWidthBucket(bucket_len_step=float(scheme.split(':')[1]))
            sampler = (FixedBucketSampler if kind == 'fixed' else SortedBucketSampler)(data, **kw)
            epochs = [[list(map(lambda b: np.asarray(b).tolist(), batch)) if job['kwargs'].get('num_shards') else
                       np.asarray(batch).tolist() for batch in sampler] for _ in range(2)]
            results[job['id']] = {'epochs': epochs, 'len': len(sampler)}
    with open(os.path.join(out, 'data.json'), 'w') as f:
        json.dump(results, f)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
