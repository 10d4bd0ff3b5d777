"""(peers venv) For each job {image, out}: GluonCV's presets.imagenet.transform_eval of the image (read with
OpenCV, as RGB uint8), saved to OUT/<out>.npy."""
import json
import os
import sys

import cv2
import mxnet as mx
import numpy as np
from gluoncv.data.transforms.presets.imagenet import transform_eval


def main(out, jobs):
    for job in jobs:
        rgb = cv2.cvtColor(cv2.imread(job['image']), cv2.COLOR_BGR2RGB)
        x = transform_eval(mx.nd.array(rgb, dtype='uint8'), **job.get('kwargs', {}))
        np.save(os.path.join(out, job['out'] + '.npy'), x.asnumpy())


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
