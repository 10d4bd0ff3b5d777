"""Run the Fashion-MNIST recipe on a tiny config (256 training images, 8 batches an epoch) in a subprocess."""
import hashlib
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECIPE = os.path.join(ROOT, 'scripts', 'vision', 'classification', 'train.py')
LAUNCH = os.path.join(ROOT, 'scripts', 'launch.py')
TINY = ['--train-limit', '256', '--val-limit', '100', '--batch-size', '32', '--progress', '0']


def env(**extra):
    """The environment of a recipe subprocess: one thread (the same float summation order on every run, and gentle
    on shared CI cores). Read at call time, inside the test, so the subprocess gets the test's isolated
    GLUONZOO_HOME (a module-level copy of os.environ, taken before the fixture ran, wrote to the real cache)."""
    return dict(os.environ, OMP_NUM_THREADS='1', MXNET_CPU_WORKER_NTHREADS='1', **extra)


_one_thread = env  # run_script's `env` argument hides the function


def recipe_cmd(*args):
    return [sys.executable, RECIPE, *TINY, *args]


def run_script(script, *args, ok=True, env=None, timeout=300):
    """Run recipe `script` with `args` in a subprocess (env(): one thread), asserting it succeeded when `ok`."""
    p = subprocess.run([sys.executable, script, *args], env=env or _one_thread(), capture_output=True, text=True,
                       timeout=timeout)
    if ok:
        assert p.returncode == 0, p.stderr[-3000:]
    return p


def run_recipe(*args, ok=True, timeout=300):
    return run_script(RECIPE, *TINY, *args, ok=ok, timeout=timeout)


def sha1(path):
    with open(path, 'rb') as f:
        return hashlib.sha1(f.read()).hexdigest()


def weights_file(out):
    found = glob.glob(os.path.join(out, 'cifar_resnet20_v1-*.params'))
    assert len(found) == 1, found
    return found[0]


def read_log(log):
    """Every record of a JSON-lines training log, as written."""
    with open(log) as f:
        return [json.loads(line) for line in f if line.strip()]


def records(log, kind='epoch'):
    """The log's records of one type, without the wall-clock fields that differ between runs."""
    rs = read_log(log)
    return [{k: v for k, v in r.items() if k not in ('seconds', 'time')} for r in rs if r['type'] == kind]


def recipe_main(argv):
    """Run the recipe's main() in this process (for errors raised before any training); return its exit code."""
    import importlib.util
    spec = importlib.util.spec_from_file_location('fmnist_recipe', RECIPE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main([*TINY, *argv])
