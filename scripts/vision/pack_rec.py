"""Pack an ImageFolder (root/<class>/<images>) into MXNet RecordIO: PREFIX.rec, PREFIX.idx and PREFIX.lst.

    python scripts/vision/pack_rec.py ROOT PREFIX [--resize 256] [--quality 95]

Labels are the sorted class-folder indices (as gluonzoo.vision.data.ImageFolder and im2rec assign them); the
class names go to PREFIX.classes.txt. Non-image files are skipped with one warning; nothing is written when an
image cannot be decoded.
"""
import argparse
import os
import sys


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('root')
    p.add_argument('prefix')
    p.add_argument('--resize', type=int, default=None, help='shorter side in pixels (default: keep)')
    p.add_argument('--quality', type=int, default=95, help='JPEG quality')
    args = p.parse_args(argv)
    from gluonzoo.errors import GluonzooError
    from gluonzoo.vision.data import ImageFolder, pack
    try:
        folder = ImageFolder(args.root)
        os.makedirs(os.path.dirname(os.path.abspath(args.prefix)), exist_ok=True)
        n = pack(folder.items, args.prefix, resize=args.resize, quality=args.quality)
    except GluonzooError as e:
        print(f'pack_rec: error: {e}', file=sys.stderr)
        return 1
    with open(args.prefix + '.classes.txt', 'w') as f:
        f.write('\n'.join(folder.classes) + '\n')
    print(f'{args.prefix}.rec: {n} images, {len(folder.classes)} classes ({len(folder.skipped)} non-image skipped)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
