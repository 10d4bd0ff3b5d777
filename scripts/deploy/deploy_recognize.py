"""deploy_test.py's action-recognition part: resnet18_v1b_custom.motions (gluonzoo's TSN, trained on the generated
motion videos) through POST /recognize of the three servers and --recognize of the three CLIs, against
gluonzoo.vision.inference.recognize (MXNet, PyAV) on what the services score: the record's clip sampling (TSN: its
4 segments' middle frames), the centre crop (views=(None, 1), whatever test_views a record has).

The videos: the first test clip of each of the 8 motions (MotionSpec's default spec, of which a spec of 8 test clips
writes the same first 8) and Debian opencv-doc's vtest.avi (a 768x576 street, 795 frames: the services read it with
OpenCV's VideoCapture, Python with PyAV, the same frames). Top-1 as Python, every top-5 probability within 1e-4.

The checkpoint is 45 MB, so it is not shipped: `make weights` (or `gluonzoo train resnet18_v1b_custom.motions`)
puts it in the cache. Without it the same net is exported with seeded random weights (said on the first line):
the comparison with Python is the same, the labels mean nothing.

Then the bad bodies (empty, text, a truncated video, one without frames, a 50 MB body, one over
GLUONZOO_MAX_VIDEO_FRAMES frames), /predict to a recognizer, the CLIs' bad files and the load test on /recognize.
"""
import json
import os
import time

import deploy_test as dt

RECOGNIZER = 'resnet18_v1b_custom.motions'
VTEST = os.path.join(dt.OPENCV_DATA, 'vtest.avi')
#: a clip model (N, 3, T, H, W), through the C++ CLI on ONNX Runtime (OpenCV 4.6 DNN refuses its 3D pooling): GluonCV's
#: weights are not offline, so seeded random ones under its record (32 frames 2 apart, 256x340 -> 224)
CLIP_MODEL = 'i3d_resnet50_v1_kinetics400'
RECOGNIZE_LOAD = dict(bad_count=200, good_count=40)
#: the frame limit the test's servers run with (GLUONZOO_MAX_VIDEO_FRAMES): vtest.avi's 795 fit, too-long.avi not
LIMIT = 1000


def videos(folder):
    """The first test video of each motion, and vtest.avi."""
    from gluonzoo.vision.data.motions import MOTIONS, MotionSpec, motions_folder
    root = motions_folder(MotionSpec(train=0, val=0, test=len(MOTIONS)))
    return [os.path.join(root, 'videos', m, f'test_{i:05d}.avi') for i, m in enumerate(MOTIONS)] + [
        VTEST, os.path.join(dt.OPENCV_DATA, 'tree.avi')]  # tree.avi: its header claims 444 frames, its 68 span them


def recognizer(name=RECOGNIZER):
    """(the net, what it is): the checkpoint from the cache, else its architecture with seeded random weights under
    the same record (preprocess, classes)."""
    import mxnet as mx
    import gluonzoo as gz
    from gluonzoo.errors import WeightsNotFoundError
    try:
        return gz.get_model(name, pretrained=True), 'the trained checkpoint'
    except WeightsNotFoundError:
        w = gz.get_weights(name)
        mx.random.seed(0)
        net = gz.get_model(name, pretrained=False, **({} if w.config else {'pretrained_base': False}))
        net.initialize(mx.init.Xavier())
        net(mx.nd.zeros(w.input_shape))
        net.weights, net.classes = w, list(w.classes)
        return net, 'seeded random weights (the checkpoint is not in the cache: make weights)'


def reference(net, paths):
    """Per video (basename), Python's top-5 and every class's probability, the record's sampling, one crop."""
    from gluonzoo.vision.inference import recognize
    ref = {}
    for path, top in zip(paths, recognize(net, paths, topk=len(net.classes), views=(None, 1))):
        probs = {net.classes.index(label): p for label, p in top}
        ref[os.path.basename(path)] = (top[:5], probs)
    return ref


def bad_videos(folder, first):
    """Video files a service must refuse, made from the video `first`: (what, path, status): truncated, without
    frames, over the frame limit."""
    import cv2
    import numpy as np
    with open(first, 'rb') as f:
        data = f.read()
    out = []
    truncated = os.path.join(folder, 'truncated.avi')
    with open(truncated, 'wb') as f:
        f.write(data[:len(data) * 2 // 3])
    out.append(('a truncated video', truncated, 400))
    for name, count, status in (('no-frames.avi', 0, 400), ('too-long.avi', LIMIT + 1, 413)):
        path = os.path.join(folder, name)
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*'MJPG'), 8, (16, 16))
        frame = np.zeros((16, 16, 3), np.uint8)
        for _ in range(count):
            writer.write(frame)
        writer.release()
        out.append((f'a video of {count} frames', path, status))
    return out


