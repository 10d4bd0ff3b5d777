"""(peers venv) GluonCV's SimplePose transforms and get_final_preds on arrays the test wrote. Argument: OUT, then a
JSON list of jobs, each with `data` (an .npz in OUT holding `img` (HxWx3 uint8 RGB) and `joints_3d` (K, 3, 2)) and
`out` (the .npz written to OUT):

{kind: 'train', bbox, image_size, heatmap_size, sigma, scale_factor, rotation_factor, flip, randn: [z_scale,
    z_rot], random: [rotation gate, flip gate]}: SimplePoseDefaultTrainTransform with np.random.randn and
    random.random returning those values in turn -> `x`, `target`, `weight`.
{kind: 'val', bbox, image_size}: SimplePoseDefaultValTransform -> `x`, `center`, `scale`.
{kind: 'preds', heatmaps (an .npz key of data), center, scale (lists of N)}: get_final_preds -> `coords`,
    `maxvals`.
"""
import json
import os
import random
import sys

import mxnet as mx
import numpy as np


def _queue(values):
    values = list(values)
    return lambda *args: values.pop(0)


def main(out, jobs):
    from gluoncv.data.transforms.pose import get_final_preds
    from gluoncv.data.transforms.presets.simple_pose import (SimplePoseDefaultTrainTransform,
                                                             SimplePoseDefaultValTransform)
    pairs = [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12], [13, 14], [15, 16]]  # COCO's, as GluonCV lists
    for job in jobs:
        data = np.load(os.path.join(out, job['data']))
        label = {'bbox': job.get('bbox'), 'joints_3d': data['joints_3d'].copy()}
        if job['kind'] == 'train':
            np.random.randn, random.random = _queue(job['randn']), _queue(job['random'])
            t = SimplePoseDefaultTrainTransform(17, pairs, image_size=job['image_size'],
                                                heatmap_size=job['heatmap_size'], sigma=job['sigma'],
                                                scale_factor=job['scale_factor'],
                                                rotation_factor=job['rotation_factor'], random_flip=job['flip'])
            x, target, weight, _ = t(mx.nd.array(data['img'], dtype='uint8'), label, 'p')
            result = {'x': x.asnumpy(), 'target': target, 'weight': weight}
        elif job['kind'] == 'val':
            t = SimplePoseDefaultValTransform(17, pairs, image_size=job['image_size'])
            x, scale, center, _, _ = t(mx.nd.array(data['img'], dtype='uint8'), label, 'p')
            result = {'x': x.asnumpy(), 'center': center, 'scale': scale}
        else:
            # center and scale as numpy: its transform_preds cannot add an NDArray centre to a numpy shift
            coords, maxvals = get_final_preds(mx.nd.array(data[job['heatmaps']]),
                                              np.array(job['center'], np.float32), np.array(job['scale'], np.float32))
            result = {'coords': coords.asnumpy(), 'maxvals': maxvals.asnumpy()}
        np.savez(os.path.join(out, job['out']), **result)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
