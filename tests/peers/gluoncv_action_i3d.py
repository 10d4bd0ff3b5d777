"""(peers venv) What tests/vision/test_action_i3d.py compares: argv OUT and one job {models, classes, starts}. The
registry-name jobs go through gluoncv_models.py; `classes` builds GluonCV's I3D_ResNetV1 / NonLocal directly;
`starts` saves random 2D ImageNet nets and the I3D nets GluonCV inflates from them (its model_store.get_model_file
pointed at those files), and its Kinetics-400 start of i3d_resnet50_v1_ucf101."""
import json
import os
import sys

import mxnet as mx
import numpy as np
from gluoncv import model_zoo
from gluoncv.model_zoo import model_store
from gluoncv.model_zoo.action_recognition.i3d_resnet import I3D_ResNetV1
from gluoncv.model_zoo.action_recognition.non_local import NonLocal
import gluoncv_models

out, job = sys.argv[1], json.loads(sys.argv[2])
gluoncv_models.main(out, job['models'])


def randomized(net, x):
    mx.random.seed(0)
    np.random.seed(0)
    net.initialize(mx.init.Xavier(magnitude=2.0))
    net(x)
    for name, p in net.collect_params().items():
        if name.endswith(('running_mean', 'running_var', 'beta', 'gamma')):
            lo = 0.5 if name.endswith(('running_var', 'gamma')) else -0.5
            p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))
    return net


classes = {'I3D_ResNetV1': I3D_ResNetV1, 'NonLocal': NonLocal}
for c in job['classes']:
    x = mx.nd.array(np.random.RandomState(1).uniform(-1, 1, size=c['shape']).astype('float32'))
    net = randomized(classes[c['class']](**c['kwargs']), x)
    net.save_parameters(os.path.join(out, c['file'] + '.params'))
    np.savez(os.path.join(out, c['file'] + '.npz'), x=x.asnumpy(), y=net(x).asnumpy())

files = {}
model_store.get_model_file = lambda name, tag=None, root=None: files[name]
starts = job['starts']
for name, shape in starts['bases'].items():
    net = randomized(model_zoo.get_model(name, pretrained=False), mx.nd.zeros(shape))
    files[name] = os.path.join(out, name + '.params')
    net.save_parameters(files[name])
for name in starts['inflated']:
    model_zoo.get_model(name, pretrained=False, pretrained_base=True).save_parameters(
        os.path.join(out, 'inflated_' + name + '.params'))
net = randomized(model_zoo.get_model('i3d_resnet50_v1_kinetics400', pretrained=False, pretrained_base=False),
                 mx.nd.zeros((1, 3, 8, 32, 32)))
files['i3d_resnet50_v1_kinetics400'] = os.path.join(out, 'kinetics.params')
net.save_parameters(files['i3d_resnet50_v1_kinetics400'])
model_zoo.get_model('i3d_resnet50_v1_ucf101', pretrained=False, pretrained_base=False,
                    use_kinetics_pretrain=True).save_parameters(os.path.join(out, 'ucf101_from_kinetics.params'))
