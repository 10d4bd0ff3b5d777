"""Benchmark: ONNX Runtime on gluonzoo's export vs MXNet hybridized vs ONNX Runtime on PyTorch's export of the same
architecture, ResNet-50 (v1) and MobileNetV2 1.0 at batch 1 and 16, in one run, reported as ratios.

PyTorch's side: torchvision cannot be installed beside torch 2.13 here, so the two architectures are written
below in plain torch (same layers, channels and strides as the Gluon ones; weights are random, which does not
change the arithmetic) and exported with torch.onnx.export (TorchScript exporter, opset 13, dynamic batch).
All runtimes get the same thread count (--threads, default 1: the CI machine has 2 shared cores).

    python scripts/bench/export_onnx.py [--models mobilenetv2_1.0 resnet50_v1] [--batches 1 16] [--threads 1]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time


def interleaved(fns, warmup, repeats):
    """Median seconds of each fn, timed in rounds (one call of each per round) so that load changes on a shared
    machine hit all of them alike."""
    for fn in fns:
        for _ in range(warmup):
            fn()
    times = [[] for _ in fns]
    for _ in range(repeats):
        for t, fn in zip(times, fns):
            t0 = time.perf_counter()
            fn()
            t.append(time.perf_counter() - t0)
    return [statistics.median(t) for t in times]


# -- the same architectures in torch ------------------------------------------------------------------------------
def torch_mobilenetv2():
    from torch import nn

    def cbr(i, o, k=1, s=1, g=1, act=True):
        layers = [nn.Conv2d(i, o, k, s, k // 2, groups=g, bias=False), nn.BatchNorm2d(o)]
        return layers + [nn.ReLU6()] if act else layers

    class Block(nn.Module):
        def __init__(self, i, o, t, s):
            super().__init__()
            h = i * t
            self.short = s == 1 and i == o
            self.body = nn.Sequential(*((cbr(i, h) if t != 1 else []) + cbr(h, h, 3, s, h) + cbr(h, o, act=False)))

        def forward(self, x):
            return x + self.body(x) if self.short else self.body(x)
    layers, c = cbr(3, 32, 3, 2), 32
    for t, o, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1)]:
        for k in range(n):
            layers.append(Block(c, o, t, s if k == 0 else 1))
            c = o
    layers += cbr(c, 1280) + [nn.AdaptiveAvgPool2d(1), nn.Conv2d(1280, 1000, 1, bias=False), nn.Flatten()]  # head_bias=False
    return nn.Sequential(*layers)


def torch_resnet50_v1():
    from torch import nn

    class Bottleneck(nn.Module):  # GluonCV's BottleneckV1: stride on the first 1x1; the two 1x1 convs have bias
        def __init__(self, i, o, s):
            super().__init__()
            m = o // 4
            self.body = nn.Sequential(nn.Conv2d(i, m, 1, s), nn.BatchNorm2d(m), nn.ReLU(),
                                      nn.Conv2d(m, m, 3, 1, 1, bias=False), nn.BatchNorm2d(m), nn.ReLU(),
                                      nn.Conv2d(m, o, 1), nn.BatchNorm2d(o))
            self.down = (nn.Sequential(nn.Conv2d(i, o, 1, s, bias=False), nn.BatchNorm2d(o))
                         if s != 1 or i != o else nn.Identity())
            self.relu = nn.ReLU()

        def forward(self, x):
            return self.relu(self.body(x) + self.down(x))
    layers, c = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)], 64
    for o, n, s in [(256, 3, 1), (512, 4, 2), (1024, 6, 2), (2048, 3, 2)]:
        for k in range(n):
            layers.append(Bottleneck(c, o, s if k == 0 else 1))
            c = o
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000)]
    return nn.Sequential(*layers)


TORCH = {'mobilenetv2_1.0': torch_mobilenetv2, 'resnet50_v1': torch_resnet50_v1}


def torch_onnx(name, path):
    import torch
    torch.manual_seed(0)
    model = TORCH[name]().eval()
    with torch.no_grad():
        torch.onnx.export(model, (torch.zeros(1, 3, 224, 224),), path, input_names=['data'], output_names=['out'],
                          opset_version=13, dynamic_axes={'data': {0: 'batch'}, 'out': {0: 'batch'}}, dynamo=False)
    return path, sum(p.numel() for p in model.parameters())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--models', nargs='+', default=['mobilenetv2_1.0', 'resnet50_v1'])
    ap.add_argument('--batches', nargs='+', type=int, default=[1, 16])
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--repeats', type=int, default=20)
    args = ap.parse_args()
    os.environ.setdefault('OMP_NUM_THREADS', str(args.threads))
    os.environ.setdefault('MXNET_CPU_WORKER_NTHREADS', str(args.threads))
    import mxnet as mx
    import numpy as np
    import gluonzoo as gz
    from gluonzoo.exporting.verify import ort_session
    from gluonzoo.registry import count_params

    registered = set(gz.list_models())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models:
            if name not in registered:
                print(f'{name}: not registered, skipped')
                continue
            net = gz.get_model(name)  # random init: speed does not depend on the weights
            net.initialize()
            net.hybridize(static_alloc=True, static_shape=True)
            gz_file = gz.export(net, os.path.join(tmp, name), input_shape=(1, 3, 224, 224), formats=('onnx',),
                                name=name)['onnx']
            gz_sess = ort_session(gz_file, args.threads)
            try:
                pt_file, pt_params = torch_onnx(name, os.path.join(tmp, name + '-torch.onnx'))
                pt_sess = ort_session(pt_file, args.threads)
                if pt_params != count_params(net):
                    print(f'{name}: torch twin has {pt_params} parameters, Gluon {count_params(net)}')
            except Exception as e:  # noqa: BLE001 - the benchmark reports what it could not measure
                pt_sess = None
                print(f'{name}: PyTorch export failed ({str(e).splitlines()[0][:120]}); that column is empty')
            for batch in args.batches:
                x = np.random.RandomState(0).uniform(size=(batch, 3, 224, 224)).astype(np.float32)
                xm = mx.nd.array(x)
                reps = max(5, args.repeats // (4 if batch > 1 else 1))
                fns = [lambda: net(xm).wait_to_read(), lambda: gz_sess.run(None, {'data': x})]
                fns += [lambda: pt_sess.run(None, {'data': x})] if pt_sess else []
                t_mx, t_gz, t_pt = (interleaved(fns, 2, reps) + [float('nan')])[:3]
                rows.append((name, batch, t_mx, t_gz, t_pt))
                print(f'{name:<16} batch {batch:>2}: MXNet {t_mx * 1e3:8.1f} ms  ORT(gluonzoo) {t_gz * 1e3:8.1f} ms  '
                      f'ORT(torch) {t_pt * 1e3:8.1f} ms   gluonzoo vs MXNet {t_mx / t_gz:4.2f}x, '
                      f'vs torch export {t_pt / t_gz:4.2f}x', flush=True)
    print(f'\n| model | batch | MXNet hybridized ms | ORT gluonzoo export ms | ORT PyTorch export ms | '
          f'gluonzoo/MXNet speed-up | gluonzoo/PyTorch-export speed-up |  (threads={args.threads}, median)')
    print('|---|---|---|---|---|---|---|')
    for name, batch, t_mx, t_gz, t_pt in rows:
        print(f'| {name} | {batch} | {t_mx * 1e3:.1f} | {t_gz * 1e3:.1f} | {t_pt * 1e3:.1f} | {t_mx / t_gz:.2f}x | '
              f'{t_pt / t_gz:.2f}x |')
    return 0


if __name__ == '__main__':
    sys.exit(main())
