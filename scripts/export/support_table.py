"""Generate docs/export_support.md: every registered model x {ORT Python, ORT C++, OpenCV C++, OpenCV Java}.

ORT Python: the registry test's check (tiny config, MXNet vs ONNX Runtime, relative error <= 1e-4).
The three service columns (image classifiers with a weights record, whose preprocessing the services read from
the ONNX metadata): the model is exported at its record's input size with random weights (the arithmetic is what
is checked; weights files are not needed) and the CLIs of scripts/deploy/ classify vision/assets/chelsea.jpg;
pass = the top-1 has MXNet's top probability and every top-5 probability is within 1e-4 of MXNet's on the
same preprocessing (random weights give near-ties, so the index itself may differ among tied classes).

Detectors (a graph ending in box_nms): ORT Python is the registry test's verify.compare_detections (candidate rows
within 1e-4, the exported NMS exactly MXNet's box_nms on them, final detections equal; "ties" when ORT's scores
order random-weight candidates otherwise than MXNet's only at ties of MXNet's own scores, where the end-to-end rows
are not compared). The service columns need real weights (random ones tie and detect nothing meaningful): with
the record's weights in the local store (offline), the export for each target, and the CLIs' `--detect
--threshold 0.25` on the four opencv-doc photos of `make deploy-test` against Python's vision.inference.detect
(same classes in the same order, boxes within 1 px, scores within 1e-3; worst box difference in brackets);
without them, n/a.

Semantic segmenters: the service columns run the CLIs' `--segment` with the record's real weights (when in the
local store) on deploy_segment.py's pictures (four digit test scenes at the export size, two of other sizes):
per picture the class pixel counts of Python's vision.inference.segment, exact at the export size, off by at most
the near-tie pixels elsewhere. Action recognizers: the CLIs' `--recognize` with the record's real weights (when in the
local store) on deploy_recognize.py's videos against Python's vision.inference.recognize (one view); clip models are
n/a on OpenCV (3D pooling). Other tasks (instance segmentation, pose, text): n/a, the services do not serve them.

    scripts/deploy/build.sh out/deploy            # the CLIs
    python scripts/export/support_table.py --build out/deploy [--pattern 'resnet*'] [--out docs/export_support.md]

With --pattern, the rows of the matching models are replaced (or added) in an existing --out file and the other
rows kept.
"""
import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PHOTO = os.path.join(ROOT, 'vision', 'assets', 'chelsea.jpg')
TOL = 1e-4


def one_line(e):
    return (str(e).splitlines() or [type(e).__name__])[0][:160].replace('|', '/')


