"""scripts/launch.py on 127.0.0.1: 2 workers + 1 server train with dist_sync and end identical; nothing is left."""
import json
import os
import re
import subprocess
import sys
import time

from .helpers import LAUNCH, env, recipe_cmd, sha1, weights_file


def _launch(args, worker_cmd, timeout=300):
    p = subprocess.run([sys.executable, LAUNCH, *args, '--', *worker_cmd], env=env(), capture_output=True, text=True,
                       timeout=timeout)
    pids = {int(pid): role for role, pid in re.findall(r'launch: (\w+) pid (\d+)', p.stderr)}
    return p, pids


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f'/proc/{pid}/stat') as f:  # a zombie has ended too; launch.py reaps its children
        return f.read().split(') ', 1)[1][0] != 'Z'


def test_two_workers_one_server_end_identical_and_loss_falls(tmp_path):
    # Identical to the byte: before the engine waited for the Trainer's initial broadcast (engine._broadcast_weights),
    # about 1 run in 8 on 2 loaded cores ended with one conv weight different on one worker.
    out = tmp_path / 'dist'
    p, pids = _launch(['-n', '2', '-s', '1', '--timeout', '240'],
                      recipe_cmd('--epochs', '2', '--kvstore', 'dist_sync', '--out', str(out)))
    assert p.returncode == 0, p.stderr[-3000:]
    assert sorted(pids.values()) == ['scheduler', 'server', 'worker', 'worker']
    assert not [pid for pid in pids if _alive(pid)]
    # rank 0 writes the zoo file, rank 1 worker-1.params: the same bytes, BatchNorm statistics included
    full = sha1(weights_file(out))
    assert full == sha1(out / 'worker-1.params')
    with open(out / 'train.jsonl') as f:
        records = [json.loads(line) for line in f]
    epochs = [r for r in records if r['type'] == 'epoch']
    assert epochs[1]['train']['loss'] < epochs[0]['train']['loss']
    assert records[0]['config']['kvstore'] == 'dist_sync'

    # as if killed during epoch 2: --resume continues from epoch 1's checkpoint to the same bytes on both workers
    for f in [out / 'epoch-0002.ckpt', out / 'worker-1.params', weights_file(out)]:
        os.remove(f)
    p, pids = _launch(['-n', '2', '-s', '1', '--timeout', '240'],
                      recipe_cmd('--epochs', '2', '--kvstore', 'dist_sync', '--out', str(out), '--resume'))
    assert p.returncode == 0, p.stderr[-3000:]
    assert not [pid for pid in pids if _alive(pid)]
    assert sha1(weights_file(out)) == sha1(out / 'worker-1.params') == full


def test_a_failing_worker_stops_the_whole_job(tmp_path):
    # the servers and scheduler would wait for the workers forever; launch.py must end them
    t0 = time.time()
    p, pids = _launch(['-n', '2', '-s', '1'], [sys.executable, '-c', 'import sys; sys.exit(3)'])
    assert p.returncode == 3 and 'a worker exited with 3' in p.stderr
    assert len(pids) == 4 and not [pid for pid in pids if _alive(pid)]
    assert time.time() - t0 < 60


def test_a_failing_server_stops_the_whole_job(monkeypatch):
    # MXNet's server aborts on a protocol error ('init N first'); the workers would then wait for it forever
    import importlib.util
    import io
    spec = importlib.util.spec_from_file_location('launch', LAUNCH)
    launch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(launch)
    monkeypatch.setattr(launch, 'ROLE_CODE', 'import os, sys; sys.exit(6 if os.environ["DMLC_ROLE"] == "server" else 0)')
    log, t0 = io.StringIO(), time.time()
    status = launch.launch([sys.executable, '-c', 'import time; time.sleep(600)'], 1, 1, timeout=120, log=log)
    assert status == 1 and 'the server' in log.getvalue() and 'exited with 6 while workers ran' in log.getvalue()
    assert time.time() - t0 < 60


def test_timeout_kills_a_hanging_job():
    p, pids = _launch(['-n', '1', '-s', '1', '--timeout', '3'], [sys.executable, '-c', 'import time; time.sleep(600)'])
    assert p.returncode == 124 and 'timeout' in p.stderr
    assert len(pids) == 3 and not [pid for pid in pids if _alive(pid)]


def test_launch_needs_a_command():
    p = subprocess.run([sys.executable, LAUNCH, '-n', '2'], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and 'after --' in p.stderr
