"""(peers venv) For each job {name, shape}: build GluonCV's CenterNet (pretrained=False, pretrained_base=False) with
random weights, random BatchNorm scales, BatchNorm statistics of the input itself and heads scaled to a set spread;
save its parameters to OUT/<name>.params and, for that seeded input of `shape`, the raw outputs of its three heads
and the final (ids, scores, bboxes), without and with flip_test, to OUT/<name>.npz."""
import json
import os
import sys

import mxnet as mx
import numpy as np
from gluoncv import model_zoo
from mxnet.gluon import nn


def _blocks(block):
    yield block
    for child in block._children.values():
        yield from _blocks(child)


def _calibrate(bn, inputs):
    x = inputs[0]
    mean = x.mean(axis=(0, 2, 3))
    bn.running_mean.set_data(mean)
    bn.running_var.set_data(mx.nd.square(x - mean.reshape((1, -1, 1, 1))).mean(axis=(0, 2, 3)))


def main(out, jobs):
    for job in jobs:
        name, shape = job['name'], tuple(job['shape'])
        mx.random.seed(0)
        np.random.seed(0)
        net = model_zoo.get_model(name, pretrained=False, pretrained_base=False)
        net.initialize(mx.init.Xavier(magnitude=2.0), force_reinit=True)  # heads keep their own initializers
        x = mx.nd.array(np.random.uniform(-1, 1, size=shape).astype('float32'))
        net(x)  # settle deferred shapes
        for pname, p in net.collect_params().items():
            if pname.endswith(('beta', 'gamma')):  # make BN mapping errors visible
                lo = 0.5 if pname.endswith('gamma') else -0.5
                p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))
        # running statistics set, layer by layer, to those of the input each BatchNorm sees: random weights then
        # neither vanish (MobileNetV3) nor explode (ResNet), and the statistics differ from channel to channel
        hooks = [b.register_forward_pre_hook(_calibrate) for b in _blocks(net) if isinstance(b, nn.BatchNorm)]
        net(x)
        for h in hooks:
            h.detach()
        feat = net.base_network(x)
        # each head's output layer scaled to a set spread (heatmap logits 2, sizes 4, offsets 0.5 cells): random
        # heads would otherwise saturate the heatmap (ResNet) and predict boxes of no size at all
        for head, spread in zip(net.heads, (2.0, 4.0, 0.5)):
            weight = head[2].weight
            weight.set_data(weight.data() * (spread / float(head(feat).asnumpy().std())))
        arrays = {f'head{i}': head(feat).asnumpy() for i, head in enumerate(net.heads)}
        for suffix, flip in (('', False), ('_flip', True)):
            net.flip_test = flip
            ids, scores, bboxes = net(x)
            arrays.update({'ids' + suffix: ids.asnumpy(), 'scores' + suffix: scores.asnumpy(),
                           'bboxes' + suffix: bboxes.asnumpy()})
        net.save_parameters(os.path.join(out, f'{name}.params'))
        np.savez(os.path.join(out, f'{name}.npz'), x=x.asnumpy(), **arrays)
        print(name, flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
