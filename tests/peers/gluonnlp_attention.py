"""(peers venv) GluonNLP 0.10.0's attention cells, PositionwiseFFN and TransformerEncoderCell on the arrays
tests/compat/test_nlp_attention.py wrote (tests/peers/attention_cases.py's calls); parameters saved beside."""
import os

from gluonnlp import model

from attention_cases import cases
from case_jobs import serve

if __name__ == '__main__':
    serve(lambda d, job: cases(model, d, os.path.dirname(job['out']), save=True))
