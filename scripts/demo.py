"""The main job, offline: prepare MobileNetV2's ImageNet weights, classify three real photos, export the graph.

    make demo        # or: GLUONZOO_OFFLINE=1 .venv/bin/python scripts/demo.py [--out DIR]
"""
import argparse
import os
import sys
import time
from importlib import resources

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.vision import classify

MODEL = 'mobilenetv2_1.0'
PHOTOS = ('chelsea.jpg', 'coffee.jpg', 'rocket.jpg')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default='out/demo', help='export folder (default out/demo)')
    args = ap.parse_args()

    w = gz.get_weights(MODEL)
    print(f'1. weights {w.name}: {w.source.describe()}')
    t0 = time.perf_counter()
    path = store.fetch(w)  # converts on first use (progress bar), then it is a sha1-checked cache hit
    print(f'   ready in {time.perf_counter() - t0:.2f} s: {path}')

    net = gz.get_model(MODEL, pretrained=True)
    net.hybridize(static_alloc=True, static_shape=True)
    assets = resources.files('gluonzoo.vision').joinpath('assets')
    photos = [str(assets.joinpath(p)) for p in PHOTOS]
    classify(net, photos[:1], topk=1)  # warm-up: the first call builds the cached graph
    t0 = time.perf_counter()
    results = classify(net, photos, topk=3)
    dt = time.perf_counter() - t0
    print(f'2. classified {len(photos)} photos in {dt * 1000:.0f} ms ({dt * 1000 / len(photos):.0f} ms each):')
    for photo, top in zip(PHOTOS, results):
        print(f'   {photo:<12} ' + ' | '.join(f'{label.split(",")[0]} {p:.3f}' for label, p in top))

    written = gz.export(net, os.path.join(args.out, MODEL), input_shape=w.input_shape)
    print('3. exported the hybridized graph:')
    for fmt, p in written.items():
        print(f'   {fmt:<7} {os.path.abspath(p)}')
    print(f'cache: {store.cache_root()}  (set GLUONZOO_HOME to move it)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
