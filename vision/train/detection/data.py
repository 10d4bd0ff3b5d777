"""The detection data a recipe trains on: the user's own VOC folder (`voc:PATH`) or COCO JSON (`coco:PATH`), every
problem reported before training starts (missing images, empty annotation files, boxes outside the image, unknown
classes), and the files' checksum for the log."""
import glob
import os
import warnings

import numpy as np

from ....errors import BadInputError


def _subset(ds, n):
    """The first n samples of a detection dataset (all when n is 0)."""
    if n and n < len(ds):
        ds.items, ds.labels = ds.items[:n], ds.labels[:n]
    return ds


def _check_images(ds, sizes=None):
    """Decode every image of `ds` once, before training: unreadable ones, and ones whose size differs from what
    the annotations say (their boxes would be in another picture's pixels), are one error naming them."""
    from ...image import read_image
    bad, wrong = [], []
    for i, path in enumerate(ds.items):
        try:
            img = read_image(path)
        except BadInputError:
            bad.append(path)
            continue
        if sizes is not None and sizes[i] is not None and tuple(img.shape[:2]) != sizes[i]:
            wrong.append(f'{path} ({img.shape[1]}x{img.shape[0]}, annotated {sizes[i][1]}x{sizes[i][0]})')
    if bad:
        raise BadInputError(f'{len(bad)} image(s) cannot be decoded: {_names(bad)}')
    if wrong:
        raise BadInputError(f'{len(wrong)} image(s) are not the size their annotation gives: {_names(wrong)}')


def _names(items, limit=5):
    more = f' and {len(items) - limit} more' if len(items) > limit else ''
    return ', '.join(str(i) for i in items[:limit]) + more


def pick_classes(found, wanted, where):
    """The class list to train: `wanted` (names from --classes; each must be one of `found`, compared without
    case) or all of `found`."""
    if wanted is None:
        return tuple(found)
    if isinstance(wanted, int):
        raise BadInputError(f'--classes for a detection dataset takes class names (a,b,c), not a count; {where} '
                            f'has {len(found)}: {", ".join(found)}')
    lower = {c.lower(): c for c in found}
    unknown = [c for c in wanted if c.lower() not in lower]
    if unknown:
        raise BadInputError(f'--classes names {len(unknown)} class(es) that {where} does not have: '
                            f'{", ".join(unknown)} (it has: {", ".join(found)})')
    if len({c.lower() for c in wanted}) != len(wanted):
        raise BadInputError(f'--classes lists a class twice: {", ".join(wanted)}')
    return tuple(lower[c.lower()] for c in wanted)


def _splits(names, where):
    """(train split, eval split) among the split names a folder has: trainval or train -> test, else train -> val
    (never an eval split inside the training one)."""
    if 'test' in names:
        train = next((s for s in ('trainval', 'train') if s in names), None)
        if train:
            return train, 'test'
    if 'train' in names and 'val' in names:
        return 'train', 'val'
    raise BadInputError(f'{where} has splits {sorted(names) or "none"}: training needs train (or trainval) and an '
                        'evaluation split, test (or val, with train)')


def _warn_empty(ds, split, where):
    empty = sum(1 for lb in ds.labels if not len(lb) or (lb[:, 4] < 0).all())
    if empty:
        warnings.warn(f'{where}: {empty} of {len(ds)} {split} image(s) have no object of the classes trained '
                      '(they train as background)', stacklevel=3)
    if all((not len(lb) or (lb[:, 4] < 0).all()) for lb in ds.labels):
        raise BadInputError(f'{where}: the {split} split has no object of the classes trained')


def _voc_names(folder, ids):
    import xml.etree.ElementTree as ET
    names = set()
    for image_id in ids:
        xml = os.path.join(folder, 'Annotations', f'{image_id}.xml')
        try:
            root = ET.parse(xml).getroot()
        except FileNotFoundError:
            raise BadInputError(f'{xml} is missing: every id in ImageSets/Main needs an annotation') from None
        except (OSError, ET.ParseError) as e:
            raise BadInputError(f'cannot read VOC annotation {xml} (empty or not XML?): {e}') from None
        names.update((o.findtext('name') or '').strip() for o in root.iter('object'))
    return names - {''}


