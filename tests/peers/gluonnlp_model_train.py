"""(peers venv) GluonNLP 0.10.0's gluonnlp.model.train models and weight drop on the arrays
tests/compat/test_nlp_model_train.py wrote (tests/peers/model_train_cases.py's calls); parameters saved beside."""
import os
import types

import gluonnlp

from case_jobs import serve
from model_train_cases import cases

LIB = types.SimpleNamespace(model=gluonnlp.model, train=gluonnlp.model.train, apply_weight_drop=gluonnlp.model.apply_weight_drop,
                            create_subword_function=gluonnlp.vocab.create_subword_function)

if __name__ == '__main__':
    serve(lambda d, job: cases(LIB, d, os.path.dirname(job['out']), save=True))
