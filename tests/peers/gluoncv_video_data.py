"""(peers venv) GluonCV 0.10.5's video datasets (gluoncv.data.VideoClsCustom, Kinetics400, ..., frame folders and,
through decord 0.6, video files) on the folders tests/vision/test_video_data.py wrote: the calls are
tests/peers/gluoncv_video_data_cases.py's; for each job {roots, out} the samples go to <out> (.npz)."""
import json
import sys

import numpy as np
from gluoncv import data
from gluoncv.data.transforms import video

from gluoncv_video_data_cases import run

if __name__ == '__main__':
    for job in json.loads(sys.argv[2]):
        np.savez(job['out'], **run(data, video, job['roots']))
