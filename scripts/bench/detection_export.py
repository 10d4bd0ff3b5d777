"""Benchmark: ONNX Runtime on gluonzoo's detector export (NMS in the graph) vs MXNet hybridized vs GluonCV 0.10.5,
batch 1, in one run: yolo3_tiny_darknet_coco (gluonzoo only: GluonCV has no YOLOv3-tiny; darknet's real weights),
yolo3_mobilenet1.0_voc, ssd_512_mobilenet1.0_voc, center_net_resnet18_v1b_voc (random weights, the same on all three
sides, so they run the same boxes through NMS: gluonzoo's nets He-initialized (INIT), saved, loaded into GluonCV's.
Not GluonCV's own random init: it draws negative BatchNorm variances in SSD's extra layers (NaN in ONNX Runtime,
garbage in MXNet) and shrinks MobileNet's activations to 1e-21, where float rounding decides the scores; nor
Xavier's default (fan average): MobileNet's depthwise layers still shrink the features to 1e-16, every SSD logit
rounds to 0 and all scores tie at 1/21, a degenerate NMS. With INIT, SSD and YOLOv3 give 100 distinct scores an
image; CenterNet's ResNet-18 saturates its heatmap at 1.0, which changes nothing in its data-independent top-k).

    python scripts/bench/detection_export.py [--models ...] [--threads 1] [--repeats 20] [--out FILE]

--out writes the report as the section SECTION of FILE (replacing that section if FILE has it, else appending it),
e.g. --out docs/detection_bench.md.

Two processes, one after the other: the GluonCV side runs in the peers venv (lib/peers.py: GluonCV and gluonzoo's
MXNet net in ONE process, calls alternating round by round), then this process (the .venv, which has ONNX Runtime)
loads the same weights, exports, checks ORT against MXNet (verify.compare_detections) and times ORT and MXNet, calls
alternating. Every runtime gets --threads threads (MXNet's OMP_NUM_THREADS, ORT's intra-op pool); each figure is the
median of --repeats calls at each record's input size. Per process, MXNet's figure is the reference of the ratio.
"""
import argparse
import json
import os
import sys
import tempfile
import time
from functools import partial

from export_onnx import interleaved
from lib.peers import in_peers, reexec_in_peers

MODELS = ['yolo3_tiny_darknet_coco', 'yolo3_mobilenet1.0_voc', 'ssd_512_mobilenet1.0_voc',
          'center_net_resnet18_v1b_voc']
OURS_ONLY = ('yolo3_tiny_darknet_coco',)
#: He / MSRA: gaussian, variance 2 / fan-in (a depthwise 3x3 has fan-in 9), so activations keep their scale
INIT = dict(rnd_type='gaussian', factor_type='in', magnitude=2)
SECTION = '## Detector export: ONNX Runtime (NMS in the graph) vs MXNet vs GluonCV'  # not in GluonCV: real darknet weights, no GluonCV column


def _mxnet_call(net, x):
    net(x)
    import mxnet as mx
    mx.nd.waitall()  # every output (detectors return several)


def _shape(name):
    import gluonzoo as gz
    return tuple(gz.get_weights(name).input_shape)


def peers_side(models, folder, repeats):
    """In the peers venv: gluonzoo's net with He-initialized random weights (INIT), saved to `folder` and loaded into
    GluonCV's (the files load both ways); median ms of each, alternating. {name: {'gluoncv': ms, 'gluonzoo_mxnet':
    ms}}."""
    import warnings
    import mxnet as mx
    import gluonzoo as gz
    from gluoncv import model_zoo
    warnings.filterwarnings('ignore', message='.*is already initialized')  # GluonCV's nets init some layers early
    out = {}
    for name in models:
        shape = _shape(name)
        path = os.path.join(folder, f'{name}.params')
        mx.random.seed(0)
        ours = gz.get_model(name, pretrained_base=False)
        ours.initialize(mx.init.Xavier(**INIT), force_reinit=True)
        ours(mx.nd.zeros(shape))
        ours.save_parameters(path)
        theirs = model_zoo.get_model(name, pretrained=False, pretrained_base=False)
        theirs.load_parameters(path)
        for net in (ours, theirs):
            net.hybridize(static_alloc=True, static_shape=True)
        x = mx.nd.random.uniform(shape=shape)
        t_gc, t_gz = interleaved([partial(_mxnet_call, theirs, x), partial(_mxnet_call, ours, x)], 2, repeats)
        out[name] = {'gluoncv': t_gc * 1e3, 'gluonzoo_mxnet': t_gz * 1e3}
        print(f'{name:<28} GluonCV {t_gc * 1e3:8.1f} ms  gluonzoo MXNet {t_gz * 1e3:8.1f} ms', flush=True)
    return out


