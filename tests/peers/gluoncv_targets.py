"""(peers venv) GluonCV 0.10.5's target generators: OUT/targets.npz of tests/peers/cv_target_cases.py's calls."""
import os
import sys

import numpy as np
from gluoncv import model_zoo

from cv_target_cases import cases

if __name__ == '__main__':
    np.savez(os.path.join(sys.argv[1], 'targets.npz'), **cases(model_zoo))
