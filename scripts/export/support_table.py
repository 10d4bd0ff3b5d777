"""Generate docs/export_support.md: every registered model x {ORT Python, ORT C++, OpenCV C++, OpenCV Java}.

ORT Python: the registry test's check (tiny config, MXNet vs ONNX Runtime, relative error <= 1e-4).
The three service columns (image classifiers with a weights record, whose preprocessing the services read from
the ONNX metadata): the model is exported at its record's input size with random weights (the arithmetic is what
is checked; weights files are not needed) and the CLIs of scripts/deploy/ classify vision/assets/chelsea.jpg;
pass = the top-1 has MXNet's top probability and every top-5 probability is within 1e-4 of MXNet's on the
same preprocessing (random weights give near-ties, so the index itself may differ among tied classes).

    scripts/deploy/build.sh out/deploy            # the CLIs
    python scripts/export/support_table.py --build out/deploy [--pattern 'resnet*'] [--out docs/export_support.md]
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


def ort_python(name):
    import mxnet as mx
    import gluonzoo as gz
    from gluonzoo.exporting import compare
    from gluonzoo.exporting.support import KNOWN_FAILURES
    from gluonzoo.registry import get_entry
    if name in KNOWN_FAILURES:
        return f'fail: {KNOWN_FAILURES[name]}'
    entry = get_entry(name)
    mx.random.seed(0)
    net = gz.get_model(name, **entry.test_kwargs)
    inputs = entry.example_inputs()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            f = gz.export(net, os.path.join(tmp, 'm'), inputs=inputs, formats=('onnx',), name=name)['onnx']
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
    if entry.task != 'image-classification':
        return 'n/a: the services classify images'
    if w is None:
        return 'n/a: no weights record to read preprocessing from'
    mx.random.seed(0)
    net = gz.get_model(name, **dict(w.config))
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
                out[runtime] = f'fail: {one_line(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.returncode)}'
                continue
            top = json.loads(p.stdout.splitlines()[0])['topk']
            dp = max(abs(t['prob'] - prob[t['index']]) for t in top)
            # random weights give near-ties: the top-1 must have MXNet's top probability, not necessarily its index
            ok = dp <= TOL and abs(top[0]['prob'] - prob.max()) <= TOL
            out[runtime] = f'pass ({dp:.0e})' if ok else f'fail: top-1 p {top[0]["prob"]:.4f} vs {prob.max():.4f}, ' \
                                                          f'max dp {dp:.1e}'
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default='out/deploy')
    ap.add_argument('--pattern', default='*')
    ap.add_argument('--out', default=os.path.join(ROOT, 'docs', 'export_support.md'))
    args = ap.parse_args()
    import gluonzoo as gz
    from gluonzoo.exporting.support import RUNTIMES
    build = os.path.abspath(args.build)
    rows = []
    for name in gz.list_models():
        if not fnmatch.fnmatchcase(name, args.pattern):
            continue
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
             '', '| model | ' + ' | '.join(RUNTIMES) + ' |', '|---' * (len(RUNTIMES) + 1) + '|']
    lines += [f'| {n} | ' + ' | '.join(c[r] for r in RUNTIMES) + ' |' for n, c in rows]
    with open(args.out, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print(f'wrote {args.out} ({len(rows)} models)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
