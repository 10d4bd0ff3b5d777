"""Input-pipeline throughput: JPEG bytes -> float32 3x224x224 (decode, short side 256, center crop 224, ImageNet
mean/std), images per second, gluonzoo's transforms (OpenCV) vs mx.image (GluonCV's ImageNet eval) vs Pillow.

    python scripts/bench/input_pipeline.py [--seconds 2] [--rounds 3] [--quick] [--json FILE]

The variants, each from the same JPEG bytes held in memory (so the disk is not measured) to one CHW float32 array:
  gluonzoo       decode_rgb (cv2.imdecode straight to RGB: read_image's and the RecordIO readers'), then the eval transform of
                 a GluonCV checkpoint's record (resnet50_v1b: interp 'linear'), the one classify and the eval scripts
                 apply: the same pixels as GluonCV's pipeline, the like-for-like figure
  gluonzoo_area  the same with mobilenetv2_1.0's default record (torchvision weights: area interpolation)
  mximage        mx.image.imdecode (what ImageFolderDataset's imread does) + gluon.data.vision.transforms Resize
                 (keep_ratio) / CenterCrop / ToTensor / Normalize: GluonCV's presets.imagenet.transform_eval and the
                 val loader of its train_imagenet.py
  pillow         PIL open + convert RGB + resize BILINEAR (antialiased) + crop, numpy normalize
Two modes: one thread in this process (cv2.setNumThreads(1), OMP_NUM_THREADS=1 and one MXNet engine worker), and a
gluon DataLoader over each variant as a Dataset with 2 worker processes, batch 8. Variants alternate round by round;
each keeps its best. The inputs are the JPEGs in vision/assets and opencv-doc's examples (Debian opencv-doc).
Also printed: each pipeline's max abs difference from mx.image on one photo, and where the time of gluonzoo's and
mx.image's pipelines goes, stage by stage. The issue's target: gluonzoo >= 3x mx.image.
--json FILE writes {"variants": {variant: {mode: img/s}}, "ratio_vs_mximage" and "ratio_vs_pillow" (gluonzoo, one
thread), "ratios": {mode: {...}}, "target_vs_mximage": 3.0, "max_abs_diff_vs_mximage", "stages_ms", the settings and
the load average before and after}.
"""
import argparse
import glob
import io
import json
import os
import sys
import time

import cv2
import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = [os.path.join(ROOT, 'vision', 'assets'), '/usr/share/doc/opencv-doc/examples/data']
PROBE = os.path.join(ROOT, 'vision', 'assets', 'rocket.jpg')  # 427x640: every pipeline shrinks it
MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
SHORT, CROP, BATCH, WORKERS = 256, 224, 8, 2
MODES = ('one_thread', f'dataloader_{WORKERS}_workers')
RESIZE = {'gluonzoo': 'cv2.INTER_LINEAR (bilinear, no antialias; = MXNet Resize)',
          'gluonzoo_area': 'cv2.INTER_AREA (box average when shrinking)',
          'mximage': 'MXNet image.resize, OpenCV bilinear (no antialias)',
          'pillow': 'PIL BILINEAR (triangle filter widened by the scale: antialiased)'}


class Gluonzoo:
    """gluonzoo's pipeline: OpenCV decode to RGB, then a weights record's eval transform (checkpoint `name`)."""

    def __init__(self, name):
        import gluonzoo as gz
        from gluonzoo.vision.image import decode_rgb
        self.transform, self.decode = gz.get_weights(name).transforms(), decode_rgb

    def __call__(self, data):
        return self.transform(self.decode(data))


class MXImage:
    """GluonCV's ImageNet eval pipeline on NDArrays; waits for the result, since MXNet computes asynchronously."""

    def __init__(self):
        import mxnet as mx
        from mxnet.gluon.data.vision import transforms as T
        self.decode = mx.image.imdecode
        self.transform = T.Compose([T.Resize(SHORT, keep_ratio=True), T.CenterCrop(CROP), T.ToTensor(),
                                    T.Normalize(MEAN, STD)])

    def __call__(self, data):
        x = self.transform(self.decode(data))
        x.wait_to_read()
        return x


def pillow(data):
    """The plain Pillow + numpy way; the long side is truncated as MXNet's Resize(keep_ratio) does."""
    img = Image.open(io.BytesIO(data)).convert('RGB')
    w, h = img.size
    size = (SHORT, int(h * SHORT / w)) if w <= h else (int(w * SHORT / h), SHORT)
    img = img.resize(size, Image.BILINEAR)
    left, top = (size[0] - CROP) // 2, (size[1] - CROP) // 2
    x = np.asarray(img.crop((left, top, left + CROP, top + CROP)), np.float32) / 255.0
    x = (x - np.array(MEAN, np.float32)) / np.array(STD, np.float32)
    return np.ascontiguousarray(x.transpose(2, 0, 1))


