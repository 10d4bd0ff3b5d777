"""Run reference code of the peers (GluonCV 0.10.5, GluonNLP 0.10.0) in their own venv, `.venv-peers`.

The peer scripts in this folder write parameter files and reference outputs into a folder; the tests load those
files into gluonzoo's models and compare. `make test` creates the venv (`make peers`).
"""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHON = os.environ.get('GLUONZOO_PEERS_PYTHON', os.path.join(ROOT, '.venv-peers', 'bin', 'python'))


def run_peer(script, out_dir, jobs, timeout=900):
    """Run tests/peers/<script> in the peers venv with a JSON list of jobs; return its stdout."""
    if not os.path.exists(PYTHON):
        raise RuntimeError(f'{PYTHON} is missing: run `make peers` (make test does)')
    p = subprocess.run([PYTHON, os.path.join(os.path.dirname(__file__), script), str(out_dir), json.dumps(jobs)],
                       capture_output=True, text=True, timeout=timeout, env={**os.environ, 'MXNET_HOME': str(out_dir)})
    if p.returncode != 0:
        raise RuntimeError(f'{script} failed:\n{p.stderr[-4000:]}')
    return p.stdout


def run_peer_cases(script, out_dir, inputs, timeout=300, **job):
    """The cases pattern of tests/compat: `inputs` (name -> array) saved as float32 to out_dir/inputs.npz, the peer
    script run on it (one job {inputs, out, **job}; tests/peers/case_jobs.py serves it there), and (the inputs as
    NDArrays, the peer's {case: numpy array}) returned for the test to run the same cases on ours."""
    import mxnet as mx
    import numpy as np
    arrays = {k: np.asarray(v, np.float32) for k, v in inputs.items()}
    np.savez(os.path.join(out_dir, 'inputs.npz'), **arrays)
    out = os.path.join(out_dir, 'ref.npz')
    run_peer(script, out_dir, [{'inputs': os.path.join(out_dir, 'inputs.npz'), 'out': out, **job}], timeout=timeout)
    return {k: mx.nd.array(v) for k, v in arrays.items()}, dict(np.load(out))