def check_clip_model(build, exported, paths):
    """CLIP_MODEL through the C++ CLI on ONNX Runtime against Python, and refused by the OpenCV ones at load."""
    import subprocess
    net, what = recognizer(CLIP_MODEL)
    ort_file, ocv_file, clis = exported(net, CLIP_MODEL)
    failures = dt.check_clis([(clis[0][0] + ' ' + CLIP_MODEL, clis[0][1] + ['--recognize'])], paths,
                             reference(net, paths))
    for name, cmd in clis[1:]:
        cmd = (cmd[:-1] if cmd[-1] == '--predict' else cmd) + ['--recognize', paths[0]]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if p.returncode == 0 or '--backend ort' not in p.stderr or len(p.stderr.splitlines()) != 1:
            failures.append(f'{name}: {CLIP_MODEL} not refused in one line: exit {p.returncode} {p.stderr[-300:]!r}')
            print(f'FAIL {failures[-1]}')
        else:
            print(f'ok  {name}: {CLIP_MODEL} refused: {p.stderr.strip()!r}')
    return failures


def check_recognizer(build, exported, services, bad):
    """The recognizer through every server and CLI; the failures, as lines."""
    started = time.time()
    os.environ['GLUONZOO_MAX_VIDEO_FRAMES'] = str(LIMIT)  # the servers and CLIs started below inherit it
    # FFmpeg's own log lines off (the C++ programs set this themselves; a JVM cannot, docs/deploy.md says so)
    os.environ['OPENCV_FFMPEG_LOGLEVEL'] = '-8'
    paths = videos(build)
    net, what = recognizer()
    print(f'recognizer: {RECOGNIZER}, {what}')
    ref = reference(net, paths)
    ort_file, ocv_file, clis = exported(net, RECOGNIZER)
    clis = [(name, (cmd[:-1] if cmd[-1] == '--predict' else cmd) + ['--recognize']) for name, cmd in clis]
    failures = dt.check_clis(clis, paths, ref)
    refused = bad_videos(build, paths[0])
    bad_files = [path for _, path, _ in refused] + dt.bad_files(build)[::3]  # + random bytes, a directory
    failures += dt.check_cli_refusals(clis, bad_files)
    failures += check_clip_model(build, exported, paths[:2] + paths[-2:])
    for name, make in services(ort_file, ocv_file):
        port = dt.free_port()
        try:
            with dt.server(name, make(port), port, build) as proc:
                worst = 0.0
                for path in paths:
                    with open(path, 'rb') as f:
                        status, body = dt.request(port, 'POST', '/recognize', f.read())
                    if status != 200:
                        raise AssertionError(f'{name} {path}: HTTP {status} {body[:200]!r}')
                    worst = max(worst, dt.check_top(f'{name} /recognize', os.path.basename(path),
                                                    json.loads(body), ref[os.path.basename(path)]))
                print(f'ok  {name}: /recognize on {len(paths)} videos, top-1 as Python, max |dp| {worst:.1e}')
                for what, body in bad[:2] + [bad[-1]]:  # empty, text, 50 MB
                    dt.expect_4xx(name, port, what, '/recognize', body)
                for what, path, status in refused:
                    with open(path, 'rb') as f:
                        got, answer = dt.request(port, 'POST', '/recognize', f.read())
                    if got != status:
                        raise AssertionError(f'{name}: {what} got HTTP {got}, not {status}: {answer[:200]!r}')
                    print(f'ok  {name}: {what} -> {got} {json.loads(answer)["error"]!r}')
                with open(paths[0], 'rb') as f:
                    dt.expect_4xx(name, port, '/predict to a recognizer', '/predict', f.read())
                failures += dt.run_load_test(name + ' /recognize', port, proc, paths[:-1], '/recognize',
                                             **RECOGNIZE_LOAD)
        except (AssertionError, RuntimeError) as e:
            failures.append(str(e))
            print(f'FAIL {e}')
    print(f'recognizer checks: {time.time() - started:.0f} s')
    return failures
