"""make deploy-test: the C++ (ONNX Runtime and OpenCV DNN backends) and Java (OpenCV DNN) services against Python.

Exports mobilenetv2_1.0 with its real weights (target ort for ONNX Runtime, target opencv for OpenCV 4.6), starts
the three servers on 127.0.0.1, sends the real photos in vision/assets/ and checks the top-1 label is Python
gluonzoo's (MXNet) with every top-5 probability within 1e-4; then sends bad requests (empty body, a text file, a
truncated JPEG, a 50 MB body, and /detect to a classifier) that must get a 4xx while the server keeps serving. The
CLIs are checked the same way, and also on cifar_resnet20_v1.fmnist (one grey channel, 28x28: the services follow
the record's color and size) with real Fashion-MNIST test pictures. Both nets' INT8 (QDQ) ONNX files from
`export(quantize='int8')` go through the C++ CLI (ONNX Runtime), which must give Python ONNX Runtime's top-1 on them.

Then the detector: yolo3_tiny_darknet_coco with darknet's real COCO weights, exported for ONNX Runtime (NMS in the
graph) and for OpenCV (the graph ends before NMS; the services run it, per class), served by the three servers and
run by the three CLIs on four real photos (Debian opencv-doc): POST /detect must find what Python's
gluonzoo.vision.inference.detect finds (MXNet): the same classes in the same order, boxes within 1 pixel, scores
within 1e-3, at ?threshold=0.25 and at the default 0.5; the bad requests again, a bad threshold, and /predict to a
detector. Then the segmenter (deploy_segment.py): fcn_mobilenetv2_1.0.digits on generated digit scenes and two
pictures of other sizes through POST /segment and --segment, the PNG against Python's
gluonzoo.vision.inference.segment pixel for pixel. Then the action recognizer (deploy_recognize.py):
resnet18_v1b_custom.motions on generated motion videos and vtest.avi through POST /recognize and --recognize,
against gluonzoo.vision.inference.recognize. Everything started is stopped at the end, failure or not.

Every server then gets load_test.py (1,000 bad requests and 400 good ones from 8 clients: status codes, JSON errors,
answers equal to the serial ones, RSS growth, p50/p99), and every CLI a set of bad files (random bytes, a truncated
photo, a PNG header claiming 20000x20000 pixels, a directory): a non-zero exit and one line on stderr per file.

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

import load_test

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ASSETS = os.path.join(ROOT, 'vision', 'assets')
PHOTOS = sorted(f for f in os.listdir(ASSETS) if f.endswith('.jpg'))
TOL = 1e-4
DETECTOR = 'yolo3_tiny_darknet_coco'
OPENCV_DATA = '/usr/share/doc/opencv-doc/examples/data'
DETECT_PHOTOS = [os.path.join(OPENCV_DATA, p)
                 for p in ('messi5.jpg', 'basketball1.png', 'fruits.jpg', 'building.jpg')]
THRESHOLD = 0.25  # the person in messi5.jpg scores 0.26 (docs/detection.md); the default 0.5 is checked too
BOX_TOL, SCORE_TOL = 1.0, 1e-3
OPENCV_JAR, OPENCV_JNI = '/usr/share/java/opencv.jar', '/usr/lib/jni'
# load_test's counts for the detector services: the full 1,000 bad + 400 good requests (as the classifiers get)
# took 41 s on cpp-ort, 86 s on cpp-opencv and 81 s on java-opencv here (YOLOv3-tiny at 416x416, one inference at
# a time on OpenCV), 3.5 minutes in all; these counts keep every kind of bad request and take 53-56 s
DETECT_LOAD = dict(bad_count=300, good_count=80)
# the Java server's heap: fixed and touched at start-up, so that its RSS is flat under load (a default heap grows
# to a quarter of the machine's memory before it collects: +400 MB in the load test); the serial collector keeps
# the collector's own memory small
JAVA_SERVER_OPTS = ['-Xms128m', '-Xmx128m', '-XX:+UseSerialGC', '-XX:+AlwaysPreTouch']


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


def check_int8(predict, build, net, calib, paths):
    """gz.export(quantize='int8') of `net` calibrated on `calib`; `gluonzoo-predict --backend ort` on the INT8 file
    must give Python ONNX Runtime's top-1 on it for every picture. The failures, as lines."""
    import onnxruntime as ort
    import gluonzoo as gz
    from gluonzoo.vision import read_image
    name = net.weights.name
    int8 = gz.export(net, os.path.join(build, 'models', name), formats=('onnx',), quantize='int8',
                     calib_data=calib)['onnx_int8']
    sess = ort.InferenceSession(int8, providers=['CPUExecutionProvider'])
    transform = net.weights.transforms()
    scores = [sess.run(None, {sess.get_inputs()[0].name: transform(read_image(p))[None]})[0][0] for p in paths]
    try:
        got = [line['topk'][0]['index'] for line in cli_results('cpp-ort cli int8', [predict, int8, '--backend',
                                                                                       'ort'], paths)]
        # the INT8 graph's logits are quantized too, so exact ties happen (2 of 20 photos for MobileNetV2): any of
        # the tied classes is the top-1
        wrong = [(os.path.basename(p), g, int(s.argmax())) for p, g, s in zip(paths, got, scores) if s[g] < s.max()]
        if wrong:
            raise AssertionError(f'cpp-ort cli on {os.path.basename(int8)}: (picture, top-1, Python ORT\'s) {wrong}')
    except AssertionError as e:
        print(f'FAIL {e}')
        return [str(e)]
    print(f'ok  cpp-ort cli int8: {name}, {len(paths)} pictures, top-1 as Python ONNX Runtime on the INT8 file')
    return []


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


