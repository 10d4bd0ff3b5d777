"""make deploy-test: the C++ (ONNX Runtime and OpenCV DNN backends) and Java (OpenCV DNN) services against Python.

Exports mobilenetv2_1.0 with its real weights (target ort for ONNX Runtime, target opencv for OpenCV 4.6), starts
the three servers on 127.0.0.1, sends the real photos in vision/assets/ and checks the top-1 label is Python
gluonzoo's (MXNet) with every top-5 probability within 1e-4; then sends bad requests (empty body, a text file, a
truncated JPEG, a 50 MB body) that must get a 4xx while the server keeps serving. The CLIs are checked the same
way, and also on cifar_resnet20_v1.fmnist (one grey channel, 28x28: the services follow the record's color and
size) with real Fashion-MNIST test pictures. Everything started is stopped at the end, failure or not.

    python scripts/deploy/deploy_test.py --build out/deploy
"""
import argparse
import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ASSETS = os.path.join(ROOT, 'vision', 'assets')
PHOTOS = sorted(f for f in os.listdir(ASSETS) if f.endswith('.jpg'))
TOL = 1e-4
OPENCV_JAR, OPENCV_JNI = '/usr/share/java/opencv.jar', '/usr/lib/jni'


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def request(port, method, path, body=None, timeout=60):
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers={'Content-Type': 'application/octet-stream'})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


@contextlib.contextmanager
def server(name, cmd, port, log_dir):
    log = open(os.path.join(log_dir, f'{name}.log'), 'w')
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f'{name} exited with {proc.returncode}; see {log.name}')
            try:
                if request(port, 'GET', '/health', timeout=5)[0] == 200:
                    break
            except OSError:
                pass
            if time.time() > deadline:
                raise RuntimeError(f'{name} did not answer /health in 60 s; see {log.name}')
            time.sleep(0.2)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def check_top(where, photo, got, ref):
    """`got` is the service's JSON; `ref` Python's [(label, prob)] top-5 and {index: prob} of every class."""
    labels, probs = ref
    top = got['topk']
    if top[0]['label'] != labels[0][0]:
        raise AssertionError(f'{where} {photo}: top-1 {top[0]["label"]!r}, Python says {labels[0][0]!r}')
    worst = max(abs(t['prob'] - probs[t['index']]) for t in top)
    if worst > TOL:
        raise AssertionError(f'{where} {photo}: a top-5 probability differs from Python by {worst:.2e} > {TOL}')
    return worst


def python_reference(name, paths):
    """The pretrained net `name` and, per picture, Python's top-5 and every class's probability."""
    import mxnet as mx
    import numpy as np
    import gluonzoo as gz
    from gluonzoo.vision import classify, read_image
    net = gz.get_model(name, pretrained=True)
    net.hybridize()
    transform = net.weights.transforms()
    ref = {}
    for path in paths:
        labels = classify(net, [path], topk=5)[0]
        # every class's probability, to compare whatever indices a service puts in its top 5
        p = mx.nd.softmax(net(mx.nd.array(transform(read_image(path))[None]))).asnumpy()[0]
        ref[os.path.basename(path)] = (labels, {i: float(v) for i, v in enumerate(p.astype(np.float64))})
    return net, ref


def fashion_pictures(folder, count=5):
    """The first `count` Fashion-MNIST test images as 28x28 grey PNG files; their paths."""
    import cv2
    from gluonzoo.vision.data import load_fashion_mnist
    images, labels = load_fashion_mnist('test')
    paths = []
    for i in range(count):
        paths.append(os.path.join(folder, f'fmnist-test-{i}-label{labels[i]}.png'))
        cv2.imwrite(paths[-1], images[i])
    return paths


def check_clis(clis, paths, ref):
    """Run each CLI on the pictures; the failures, as lines."""
    failures = []
    for name, cmd in clis:
        p = subprocess.run(cmd + paths, capture_output=True, text=True, timeout=300)
        try:
            if p.returncode != 0:
                raise AssertionError(f'{name} exited {p.returncode}: {p.stderr.strip()[-300:]}')
            lines = [json.loads(line) for line in p.stdout.splitlines() if line.startswith('{')]
            if len(lines) != len(paths):
                raise AssertionError(f'{name}: {len(lines)} results for {len(paths)} pictures')
            pics = [os.path.basename(x) for x in paths]
            worst = max(check_top(name, ph, got, ref[ph]) for ph, got in zip(pics, lines))
            print(f'ok  {name}: {len(paths)} pictures, top-1 as Python, max |dp| {worst:.1e}')
        except AssertionError as e:
            failures.append(str(e))
            print(f'FAIL {e}')
    return failures


