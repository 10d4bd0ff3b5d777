"""Pack a detection dataset (VOC folder, COCO JSON or GluonCV .lst) into GluonCV's detection RecordIO: PREFIX.rec,
PREFIX.idx and PREFIX.lst.

    python scripts/vision/pack_detection.py SOURCE PREFIX [--split trainval] [--year 2007] [--images DIR]
        [--root DIR] [--quality 95 | --png]

SOURCE is a VOC folder (a VOCdevkit holding VOC<year>/, or a VOC<year> folder itself), a COCO annotation JSON (its
images under --images, default the JSON's folder) or a .lst file (paths relative to --root). Each record's label is
GluonCV's: a header (4, 6, width, height), then `class id, x1, y1, x2, y2, difficult` per object with the corners
normalized to 0-1 (gluonzoo.vision.data.RecordFileDetection and GluonCV's read it); the class names go to
PREFIX.classes.txt. Images are re-encoded as JPEG (--quality) or PNG (--png, lossless). Files are written under
temporary names and renamed at the end.
"""
import argparse
import os
import sys


def load(source, split='trainval', year='2007', images=None, root=''):
    """The dataset SOURCE names (a VOC folder, a COCO JSON, a .lst)."""
    from gluonzoo.errors import BadInputError
    from gluonzoo.vision.data import COCODetection, LstDetection, VOCDetection
    if os.path.isdir(source):
        flat = os.path.isdir(os.path.join(source, 'Annotations'))
        return VOCDetection(source, ((None, split),) if flat else ((year, split),))
    if source.endswith('.json'):
        return COCODetection(images or os.path.dirname(os.path.abspath(source)), source, skip_empty=False)
    if source.endswith('.lst'):
        return LstDetection(source, root)
    raise BadInputError(f'{source} is not a VOC folder, a COCO .json or a .lst file')


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('source')
    p.add_argument('prefix')
    p.add_argument('--split', default='trainval', help='VOC: the ImageSets/Main split (default trainval)')
    p.add_argument('--year', default='2007', help='VOC: the VOC<year> folder under a VOCdevkit (default 2007)')
    p.add_argument('--images', help='COCO: the image folder (default: the JSON\'s folder)')
    p.add_argument('--root', default='', help='.lst: the folder its image paths are relative to')
    p.add_argument('--quality', type=int, default=95, help='JPEG quality')
    p.add_argument('--png', action='store_true', help='store lossless PNG instead of JPEG')
    p.add_argument('--no-progress', action='store_true')
    args = p.parse_args(argv)
    from tqdm import tqdm

    from gluonzoo.errors import GluonzooError
    from gluonzoo.vision.data import pack_detection
    try:
        ds = load(args.source, args.split, args.year, args.images, args.root)
        os.makedirs(os.path.dirname(os.path.abspath(args.prefix)), exist_ok=True)
        with tqdm(total=len(ds), desc='pack', disable=args.no_progress, file=sys.stderr) as bar:
            n, objects = pack_detection(ds, args.prefix, quality=args.quality,
                                        encoding='.png' if args.png else '.jpg', progress=bar.update)
    except GluonzooError as e:
        print(f'pack_detection: error: {e}', file=sys.stderr)
        return 1
    if ds.classes:
        with open(args.prefix + '.classes.txt', 'w') as f:
            f.write('\n'.join(ds.classes) + '\n')
    print(f'{args.prefix}.rec: {n} images, {objects} objects')
    return 0


if __name__ == '__main__':
    sys.exit(main())
