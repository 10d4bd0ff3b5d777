"""Run a benchmark with gluonzoo and GluonCV in ONE process, and time a net the same way for both.

The script re-executes itself in the peers venv (.venv-peers: the same mxnet 1.9.1, plus gluoncv) with gluonzoo's
source importable (zoo/ as gluonzoo, vision/, text/), so a busy machine slows both sides alike; the scripts
alternate the two sides' measurements round by round and keep each side's best.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PEERS = os.path.join(ROOT, '.venv-peers', 'bin', 'python')


def in_peers():
    """Whether this process is the re-executed one."""
    return bool(os.environ.get('GLUONZOO_BENCH_IN_PEERS'))


def reexec_in_peers(script, argv):
    """Run `script` with `argv` in the peers venv with gluonzoo's source on its path; return its exit code."""
    if not os.path.exists(PEERS):
        sys.exit(f'{PEERS} is missing: run `make peers`')
    tmp = tempfile.mkdtemp(prefix='gluonzoo-bench-')
    pkg = os.path.join(tmp, 'gluonzoo')
    os.mkdir(pkg)
    for entry in os.listdir(os.path.join(ROOT, 'zoo')):
        os.symlink(os.path.join(ROOT, 'zoo', entry), os.path.join(pkg, entry))
    for sub in ('vision', 'text'):
        os.symlink(os.path.join(ROOT, sub), os.path.join(pkg, sub))
    env = {**os.environ, 'PYTHONPATH': tmp, 'MXNET_HOME': os.path.join(tmp, 'mxnet'), 'GLUONZOO_BENCH_IN_PEERS': '1'}
    try:
        return subprocess.call([PEERS, os.path.abspath(script), *argv], env=env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def throughput(net, x, seconds):
    """Images per second of `net` on batch `x`: best of three timed windows of about `seconds` / 3 each, after two
    warm-up calls (every output waited for: detectors return several)."""
    import mxnet as mx
    for _ in range(2):
        net(x)
        mx.nd.waitall()
    best = 0.0
    for _ in range(3):
        n, t0 = 0, time.perf_counter()
        while True:
            net(x)
            mx.nd.waitall()
            n += 1
            dt = time.perf_counter() - t0
            if dt >= seconds / 3:
                break
        best = max(best, n * x.shape[0] / dt)
    return best