class Pictures:
    """`length` samples cycling over the JPEG bytes, each through `fn`: one variant as a DataLoader dataset."""

    def __init__(self, images, fn, length):
        self.images, self.fn, self.length = images, fn, length

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        return self.fn(self.images[i % len(self.images)])


def load_images(limit=None):
    """The JPEG bytes of the benchmark pictures, read once."""
    paths = sorted(p for folder in FOLDERS for p in glob.glob(os.path.join(folder, '*.jpg')))[:limit]
    if not paths:
        sys.exit(f'no JPEG files in {" or ".join(FOLDERS)}: the benchmark needs real pictures (apt-get install '
                 'opencv-doc, or restore vision/assets)')
    images = []
    for p in paths:
        with open(p, 'rb') as f:
            images.append(f.read())
    return paths, images


def rate_one_thread(fn, images, seconds):
    """Images per second of `fn` over whole passes of `images`, at least `seconds` of them."""
    n, t0 = 0, time.perf_counter()
    while True:
        for data in images:
            fn(data)
        n += len(images)
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return n / dt


def rate_loader(loader, seconds):
    """Images per second through a DataLoader, over whole epochs, at least `seconds` of them."""
    n, t0 = 0, time.perf_counter()
    while True:
        for batch in loader:
            batch.wait_to_read()
            n += batch.shape[0]
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return n / dt


def measure(variants, images, seconds, rounds, epoch):
    """{variant: {mode: best img/s}}, alternating the variants (and modes) round by round; a DataLoader epoch is
    `epoch` samples (long ones: the workers idle while an epoch's last batch drains)."""
    import mxnet as mx
    loaders = {k: mx.gluon.data.DataLoader(Pictures(images, fn, epoch), batch_size=BATCH, num_workers=WORKERS)
               for k, fn in variants.items()}
    for k, fn in variants.items():  # warm-up: first calls, worker start-up
        rate_one_thread(fn, images[:4], 0)
        rate_loader(loaders[k], 0)
    best = {k: dict.fromkeys(MODES, 0.0) for k in variants}
    for _ in range(rounds):
        for k, fn in variants.items():
            best[k][MODES[0]] = max(best[k][MODES[0]], rate_one_thread(fn, images, seconds))
            best[k][MODES[1]] = max(best[k][MODES[1]], rate_loader(loaders[k], seconds))
    del loaders  # stops the worker pools
    return best


def max_differences(variants, path):
    """Max abs difference of every variant's output from mx.image's on one picture."""
    with open(path, 'rb') as f:
        data = f.read()
    out = {k: fn(data) for k, fn in variants.items()}
    ref = out['mximage'].asnumpy()
    return {k: float(np.abs((v.asnumpy() if hasattr(v, 'asnumpy') else v) - ref).max())
            for k, v in out.items()}


def stage_times(images, repeats=3):
    """Milliseconds per image of each stage of gluonzoo's (linear) and mx.image's pipelines, best of `repeats`."""
    import mxnet as mx
    from mxnet.gluon.data.vision import transforms as MT

    from gluonzoo.vision.image import decode_rgb
    from gluonzoo.vision.transforms import functional as F
    mx_resize, mx_crop, mx_tensor = MT.Resize(SHORT, keep_ratio=True), MT.CenterCrop(CROP), MT.ToTensor()
    mx_norm = MT.Normalize(MEAN, STD)

    def waited(fn):
        def run(x):
            y = fn(x)
            y.wait_to_read()
            return y
        return run
    pipelines = {
        'gluonzoo': [('decode to RGB (decode_rgb: cv2.imdecode, IMREAD_COLOR_RGB)', decode_rgb),
                     ('resize short side (linear)', lambda x: F.resize_short(F.as_rgb(x), SHORT, cv2.INTER_LINEAR)),
                     ('center crop', lambda x: F.center_crop(x, (CROP, CROP))),
                     ('normalize + CHW (cv2.split, numpy)', lambda x: F.normalize(x, MEAN, STD))],
        'mximage': [('decode (mx.image.imdecode)', waited(mx.image.imdecode)), ('Resize', waited(mx_resize)),
                    ('CenterCrop', waited(mx_crop)), ('ToTensor', waited(mx_tensor)),
                    ('Normalize', waited(mx_norm))]}
    result = {}
    for name, stages in pipelines.items():
        inputs, result[name] = list(images), {}
        for stage, fn in stages:
            best = float('inf')
            for _ in range(repeats):
                t0 = time.perf_counter()
                outputs = [fn(x) for x in inputs]
                best = min(best, time.perf_counter() - t0)
            result[name][stage] = 1e3 * best / len(inputs)
            inputs = outputs
    return result


