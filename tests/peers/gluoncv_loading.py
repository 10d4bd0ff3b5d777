"""(peers venv) GluonCV 0.10's samplers and pad batchify functions on fixed inputs and seeds: OUT/loading.json
{case: list}. The calls are tests/peers/cv_loading_cases.py's, shared with the test."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from gluoncv import data  # noqa: E402
from gluoncv.data import dataloader, sampler  # noqa: E402

from cv_loading_cases import cases  # noqa: E402

with open(os.path.join(sys.argv[1], 'loading.json'), 'w') as f:
    json.dump(cases(sampler, dataloader, data), f)
