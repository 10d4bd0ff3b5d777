"""Rerun a trained checkpoint's recipe N times and count the distinct results: the tool for run-to-run variation.

    python scripts/stress/rerun.py mobilenetv2_1.0.digits 3                      # the record's exact command
    python scripts/stress/rerun.py mobilenetv2_1.0.digits 5 --extra '--train-limit 512'   # a quicker probe
    python scripts/stress/rerun.py mobilenetv2_1.0.digits 5 --env MXNET_ENGINE_TYPE=NaiveEngine

Each run writes to its own temp folder (the record's --out and --log replaced); printed per run: every epoch's
eval metric and the weights' sha1; at the end, how many distinct logs (wall-clock fields aside) the runs gave. Exit
status 1 when there was more than one.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _records(log):
    with open(log) as f:
        rs = [json.loads(line) for line in f if line.strip()]
    return [{k: v for k, v in r.items() if k not in ('time', 'seconds')} for r in rs if r['type'] in ('epoch', 'final')]


def _floats(record, prefix=''):
    """The float fields of a record, nested ones flattened ('eval.top1'), rounded for reading."""
    out = {}
    for k, v in record.items():
        if isinstance(v, dict):
            out.update(_floats(v, f'{prefix}{k}.'))
        elif isinstance(v, float) and k != 'lr':
            out[prefix + k] = round(v, 5)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('name', help='a checkpoint gluonzoo trained, e.g. mobilenetv2_1.0.digits')
    ap.add_argument('runs', type=int)
    ap.add_argument('--extra', default='', help='options appended to the recipe command')
    ap.add_argument('--env', action='append', default=[], help='KEY=VALUE for every run (repeatable)')
    ap.add_argument('--fresh-cache', action='store_true',
                    help='give each run its own empty GLUONZOO_HOME (a first use converts or fetches the weights)')
    args = ap.parse_args(argv)
    from gluonzoo.recipes import recipe_command
    from gluonzoo.registry import get_weights
    env, cmd = recipe_command(get_weights(args.name))
    env.update(kv.split('=', 1) for kv in args.env)
    seen = {}
    with tempfile.TemporaryDirectory(prefix='stress-rerun-') as tmp:
        for i in range(args.runs):
            out, log = os.path.join(tmp, f'run{i}'), os.path.join(tmp, f'run{i}.jsonl')
            argv_i = list(cmd)
            argv_i[argv_i.index('--out') + 1], argv_i[argv_i.index('--log') + 1] = out, log
            t0 = time.time()
            run_env = dict(os.environ, **env)
            if args.fresh_cache:
                run_env['GLUONZOO_HOME'] = os.path.join(tmp, f'home{i}')
            p = subprocess.run([sys.executable, *argv_i[1:], *shlex.split(args.extra)], cwd=ROOT, env=run_env,
                               capture_output=True, text=True, timeout=7200)
            if p.returncode != 0:
                print(f'run {i + 1}: FAILED\n{p.stderr[-2000:]}', flush=True)
                return 1
            records = _records(log)
            key = json.dumps(records, sort_keys=True)
            seen.setdefault(key, []).append(i + 1)
            metrics = [_floats(r) for r in records if r['type'] == 'epoch']
            print(f'run {i + 1}: result #{list(seen).index(key) + 1} sha1 {records[-1].get("weights_sha1", "?")[:8]} '
                  f'epochs {metrics} ({time.time() - t0:.0f} s)', flush=True)
    print(f'{args.runs} runs of {args.name}: {len(seen)} distinct result(s): '
          + '; '.join(f'#{j + 1} runs {runs}' for j, runs in enumerate(seen.values())))
    return int(len(seen) > 1)


if __name__ == '__main__':
    sys.exit(main())
