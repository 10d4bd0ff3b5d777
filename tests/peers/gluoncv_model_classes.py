"""(peers venv) GluonCV 0.10's model classes (ResNetV1/V2 and their blocks, ...) built from a job's specs with seeded
random weights: OUT/<case>.params and OUT/<case>.npz (arr_0 the input, y0, y1, ... the outputs). One job: {cases:
{case: spec}}, spec {module (default resnet), net: 'ResNetV1'|..., block: 'BasicBlockV1'|..., args, kwargs, input:
shape}."""
import importlib
import json
import os
import sys

import mxnet as mx
import numpy as np


def build(module, spec):
    """spec's net (given its block, if any) or block alone, from `module`."""
    if not spec.get('net'):
        return getattr(module, spec['block'])(*spec['args'], **spec['kwargs'])
    block = [getattr(module, spec['block'])] if spec.get('block') else []
    return getattr(module, spec['net'])(*block, *spec['args'], **spec['kwargs'])


def main(out, job):
    for case, spec in job['cases'].items():
        np.random.seed(0)
        sub = spec.get('module', 'resnet')  # '' for model_zoo itself
        module = importlib.import_module('gluoncv.model_zoo' + (f'.{sub}' if sub else ''))
        net = build(module, spec)
        x = mx.nd.array(np.random.normal(size=spec['input']))
        net.initialize(mx.init.Normal(spec.get('init', 0.3)))  # deep nets: smaller, or the outputs overflow
        net(x)
        for p in net.collect_params().values():  # random BN statistics and shifts too
            lo = 0.5 if p.name.endswith(('gamma', 'var')) else -0.5
            p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape)) if p.name.endswith(
                ('gamma', 'beta', 'mean', 'var', 'bias')) else p.data())
        net.save_parameters(os.path.join(out, f'{case}.params'))
        ys = net(x)
        ys = ys if isinstance(ys, (list, tuple)) else [ys]  # VGGAtrousExtractor: one map a stage
        np.savez(os.path.join(out, f'{case}.npz'), x.asnumpy(), **{f'y{i}': y.asnumpy() for i, y in enumerate(ys)})


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2])[0])
