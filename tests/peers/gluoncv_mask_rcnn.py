"""(peers venv) For each job {name, shape, rpn_test_pre_nms, rpn_test_post_nms, rcnn_max_dets, rpn_size_bias,
syncbn, names_only, file}: build GluonCV's Mask R-CNN with pretrained=False, pretrained_base=False, random weights
and random BN statistics, run a seeded input and save OUT/<name>.params and OUT/<name>.npz: the input, the
(ids, scores, boxes, masks) of its inference, and `full`: GluonCV's `utils.viz.expand_mask` of the masks of every
detection onto the input's size. A names_only job writes OUT/<file, or name>.json instead: {parameter name: shape}
after one forward; `syncbn` builds it with norm_layer=SyncBatchNorm (GluonCV's mask head then has norm layers).
OUT/sha1.json gets model_store's sha1 of every `mask_rcnn_*` checkpoint.

As gluoncv_faster_rcnn.py (whose helpers and RoIAlign fix this imports): fewer proposals and detections are set on
the built net's attributes (clamped as GluonCV's constructor clamps rcnn_max_dets), the RPN, head and mask outputs
are rescaled to a set spread (mask logits std 2, so the probabilities are neither all 0.5 nor saturated) and
`rpn_size_bias` makes proposals larger. GluonCV's `fill` imports scipy for its slow path only; the peers venv has
no scipy, so an empty stand-in is put in its place.
"""
import json
import os
import sys
import types

import mxnet as mx
import numpy as np
from gluoncv import model_zoo
from gluoncv.model_zoo import model_store
from gluoncv.utils.viz import expand_mask
from mxnet.gluon.contrib.nn import SyncBatchNorm

from gluoncv_faster_rcnn import prepare, spread

if 'scipy' not in sys.modules:
    try:
        import scipy  # noqa: F401
    except ImportError:
        sys.modules['scipy'] = types.ModuleType('scipy')
        sys.modules['scipy'].interpolate = None


def main(out, jobs):
    with open(os.path.join(out, 'sha1.json'), 'w') as f:
        json.dump({k: v for k, v in model_store._model_sha1.items() if k.startswith('mask_rcnn')}, f)
    for job in jobs:
        name, shape = job['name'], tuple(job['shape'])
        mx.random.seed(0)
        rng = np.random.RandomState(0)
        kwargs = {'norm_layer': SyncBatchNorm, 'norm_kwargs': {}} if job.get('syncbn') else {}
        net = model_zoo.get_model(name, pretrained=False, pretrained_base=False, **kwargs)
        x = prepare(net, job, out, rng)  # GluonCV's ResNet-50/101 builders refuse the proposal options
        if x is None:
            continue
        spread(lambda: net(x), {net.mask.mask: 2.0})
        ids, scores, boxes, masks = net(x)
        full, _ = expand_mask(masks[0].asnumpy(), boxes[0].asnumpy(), (shape[3], shape[2]),
                              scores=scores[0, :, 0].asnumpy(), thresh=0.0)
        net.save_parameters(os.path.join(out, f'{name}.params'))
        np.savez(os.path.join(out, f'{name}.npz'), x=x.asnumpy(), ids=ids.asnumpy(), scores=scores.asnumpy(),
                 boxes=boxes.asnumpy(), masks=masks.asnumpy(), full=full)
        print(name, flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
