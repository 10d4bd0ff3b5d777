"""(peers venv) GluonCV 0.10.5's TSN-style action recognizers (actionrec_vgg16 / inceptionv1 / inceptionv3 /
resnetv1b), offline.

GluonCV's TSN builders only work over a downloaded ImageNet base: the ResNet ones pass no `pretrained_base` on (they
always download), and every one calls `collect_params().reset_ctx(ctx)`, which fails on the uninitialized base that
`pretrained_base=False` leaves. gluoncv_models.py, when imported, hands those modules their own base builders, built
without the download and initialized with its Xavier draw (a test loads its own file over them where it needs
values), so the same GluonCV classes and builders run here and in every peer script that imports it.

Jobs (this script): {name, shape, kwargs, file}: gluoncv_models.py's job (parameters, seeded input, output y), plus
`f`, GluonCV's segmental-consensus features (its net with the output layer bypassed) to OUT/<file>.npz; {count:
name, kwargs}: the trainable parameter count of GluonCV's full-size net (at 224x224, Inception-V3 299x299) to
OUT/counts.json; {kinetics_start: depth, nclass}: a random resnet<depth>_v1b_kinetics400 file to
OUT/kinetics<depth>.params, and GluonCV's resnet<depth>_v1b_custom(nclass, use_kinetics_pretrain=True) started
from it (its model store answering with that file) to OUT/custom<depth>.params.
"""
import json
import os
import sys

import mxnet as mx
import numpy as np


def _features(net, x):
    """GluonCV's net on x with its output layer bypassed: the averaged features the head would classify."""
    net.output.forward = lambda v: v  # an instance attribute: Block.__call__ runs it instead of the Dense
    try:
        return net(x)
    finally:
        del net.output.forward


def _kinetics_start(out, depth, nclass):
    from gluoncv import model_zoo
    from gluoncv.model_zoo import model_store
    kinetics = model_zoo.get_model(f'resnet{depth}_v1b_kinetics400', pretrained=False)
    kinetics(mx.nd.zeros((1, 3, 32, 32)))  # settle deferred shapes
    rng = np.random.RandomState(depth)
    for name, p in kinetics.collect_params().items():  # distinct values everywhere: a mixed-up copy shows
        lo = 0.5 if name.endswith(('running_var', 'gamma')) else -0.5
        p.set_data(mx.nd.array(rng.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))
    path = os.path.join(out, f'kinetics{depth}.params')
    kinetics.save_parameters(path)
    model_store.get_model_file = lambda name, tag=None, root=None: path
    custom = model_zoo.get_model(f'resnet{depth}_v1b_custom', nclass=nclass, use_kinetics_pretrain=True)
    custom(mx.nd.zeros((1, 3, 32, 32)))  # GluonCV's set_data on deferred parameters lands at the first run
    custom.save_parameters(os.path.join(out, f'custom{depth}.params'))


def main(out, jobs):
    from gluoncv import model_zoo
    import gluoncv_models  # importing it makes GluonCV's TSN bases build offline
    counts = {}
    for job in jobs:
        if 'kinetics_start' in job:
            _kinetics_start(out, job['kinetics_start'], job['nclass'])
            continue
        if 'count' in job:
            name = job['count']
            net = model_zoo.get_model(name, pretrained=False, **job.get('kwargs', {}))
            side = 299 if 'inceptionv3' in name else 224
            net(mx.nd.zeros((1, 3, side, side)))
            counts[name] = sum(p.data().size for p in net.collect_params().values() if p.grad_req != 'null')
            continue
        gluoncv_models.main(out, [job])
        stem = job.get('file', job['name'])
        saved = dict(np.load(os.path.join(out, f'{stem}.npz')))
        net = model_zoo.get_model(job['name'], pretrained=False, **job.get('kwargs', {}))
        net.load_parameters(os.path.join(out, f'{stem}.params'))
        saved['f'] = _features(net, mx.nd.array(saved['x'])).asnumpy()
        np.savez(os.path.join(out, f'{stem}.npz'), **saved)
    if counts:
        with open(os.path.join(out, 'counts.json'), 'w') as f:
            json.dump(counts, f)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
