"""(peers venv) For each job {name, shape, kwargs, file}: build the GluonCV model with random weights and random BN
statistics, save its parameters, a seeded input and its output to OUT/<file or name>.params and .npz (`y` the
output; a model with several also has them as y0, y1, ...)."""
import json
import os
import sys

import mxnet as mx
import numpy as np
from gluoncv import model_zoo


def _offline_tsn_bases():
    """GluonCV's TSN builders (actionrec_*) always download their ImageNet body: build it random instead, for every
    script that imports this one (the peers' model jobs, the INT8 video graphs' bases)."""
    from gluoncv.model_zoo.action_recognition import (actionrec_inceptionv1, actionrec_inceptionv3,
                                                      actionrec_resnetv1b, actionrec_vgg16)

    def no_download(build):
        def base(pretrained=False, **kwargs):
            net = build(pretrained=False, **kwargs)
            net.initialize(mx.init.Xavier(magnitude=2.0))
            return net
        return base
    for module, names in ((actionrec_vgg16, ['vgg16']), (actionrec_inceptionv1, ['googlenet']),
                          (actionrec_inceptionv3, ['inception_v3']),
                          (actionrec_resnetv1b, [f'resnet{d}_v1b' for d in (18, 34, 50, 101, 152)])):
        for name in names:
            setattr(module, name, no_download(getattr(module, name)))


_offline_tsn_bases()


def main(out, jobs):
    for job in jobs:
        name, shape = job['name'], tuple(job['shape'])
        mx.random.seed(0)
        np.random.seed(0)
        net = model_zoo.get_model(name, pretrained=False, **job.get('kwargs', {}))
        net.initialize(mx.init.Xavier(magnitude=2.0))
        x = mx.nd.array(np.random.uniform(-1, 1, size=shape).astype('float32'))
        net(x)  # settle deferred shapes
        for pname, p in net.collect_params().items():
            if pname.endswith(('running_mean', 'running_var', 'beta', 'gamma')):  # make BN mapping errors visible
                lo = 0.5 if pname.endswith(('running_var', 'gamma')) else -0.5
                p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))
        ys = net(x)
        ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]  # several outputs (aux heads, feature maps): y0, y1..
        stem = job.get('file', name)  # the same model with other kwargs needs another file name
        net.save_parameters(os.path.join(out, f'{stem}.params'))
        np.savez(os.path.join(out, f'{stem}.npz'), x=x.asnumpy(), y=ys[0].asnumpy(),
                 **{f'y{i}': y.asnumpy() for i, y in enumerate(ys)})
        print(name, flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