def cli_results(name, cmd, paths, opening='{'):
    """Run CLI `cmd` (its options last) on `paths`: its JSON answers, one a picture (lines starting with
    `opening`); an AssertionError saying what went wrong otherwise."""
    p = subprocess.run(cmd + paths, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise AssertionError(f'{name} exited {p.returncode}: {p.stderr.strip()[-300:]}')
    lines = [json.loads(line) for line in p.stdout.splitlines() if line.startswith(opening)]
    if len(lines) != len(paths):
        raise AssertionError(f'{name}: {len(lines)} results for {len(paths)} pictures')
    return lines


def check_clis(clis, paths, ref):
    """Run each CLI on the pictures; the failures, as lines."""
    failures = []
    for name, cmd in clis:
        try:
            lines = cli_results(name, cmd, paths)
            pics = [os.path.basename(x) for x in paths]
            worst = max(check_top(name, ph, got, ref[ph]) for ph, got in zip(pics, lines))
            print(f'ok  {name}: {len(paths)} pictures, top-1 as Python, max |dp| {worst:.1e}')
        except AssertionError as e:
            failures.append(str(e))
            print(f'FAIL {e}')
    return failures


def detection_reference(paths):
    """The pretrained detector and, per picture and threshold, Python's objects [(class, score, box)]."""
    import gluonzoo as gz
    from gluonzoo.vision.inference import detect
    net = gz.get_model(DETECTOR, pretrained=True)
    ref = {(os.path.basename(p), t): detect(net, [p], threshold=t)[0] for p in paths for t in (THRESHOLD, 0.5)}
    return net, ref


def check_objects(where, photo, got, ref):
    """`got`: a service's JSON list of objects; `ref`: Python's. Same classes in the same order, boxes within a
    pixel, scores within 1e-3; returns the largest box and score differences."""
    if [o['class'] for o in got] != [r[0] for r in ref]:
        raise AssertionError(f'{where} {photo}: classes {[o["class"] for o in got]}, Python says '
                             f'{[r[0] for r in ref]}')
    box = max((max(abs(a - b) for a, b in zip(o['box'], r[2])) for o, r in zip(got, ref)), default=0.0)
    score = max((abs(o['score'] - r[1]) for o, r in zip(got, ref)), default=0.0)
    if box > BOX_TOL or score > SCORE_TOL:
        raise AssertionError(f'{where} {photo}: a box differs by {box:.2g} px (> {BOX_TOL}) or a score by '
                             f'{score:.2g} (> {SCORE_TOL}) from Python\'s')
    return box, score


def check_detect_clis(clis, ref):
    failures = []
    for name, cmd in clis:
        try:
            lines = cli_results(name, cmd + ['--threshold', str(THRESHOLD), '--detect'], DETECT_PHOTOS, '[')
            worst = [check_objects(name, os.path.basename(ph), got, ref[os.path.basename(ph), THRESHOLD])
                     for ph, got in zip(DETECT_PHOTOS, lines)]
            print(f'ok  {name} --detect: {len(lines)} photos, {sum(map(len, lines))} objects as Python, max |dbox| '
                  f'{max(w[0] for w in worst):.1e} px, max |dscore| {max(w[1] for w in worst):.1e}')
        except AssertionError as e:
            failures.append(str(e))
            print(f'FAIL {e}')
    return failures


def expect_4xx(name, port, what, path, body):
    """POST `body` to `path`: a 4xx with a JSON error, and /health still answering."""
    try:
        status, answer = request(port, 'POST', path, body)
    except OSError as e:
        raise AssertionError(f'{name}: {what} broke the connection ({e}) instead of a 4xx') from None
    if not 400 <= status < 500:
        raise AssertionError(f'{name}: {what} got HTTP {status}, not a 4xx')
    health = request(port, 'GET', '/health')[0]
    if health != 200:
        raise AssertionError(f'{name}: /health is {health} after {what}')
    print(f'ok  {name}: {what} -> {status} {json.loads(answer).get("error", "")!r}; still healthy')


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


def bad_files(tmp):
    """Files a CLI must refuse, each with one line on stderr: random bytes, a truncated photo, an image bomb (a PNG
    header claiming 20000x20000 pixels) and a directory."""
    folder = os.path.join(tmp, 'bad-files')
    os.makedirs(os.path.join(folder, 'a-directory.jpg'), exist_ok=True)
    with open(os.path.join(ASSETS, PHOTOS[0]), 'rb') as f:
        jpeg = f.read()
    for name, data in (('random.jpg', os.urandom(2048)), ('truncated.jpg', jpeg[:len(jpeg) // 2]),
                       ('bomb.png', load_test.png_bomb())):
        with open(os.path.join(folder, name), 'wb') as f:
            f.write(data)
    return [os.path.join(folder, n) for n in ('random.jpg', 'truncated.jpg', 'bomb.png', 'a-directory.jpg')]


def check_cli_refusals(clis, files):
    """Each CLI on the bad files: exit non-zero, nothing on stdout, one stderr line per file naming it."""
    failures = []
    for name, cmd in clis:
        p = subprocess.run(cmd + files, capture_output=True, text=True, timeout=120)
        lines = p.stderr.splitlines()
        if p.returncode == 0 or p.stdout.strip() or len(lines) != len(files) or \
                not all(path in line for path, line in zip(files, lines)):
            failures.append(f'{name} on bad files: exit {p.returncode}, stdout {p.stdout[:100]!r}, stderr '
                            f'{p.stderr[-400:]!r} (want one line per file)')
            print(f'FAIL {failures[-1]}')
        else:
            print(f'ok  {name}: {len(files)} bad files refused, one line each, e.g. {lines[2]!r}')
    return failures


def run_load_test(name, port, proc, paths, path='/predict', **counts):
    """load_test.load_test against a running server; its failures, as lines."""
    photos = []
    for p in paths:
        with open(p, 'rb') as f:
            photos.append(f.read())
    started = time.time()
    failures = load_test.load_test(name, port, proc.pid, photos, path, **counts)
    print(f'{"FAIL" if failures else "ok "} {name}: load test {time.time() - started:.0f} s')
    return failures


def check_detector(build, exported, services, bad):
    """yolo3_tiny_darknet_coco through every server and CLI against Python's detect(); the failures, as lines."""
    net, ref = detection_reference(DETECT_PHOTOS)
    ort_file, ocv_file, clis = exported(net, DETECTOR)
    # the CLIs: --detect takes the pictures (Java's --predict/--detect ends the options)
    clis = [(name, cmd[:-1] if cmd[-1] == '--predict' else cmd) for name, cmd in clis]
    failures = check_detect_clis(clis, ref)
    failures += check_cli_refusals([(name, cmd + ['--detect']) for name, cmd in clis], bad_files(build))
    for name, make in services(ort_file, ocv_file):
        port = free_port()
        try:
            with server(name, make(port), port, build) as proc:
                worst, count = (0.0, 0.0), 0
                for path in DETECT_PHOTOS:
                    photo = os.path.basename(path)
                    with open(path, 'rb') as f:
                        data = f.read()
                    for query, t in ((f'?threshold={THRESHOLD}', THRESHOLD), ('', 0.5)):
                        status, body = request(port, 'POST', '/detect' + query, data)
                        if status != 200:
                            raise AssertionError(f'{name} {photo}: HTTP {status} {body[:200]!r}')
                        got = json.loads(body)
                        w = check_objects(f'{name} /detect{query}', photo, got, ref[photo, t])
                        worst, count = (max(worst[0], w[0]), max(worst[1], w[1])), count + len(got)
                print(f'ok  {name}: /detect on {len(DETECT_PHOTOS)} photos at thresholds {THRESHOLD} and 0.5, {count} '
                      f'objects as Python, max |dbox| {worst[0]:.1e} px, max |dscore| {worst[1]:.1e}')
                for what, body in bad:
                    expect_4xx(name, port, what, '/detect', body)
                with open(DETECT_PHOTOS[0], 'rb') as f:
                    data = f.read()
                for value in ('abc', '1.5', '-0.1', 'nan', ''):
                    expect_4xx(name, port, f'threshold={value!r}', f'/detect?threshold={value}', data)
                expect_4xx(name, port, '/predict to a detector', '/predict', data)
                expect_4xx(name, port, '/segment to a detector', '/segment', data)
                status, body = request(port, 'POST', f'/detect?threshold={THRESHOLD}', data)
                check_objects(name, os.path.basename(DETECT_PHOTOS[0]), json.loads(body),
                              ref[os.path.basename(DETECT_PHOTOS[0]), THRESHOLD])
                failures += run_load_test(name + ' /detect', port, proc, DETECT_PHOTOS, '/detect', **DETECT_LOAD)
        except (AssertionError, RuntimeError) as e:
            failures.append(str(e))
            print(f'FAIL {e}')
    return failures


def main():
    # a SIGTERM (make interrupted, CI timeout) unwinds through the finally blocks that stop the servers
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default='out/deploy', help='what scripts/deploy/build.sh built')
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    os.makedirs(os.path.join(build, 'models'), exist_ok=True)
    import gluonzoo as gz

    jvm = [f'-Djava.library.path={OPENCV_JNI}', '-cp', f'{build}/java:{OPENCV_JAR}', 'gluonzoo.Serve']
    java, java_server = ['java'] + jvm, ['java'] + JAVA_SERVER_OPTS + jvm
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
    # the INT8 ONNX file (QDQ), calibrated on 256 Fashion-MNIST training images as the net sees them
    from gluonzoo.vision.data import load_fashion_mnist
    train = load_fashion_mnist('train')[0][:256]
    calib = [grey_net.weights.transforms()(x[:, :, None].repeat(3, 2)) for x in train]
    failures += check_int8(predict, build, grey_net, calib, grey)
    net, ref = python_reference('mobilenetv2_1.0', photos)
    # its INT8 file too, calibrated on opencv-doc's PNG pictures (the chessboards and the digits sheet left out)
    from gluonzoo.vision import read_image
    pngs = sorted(f for f in os.listdir(OPENCV_DATA) if f.endswith('.png') and not f.startswith(('left', 'right',
                                                                                                   'digits')))
    failures += check_int8(predict, build, net, [net.weights.transforms()(read_image(os.path.join(OPENCV_DATA, f)))
                                                 for f in pngs], photos)
    ort_file, ocv_file, clis = exported(net, 'mobilenetv2_1.0')
    failures += check_clis(clis, photos, ref)
    failures += check_cli_refusals(clis, bad_files(build))
    def services(ort_file, ocv_file):
        return [('cpp-ort', lambda port: [serve, ort_file, '--backend', 'ort', '--port', str(port)]),
                ('cpp-opencv', lambda port: [serve, ocv_file, '--backend', 'opencv', '--port', str(port)]),
                ('java-opencv', lambda port: java_server + [ocv_file, '--port', str(port)])]
    bad = bad_bodies(build)
    for name, make in services(ort_file, ocv_file):
        port = free_port()
        try:
            with server(name, make(port), port, build) as proc:
                worst = 0.0
                for photo in PHOTOS:
                    with open(os.path.join(ASSETS, photo), 'rb') as f:
                        status, body = request(port, 'POST', '/predict', f.read())
                    if status != 200:
                        raise AssertionError(f'{name} {photo}: HTTP {status} {body[:200]!r}')
                    worst = max(worst, check_top(name, photo, json.loads(body), ref[photo]))
                print(f'ok  {name}: {len(PHOTOS)} photos over HTTP, top-1 as Python, max |dp| {worst:.1e}')
                for what, body in bad:
                    expect_4xx(name, port, what, '/predict', body)
                with open(os.path.join(ASSETS, PHOTOS[0]), 'rb') as f:
                    photo = f.read()
                expect_4xx(name, port, '/detect to a classifier', '/detect', photo)
                expect_4xx(name, port, '/segment to a classifier', '/segment', photo)
                status, body = request(port, 'POST', '/predict', photo)
                check_top(name, PHOTOS[0], json.loads(body), ref[PHOTOS[0]])
                failures += run_load_test(name, port, proc, photos)
        except (AssertionError, RuntimeError) as e:
            failures.append(str(e))
            print(f'FAIL {e}')
    started = time.time()
    failures += check_detector(build, exported, services, bad)
    print(f'detector checks: {time.time() - started:.0f} s')
    from deploy_segment import check_segmenter  # it imports this module's helpers
    failures += check_segmenter(build, exported, services, bad)
    from deploy_recognize import check_recognizer
    failures += check_recognizer(build, exported, services, bad)
    if failures:
        print(f'deploy-test: {len(failures)} failure(s)', file=sys.stderr)
        return 1
    print('deploy-test: all services agree with Python gluonzoo')
    return 0


if __name__ == '__main__':
    sys.exit(main())
