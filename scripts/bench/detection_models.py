"""Detector throughput: gluonzoo vs GluonCV 0.10.5, hybridized, batch 1 and 8, and the per-class NMS call's time.

    python scripts/bench/detection_models.py [--models ssd_512_mobilenet1.0_voc,...] [--seconds 3] [--rounds 2]
                                              [--out FILE]

Both run in ONE process (lib/peers.py), their measurements alternating round by round, each side's best kept. Both
nets hold the SAME random weights (GluonCV's, loaded into ours: the detectors are parameter-compatible), so the boxes
they send through NMS, and so the NMS work, are the same. Inputs are each record's input size (SSD/CenterNet 512,
YOLOv3 416, Faster R-CNN 600x600; GluonCV's Faster R-CNN takes one picture, so batch 1 only). NMS: `box_nms` on an
SSD-512 VOC output (24,564 boxes x 20 classes of random scores) with GluonCV's SSD settings; gluonzoo's detectors call
the same operator through vision/ops/nms.py.
"""
import json
import os
import sys
import tempfile
import time

from lib import timing_parser
from lib.peers import in_peers, reexec_in_peers, throughput

MODELS = ['ssd_512_mobilenet1.0_voc', 'yolo3_mobilenet1.0_voc', 'center_net_resnet18_v1b_voc',
          'faster_rcnn_resnet50_v1b_voc']
ONE_PICTURE = ('faster_rcnn',)  # GluonCV's Faster R-CNN inference takes batch 1 only


def _side(name):
    import gluonzoo as gz
    return gz.get_weights(name).input_shape[2]


def build_pair(name, folder):
    """(gluonzoo net, GluonCV net) of `name` holding the same random weights, both hybridized."""
    import mxnet as mx
    import gluonzoo as gz
    from gluoncv import model_zoo
    side = _side(name)
    theirs = model_zoo.get_model(name, pretrained=False, pretrained_base=False)
    theirs.initialize()
    theirs(mx.nd.zeros((1, 3, side, side)))
    path = os.path.join(folder, f'{name}.params')
    theirs.save_parameters(path)
    ours = gz.get_model(name, pretrained_base=False)
    ours.load_parameters(path)
    for net in (ours, theirs):
        net.hybridize(static_alloc=True, static_shape=True)
    return ours, theirs


def measure(name, batches, seconds, rounds):
    import mxnet as mx
    with tempfile.TemporaryDirectory() as tmp:
        nets = dict(zip(('gluonzoo', 'gluoncv'), build_pair(name, tmp)))
    side = _side(name)
    batches = [1] if name.startswith(ONE_PICTURE) else batches
    out = {impl: {} for impl in nets}
    for _ in range(rounds):
        for b in batches:
            x = mx.nd.random.uniform(shape=(b, 3, side, side))
            for impl, net in nets.items():
                v = throughput(net, x, seconds / rounds)
                out[impl][f'b{b}'] = max(out[impl].get(f'b{b}', 0.0), v)
    return out


def nms_ms(seconds=2.0):
    """Milliseconds per box_nms call on an SSD-512 VOC output, GluonCV's SSD settings (ours calls the same op)."""
    import mxnet as mx
    from gluonzoo.vision.ops.nms import nms
    mx.random.seed(0)
    boxes = mx.nd.random.uniform(0, 512, shape=(1, 24564, 4)).sort(axis=-1)  # x1 < y1 < x2 < y2: valid corners
    rows = []
    for c in range(20):
        rows.append(mx.nd.concat(mx.nd.full((1, 24564, 1), c), mx.nd.random.uniform(shape=(1, 24564, 1)) ** 8,
                                 boxes, dim=-1))
    rows = mx.nd.concat(*rows, dim=1)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds or n < 3:
        nms(mx.nd, rows, thresh=0.45, topk=400, post_nms=100)[0].wait_to_read()
        n += 1
    return 1000 * (time.perf_counter() - t0) / n


def main(argv=None):
    p = timing_parser(__doc__, MODELS, batches='1,8', rounds=2)
    args = p.parse_args(argv)
    if not in_peers():
        return reexec_in_peers(__file__, sys.argv[1:] if argv is None else list(argv))
    import mxnet as mx
    batches = [int(b) for b in args.batches.split(',')]
    results = {}
    for name in args.models.split(','):
        results[name] = measure(name, batches, args.seconds, args.rounds)
        print(name, json.dumps(results[name]), flush=True)
    load = os.getloadavg()[0]
    lines = [f'Measured {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}: mxnet {mx.__version__}, '
             f'{os.cpu_count()} CPUs visible, OMP_NUM_THREADS={os.environ.get("OMP_NUM_THREADS", "unset")}, '
             f'load average {load:.1f} at the end, {args.rounds} alternating rounds, {args.seconds:.1f} s per figure.',
             '', 'img/s, gluonzoo / gluoncv (ratio), hybridized, both in one process, the same random weights.', '',
             '| detector | input | ' + ' | '.join(f'batch {b}' for b in batches) + ' |',
             '|---|---|' + '---|' * len(batches)]
    for name, r in results.items():
        cells = []
        for b in batches:
            ours, theirs = r['gluonzoo'].get(f'b{b}'), r['gluoncv'].get(f'b{b}')
            cells.append(f'{ours:.2f} / {theirs:.2f} ({ours / theirs:.2f}x)' if ours else '-')
        lines.append(f'| {name} | {_side(name)} | ' + ' | '.join(cells) + ' |')
    lines += ['', f'Per-class NMS (box_nms, 491,280 rows, thresh 0.45, topk 400): {nms_ms():.1f} ms a call.']
    report = '\n'.join(lines)
    print(report)
    if args.out:
        with open(args.out, 'w') as f:
            f.write(report + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
