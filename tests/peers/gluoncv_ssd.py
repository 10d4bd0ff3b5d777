"""(peers venv) GluonCV 0.10.5's SSDs as references, built with pretrained=False, pretrained_base=False. Jobs:

{name, kwargs, config: true}: OUT/<name>.json, the parameter names of the file GluonCV would save and the sha1 of
each constant (anchors, init_scale) it holds.

{name, shape, reset?, base?}: random weights and random BatchNorm statistics, the parameters saved to
OUT/<name>.params, and to OUT/<name>.npz a seeded input `x`, per feature map i the map `feature{i}`, the raw class
and box predictions `cls{i}` / `box{i}` (the predictor convs' outputs) and `anchors{i}`, and the final `ids`,
`scores`, `bboxes`. With `reset` ({classes, reuse_weights}), also `reset_cls{i}`: the class predictor weights after
GluonCV's reset_class (only the reused and background rows are meaningful: the others are fresh random numbers).
With `base`, the VGG body without its extras, as GluonCV's vgg16_atrous file holds it, in both of Gluon's layouts:
OUT/vgg16_atrous_structural.params (save_parameters) and OUT/vgg16_atrous_prefixed.params (the older save_params).
"""
import hashlib
import json
import os
import sys

import mxnet as mx
import numpy as np
from gluoncv import model_zoo

_BN = ('gamma', 'beta', 'running_mean', 'running_var', 'moving_mean', 'moving_var')  # Gluon and symbol BatchNorm


def config(out, name, kwargs):
    net = model_zoo.get_model(name, pretrained=False, pretrained_base=False, **kwargs)
    net.initialize()  # constants get their values; everything else waits for shapes
    params = net._collect_params_with_prefix()
    constants = {k: hashlib.sha1(p.data().asnumpy().tobytes()).hexdigest() for k, p in params.items()
                 if k.endswith(('anchors', 'init_scale'))}
    with open(os.path.join(out, f'{name}.json'), 'w') as f:
        json.dump({'names': sorted(params), 'constants': constants}, f)


def outputs(out, name, shape, reset=None, base=False):
    mx.random.seed(0)
    np.random.seed(0)
    net = model_zoo.get_model(name, pretrained=False, pretrained_base=False)
    for pname, p in net.collect_params().items():
        if pname.endswith(_BN) and p.init is None:  # symbol BatchNorm's (appended layers): no initializer
            p.init = mx.init.One()  # (randomized below)
    net.initialize(mx.init.Xavier(magnitude=2.0))
    x = mx.nd.array(np.random.uniform(-1, 1, size=shape).astype('float32'))
    net(x)  # settle deferred shapes
    for pname, p in net.collect_params().items():
        if pname.endswith(_BN):  # make BN mapping errors visible
            lo = 0.5 if pname.endswith(('gamma', 'running_var', 'moving_var')) else -0.5
            p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))
    ids, scores, bboxes = net(x)
    saved = {'x': x.asnumpy(), 'ids': ids.asnumpy(), 'scores': scores.asnumpy(), 'bboxes': bboxes.asnumpy()}
    for i, feature in enumerate(net.features(x)):
        saved[f'feature{i}'] = feature.asnumpy()
        saved[f'cls{i}'] = net.class_predictors[i](feature).asnumpy()
        saved[f'box{i}'] = net.box_predictors[i](feature).asnumpy()
        saved[f'anchors{i}'] = net.anchor_generators[i](feature).asnumpy()
    net.save_parameters(os.path.join(out, f'{name}.params'))
    if base:
        body = net.features
        mx.nd.save(os.path.join(out, 'vgg16_atrous_structural.params'),
                   {k: p.data() for k, p in body._collect_params_with_prefix().items() if not k.startswith('extras')})
        mx.nd.save(os.path.join(out, 'vgg16_atrous_prefixed.params'),
                   {k[len(body.prefix):]: p.data() for k, p in body.collect_params().items() if '_extra' not in k})
    if reset:
        net.reset_class(reset['classes'], reuse_weights=reset['reuse_weights'])
        for i, predictor in enumerate(net.class_predictors):
            saved[f'reset_cls{i}'] = predictor.predictor.weight.data().asnumpy()
    np.savez(os.path.join(out, f'{name}.npz'), **saved)


def main(out, jobs):
    for job in jobs:
        if job.get('config'):
            config(out, job['name'], job.get('kwargs', {}))
        else:
            outputs(out, job['name'], tuple(job['shape']), job.get('reset'), job.get('base', False))
        print(job['name'], flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
