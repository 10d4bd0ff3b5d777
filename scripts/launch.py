"""Start an MXNet distributed-KVStore job on this machine: one scheduler, S servers, N workers on 127.0.0.1.

    python scripts/launch.py -n 2 -s 1 -- python scripts/vision/classification/train.py --kvstore dist_sync ...

The scheduler and the servers are `python -c "import mxnet"` with DMLC_ROLE set (importing mxnet with that role
runs the parameter server and returns when the job ends); the workers run the command. Every process gets its own
process group; when a worker fails, when a scheduler or server dies before the workers are done, when the job
outlives --timeout, or when this script is interrupted, every group it started is killed (SIGTERM, then SIGKILL),
so nothing is left behind. The exit status is the first failing worker's (1 for a failed scheduler or server, 124
for a timeout), or 0. See docs/training.md for several machines and for Horovod.
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time

ROLE_CODE = 'import mxnet'  # a scheduler/server process: mxnet's import blocks in the parameter-server loop


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def _env(role, workers, servers, port, extra=None):
    env = dict(os.environ, DMLC_ROLE=role, DMLC_PS_ROOT_URI='127.0.0.1', DMLC_PS_ROOT_PORT=str(port),
               DMLC_NUM_WORKER=str(workers), DMLC_NUM_SERVER=str(servers), DMLC_NODE_HOST='127.0.0.1',
               DMLC_INTERFACE='lo')
    env.update(extra or {})
    return env


def _kill(procs, grace=5.0):
    """SIGTERM every still-running process group, wait up to `grace` seconds, then SIGKILL what is left."""
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.time() + grace
    for p in procs:
        try:
            p.wait(max(deadline - time.time(), 0.01))
        except subprocess.TimeoutExpired:
            pass
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)  # also reaches children a process left in its group
        except (ProcessLookupError, PermissionError):
            pass
        p.wait()


def launch(command, workers, servers, timeout=None, log=sys.stderr):
    """Run the job; return the exit status. Prints one `launch: <role> pid <pid>` line per process started."""
    port = free_port()
    procs, roles = [], []

    def start(role, cmd, extra=None):
        p = subprocess.Popen(cmd, env=_env(role, workers, servers, port, extra), start_new_session=True)
        procs.append(p)
        roles.append(role)
        print(f'launch: {role} pid {p.pid}', file=log, flush=True)
        return p

    def on_signal(signum, _frame):
        raise KeyboardInterrupt(signal.Signals(signum).name)

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    status = 0
    try:
        start('scheduler', [sys.executable, '-c', ROLE_CODE])
        for _ in range(servers):
            start('server', [sys.executable, '-c', ROLE_CODE])
        worker_procs = [start('worker', command) for _ in range(workers)]
        deadline = time.time() + timeout if timeout else None
        while True:
            codes = [p.poll() for p in worker_procs]
            failed = [c for c in codes if c not in (None, 0)]
            if failed:
                status = failed[0]
                print(f'launch: a worker exited with {status}; stopping the job', file=log, flush=True)
                break
            # a scheduler or server that fails leaves the workers waiting for it forever (one that exits with 0
            # does so once every worker has finalized its kvstore: the job is ending)
            dead = [(role, p) for role, p in zip(roles, procs) if role != 'worker' and p.poll() not in (None, 0)]
            if dead:
                role, p = dead[0]
                status = 1
                print(f'launch: the {role} (pid {p.pid}) exited with {p.returncode} while workers ran; stopping the '
                      'job', file=log, flush=True)
                break
            if all(c == 0 for c in codes):
                # the scheduler and servers leave by themselves once every worker has finalized the kvstore
                end = time.time() + 30
                while time.time() < end and any(p.poll() is None for p in procs):
                    time.sleep(0.1)
                break
            if deadline and time.time() > deadline:
                status = 124
                print(f'launch: the job ran past --timeout {timeout}s; stopping it', file=log, flush=True)
                break
            time.sleep(0.1)
    except KeyboardInterrupt as e:
        status = 130
        print(f'launch: interrupted ({e}); stopping the job', file=log, flush=True)
    finally:
        _kill(procs)
        for s, h in old.items():
            signal.signal(s, h)
    for role, p in zip(roles, procs):
        if role != 'worker' and p.returncode not in (0, None) and status == 0:
            print(f'launch: the {role} (pid {p.pid}) exited with {p.returncode}', file=log, flush=True)
    return status


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if '--' not in argv:
        print('launch.py: error: give the worker command after --, e.g. '
              'launch.py -n 2 -s 1 -- python train.py --kvstore dist_sync', file=sys.stderr)
        return 2
    cut = argv.index('--')
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('-n', '--num-workers', type=int, required=True)
    p.add_argument('-s', '--num-servers', type=int, default=1)
    p.add_argument('--timeout', type=float, default=None, help='seconds before the whole job is stopped')
    args = p.parse_args(argv[:cut])
    command = argv[cut + 1:]
    if not command or args.num_workers < 1 or args.num_servers < 1:
        p.error('need a worker command, at least one worker and one server')
    return launch(command, args.num_workers, args.num_servers, args.timeout)


if __name__ == '__main__':
    sys.exit(main())
