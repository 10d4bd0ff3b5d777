"""(peers venv) GluonCV 0.10.5's gluoncv.loss on the inputs tests/compat/test_cv_loss.py wrote: one job {inputs,
out}; the calls are tests/peers/loss_cases.py's, and what GluonCV's SegmentationMultiLosses and mixup give (a shape,
an error) goes in too, for the differences docs/from_gluoncv.md names."""
import json
import sys

import mxnet as mx
import numpy as np
from gluoncv import loss as L

from loss_cases import cases


def main(job):
    d = {k: mx.nd.array(v) for k, v in np.load(job['inputs']).items()}
    out = cases(L, d)
    seg, label = d['seg_pred'], d['seg_label']
    out['multi_shape'] = np.array(L.SegmentationMultiLosses()(seg, seg * 2, seg * 3, label).shape)
    try:
        L.MixSoftmaxCrossEntropyLoss(aux=False, mixup=True)(seg, label, label, 0.3)
        out['mixup_error'] = np.array('')
    except Exception as e:  # noqa: BLE001 (recorded, the test checks which)
        out['mixup_error'] = np.array(type(e).__name__)
    np.savez(job['out'], **out)


if __name__ == '__main__':
    for job in json.loads(sys.argv[2]):
        main(job)