def bad_bodies(tmp):
    with open(os.path.join(ASSETS, PHOTOS[0]), 'rb') as f:
        jpeg = f.read()
    text = os.path.join(tmp, 'notes.txt')
    with open(text, 'w') as f:
        f.write('this is not an image\n' * 20)
    with open(text, 'rb') as f:
        text_bytes = f.read()
    return [('empty body', b''), ('a text file', text_bytes), ('a truncated JPEG', jpeg[:len(jpeg) // 2]),
            ('a 50 MB body', os.urandom(50 << 20))]


def main():
    # a SIGTERM (make interrupted, CI timeout) unwinds through the finally blocks that stop the servers
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default='out/deploy', help='what scripts/deploy/build.sh built')
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    os.makedirs(os.path.join(build, 'models'), exist_ok=True)
    import gluonzoo as gz

    java = ['java', f'-Djava.library.path={OPENCV_JNI}', '-cp', f'{build}/java:{OPENCV_JAR}', 'gluonzoo.Serve']
    serve = os.path.join(build, 'cpp', 'gluonzoo-serve')
    predict = os.path.join(build, 'cpp', 'gluonzoo-predict')

    def exported(net, name):
        prefix = os.path.join(build, 'models', name)
        ort_file = gz.export(net, prefix, formats=('onnx',))['onnx']
        ocv_file = gz.export(net, prefix + '-opencv', formats=('onnx',), target='opencv')['onnx']
        print(f'exported {ort_file} and {ocv_file}')
        return ort_file, ocv_file, [('cpp-ort cli', [predict, ort_file, '--backend', 'ort']),
                                    ('cpp-opencv cli', [predict, ocv_file, '--backend', 'opencv']),
                                    ('java-opencv cli', java + [ocv_file, '--predict'])]

    failures = []
    photos = [os.path.join(ASSETS, p) for p in PHOTOS]
    grey = fashion_pictures(build) + [photos[0]]  # a colour photo too: it is converted to grey and resized
    grey_net, grey_ref = python_reference('cifar_resnet20_v1.fmnist', grey)
    failures += check_clis(exported(grey_net, 'cifar_resnet20_v1.fmnist')[2], grey, grey_ref)
    net, ref = python_reference('mobilenetv2_1.0', photos)
    ort_file, ocv_file, clis = exported(net, 'mobilenetv2_1.0')
    failures += check_clis(clis, photos, ref)
    services = [('cpp-ort', lambda port: [serve, ort_file, '--backend', 'ort', '--port', str(port)]),
                ('cpp-opencv', lambda port: [serve, ocv_file, '--backend', 'opencv', '--port', str(port)]),
                ('java-opencv', lambda port: java + [ocv_file, '--port', str(port)])]
    bad = bad_bodies(build)
    for name, make in services:
        port = free_port()
        try:
            with server(name, make(port), port, build):
                worst = 0.0
                for photo in PHOTOS:
                    with open(os.path.join(ASSETS, photo), 'rb') as f:
                        status, body = request(port, 'POST', '/predict', f.read())
                    if status != 200:
                        raise AssertionError(f'{name} {photo}: HTTP {status} {body[:200]!r}')
                    worst = max(worst, check_top(name, photo, json.loads(body), ref[photo]))
                print(f'ok  {name}: {len(PHOTOS)} photos over HTTP, top-1 as Python, max |dp| {worst:.1e}')
                for what, body in bad:
                    try:
                        status, answer = request(port, 'POST', '/predict', body)
                    except OSError as e:
                        raise AssertionError(f'{name}: {what} broke the connection ({e}) instead of a 4xx') from None
                    if not 400 <= status < 500:
                        raise AssertionError(f'{name}: {what} got HTTP {status}, not a 4xx')
                    health = request(port, 'GET', '/health')[0]
                    if health != 200:
                        raise AssertionError(f'{name}: /health is {health} after {what}')
                    print(f'ok  {name}: {what} -> {status} {json.loads(answer).get("error", "")!r}; still healthy')
                with open(os.path.join(ASSETS, PHOTOS[0]), 'rb') as f:
                    status, body = request(port, 'POST', '/predict', f.read())
                check_top(name, PHOTOS[0], json.loads(body), ref[PHOTOS[0]])
        except (AssertionError, RuntimeError) as e:
            failures.append(str(e))
            print(f'FAIL {e}')
    if failures:
        print(f'deploy-test: {len(failures)} failure(s)', file=sys.stderr)
        return 1
    print('deploy-test: all services agree with Python gluonzoo')
    return 0


if __name__ == '__main__':
    sys.exit(main())