def ort_side(models, folder, repeats, threads):
    """In the .venv: the same weights (GluonCV's file, or darknet's for ours-only), exported with NMS in the graph,
    checked against MXNet, then median ms of MXNet hybridized and ORT, alternating."""
    import mxnet as mx
    import numpy as np
    import gluonzoo as gz
    from gluonzoo.exporting import compare
    from gluonzoo.exporting.detection import nms_nodes
    from gluonzoo.exporting.verify import compare_detections, detection_session, ort_session
    out = {}
    for name in models:
        shape = _shape(name)
        if name in OURS_ONLY:
            net = gz.get_model(name, pretrained=True)
        else:
            net = gz.get_model(name, pretrained_base=False)
            net.load_parameters(os.path.join(folder, f'{name}.params'))
        net.hybridize(static_alloc=True, static_shape=True)
        onnx_file = gz.export(net, os.path.join(folder, name), input_shape=shape, formats=('onnx',), name=name)['onnx']
        x = np.random.RandomState(0).uniform(size=shape).astype(np.float32)
        xm = mx.nd.array(x)
        if nms_nodes(net._cached_graph[1]):
            report = compare_detections(net, onnx_file, (xm,), session=detection_session(net, onnx_file))
        else:  # CenterNet decodes its heatmap's peaks: no NMS
            report = {'error': compare(net, onnx_file, (xm,)), 'end_to_end': 'equal (no NMS)'}
        sess = ort_session(onnx_file, threads)
        t_mx, t_ort = interleaved([partial(_mxnet_call, net, xm), partial(sess.run, None, {'data': x})], 2, repeats)
        out[name] = {'mxnet': t_mx * 1e3, 'ort': t_ort * 1e3, 'parity': report}
        print(f'{name:<28} MXNet {t_mx * 1e3:8.1f} ms  ORT {t_ort * 1e3:8.1f} ms  ({t_mx / t_ort:.2f}x)  parity: '
              f'{report["end_to_end"]}, {report["error"]:.1e}', flush=True)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--models', default=','.join(MODELS))
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--repeats', type=int, default=20)
    ap.add_argument('--out', help='write the markdown table here')
    ap.add_argument('--peers-folder', help=argparse.SUPPRESS)  # the peers process: where weights and results go
    args = ap.parse_args(argv)
    os.environ.setdefault('OMP_NUM_THREADS', str(args.threads))
    os.environ.setdefault('MXNET_CPU_WORKER_NTHREADS', str(args.threads))
    models = args.models.split(',')
    if in_peers():
        results = peers_side([m for m in models if m not in OURS_ONLY], args.peers_folder, args.repeats)
        with open(os.path.join(args.peers_folder, 'peers.json'), 'w') as f:
            json.dump(results, f)
        return 0
    import mxnet as mx
    import onnxruntime
    with tempfile.TemporaryDirectory() as folder:
        code = reexec_in_peers(__file__, ['--models', args.models, '--threads', str(args.threads), '--repeats',
                                          str(args.repeats), '--peers-folder', folder])
        if code:
            return code
        with open(os.path.join(folder, 'peers.json')) as f:
            peers = json.load(f)
        ours = ort_side(models, folder, args.repeats, args.threads)
    lines = [f'Measured {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}: mxnet {mx.__version__}, onnxruntime '
             f'{onnxruntime.__version__}, {os.cpu_count()} CPUs visible, {args.threads} thread(s) per runtime, '
             f'load average {os.getloadavg()[0]:.1f} at the end, median of {args.repeats} alternating calls, batch 1.',
             '', 'ms per image (lower is better). ORT and "MXNet" are timed in the gluonzoo process; GluonCV and '
             '"gluonzoo MXNet (peers)" in the peers process.', '',
             '| detector | input | ORT, NMS in graph | MXNet hybridized | ORT speed-up | GluonCV | gluonzoo MXNet '
             '(peers) | gluonzoo / GluonCV | ORT vs MXNet outputs |',
             '|---|---|---|---|---|---|---|---|---|']
    for name in models:
        o, p = ours[name], peers.get(name)
        side = 'x'.join(map(str, _shape(name)[2:]))
        peer_cells = (f'{p["gluoncv"]:.1f} | {p["gluonzoo_mxnet"]:.1f} | {p["gluoncv"] / p["gluonzoo_mxnet"]:.2f}x'
                      if p else '- | - | -')
        lines.append(f'| {name} | {side} | {o["ort"]:.1f} | {o["mxnet"]:.1f} | {o["mxnet"] / o["ort"]:.2f}x | '
                     f'{peer_cells} | {o["parity"]["end_to_end"]}, {o["parity"]["error"]:.0e} |')
    report = '\n'.join(lines)
    print(report)
    if args.out:
        write_section(args.out, report)
    return 0


def write_section(path, report):
    """Put `report` under SECTION in the markdown file `path`: in place of that section, else at the end."""
    text = open(path).read() if os.path.exists(path) else ''
    body = f'{SECTION}\n\n{report}\n'
    if SECTION in text:
        start = text.index(SECTION)
        end = text.find('\n## ', start + len(SECTION))
        text = text[:start] + body + (text[end + 1:] if end >= 0 else '')
    else:
        text = text.rstrip('\n') + ('\n\n' if text else '') + body
    with open(path, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    sys.exit(main())
