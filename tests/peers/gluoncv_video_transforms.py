"""(peers venv) GluonCV 0.10.5's gluoncv.data.transforms.video on the frames tests/vision/test_video_transforms.py
wrote: the calls are tests/peers/gluoncv_video_transform_cases.py's; for each job {inputs, out} the outputs go to
<out> (.npz)."""
import json
import sys

import numpy as np
from gluoncv.data.transforms import video

from gluoncv_video_transform_cases import run

if __name__ == '__main__':
    for job in json.loads(sys.argv[2]):
        np.savez(job['out'], **run(video, dict(np.load(job['inputs']))))
