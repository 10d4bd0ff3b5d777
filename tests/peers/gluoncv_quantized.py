"""(peers venv) GluonCV's INT8 models: the sha256 of each graph its package ships (a file, or a compressed
string decoded by GluonCV's own get_compressed_model) to OUT/graphs.json. Jobs:

{name, prefix}: GluonCV's base net of INT8 model NAME built as gluoncv/model_zoo/quantized/quantized.py builds it
    (prefix=PREFIX unless null, no pretrained backbone), its {structural parameter name: Gluon name} (the names
    its export gives the graph) to OUT/<name>.names.json.
{name, prefix, shape}: also the base net with random weights and random BN statistics saved to OUT/<name>.params,
    then GluonCV's own INT8 builder run with pretrained=True on that file (its model store answers with it) and its
    outputs on a seeded input of SHAPE to OUT/<name>.npz (`x`, then `y0`, `y1`, ...).
"""
import hashlib
import json
import os
import sys

import mxnet as mx
import numpy as np
from gluoncv import model_zoo
from gluoncv.model_zoo import model_store
from gluoncv.model_zoo import model_zoo as zoo_module

import gluoncv_models  # noqa: F401 -- importing it makes GluonCV's TSN bases (the video graphs') build offline

_BN = ('gamma', 'beta', 'running_mean', 'running_var', 'moving_mean', 'moving_var')  # Gluon and symbol BatchNorm


def _base(name, prefix):
    base = name[:-len('_int8')]
    kwargs = {'prefix': prefix} if prefix else {}  # GluonCV gives DeepLab none
    return base, model_zoo.get_model(base, **kwargs, **_no_base(base))


def _no_base(base):
    """No pretrained backbone (there is no network here): the classifiers have none to load."""
    return {} if base.startswith(('mobilenet', 'resnet')) else {'pretrained_base': False}


def _random_file(net, base, shape, path):
    mx.random.seed(0)
    np.random.seed(0)
    for pname, p in net.collect_params().items():
        if pname.endswith(_BN) and p.init is None:  # the symbol BatchNorm of SSD's appended layers: no initializer
            p.init = mx.init.One()  # (randomized below)
    net.initialize(mx.init.Xavier(magnitude=2.0))
    net(mx.nd.zeros(shape))  # settle deferred shapes
    for pname, p in net.collect_params().items():
        if pname.endswith(_BN):  # make BN mapping errors visible
            lo = 0.5 if pname.endswith(('running_var', 'moving_var', 'gamma')) else -0.5
            p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))
    net.save_parameters(path)


def _gluoncv_int8(name, path):
    """GluonCV's INT8 builder, pretrained, with its model store pointing at `path` and its base nets built without
    a pretrained backbone (there is no network here)."""
    get_model = zoo_module.get_model

    def no_base(n, **kwargs):
        return get_model(n, **kwargs, **({} if n.endswith('_int8') else _no_base(n)))
    model_store.get_model_file = lambda *args, **kwargs: path
    zoo_module.get_model = no_base
    try:
        return model_zoo.get_model(name, pretrained=True)
    finally:
        zoo_module.get_model = get_model


def main(out, jobs):
    import gluoncv.model_zoo.quantized as package
    from gluoncv.model_zoo.quantized import quantized
    from gluoncv.utils.compress_json import get_compressed_model
    folder = os.path.dirname(package.__file__)
    graphs = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith('-symbol.json'):
            with open(os.path.join(folder, f), 'rb') as src:
                graphs[f[:-len('-symbol.json')]] = hashlib.sha256(src.read()).hexdigest()
    for name in quantized._compressed_int8_json:  # GluonCV's own decoder
        text = get_compressed_model(name, quantized._compressed_int8_json)
        graphs[name] = hashlib.sha256(text.encode('utf-8')).hexdigest()
    with open(os.path.join(out, 'graphs.json'), 'w') as f:
        json.dump(graphs, f)
    for job in jobs:
        name = job['name']
        # names outside a prefix (SimplePose's deconv layers) count up per process: each job starts afresh, as
        # the process that quantized the graph did
        mx.name.NameManager._current.value = mx.name.NameManager()
        base, net = _base(name, job['prefix'])
        names = {k: p.name for k, p in net._collect_params_with_prefix().items()}
        with open(os.path.join(out, f'{name}.names.json'), 'w') as f:
            json.dump(names, f)
        if 'shape' in job:
            shape = tuple(job['shape'])
            path = os.path.join(out, f'{name}.params')
            _random_file(net, base, shape, path)
            mx.name.NameManager._current.value = mx.name.NameManager()
            int8 = _gluoncv_int8(name, path)
            np.random.seed(1)
            x = mx.nd.array(np.random.uniform(-2, 2, size=shape).astype('float32'))
            ys = int8(x)
            ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
            np.savez(os.path.join(out, f'{name}.npz'), x=x.asnumpy(),
                     **{f'y{i}': y.asnumpy() for i, y in enumerate(ys)})
        print(name, flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
