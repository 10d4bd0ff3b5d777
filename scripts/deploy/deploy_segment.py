"""deploy_test.py's segmentation part: fcn_mobilenetv2_1.0.digits (gluonzoo's FCN on MobileNetV2, trained on the
generated digit scenes, its weights shipped in the package) through POST /segment of the three servers and
--segment of the three CLIs, against gluonzoo.vision.inference.segment (MXNet).

The exported graph takes one size, the export's (128x128: FCN's upsampling is fixed to it), so Python is asked for
what the services do: the picture resized to 128x128 (the record's preprocess plus `resize=(128, 128)`), scored, the
scores resized back to the picture (BilinearResize2D, align_corners=True) and the argmax. The PNG decoded here must
equal Python's map pixel for pixel, except where Python's two best scores are within NEAR_TIE (counted and
printed); on the test scenes themselves (the export's size) every pixel must be equal.
"""
import os
import time

import deploy_test as dt

SEGMENTER = 'fcn_mobilenetv2_1.0.digits'
NEAR_TIE = 1e-4
# the first test scenes of SceneSpec(objects='digits'): scene i of a split depends on (seed, split, i) only, so a
# spec of 4 test scenes gives the default spec's first 4 without generating its 2,700 scenes
SCENES = 4
SEGMENT_LOAD = dict(bad_count=200, good_count=40)


def pictures(folder):
    """The test scenes (128x128) and two pictures of other sizes made from the first one: a 120x100 crop enlarged
    to 200x150 and the scene shrunk to 96x72 (the scores are resized up, and down)."""
    import cv2
    from gluonzoo.vision.data.scenes import SceneSpec, scenes_folder
    root = scenes_folder(SceneSpec(objects='digits', train=1, val=1, test=SCENES))
    scenes = [os.path.join(root, 'JPEGImages', f'test_{i:06d}.jpg') for i in range(SCENES)]
    first = cv2.imread(scenes[0])
    others = {'scene0-crop-200x150.png': cv2.resize(first[:100, :120], (200, 150), interpolation=cv2.INTER_LINEAR),
              'scene0-96x72.png': cv2.resize(first, (96, 72), interpolation=cv2.INTER_AREA)}
    for name, img in others.items():
        cv2.imwrite(os.path.join(folder, name), img)
    return scenes, [os.path.join(folder, n) for n in others]


def reference(paths, name=SEGMENTER):
    """The pretrained net `name`, the preprocess that resizes to its export size, and per picture (basename) Python's map
    with the gap between its two best scores at every pixel."""
    import mxnet as mx
    import numpy as np
    import gluonzoo as gz
    from gluonzoo.vision import read_image
    from gluonzoo.vision.inference import segment
    from gluonzoo.vision.transforms import from_preprocess
    net = gz.get_model(name, pretrained=True)
    pre = dict(net.weights.preprocess, resize=tuple(net.weights.input_shape[2:]))
    maps = segment(net, paths, preprocess=pre)
    ref = {}
    for path, ids in zip(paths, maps):
        img = read_image(path)
        scores = net.predict(mx.nd.array(from_preprocess(pre)(img)[None]))  # segment()'s steps, for the gaps
        if scores.shape[2:] != img.shape[:2]:
            scores = mx.nd.contrib.BilinearResize2D(scores, height=img.shape[0], width=img.shape[1])
        s = scores[0].asnumpy()
        if not (s.argmax(axis=0) == ids).all():
            raise AssertionError(f'{path}: the recomputed scores do not give segment()\'s map')
        top2 = np.sort(s, axis=0)[-2:]
        ref[os.path.basename(path)] = (ids, top2[1] - top2[0])
    return net, ref


