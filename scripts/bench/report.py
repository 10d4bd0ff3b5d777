"""The benchmark report: docs/benchmarks.md and docs/img/benchmarks.png from one run (`make bench` ends with it).

    python scripts/bench/report.py [--models resnet50_v1,...] [--batches 1,16] [--seconds 2] [--rounds 3]
                                   [--quick] [--out docs/benchmarks.md]

For ResNet-50, MobileNetV2, SSD-512 (MobileNet 1.0) and BERT-base: items/s of gluonzoo plain / optimized / INT8,
ONNX Runtime on our export (fp32, QDQ INT8), GluonCV / GluonNLP, and ONNX Runtime on PyTorch's export of the same
architecture (for BERT: PyTorch's TransformerEncoder fast path itself). Each side runs in its own process
(lib/report_worker.py: MXNet and torch in one process slow each other down), and the variants are timed one window
at a time, round by round in a rotating order, each keeping its best window, so load on the machine hits all alike.
Every figure in the report comes from this run; the targets of issue 14 are judged on them.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEERS_PY = os.path.join(ROOT, '.venv-peers', 'bin', 'python')
WORKER = os.path.join(HERE, 'lib', 'report_worker.py')
MODELS = ['resnet50_v1', 'mobilenetv2_1.0', 'ssd_512_mobilenet1.0_voc', 'bert_12_768_12']
LABELS = {'resnet50_v1': 'ResNet-50 v1 (224)', 'mobilenetv2_1.0': 'MobileNetV2 1.0 (224)',
          'ssd_512_mobilenet1.0_voc': 'SSD-512 MobileNet 1.0 VOC (512)', 'bert_12_768_12': 'BERT-base (x 128 tokens)'}
# the models whose ONNX Runtime targets compare our export with PyTorch's (BERT's PyTorch file is its encoder alone)
ORT_TARGETS = ('resnet50_v1', 'mobilenetv2_1.0')
# BERT-base at batch 16 x 128 takes about a second a call on 2 cores: batch 8 keeps the windows short
BATCHES = {'bert_12_768_12': (1, 8)}
# (variant, process, label): the row order of the tables
VARIANTS = [('plain', 'gluonzoo', 'gluonzoo plain (hybridize static)'),
            ('optimized', 'gluonzoo', 'gluonzoo optimized (gz.optimize)'),
            ('int8', 'gluonzoo', 'gluonzoo INT8 (gz.quantize)'),
            ('ort_ours', 'ort', 'ONNX Runtime, our export'),
            ('ort_ours_int8', 'ort', 'ONNX Runtime, our QDQ INT8 export'),
            ('peer', 'peers', 'GluonCV / GluonNLP (hybridize static)'),
            ('ort_torch', 'ort', "ONNX Runtime, PyTorch's export"),
            ('torch', 'torch', 'PyTorch TransformerEncoder fast path')]
LABEL = {v: label for v, _, label in VARIANTS}


class Worker:
    """One report_worker.py process; `ask` sends a request and returns its answer (one JSON line each)."""
    def __init__(self, kind, python, log_dir, threads):
        self.kind, self.log = kind, os.path.join(log_dir, f'{kind}.log')
        env = {**os.environ, 'OMP_NUM_THREADS': str(threads), 'PYTHONUNBUFFERED': '1'}
        with open(self.log, 'w') as log:
            self.proc = subprocess.Popen([python, WORKER, kind], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=log, text=True, env=env, cwd=ROOT)

    def send(self, op, **req):
        self.proc.stdin.write(json.dumps({'op': op, **req}) + '\n')
        self.proc.stdin.flush()

    def answer(self):
        line = self.proc.stdout.readline()
        if not line:
            with open(self.log) as f:
                tail = f.read()[-3000:]
            raise RuntimeError(f'the {self.kind} worker died; its log ends:\n{tail}')
        return json.loads(line)

    def ask(self, op, **req):
        self.send(op, **req)
        return self.answer()

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def cpu_info():
    """CPU model, the ISA flags that decide oneDNN's kernels (what the training logs record) and the cores visible."""
    from gluonzoo.logs import machine
    m = machine()
    return {'cpu': m['cpu'], 'flags': m['isa'], 'cores': len(os.sched_getaffinity(0))}


def loadavg():
    return ' '.join(open('/proc/loadavg').read().split()[:3]) if os.path.exists('/proc/loadavg') else '?'


