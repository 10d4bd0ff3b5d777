"""Fused inference: gz.optimize (MXNet's oneDNN subgraph backend) vs plain hybridization, batch 1 and 16.

    python scripts/bench/optimize.py [--models mobilenetv2_1.0,resnet50_v1b] [--seconds 3] [--rounds 3] [--out FILE]

One process, gluonzoo only: for each model three copies of one random-weight net, `hybridize()` (what the
inference entry points did before), `hybridize(static_alloc=True, static_shape=True)` (the best plain path) and
`gz.optimize`; their measurements alternate for `--rounds` rounds and each keeps its best, so a busy machine slows
all three alike. Figures are img/s on 224x224 inputs; the ratios are optimized over each plain mode. The issue's
figures (a quiet 2-core machine): MobileNetV2 5.4x `hybridize()` at batch 1, ResNet-50 about 1.1x.
"""
import os
import sys
import time

from lib import timing_parser
from lib.peers import throughput

MODELS = ['mobilenetv2_1.0', 'resnet50_v1b']
MODES = ['hybridize', 'static', 'optimized']


def build(name, mode, x):
    import mxnet as mx
    import gluonzoo as gz
    mx.random.seed(0)  # the same weights for the three modes
    net = gz.get_model(name)
    net.initialize()
    net(x)  # settle deferred shapes outside the timing
    if mode == 'hybridize':
        net.hybridize()
    elif mode == 'static':
        net.hybridize(static_alloc=True, static_shape=True)
    else:
        gz.optimize(net, x)
    return net


def measure(name, batches, seconds, rounds):
    """{mode: {batch: img/s}} for one model, the modes alternating, best of `rounds`."""
    import mxnet as mx
    from gluonzoo.optimizing import is_optimized
    out = {m: {} for m in MODES}
    for b in batches:
        x = mx.nd.random.uniform(shape=(b, 3, 224, 224))
        nets = {m: build(name, m, x) for m in MODES}
        if not is_optimized(nets['optimized']):
            sys.exit(f'{name}: gz.optimize kept the plain path (see the warning above): nothing to measure')
        for _ in range(rounds):
            for m in MODES:
                out[m][b] = max(out[m].get(b, 0.0), throughput(nets[m], x, seconds / rounds))
    return out


def report(results, batches, env):
    lines = [f'Measured {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}: {env}.', '',
             'img/s (224x224, random weights); ratio = optimized / plain.', '',
             '| model | batch | hybridize() | hybridize(static) | gz.optimize | x hybridize() | x static |',
             '|---|---|---|---|---|---|---|']
    for name, r in results.items():
        for b in batches:
            h, s, o = (r[m][b] for m in MODES)
            lines.append(f'| {name} | {b} | {h:.1f} | {s:.1f} | {o:.1f} | {o / h:.2f}x | {o / s:.2f}x |')
    return '\n'.join(lines)


def main(argv=None):
    p = timing_parser(__doc__, MODELS)
    args = p.parse_args(argv)
    import mxnet as mx
    batches = [int(b) for b in args.batches.split(',')]
    results = {}
    for name in args.models.split(','):
        results[name] = measure(name, batches, args.seconds, args.rounds)
        print(name, results[name], flush=True)
    env = (f'mxnet {mx.__version__}, {os.cpu_count()} CPUs visible, OMP_NUM_THREADS='
           f'{os.environ.get("OMP_NUM_THREADS", "unset")}, {args.rounds} alternating rounds, '
           f'{args.seconds:.1f} s per figure')
    text = report(results, batches, env)
    print(text)
    if args.out:
        with open(args.out, 'w') as f:
            f.write(text + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