def check_png(where, photo, body, ref, exact):
    """The PNG `body` against Python's map: (differing pixels, near-tie pixels); raises unless every difference is a
    near tie (none at all when `exact`)."""
    import cv2
    import numpy as np
    ids, gap = ref
    got = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_UNCHANGED)
    if got is None or got.dtype != np.uint8 or got.shape != ids.shape:
        raise AssertionError(f'{where} {photo}: not an 8-bit one-channel PNG of {ids.shape[::-1]} (got '
                             f'{None if got is None else (got.dtype, got.shape)})')
    differ = got != ids
    near = gap < NEAR_TIE
    if (differ & ~near).any() or (exact and differ.any()):
        raise AssertionError(f'{where} {photo}: {int(differ.sum())} pixels differ from Python\'s map, '
                             f'{int((differ & ~near).sum())} of them not near ties')
    return int(differ.sum()), int(near.sum())


def check_clis(clis, paths, ref, exact):
    """--segment's per-picture class counts against Python's map (a count may differ by the near-tie pixels only,
    not at all on the export-size scenes)."""
    import numpy as np
    failures = []
    for name, cmd in clis:
        try:
            lines = dt.cli_results(name, cmd + ['--segment'], paths)
            for path, got in zip(paths, lines):
                ids, gap = ref[os.path.basename(path)]
                want = {str(k): int(n) for k, n in zip(*np.unique(ids, return_counts=True))}
                off = sum(abs(got['classes'].get(k, 0) - want.get(k, 0)) for k in set(want) | set(got['classes']))
                allowed = 0 if exact[path] else 2 * int((gap < NEAR_TIE).sum())
                if got['image'] != path or (got['height'], got['width']) != ids.shape or off > allowed:
                    raise AssertionError(f'{name} {path}: {got}, Python counts {want} ({ids.shape[1]}x{ids.shape[0]})')
            print(f'ok  {name} --segment: {len(paths)} pictures, class pixel counts as Python\'s map')
        except AssertionError as e:
            failures.append(str(e))
            print(f'FAIL {e}')
    return failures


def check_segmenter(build, exported, services, bad):
    """The segmenter through every server and CLI; the failures, as lines."""
    started = time.time()
    scenes, others = pictures(build)
    paths = scenes + others
    exact = {p: p in scenes for p in paths}
    net, ref = reference(paths)
    ort_file, ocv_file, clis = exported(net, SEGMENTER)
    clis = [(name, cmd[:-1] if cmd[-1] == '--predict' else cmd) for name, cmd in clis]  # Java's mode flag last
    failures = check_clis(clis, paths, ref, exact)
    failures += dt.check_cli_refusals([(name, cmd + ['--segment']) for name, cmd in clis], dt.bad_files(build))
    for name, make in services(ort_file, ocv_file):
        port = dt.free_port()
        try:
            with dt.server(name, make(port), port, build) as proc:
                differ = near = 0
                for path in paths:
                    with open(path, 'rb') as f:
                        status, body = dt.request(port, 'POST', '/segment', f.read())
                    if status != 200:
                        raise AssertionError(f'{name} {path}: HTTP {status} {body[:200]!r}')
                    d, n = check_png(f'{name} /segment', os.path.basename(path), body, ref[os.path.basename(path)],
                                     exact[path])
                    differ, near = differ + d, near + n
                print(f'ok  {name}: /segment on {len(scenes)} scenes (every pixel as Python) and {len(others)} '
                      f'pictures of other sizes: {differ} pixels differ, {near} near ties (top-2 gap < {NEAR_TIE})')
                for what, body in bad:
                    dt.expect_4xx(name, port, what, '/segment', body)
                with open(paths[0], 'rb') as f:
                    data = f.read()
                for path in ('/predict', '/detect'):
                    dt.expect_4xx(name, port, f'{path} to a segmenter', path, data)
                failures += dt.run_load_test(name + ' /segment', port, proc, paths, '/segment', **SEGMENT_LOAD)
        except (AssertionError, RuntimeError) as e:
            failures.append(str(e))
            print(f'FAIL {e}')
    print(f'segmenter checks: {time.time() - started:.0f} s')
    return failures