def cpu_seconds():
    """(CPU seconds the whole machine has been busy, of which this process and its reaped children), or None off
    Linux. Their difference over the run is what other processes took: the load average after the run counts the
    run's own threads, so it cannot tell whether anything else shared the cores."""
    import resource
    if not os.path.exists('/proc/stat'):
        return None
    with open('/proc/stat') as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
    own = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
              for f in ('ru_utime', 'ru_stime'))
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf('SC_CLK_TCK'), own


def version(dist):
    from importlib import metadata
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return 'not installed'


def measure(args, tmp):
    """{'machine': {...}, 'models': {model: {'rates': {batch: {variant: items/s}}, 'skipped', 'notes', 'files'}}}."""
    threads = int(os.environ.get('OMP_NUM_THREADS') or len(os.sched_getaffinity(0)))
    machine = {**cpu_info(), 'threads': threads, 'omp': os.environ.get('OMP_NUM_THREADS', 'unset'),
               'openblas': os.environ.get('OPENBLAS_CORETYPE', 'unset'),
               'load_before': loadavg(), 'cpu_before': cpu_seconds(),
               'started': datetime.datetime.now(datetime.timezone.utc)}
    workers = {k: Worker(k, sys.executable, tmp, threads) for k in ('gluonzoo', 'torch', 'ort')}
    peers_missing = None
    if os.path.exists(PEERS_PY):
        workers['peers'] = Worker('peers', PEERS_PY, tmp, threads)
    else:
        peers_missing = f'{os.path.relpath(PEERS_PY, ROOT)} is missing: run `make peers`'
    try:
        ceiling = [workers['gluonzoo'].ask('machine', seconds=args.sgemm_seconds)]
        models = {}
        for model in args.models:
            print(f'== {model}', flush=True)
            models[model] = one_model(model, args, workers, tmp, peers_missing)
        # the better of one before and one after the models
        ceiling.append(workers['gluonzoo'].ask('machine', seconds=args.sgemm_seconds))
    finally:
        for w in workers.values():
            w.close()
    machine.update(sgemm=max(c['sgemm_onednn'] for c in ceiling), sgemm_dot=max(c['sgemm_dot'] for c in ceiling),
                   load_after=loadavg(), versions={d: version(d) for d in ('mxnet', 'onnxruntime', 'torch',
                                                                            'torchvision', 'onnx')},
                   seconds=time.time() - machine['started'].timestamp())
    return {'machine': machine, 'models': models}


def one_model(model, args, workers, tmp, peers_missing):
    """Set every side up for `model`, then time the variants at each batch size, round by round."""
    skipped, notes, files, run = {}, {}, {}, []
    if peers_missing:
        skipped['peer'] = peers_missing
    kinds, t0 = [k for k in ('torch', 'gluonzoo', 'peers') if k in workers], time.perf_counter()
    for kind in kinds:  # all at once (nothing is timed yet); the ORT worker waits for their ONNX files
        workers[kind].send('setup', model=model, tmp=tmp)
    for kind in kinds:
        ans = workers[kind].answer()
        print(f'   {kind} ready after {time.perf_counter() - t0:.1f} s', flush=True)
        if 'error' in ans:
            for v, side, _ in VARIANTS:
                if side == kind and (v != 'torch' or model == 'bert_12_768_12'):
                    skipped.setdefault(v, f'{kind} setup failed: {ans["error"]}')
            continue
        run += [(v, kind) for v in ans['variants']]
        skipped.update(ans['skipped'])
        notes.update(ans['notes'])
        files.update(ans['files'])
    ans = workers['ort'].ask('setup', model=model, tmp=tmp, files=files)
    run += [(v, 'ort') for v in ans['variants']]
    skipped.update(ans['skipped'])
    notes.update(ans['notes'])
    order = [v for v, _, _ in VARIANTS]
    run.sort(key=lambda r: order.index(r[0]))
    rates = {}
    for batch in BATCHES.get(model, args.batches) if not args.batches_given else args.batches:
        rates[batch] = {}
        for r in range(args.rounds):
            for v, kind in run[r % len(run):] + run[:r % len(run)]:  # rotated: no variant always goes first
                time.sleep(0.2)  # the previous process's idle threads stop spinning
                ans = workers[kind].ask('time', variant=v, batch=batch, seconds=args.seconds / args.rounds)
                if 'error' in ans:
                    skipped[v] = f'failed at batch {batch}: {ans["error"]}'
                    continue
                rates[batch][v] = max(rates[batch].get(v, 0.0), ans['rate'])
        print(f'   batch {batch}: ' + ', '.join(f'{v} {x:.1f}' for v, x in rates[batch].items()), flush=True)
    for batch in rates:
        for v in list(rates[batch]):
            if v in skipped:
                del rates[batch][v]
    profiles = {}  # where the two ONNX files' time goes, for the targets' why (only where both were timed)
    for batch in rates:
        if model in ORT_TARGETS and {'ort_ours', 'ort_torch'} <= set(rates[batch]):
            profiles[batch] = {v: workers['ort'].ask('profile', variant=v, batch=batch)
                               for v in ('ort_ours', 'ort_torch')}
    return {'rates': rates, 'skipped': skipped, 'notes': notes, 'nodes': onnx_nodes(files), 'profiles': profiles}


