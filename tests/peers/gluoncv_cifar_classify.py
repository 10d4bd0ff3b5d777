"""(peers venv) GluonCV's own CIFAR-10 test pipeline on pictures: for each job {name, images}, the model_zoo model
with random weights and random BN statistics, saved to OUT/<name>.params, and for each image its transform_test
(ToTensor + Normalize with CIFAR-10's mean/std, as scripts/classification/cifar/train_cifar10.py) and softmax,
saved to OUT/<name>.npz."""
import json
import os
import sys

import cv2
import mxnet as mx
import numpy as np
from gluoncv import model_zoo
from mxnet.gluon.data.vision import transforms

TRANSFORM_TEST = transforms.Compose([transforms.ToTensor(),
                                     transforms.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010])])


def main(out, jobs):
    for job in jobs:
        mx.random.seed(0)
        np.random.seed(0)
        net = model_zoo.get_model(job['name'], pretrained=False)
        net.initialize(mx.init.Xavier(magnitude=2.0))
        net(mx.nd.zeros((1, 3, 32, 32)))
        for pname, p in net.collect_params().items():
            if pname.endswith(('running_mean', 'running_var', 'beta', 'gamma')):
                lo = 0.5 if pname.endswith(('running_var', 'gamma')) else -0.5
                p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))
        net.save_parameters(os.path.join(out, f'{job["name"]}.params'))
        xs, probs = [], []
        for image in job['images']:
            rgb = cv2.cvtColor(cv2.imread(image), cv2.COLOR_BGR2RGB)
            x = TRANSFORM_TEST(mx.nd.array(rgb, dtype='uint8')).expand_dims(0)
            xs.append(x.asnumpy()[0])
            probs.append(mx.nd.softmax(net(x)).asnumpy()[0])
        np.savez(os.path.join(out, f'{job["name"]}.npz'), x=np.stack(xs), prob=np.stack(probs))


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
