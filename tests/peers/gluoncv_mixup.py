"""(peers venv) GluonCV 0.10's MixupDetection over the job's samples (OUT/samples.npz: img_i, label_i), mixup
np.random.beta(1.5, 1.5) after np.random.seed(0), then without mixup: OUT/mixup.npz (mix_img_i, mix_label_i,
plain_img_i, plain_label_i)."""
import os
import sys

import mxnet as mx
import numpy as np
from gluoncv.data import MixupDetection

if __name__ == '__main__':
    out = sys.argv[1]
    d = np.load(os.path.join(out, 'samples.npz'))
    n = len(d.files) // 2
    dataset = [(mx.nd.array(d[f'img_{i}'], dtype='uint8'), d[f'label_{i}']) for i in range(n)]
    mix = MixupDetection(dataset, np.random.beta, 1.5, 1.5)
    np.random.seed(0)
    ref = {}
    for i in range(n):
        img, label = mix[i]
        ref[f'mix_img_{i}'], ref[f'mix_label_{i}'] = img.asnumpy(), label
    mix.set_mixup(None)
    for i in range(n):
        img, label = mix[i]
        ref[f'plain_img_{i}'], ref[f'plain_label_{i}'] = img.asnumpy(), label
    np.savez(os.path.join(out, 'mixup.npz'), **ref)
