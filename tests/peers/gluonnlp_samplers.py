"""(peers venv) GluonNLP 0.10.0's BeamSearchScorer / BeamSearchSampler / SequenceSampler on the arrays that
tests/compat/test_nlp_samplers.py wrote: one job {inputs, out}; the calls are tests/peers/sampler_cases.py's."""
import json
import sys

import mxnet as mx
import numpy as np
from gluonnlp import model

from sampler_cases import cases


def main(job):
    d = {k: mx.nd.array(v) for k, v in np.load(job['inputs']).items()}
    np.savez(job['out'], **cases(model, d))


if __name__ == '__main__':
    for job in json.loads(sys.argv[2]):
        main(job)