def _last_words(stderr):
    """The last line of a CLI's stderr that says something: OpenCV ends its errors with a bare '> ' line, and puts
    the cause (e.g. 'Unsupported ReduceSum operation of opset 13') on the one before, after its source location."""
    lines = [line.strip('> ').strip() for line in stderr.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return ''
    last = lines[-1]
    return last.rsplit(' error: ', 1)[-1].split(') ', 1)[-1] if 'OpenCV(' in last else last


def ort_python(name):
    import mxnet as mx
    import gluonzoo as gz
    from gluonzoo.exporting import compare
    from gluonzoo.exporting.detection import nms_nodes
    from gluonzoo.exporting.support import KNOWN_FAILURES, parity_init
    from gluonzoo.exporting.verify import compare_detections
    from gluonzoo.registry import get_entry, initialize_unset
    from gluonzoo.tasks import get_task
    if name in KNOWN_FAILURES:
        return f'fail: {KNOWN_FAILURES[name]}'
    entry = get_entry(name)
    mx.random.seed(0)
    classes = 7 if get_task(entry.task).has_classes else None  # as the registry test
    net = gz.get_model(name, classes=classes, **entry.test_kwargs)
    initialize_unset(net)
    net = parity_init(net, name)
    inputs = entry.example_inputs()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            f = gz.export(net, os.path.join(tmp, 'm'), inputs=inputs, formats=('onnx',), name=name)['onnx']
            if nms_nodes(net._cached_graph[1]):
                report = compare_detections(net, f, inputs)
                tie = '; ties' if report['end_to_end'] == 'ties' else ''
                return f'pass ({report["error"]:.0e}{tie})'
            err = compare(net, f, inputs)
        return f'pass ({err:.0e})'
    except Exception as e:  # noqa: BLE001 - the table reports it
        return f'fail: {one_line(e)}'


def services(name, build):
    """{runtime: result} for the three service CLIs, or one n/a reason for all."""
    import mxnet as mx
    import numpy as np
    import gluonzoo as gz
    from gluonzoo.registry import get_entry
    from gluonzoo.vision.image import read_image
    entry = get_entry(name)
    w = entry.default_weights
    if entry.task == 'object-detection':
        return detector_services(name, build)
    if entry.task == 'semantic-segmentation':
        return segmenter_services(name, build)
    if entry.task == 'action-recognition':
        return recognizer_services(name, build)
    if entry.task != 'image-classification':
        return 'n/a: the services classify, detect, segment (semantic) images or recognize actions in videos'
    if w is None:
        return 'n/a: no weights record to read preprocessing from'
    mx.random.seed(0)
    net = gz.get_model(name, **dict(w.config))
    net.initialize()
    net.weights, net.classes = w, list(w.classes)  # random weights, the record's preprocessing and labels
    x = w.transforms()(read_image(PHOTO))[None]
    prob = mx.nd.softmax(net(mx.nd.array(x))).asnumpy()[0].astype(np.float64)
    java = ['java', '-Djava.library.path=/usr/lib/jni', '-cp', f'{build}/java:/usr/share/java/opencv.jar',
            'gluonzoo.Serve']
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            ort_file = gz.export(net, os.path.join(tmp, 'm'), formats=('onnx',))['onnx']
            ocv_file = gz.export(net, os.path.join(tmp, 'o'), formats=('onnx',), target='opencv')['onnx']
        except Exception as e:  # noqa: BLE001
            return f'fail: export: {one_line(e)}'
        runs = {'ORT C++': [f'{build}/cpp/gluonzoo-predict', ort_file, PHOTO, '--backend', 'ort'],
                'OpenCV C++': [f'{build}/cpp/gluonzoo-predict', ocv_file, PHOTO, '--backend', 'opencv'],
                'OpenCV Java': java + [ocv_file, '--predict', PHOTO]}
        for runtime, cmd in runs.items():
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            if p.returncode != 0:
                out[runtime] = f'fail: {one_line(_last_words(p.stderr) or p.returncode)}'
                continue
            top = json.loads(p.stdout.splitlines()[0])['topk']
            dp = max(abs(t['prob'] - prob[t['index']]) for t in top)
            # random weights give near-ties: the top-1 must have MXNet's top probability, not necessarily its index
            ok = dp <= TOL and abs(top[0]['prob'] - prob.max()) <= TOL
            out[runtime] = f'pass ({dp:.0e})' if ok else f'fail: top-1 p {top[0]["prob"]:.4f} vs {prob.max():.4f}, ' \
                                                          f'max dp {dp:.1e}'
    return out


def _offline_pretrained(name):
    """The model with its record's weights when they are in the local store (a docs table downloads nothing), else
    None."""
    import gluonzoo as gz
    from gluonzoo.errors import WeightsNotFoundError
    offline = os.environ.get('GLUONZOO_OFFLINE')
    os.environ['GLUONZOO_OFFLINE'] = '1'
    try:
        return gz.get_model(name, pretrained=True)
    except WeightsNotFoundError:
        return None
    finally:
        if offline is None:
            del os.environ['GLUONZOO_OFFLINE']
        else:
            os.environ['GLUONZOO_OFFLINE'] = offline


def _cli_runs(build):
    """(runtime, export target, export file -> the CLI's command) of the three service CLIs."""
    java = ['java', '-Djava.library.path=/usr/lib/jni', '-cp', f'{build}/java:/usr/share/java/opencv.jar',
            'gluonzoo.Serve']
    return [('ORT C++', 'ort', lambda f: [f'{build}/cpp/gluonzoo-predict', f, '--backend', 'ort']),
            ('OpenCV C++', 'opencv', lambda f: [f'{build}/cpp/gluonzoo-predict', f, '--backend', 'opencv']),
            ('OpenCV Java', 'opencv', lambda f: java + [f])]


def _real_net(name, missing='n/a: real weights not in the local store'):
    """(the model with its record's real weights, None), or (None, the n/a reason)."""
    from gluonzoo.registry import get_entry
    if get_entry(name).default_weights is None:
        return None, 'n/a: no weights record'
    net = _offline_pretrained(name)
    return (net, None) if net is not None else (None, missing)


def segmenter_services(name, build):
    """{runtime: result} of the three CLIs' --segment against Python's segment() with the record's real weights on
    the scenes of `make deploy-test` (deploy_segment.py: class pixel counts equal, near ties aside), or one n/a."""
    import gluonzoo as gz
    sys.path.insert(0, os.path.join(ROOT, 'scripts', 'deploy'))
    import deploy_segment as ds
    real, missing = _real_net(name)
    if real is None:
        return missing
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        scenes, others = ds.pictures(tmp)
        paths = scenes + others
        net, ref = ds.reference(paths, name)
        exact = {p: p in scenes for p in paths}
        for runtime, target, make in _cli_runs(build):
            try:
                f = gz.export(net, os.path.join(tmp, target), formats=('onnx',), target=target)['onnx']
            except Exception as e:  # noqa: BLE001 - the table reports it
                out[runtime] = f'fail: export: {one_line(e)}'
                continue
            failures = ds.check_clis([(runtime, make(f))], paths, ref, exact)
            out[runtime] = f'fail: {one_line(failures[0])}' if failures else f'pass ({len(paths)} pictures)'
    return out


def recognizer_services(name, build):
    """{runtime: result} of the three CLIs' --recognize against Python's recognize() with the record's real weights
    on deploy_recognize.py's videos (top-1 as Python, top-5 within 1e-4), or one n/a reason; OpenCV's refuse clip
    models (3D pooling), which is what the table says for them."""
    import gluonzoo as gz
    sys.path.insert(0, os.path.join(ROOT, 'scripts', 'deploy'))
    import deploy_recognize as dr
    import deploy_test as dt
    net, missing = _real_net(name)
    if net is None:
        return missing
    clip = 'frames' in net.weights.preprocess or 'slowfast' in net.weights.preprocess
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = dr.videos(tmp)
        ref = dr.reference(net, paths)
        for runtime, target, make in _cli_runs(build):
            if clip and target == 'opencv':
                out[runtime] = 'n/a: OpenCV 4.6 DNN cannot import 3D pooling (the service refuses it at start)'
                continue
            f = gz.export(net, os.path.join(tmp, target), formats=('onnx',), target=target)['onnx']
            failures = dt.check_clis([(runtime, make(f) + ['--recognize'])], paths, ref)
            out[runtime] = f'fail: {one_line(failures[0])}' if failures else f'pass ({len(paths)} videos)'
    return out


def detector_services(name, build):
    """{runtime: result} of the three CLIs' --detect against Python's detect() with the record's real weights, or
    one n/a reason."""
    import gluonzoo as gz
    from gluonzoo.vision.inference import detect
    sys.path.insert(0, os.path.join(ROOT, 'scripts', 'deploy'))
    from deploy_test import DETECT_PHOTOS, THRESHOLD, check_objects
    net, missing = _real_net(name, 'n/a: real weights not in the local store (random weights tie: not compared)')
    if net is None:
        return missing
    ref = [detect(net, [p], threshold=THRESHOLD)[0] for p in DETECT_PHOTOS]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for target in ('ort', 'opencv'):
            try:
                files[target] = gz.export(net, os.path.join(tmp, target), formats=('onnx',), target=target)['onnx']
            except Exception as e:  # noqa: BLE001 - the table reports it
                files[target] = e
        for runtime, target, make in _cli_runs(build):
            if isinstance(files[target], Exception):
                out[runtime] = f'fail: export: {one_line(files[target])}'
                continue
            cmd = make(files[target]) + ['--threshold', str(THRESHOLD), '--detect'] + DETECT_PHOTOS
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            if p.returncode != 0:
                out[runtime] = f'fail: {one_line(_last_words(p.stderr) or p.returncode)}'
                continue
            try:
                lines = [json.loads(x) for x in p.stdout.splitlines() if x.startswith('[')]
                assert len(lines) == len(DETECT_PHOTOS), f'{len(lines)} results for {len(DETECT_PHOTOS)} photos'
                worst = max(check_objects(runtime, os.path.basename(ph), got, r)[0]
                            for ph, got, r in zip(DETECT_PHOTOS, lines, ref))
                out[runtime] = f'pass ({worst:.0e} px)'
            except AssertionError as e:
                out[runtime] = f'fail: {one_line(e)}'
    return out


def merge(path, rows, runtimes):
    """The table lines of `path` (if it has the table) with `rows` replacing or added to its model rows, sorted."""
    table = {}
    if os.path.exists(path):
        for line in open(path).read().splitlines():
            if line.startswith('| ') and not line.startswith('| model |'):
                table[line.split(' | ')[0][2:]] = line
    for n, c in rows:
        table[n] = f'| {n} | ' + ' | '.join(c[r] for r in runtimes) + ' |'
    return [table[n] for n in sorted(table)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default='out/deploy')
    ap.add_argument('--pattern', default='*', help="fnmatch pattern(s), comma-separated: 'ssd_*,yolo3_*'")
    ap.add_argument('--out', default=os.path.join(ROOT, 'docs', 'export_support.md'))
    args = ap.parse_args()
    import gluonzoo as gz
    from gluonzoo.exporting.support import RUNTIMES
    build = os.path.abspath(args.build)
    rows = []
    for name in gz.list_models():
        if not any(fnmatch.fnmatchcase(name, p) for p in args.pattern.split(',')):
            continue
        if name.endswith('_int8'):  # GluonCV's INT8 graphs (vision/models/quantized.py): built for oneDNN alone
            cells = {r: 'fail: oneDNN-only quantized ops (no ONNX converter)' for r in RUNTIMES}
        else:
            cells = {'ORT Python': ort_python(name)}
            svc = services(name, build)
            cells.update(svc if isinstance(svc, dict) else {r: svc for r in RUNTIMES[1:]})
        rows.append((name, cells))
        print(name, ' | '.join(cells[r] for r in RUNTIMES), flush=True)
    lines = ['# Export support', '',
             'Generated by `scripts/export/support_table.py` (see its docstring for what each column checks);',
             'do not edit by hand. ORT Python: tiny config, MXNet vs ONNX Runtime, relative error <= 1e-4 (the',
             'figure in brackets). Service columns: the C++/Java CLIs on `vision/assets/chelsea.jpg` at the',
             "record's input size with random weights: top-5 probabilities within 1e-4 of MXNet's (max |dp| in",
             'brackets). `make deploy-test` checks mobilenetv2_1.0 with its real weights through the HTTP servers.',
             'Detectors: ORT Python compares the candidate rows, the exported NMS and the final detections',
             '("ties": random-weight scores tied in MXNet, end-to-end rows not compared); the service columns run',
             "`--detect` with the record's real weights on four photos against Python's `detect` (worst box",
             'difference in brackets), where those weights are in the local store; `make deploy-test` checks',
             'yolo3_tiny_darknet_coco through the HTTP servers. Semantic segmenters: the service columns run',
             "`--segment` with the record's real weights on six pictures against Python's `segment` (class pixel",
             'counts); `make deploy-test` checks fcn_mobilenetv2_1.0.digits through the HTTP servers. Action',
             "recognizers: the service columns run `--recognize` with the record's real weights on ten videos",
             "against Python's `recognize` (one view), where those weights are in the local store; clip models",
             'run on ONNX Runtime only; `make deploy-test` checks resnet18_v1b_custom.motions through the servers.',
             '', '| model | ' + ' | '.join(RUNTIMES) + ' |', '|---' * (len(RUNTIMES) + 1) + '|']
    if args.pattern != '*':
        lines += merge(args.out, rows, RUNTIMES)
    else:
        lines += [f'| {n} | ' + ' | '.join(c[r] for r in RUNTIMES) + ' |' for n, c in rows]
    with open(args.out, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print(f'wrote {args.out} ({len(rows)} models)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
