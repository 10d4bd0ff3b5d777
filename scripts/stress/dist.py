"""Stress the distributed engine: run the tiny 2-worker dist_sync job of tests/train/test_distributed.py N times and
count the runs whose two workers ended with different bytes, and the distinct results over all runs.

    python scripts/stress/dist.py 40            # docs/training.md cites its figures (5 of 40 diverged before
                                                # engine._broadcast_weights, 0 of 39 after)

Each run: scripts/launch.py -n 2 -s 1 around the Fashion-MNIST recipe on 256 images, 2 epochs, one thread a
process. Exit status 1 when any run diverged or failed, so it can gate a change to the engine.
"""
import argparse
import hashlib
import glob
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECIPE = os.path.join(ROOT, 'scripts', 'vision', 'classification', 'train.py')
LAUNCH = os.path.join(ROOT, 'scripts', 'launch.py')
TINY = ['--train-limit', '256', '--val-limit', '100', '--batch-size', '32', '--progress', '0', '--epochs', '2']


def sha1(path):
    with open(path, 'rb') as f:
        return hashlib.sha1(f.read()).hexdigest()


def one_run(out, timeout):
    """(rank 0's sha1, rank 1's sha1) of one job, or None if it failed."""
    env = dict(os.environ, OMP_NUM_THREADS='1', MXNET_CPU_WORKER_NTHREADS='1')
    p = subprocess.run([sys.executable, LAUNCH, '-n', '2', '-s', '1', '--timeout', str(timeout), '--',
                        sys.executable, RECIPE, *TINY, '--kvstore', 'dist_sync', '--out', out],
                       env=env, capture_output=True, text=True, timeout=timeout + 60)
    zoo = glob.glob(os.path.join(out, 'cifar_resnet20_v1-*.params'))
    if p.returncode != 0 or len(zoo) != 1:
        print(p.stderr[-2000:], file=sys.stderr)
        return None
    return sha1(zoo[0]), sha1(os.path.join(out, 'worker-1.params'))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('runs', type=int, help='how many jobs to run')
    ap.add_argument('--timeout', type=int, default=300, help='seconds a job may take (default 300)')
    args = ap.parse_args(argv)
    results, diverged, failed = [], 0, 0
    with tempfile.TemporaryDirectory(prefix='stress-dist-') as tmp:
        for i in range(args.runs):
            t0 = time.time()
            got = one_run(os.path.join(tmp, f'run{i}'), args.timeout)
            if got is None:
                failed += 1
                status = 'FAILED'
            else:
                results.append(got[0])
                diverged += got[0] != got[1]
                status = 'workers identical' if got[0] == got[1] else 'WORKERS DIFFER'
            print(f'run {i + 1}/{args.runs}: {status} {got[0][:8] if got else ""} ({time.time() - t0:.0f} s)',
                  flush=True)
    print(f'{args.runs} runs: {diverged} diverged, {failed} failed, {len(set(results))} distinct result(s)')
    return int(bool(diverged or failed or len(set(results)) > 1))


if __name__ == '__main__':
    sys.exit(main())
