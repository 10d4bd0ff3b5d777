"""(peers venv) GluonNLP 0.10's ISDense, NCEDense, SparseISDense and SparseNCEDense on the job's inputs
(inputs.npz: x, sampled, count_sampled, count_true, label) with seeded weights: OUT/<case>.params and the
outputs in OUT/ref.npz (<case>_scores, <case>_label). One job: {cases: {case: [class, kwargs]}}."""
import json
import os
import sys

import mxnet as mx
import numpy as np
import gluonnlp as nlp


def main(out, job):
    d = {k: mx.nd.array(v) for k, v in np.load(os.path.join(out, 'inputs.npz')).items()}
    ref = {}
    for case, (cls, kw) in job['cases'].items():
        mx.random.seed(0)
        layer = getattr(nlp.model, cls)(job['num_classes'], job['num_sampled'], job['in_unit'], **kw)
        layer.initialize(mx.init.Normal(0.5))
        layer.bias.set_data(mx.nd.random.normal(shape=layer.bias.shape))
        mx.gluon.Trainer(layer.collect_params(), 'sgd')  # a row_sparse weight is pulled through its Trainer
        scores, label = layer(d['x'], (d['sampled'], d['count_sampled'], d['count_true']), d['label'])
        layer.save_parameters(os.path.join(out, f'{case}.params'))
        ref[f'{case}_scores'], ref[f'{case}_label'] = scores.asnumpy(), label.asnumpy()
    np.savez(os.path.join(out, 'ref.npz'), **ref)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2])[0])
