"""(peers venv) For each job {name, shape, kwargs}: build GluonCV's YOLOv3 with random weights, biases and BatchNorm
statistics, save its parameters to OUT/<name>.params and, for a seeded input, to OUT/<name>.npz: the input `x`, the
raw prediction maps of the three outputs (`raw0`..`raw2`, deepest first), every decoded row with NMS off (`rows_*`)
and the final detections (`ids`, `scores`, `bboxes`)."""
import json
import os
import sys

import mxnet as mx
import numpy as np
from gluoncv import model_zoo


def main(out, jobs):
    for job in jobs:
        name, shape = job['name'], tuple(job['shape'])
        mx.random.seed(0)
        np.random.seed(0)
        net = model_zoo.get_model(name, pretrained=False, pretrained_base=False, **job.get('kwargs', {}))
        net.initialize(mx.init.Xavier(magnitude=2.0))
        x = mx.nd.array(np.random.uniform(-1, 1, size=shape).astype('float32'))
        net(x)  # settle deferred shapes
        for pname, p in net.collect_params().items():
            if pname.endswith(('running_mean', 'running_var', 'beta', 'gamma', 'bias')):  # make mapping errors visible
                lo = 0.5 if pname.endswith(('running_var', 'gamma')) else -0.5
                p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))
        raw = []
        for output in net.yolo_outputs:
            output.prediction.register_forward_hook(lambda block, inputs, y: raw.append(y.asnumpy()))
        ids, scores, bboxes = net(x)
        net.set_nms(nms_thresh=0)  # outside (0, 1): no suppression, every row in GluonCV's order
        rows = net(x)
        net.save_parameters(os.path.join(out, f'{name}.params'))
        np.savez(os.path.join(out, f'{name}.npz'), x=x.asnumpy(), raw0=raw[0], raw1=raw[1], raw2=raw[2],
                 ids=ids.asnumpy(), scores=scores.asnumpy(), bboxes=bboxes.asnumpy(),
                 rows_ids=rows[0].asnumpy(), rows_scores=rows[1].asnumpy(), rows_bboxes=rows[2].asnumpy())
        print(name, flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
