"""Write generated detection scenes (gluonzoo.vision.data.scenes) as a Pascal VOC folder plus COCO JSON, or with
--figures generated pose scenes (gluonzoo.vision.data.figures) as COCO person-keypoint JSON.

    python scripts/vision/make_scenes.py out/scenes                        # the `scenes` dataset's spec
    python scripts/vision/make_scenes.py out/tiny --train 8 --val 2 --test 4 --size 64 --objects digits
    python scripts/vision/make_scenes.py out/figures --figures             # FigureSpec's defaults

The same options give the same bytes (the checksum printed, and kept in OUT/scenes.json or OUT/figures.json). Train
on such a folder with `scripts/vision/detection/train.py --dataset voc:OUT` (or coco:OUT).
"""
import argparse
import dataclasses
import sys


def main(argv=None):
    from gluonzoo.errors import GluonzooError
    from gluonzoo.vision.data.figures import FigureSpec, make_figures
    from gluonzoo.vision.data.scenes import SceneSpec, make_scenes
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('out', help='a new (or empty) folder')
    p.add_argument('--figures', action='store_true', help='pose scenes (stick figures with COCO keypoints)')
    fields = {}  # option -> (type, default of SceneSpec or None, default of FigureSpec or None)
    for spec in (SceneSpec, FigureSpec):
        for f in dataclasses.fields(spec):
            fields.setdefault(f.name, [type(f.default), None, None])[1 + (spec is FigureSpec)] = f.default
    for name, (kind, scenes, figures) in fields.items():
        p.add_argument('--' + name.replace('_', '-'), type=kind, default=None,
                       help=f'default {scenes} (scenes), {figures} (--figures)' if scenes is not None and
                       figures is not None else f'default {scenes if figures is None else figures}')
    p.add_argument('--progress', type=int, default=1, help='1: a progress bar on stderr')
    args = p.parse_args(argv)
    spec_cls, make, what = (FigureSpec, make_figures, 'figures') if args.figures else (SceneSpec, make_scenes,
                                                                                        'objects')
    wrong = [n for n in fields if getattr(args, n) is not None and n not in
             {f.name for f in dataclasses.fields(spec_cls)}]
    if wrong:
        p.error(f'--{wrong[0].replace("_", "-")} is not an option of ' + ('--figures' if args.figures else
                                                                         'scenes (it is one of --figures)'))
    try:
        spec = spec_cls(**{f.name: getattr(args, f.name) for f in dataclasses.fields(spec_cls)
                           if getattr(args, f.name) is not None})
        bar = None
        if args.progress:
            from tqdm import tqdm
            bar = tqdm(total=spec.train + spec.val + spec.test, desc='scenes', file=sys.stderr, leave=False)
        manifest = make(args.out, spec, progress=bar.update if bar else None)
        if bar:
            bar.close()
    except (GluonzooError, ValueError, OSError) as e:
        print(f'make_scenes.py: error: {e}', file=sys.stderr)
        return 2
    for split, n in manifest['splits'].items():
        print(f'{split}: {n["images"]} scenes, {n[what]} {what}')
    print(f'{args.out}: checksum {manifest["checksum"]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
