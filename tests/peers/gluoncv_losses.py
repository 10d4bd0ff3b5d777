"""(peers venv) GluonCV 0.10.5's gluoncv.loss on the inputs tests/compat/test_cv_loss.py wrote: the calls are
tests/peers/loss_cases.py's, and what GluonCV's SegmentationMultiLosses and mixup give (a shape, an error) goes in
too, for the differences docs/from_gluoncv.md names."""
import numpy as np
from gluoncv import loss as L

from case_jobs import serve
from loss_cases import cases


def run(d, job):
    out = cases(L, d)
    seg, label = d['seg_pred'], d['seg_label']
    out['multi_shape'] = np.array(L.SegmentationMultiLosses()(seg, seg * 2, seg * 3, label).shape)
    try:
        L.MixSoftmaxCrossEntropyLoss(aux=False, mixup=True)(seg, label, label, 0.3)
        out['mixup_error'] = np.array('')
    except Exception as e:  # noqa: BLE001 (recorded, the test checks which)
        out['mixup_error'] = np.array(type(e).__name__)
    return out


if __name__ == '__main__':
    serve(run)
