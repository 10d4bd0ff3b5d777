"""(peers venv) GluonNLP 0.10.0's BeamSearchScorer / BeamSearchSampler / SequenceSampler on the arrays that
tests/compat/test_nlp_samplers.py wrote; the calls are tests/peers/sampler_cases.py's."""
from gluonnlp import model

from case_jobs import serve
from sampler_cases import cases

if __name__ == '__main__':
    serve(lambda d, job: cases(model, d))