def report(best, diffs, stages, paths, args):
    """The markdown the script prints."""
    ours = best['gluonzoo']
    lines = [f'{len(paths)} JPEGs (vision/assets + opencv-doc), {SHORT} short side, {CROP} crop; best of '
             f'{args.rounds} rounds of {args.seconds:g} s; {os.cpu_count()} CPUs, load average '
             f'{" ".join(f"{x:.2f}" for x in os.getloadavg())}', '',
             f'| variant | resize | one thread img/s | DataLoader {WORKERS} workers img/s | max abs diff vs mx.image |',
             '|---|---|---:|---:|---:|']
    for k, rates in best.items():
        lines.append(f'| {k} | {RESIZE[k]} | {rates[MODES[0]]:.1f} | {rates[MODES[1]]:.1f} | {diffs[k]:.3g} |')
    lines.append('')
    for mode in MODES:
        lines.append(f'{mode}: gluonzoo / mx.image = {ours[mode] / best["mximage"][mode]:.2f}x, gluonzoo / Pillow = '
                     f'{ours[mode] / best["pillow"][mode]:.2f}x, gluonzoo_area / mx.image = '
                     f'{best["gluonzoo_area"][mode] / best["mximage"][mode]:.2f}x')
    lines += ['', '| stage (one thread) | ms per image |', '|---|---:|']
    for name, times in stages.items():
        lines += [f'| {name}: {stage} | {ms:.3f} |' for stage, ms in times.items()]
        lines.append(f'| **{name} total** | **{sum(times.values()):.3f}** |')
    return '\n'.join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--seconds', type=float, default=2.0, help='timing window per figure and round')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--quick', action='store_true', help='16 pictures, 0.2 s windows, one round, short DataLoader '
                    'epochs (for tests)')
    ap.add_argument('--json', help='also write the figures to this JSON file (scripts/bench/report.py reads it)')
    args = ap.parse_args(argv)
    if args.quick:
        args.seconds, args.rounds = 0.2, 1
    # one thread per library, set before MXNet starts its pools; the DataLoader's worker processes inherit it
    os.environ.update(OMP_NUM_THREADS='1', MXNET_CPU_WORKER_NTHREADS='1')
    cv2.setNumThreads(1)
    paths, images = load_images(16 if args.quick else None)
    load_before = os.getloadavg()
    variants = {'gluonzoo': Gluonzoo('resnet50_v1b'), 'gluonzoo_area': Gluonzoo('mobilenetv2_1.0'),
                'mximage': MXImage(), 'pillow': pillow}
    diffs = max_differences(variants, PROBE if os.path.exists(PROBE) else paths[0])
    epoch = 2 * BATCH * WORKERS if args.quick else 256
    best = measure(variants, images, args.seconds, args.rounds, epoch)
    stages = stage_times(images, 1 if args.quick else 3)
    print(report(best, diffs, stages, paths, args))
    if args.json:
        ratio = {m: {'vs_mximage': best['gluonzoo'][m] / best['mximage'][m],
                     'vs_pillow': best['gluonzoo'][m] / best['pillow'][m],
                     'area_vs_mximage': best['gluonzoo_area'][m] / best['mximage'][m]} for m in MODES}
        result = {'variants': best, 'modes': list(MODES), 'headline_mode': MODES[0],
                  'ratio_vs_mximage': ratio[MODES[0]]['vs_mximage'], 'ratio_vs_pillow': ratio[MODES[0]]['vs_pillow'],
                  'ratios': ratio, 'target_vs_mximage': 3.0, 'max_abs_diff_vs_mximage': diffs, 'resize': RESIZE,
                  'stages_ms': stages, 'images': len(paths), 'short_side': SHORT, 'crop': CROP, 'batch': BATCH,
                  'workers': WORKERS, 'dataloader_epoch': epoch, 'seconds': args.seconds, 'rounds': args.rounds,
                  'cpus': os.cpu_count(), 'load_average_before': load_before, 'load_average_after': os.getloadavg()}
        tmp = args.json + '.part'
        with open(tmp, 'w') as f:
            json.dump(result, f, indent=1)
        os.replace(tmp, args.json)  # never a half-written file where report.py looks
    return 0


if __name__ == '__main__':
    sys.exit(main())
