"""(peers venv) GluonNLP 0.10.0's gluonnlp.loss / .utils / .metric on the inputs tests/compat/test_nlp_train_utils.py
wrote (job: {inputs, folder, out}); the calls are tests/peers/nlp_train_cases.py's, and the error GluonNLP's
dense LabelSmoothing without units (its Python custom operator) gives on MXNet 1.9.1."""
import gluonnlp
import mxnet as mx
import numpy as np

from case_jobs import serve
from nlp_train_cases import cases, layer_cases


def run(d, job):
    out = {**cases(gluonnlp, d, job['folder']), **{f'layers.{k}': v for k, v in layer_cases(gluonnlp, d).items()}}
    try:
        gluonnlp.loss.LabelSmoothing(sparse_label=False)(d['dist']).asnumpy()
        out['custom_op_error'] = np.array('')
    except mx.base.MXNetError as e:
        out['custom_op_error'] = np.array(str(e).splitlines()[-1][:200])
    return out


if __name__ == '__main__':
    serve(run)
