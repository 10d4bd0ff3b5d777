"""(peers venv) For each job {image, boxes, preset, kwargs, out[, seed]}: GluonCV's detection preset (e.g.
'SSDDefaultValTransform') of the image (read with OpenCV, as RGB uint8) and its label, saved to OUT/<out>.npz as
`x` (the image tensor) and `boxes` (the label after it). With `seed` the random modules are seeded and every random
draw the preset makes is recorded, in order, to OUT/<out>.json as [kind, value(, p)]: 'uniform', 'int', 'normal',
'perm' (the order random.shuffle left CenterNet's three jitters in, as indices into brightness, contrast,
saturation) and 'choice' (a flip decision and the probability of True)."""
import json
import os
import random
import sys

import cv2
import mxnet as mx
import numpy as np
from gluoncv.data.transforms import presets
from gluoncv.data.transforms.presets import rcnn

DRAWS = []


def _record(kind, fn, convert=lambda v: v):
    def wrapped(*args, **kwargs):
        value = fn(*args, **kwargs)
        DRAWS.append([kind, convert(value)])
        return value
    return wrapped


def _choice(a, size=None, replace=True, p=None):
    value = _np_choice(a, size, replace, p)
    DRAWS.append(['choice', bool(value), float(p[1])])
    return value


def _shuffle(x):
    _py_shuffle(x)
    DRAWS.append(['perm', [('brightness_', 'contrast_', 'saturation_').index(f.__name__) for f in x]])


class _RecordedRng:
    """CenterNet's own RandomState, recorded."""

    def __init__(self, rng):
        self.rng = rng

    def uniform(self, *args, **kwargs):
        return _record('uniform', self.rng.uniform, float)(*args, **kwargs)

    def normal(self, *args, **kwargs):
        return _record('normal', self.rng.normal, lambda v: np.asarray(v).tolist())(*args, **kwargs)


_np_choice, _py_shuffle = np.random.choice, random.shuffle
random.uniform = _record('uniform', random.uniform, float)
random.randint = _record('int', random.randint, int)
random.randrange = _record('int', random.randrange, int)
random.shuffle = _shuffle
rcnn.randint = random.randint  # imported by name there
np.random.uniform = _record('uniform', np.random.uniform, float)
np.random.randint = _record('int', np.random.randint, int)
np.random.randn = _record('normal', np.random.randn, float)
np.random.choice = _choice


def main(out, jobs):
    for job in jobs:
        rgb = cv2.cvtColor(cv2.imread(job['image']), cv2.COLOR_BGR2RGB)
        label = np.array(job['boxes'], np.float64)
        if 'seed' in job:
            random.seed(job['seed'])
            np.random.seed(job['seed'])
        DRAWS.clear()
        t = getattr(presets, job['module']).__dict__[job['preset']](**job.get('kwargs', {}))
        if hasattr(t, '_data_rng'):
            t._data_rng = _RecordedRng(t._data_rng)
        if job['preset'] == 'CenterNetDefaultTrainTransform':
            result = _center_net_sample(t, mx.nd.array(rgb, dtype='uint8'), label)
        else:
            result = t(mx.nd.array(rgb, dtype='uint8'), label)
        x, boxes = result[0], result[1]
        np.savez(os.path.join(out, job['out'] + '.npz'), x=x.asnumpy(), boxes=np.asarray(boxes),
                 scale=result[2].asnumpy() if len(result) > 2 else np.zeros(0))
        if 'seed' in job:
            with open(os.path.join(out, job['out'] + '.json'), 'w') as f:
                json.dump(DRAWS, f)


def _center_net_sample(t, img, label):
    """CenterNetDefaultTrainTransform's sample before its training targets: the image tensor and the boxes it hands
    to the target generator, read from the caller's frame by a stand-in generator."""
    caught = {}

    def generator(gt_bboxes, gt_ids):
        caller = sys._getframe(1).f_locals
        caught['x'], caught['boxes'] = caller['img'], caller['bbox']
        raise StopIteration

    type(t)._target_generator = property(lambda self: generator)
    try:
        t(img, label)
    except StopIteration:
        pass
    return caught['x'], caught['boxes']


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