def onnx_nodes(files):
    """Node count of each ONNX file (the targets' 'why' cites them)."""
    import onnx
    return {v: len(onnx.load(p, load_external_data=False).graph.node) for v, p in files.items()
            if os.path.exists(p)}


def input_pipeline(tmp, quick):
    """scripts/bench/input_pipeline.py's figures (its --json output), or why there are none."""
    script = os.path.join(HERE, 'input_pipeline.py')
    if not os.path.exists(script):
        return None, 'not measured: scripts/bench/input_pipeline.py does not exist'
    out = os.path.join(tmp, 'input_pipeline.json')
    cmd = [sys.executable, script, '--json', out] + (['--quick'] if quick else [])
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode or not os.path.exists(out):
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ['no output']
        return None, f'not measured: {" ".join(cmd[1:])} exited {proc.returncode} ({tail[0][:160]})'
    with open(out) as f:
        return json.load(f), None


def main(argv=None):
    from report_text import chart, write_report
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--models', default=','.join(MODELS), help=f'comma-separated, of {", ".join(MODELS)}')
    p.add_argument('--batches', help='comma-separated batch sizes (default 1,16; BERT 1,8)')
    p.add_argument('--seconds', type=float, default=3.0, help='timing per figure, all rounds together')
    p.add_argument('--rounds', type=int, default=3)
    p.add_argument('--quick', action='store_true', help='tiny windows, one batch size: checks that it all runs')
    p.add_argument('--out', default=os.path.join(ROOT, 'docs', 'benchmarks.md'))
    p.add_argument('--chart', help='bar chart PNG (default: img/benchmarks.png beside --out)')
    args = p.parse_args(argv)
    args.models = [m for m in args.models.split(',') if m]
    unknown = [m for m in args.models if m not in MODELS]
    if unknown:
        p.error(f'unknown model {unknown[0]!r}: use {", ".join(MODELS)}')
    args.batches_given, args.sgemm_seconds = bool(args.batches), 0.1 if args.quick else 1.0
    args.batches = [int(b) for b in (args.batches or '1,16').split(',')]
    if args.quick:
        args.seconds, args.rounds = min(args.seconds, 0.2), 2
        args.batches_given, args.batches = True, args.batches if args.batches_given else [1]
    args.chart = args.chart or os.path.join(os.path.dirname(os.path.abspath(args.out)), 'img', 'benchmarks.png')
    with tempfile.TemporaryDirectory(prefix='gluonzoo-report-') as tmp:
        results = measure(args, tmp)
        t0 = time.perf_counter()
        results['pipeline'] = input_pipeline(tmp, args.quick)
        print(f'== input pipeline: {time.perf_counter() - t0:.1f} s', flush=True)
    results['machine'].update(seconds=time.time() - results['machine']['started'].timestamp(),
                              cpu_after=cpu_seconds())
    os.makedirs(os.path.dirname(os.path.abspath(args.chart)), exist_ok=True)
    chart(results, args.chart + '.part')
    text = write_report(results, args, os.path.relpath(args.chart, os.path.dirname(os.path.abspath(args.out))))
    with open(args.out + '.part', 'w') as f:
        f.write(text)
    os.replace(args.chart + '.part', args.chart)  # both files, or neither
    os.replace(args.out + '.part', args.out)
    print(f'wrote {args.out} and {args.chart} in {results["machine"]["seconds"]:.0f} s')
    return 0


if __name__ == '__main__':
    sys.path.insert(0, os.path.join(HERE, 'lib'))
    sys.exit(main())