def voc_data(path, cfg):
    """(train, eval, classes, info) of a VOC folder `path` (Annotations/, ImageSets/Main/<split>.txt,
    JPEGImages/): splits by `_splits`, classes from path/classes.txt (one a line) when there is one, else the
    object names of both splits, sorted; `cfg.classes` picks some of them."""
    from ...data.detection import VOCDetection
    import xml.etree.ElementTree as ET
    where = f'VOC folder {path}'
    if not os.path.isdir(os.path.join(path, 'ImageSets', 'Main')):
        raise BadInputError(f'{where} has no ImageSets/Main/: --dataset voc:PATH takes a folder holding '
                            'Annotations/, ImageSets/Main/ and JPEGImages/')
    names = [os.path.basename(p)[:-4] for p in glob.glob(os.path.join(glob.escape(path), 'ImageSets', 'Main',
                                                                         '*.txt'))]
    train_split, eval_split = _splits(names, where)
    ids = {}
    for split in (train_split, eval_split):
        with open(os.path.join(path, 'ImageSets', 'Main', f'{split}.txt')) as f:
            ids[split] = [line.split()[0] for line in f if line.strip()]
        if not ids[split]:
            raise BadInputError(f'{where}: ImageSets/Main/{split}.txt lists no image')
    listed = os.path.join(path, 'classes.txt')
    if os.path.isfile(listed):
        with open(listed) as f:
            found = tuple(line.strip() for line in f if line.strip())
    else:
        found = tuple(sorted(_voc_names(path, ids[train_split] + ids[eval_split]), key=str.lower))
    if not found:
        raise BadInputError(f'{where}: its annotations name no object class')
    classes = pick_classes(found, cfg.classes, where)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        train = VOCDetection(path, [(None, train_split)], classes=classes)
        val = VOCDetection(path, [(None, eval_split)], classes=classes)
    for w in caught:  # clipped / dropped boxes, objects of other classes: counted, once, before training
        if cfg.classes is None or 'skipped' not in str(w.message):
            warnings.warn(str(w.message), stacklevel=2)
    # the checksum covers both splits whole (before any --*-limit cut): their lists, annotations and images
    files = [os.path.join(path, 'ImageSets', 'Main', f'{s}.txt') for s in (train_split, eval_split)]
    files += [listed] if os.path.isfile(listed) else []
    for ds in (train, val):
        files += [p for (folder, image_id), item in zip(ds.ids, ds.items)
                  for p in (os.path.join(folder, 'Annotations', f'{image_id}.xml'), item)]
    checksum = files_checksum(files, path)
    train, val = _subset(train, cfg.train_limit), _subset(val, cfg.val_limit)

    def sizes(ds):
        out = []
        for folder, image_id in ds.ids[:len(ds)]:
            size = ET.parse(os.path.join(folder, 'Annotations', f'{image_id}.xml')).getroot().find('size')
            out.append((int(float(size.findtext('height'))), int(float(size.findtext('width')))))
        return out
    for ds, split in ((train, train_split), (val, eval_split)):
        _check_images(ds, sizes(ds))
        _warn_empty(ds, split, where)
    return train, val, classes, {'train_split': train_split, 'eval_split': eval_split, 'checksum': checksum}


def coco_data(path, cfg):
    """(train, eval, classes, info) of a COCO folder `path`: annotations/instances_<split>.json, the images of a
    split in path/<split>/ (COCO's layout), else path/images/ or path/JPEGImages/; splits by `_splits` on the
    <split> names (a name starting with train, val or test counts as that, e.g. train2017); classes are the
    categories, `cfg.classes` picks some (the other objects are left out)."""
    from ...data.detection import COCODetection
    where = f'COCO folder {path}'
    files = sorted(glob.glob(os.path.join(glob.escape(path), 'annotations', 'instances_*.json')))
    by_kind = {}
    for f in files:
        name = os.path.basename(f)[len('instances_'):-len('.json')]
        kind = next((k for k in ('trainval', 'train', 'val', 'test') if name.startswith(k)), None)
        if kind and kind not in by_kind:
            by_kind[kind] = name
    if not by_kind:
        raise BadInputError(f'{where} has no annotations/instances_<split>.json (train, val or test)')
    train_kind, eval_kind = _splits(by_kind, where)
    data = {}
    for kind in (train_kind, eval_kind):
        name = by_kind[kind]
        images = next((d for d in (os.path.join(path, name), os.path.join(path, 'images'),
                                   os.path.join(path, 'JPEGImages')) if os.path.isdir(d)), path)
        ann = os.path.join(path, 'annotations', f'instances_{name}.json')
        ds = COCODetection(images, ann, skip_empty=False)
        if ds.dropped:
            warnings.warn(f'{ann}: dropped {ds.dropped} box(es) empty after clipping to their image', stacklevel=2)
        data[kind] = ds
    found = data[train_kind].classes
    if data[eval_kind].classes != found:
        raise BadInputError(f'{where}: {by_kind[train_kind]} and {by_kind[eval_kind]} list other categories')
    classes = pick_classes(found, cfg.classes, where)
    keep = {found.index(c): i for i, c in enumerate(classes)}
    for ds in data.values():  # only the classes trained, renumbered; GluonCV's -1 placeholder rows stay out
        relabeled = []
        for lb in ds.labels:
            lb = lb[np.isin(lb[:, 4], list(keep))].copy()
            lb[:, 4] = [keep[int(c)] for c in lb[:, 4]]
            relabeled.append(lb)
        ds.labels, ds.classes = relabeled, classes
    files = [ds.annotation_file for ds in data.values()] + [p for ds in data.values() for p in ds.items]
    checksum = files_checksum(files, path)
    train = _subset(data[train_kind], cfg.train_limit)
    val = _subset(data[eval_kind], cfg.val_limit)
    for ds, kind in ((train, train_kind), (val, eval_kind)):
        entries = {e['id']: e for e in ds.coco.dataset['images']}
        _check_images(ds, [(entries[i]['height'], entries[i]['width']) for i in ds.image_ids[:len(ds)]])
        _warn_empty(ds, by_kind[kind], where)
    return train, val, classes, {'train_split': by_kind[train_kind], 'eval_split': by_kind[eval_kind],
                                 'checksum': checksum}


def files_checksum(paths, root):
    """sha256 over files (their path relative to `root`, size and bytes) in the given order."""
    import hashlib
    h = hashlib.sha256()
    for p in paths:
        with open(p, 'rb') as f:
            data = f.read()
        h.update(f'{os.path.relpath(p, root)}\0{len(data)}\0'.encode())
        h.update(data)
    return h.hexdigest()
