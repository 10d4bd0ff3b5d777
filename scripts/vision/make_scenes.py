"""Write generated detection scenes (gluonzoo.vision.data.scenes) as a Pascal VOC folder plus COCO JSON.

    python scripts/vision/make_scenes.py out/scenes                        # the `scenes` dataset's spec
    python scripts/vision/make_scenes.py out/tiny --train 8 --val 2 --test 4 --size 64 --objects digits

The same options give the same bytes (the checksum printed, and kept in OUT/scenes.json). Train on such a folder
with `scripts/vision/detection/train.py --dataset voc:OUT` (or coco:OUT).
"""
import argparse
import dataclasses
import sys


def main(argv=None):
    from gluonzoo.errors import GluonzooError
    from gluonzoo.vision.data.scenes import SceneSpec, make_scenes
    defaults = SceneSpec()
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('out', help='a new (or empty) folder')
    for f in dataclasses.fields(SceneSpec):
        p.add_argument('--' + f.name.replace('_', '-'), type=type(getattr(defaults, f.name)),
                       default=getattr(defaults, f.name), help=f'default {getattr(defaults, f.name)}')
    p.add_argument('--progress', type=int, default=1, help='1: a progress bar on stderr')
    args = p.parse_args(argv)
    try:
        spec = SceneSpec(**{f.name: getattr(args, f.name) for f in dataclasses.fields(SceneSpec)})
        bar = None
        if args.progress:
            from tqdm import tqdm
            bar = tqdm(total=spec.train + spec.val + spec.test, desc='scenes', file=sys.stderr, leave=False)
        manifest = make_scenes(args.out, spec, progress=bar.update if bar else None)
        if bar:
            bar.close()
    except (GluonzooError, ValueError, OSError) as e:
        print(f'make_scenes.py: error: {e}', file=sys.stderr)
        return 2
    for split, n in manifest['splits'].items():
        print(f'{split}: {n["images"]} scenes, {n["objects"]} objects')
    print(f'{args.out}: checksum {manifest["checksum"]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
