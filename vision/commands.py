"""The `gluonzoo` subcommands of the vision tasks (registered in vision/tasks.py)."""
import sys
import time


def predict(args):
    """`gluonzoo predict NAME IMAGE...`: top-k labels and probabilities of each image."""
    from ..registry import get_entry, get_model
    from ..tasks import get_task
    from .image import read_image
    from .inference import classify
    task = get_task(get_entry(args.name).task)
    if task.name != 'image-classification':
        use = f'use `gluonzoo {task.command}`' if task.command else 'no command runs it yet'
        raise ValueError(f'{args.name} is a model of the {task.name} task and `gluonzoo predict` classifies '
                         f'images: {use}')
    if args.topk < 1:
        raise ValueError(f'--topk {args.topk} must be at least 1')
    images = [read_image(p) for p in args.images]  # every file is checked before the model is built
    net = get_model(args.name, pretrained=True)  # classify() optimizes it on the first batch
    t0 = time.perf_counter()
    results = classify(net, images, topk=args.topk)
    dt = time.perf_counter() - t0
    for path, top in zip(args.images, results):
        print(path)
        for label, p in top:
            print(f'  {p:7.4f}  {label}')
    print(f'{len(images)} image(s) in {dt * 1000:.0f} ms', file=sys.stderr)
    return 0


def detect(args):
    """`gluonzoo detect NAME IMAGE...`: class, score and box of each object found; annotated pictures in --out."""
    import os
    from ..registry import get_entry, get_model
    from ..tasks import get_task
    from .image import read_image
    from .inference import detect as run
    from .viz import plot_bbox
    task = get_task(get_entry(args.name).task)
    if task.name != 'object-detection':
        use = f'use `gluonzoo {task.command}`' if task.command else 'no command runs it yet'
        raise ValueError(f'{args.name} is a model of the {task.name} task and `gluonzoo detect` finds objects: '
                         f'{use}')
    if not 0 <= args.threshold <= 1:
        raise ValueError(f'--threshold {args.threshold} must be between 0 and 1')
    stems = [os.path.splitext(os.path.basename(p))[0] for p in args.images]
    if args.out and len(set(stems)) != len(stems):
        twice = next(s for s in stems if stems.count(s) > 1)
        raise ValueError(f'two images are named {twice}: their pictures in {args.out} would overwrite each other')
    images = [read_image(p) for p in args.images]  # every file is checked before the model is built
    net = get_model(args.name, pretrained=True)  # detect() optimizes it on the first picture
    t0 = time.perf_counter()
    results = run(net, images, threshold=args.threshold)
    dt = time.perf_counter() - t0
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for path, stem, image, found in zip(args.images, stems, images, results):
        print(path)
        for name, score, box in found:
            print(f'  {name:<16} {score:6.3f}  [{", ".join(f"{v:.1f}" for v in box)}]')
        if not found:
            print(f'  nothing scores {args.threshold} or more')
        if args.out:
            picture = os.path.join(args.out, stem + '.png')
            plot_bbox(image, [b for _, _, b in found], [s for _, s, _ in found],
                      [net.classes.index(n) for n, _, _ in found], net.classes, thresh=args.threshold, path=picture)
            print(f'  -> {picture}')
    print(f'{len(images)} image(s) in {dt * 1000:.0f} ms', file=sys.stderr)
    return 0


def _task_of(name, want, command, does):
    """Refuse a model of another task than `want` with one line naming the command that runs it."""
    from ..registry import get_entry
    from ..tasks import get_task
    task = get_task(get_entry(name).task)
    if task.name != want:
        use = f'use `gluonzoo {task.command}`' if task.command else 'no command runs it yet'
        raise ValueError(f'{name} is a model of the {task.name} task and `gluonzoo {command}` {does}: {use}')


def _outputs(images, out, suffixes):
    """The stem of each image, refusing (with `out`) two images whose files (stem + each of `suffixes`) in `out`
    would overwrite each other."""
    import os
    stems = [os.path.splitext(os.path.basename(p))[0] for p in images]
    if out:
        owner = {}
        for path, stem in zip(images, stems):
            for suffix in suffixes:
                other = owner.setdefault(stem + suffix, path)
                if other is path:
                    continue
                if stem == os.path.splitext(os.path.basename(other))[0]:
                    raise ValueError(f'two images are named {stem}: their files in {out} would overwrite each other')
                raise ValueError(f'{other} and {path} would both write {stem + suffix} in {out}: rename one')
    return stems


def _write_json(data, path):
    import json
    import os
    tmp = path + '.part'
    with open(tmp, 'w') as f:
        json.dump(data, f, indent=1)
        f.write('\n')
    os.replace(tmp, path)


def segment(args):
    """`gluonzoo segment NAME IMAGE...`: the classes each image shows and their pixel share; with --out, the
    picture with the class map over it (<stem>.png), the class ids as a palette PNG (<stem>.classes.png) and
    <stem>.json."""
    import os
    import numpy as np
    from ..registry import get_model
    from .image import read_image
    from .inference import segment as run
    from .viz import plot_mask, segment_palette_png
    _task_of(args.name, 'semantic-segmentation', 'segment', 'labels the pixels of images')
    suffixes = ('.png', '.classes.png', '.json')
    stems = _outputs(args.images, args.out, suffixes)
    images = [read_image(p) for p in args.images]  # every file is checked before the model is built
    net = get_model(args.name, pretrained=True)
    names = getattr(net, 'classes', None) or []
    t0 = time.perf_counter()
    results = run(net, images)
    dt = time.perf_counter() - t0
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for path, stem, image, ids in zip(args.images, stems, images, results):
        found, counts = np.unique(ids, return_counts=True)
        order = np.argsort(-counts, kind='stable')
        classes = [{'id': int(found[i]), 'name': names[found[i]] if found[i] < len(names) else str(found[i]),
                    'pixels': int(counts[i]), 'share': float(counts[i] / ids.size)} for i in order]
        print(path)
        for c in classes:
            print(f'  {c["name"]:<20} {100 * c["share"]:6.2f}%  ({c["pixels"]} px)')
        if args.out:
            picture, id_png, record = (os.path.join(args.out, stem + s) for s in suffixes)
            plot_mask(image, ids, path=picture)
            segment_palette_png(ids, id_png)
            _write_json({'image': path, 'model': net.weights.name, 'height': int(ids.shape[0]),
                         'width': int(ids.shape[1]), 'class_ids_png': os.path.basename(id_png),
                         'overlay_png': os.path.basename(picture), 'classes': classes}, record)
            print(f'  -> {picture}, {id_png}, {record}')
    print(f'{len(images)} image(s) in {dt * 1000:.0f} ms', file=sys.stderr)
    return 0


def pose(args):
    """`gluonzoo pose DETECTOR POSE IMAGE...`: each person the detector finds, with the pose net's 17 joints;
    with --out, the picture with boxes and skeletons (<stem>.png) and <stem>.json."""
    import os
    import numpy as np
    from ..registry import get_model, get_weights
    from .image import read_image
    from .pose import estimate_poses
    from .viz import plot_keypoints
    _task_of(args.detector, 'object-detection', 'pose', 'takes an object detector (of people) first')
    _task_of(args.pose, 'pose-estimation', 'pose', 'takes a pose estimation net second')
    if not 0 <= args.threshold <= 1:
        raise ValueError(f'--threshold {args.threshold} must be between 0 and 1')
    suffixes = ('.png', '.json')
    stems = _outputs(args.images, args.out, suffixes)
    if 'person' not in (get_weights(args.detector).classes or ()):
        raise ValueError(f'{args.detector} has no class "person": `gluonzoo pose` needs a detector of people '
                         f'(e.g. a COCO one)')
    images = [read_image(p) for p in args.images]  # every file is checked before the models are built
    detector = get_model(args.detector, pretrained=True)
    net = get_model(args.pose, pretrained=True)  # estimate_poses optimizes both (gluonzoo.optimize)
    joints = list(getattr(net, 'joints', None) or net.weights.config.get('joints') or ())
    joints = joints or [str(j) for j in range(getattr(net, 'num_joints', 17))]
    t0 = time.perf_counter()
    results = [estimate_poses(detector, net, image, threshold=args.threshold) for image in images]
    dt = time.perf_counter() - t0
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for path, stem, image, people in zip(args.images, stems, images, results):
        print(path)
        if not people:
            print(f'  no person scores {args.threshold} or more')
        found = []
        for n, p in enumerate(people, 1):
            box = [float(v) for v in p['box']]
            print(f'  person {n}  {p["score"]:6.3f}  [{", ".join(f"{v:.1f}" for v in box)}]')
            for name, (x, y), c in zip(joints, p['keypoints'], p['confidence']):
                print(f'    {name:<16} {x:8.1f} {y:8.1f}  {c:6.3f}')
            found.append({'score': p['score'], 'box': box, 'keypoints': {
                name: [float(x), float(y), float(c)] for name, (x, y), c in zip(joints, p['keypoints'],
                                                                               p['confidence'])}})
        if args.out:
            picture, record = (os.path.join(args.out, stem + s) for s in suffixes)
            k, j = len(people), len(joints)
            plot_keypoints(image, np.array([p['keypoints'] for p in people]).reshape(k, j, 2),
                           np.array([p['confidence'] for p in people]).reshape(k, j, 1), np.zeros((1, k, 1)),
                           np.array([p['box'] for p in people]).reshape(1, k, 4),
                           np.array([p['score'] for p in people]).reshape(1, k, 1), box_thresh=args.threshold,
                           path=picture)
            _write_json({'image': path, 'detector': detector.weights.name, 'pose': net.weights.name,
                         'threshold': args.threshold, 'overlay_png': os.path.basename(picture),
                         'joints': joints, 'people': found}, record)
            print(f'  -> {picture}, {record}')
    print(f'{len(images)} image(s) in {dt * 1000:.0f} ms', file=sys.stderr)
    return 0


def _views(text):
    """--views CLIPSxCROPS -> (clips, crops), clips 0 for the record's own sampling; None stays None (the record's
    test_views)."""
    if text is None:
        return None
    try:
        clips, crops = (int(v) for v in text.lower().split('x'))
    except ValueError:
        raise ValueError(f'--views {text!r}: give CLIPSxCROPS, e.g. 10x3, or 0x1 for the record\'s own sampling') \
            from None
    return clips or None, crops


def recognize(args):
    """`gluonzoo recognize NAME VIDEO...`: top-k actions of each video, its test clips as the record samples them;
    with --out, the frames of its (first) clip with the top-k beside them (<stem>.png) and <stem>.json."""
    import os
    from ..registry import get_model, get_weights
    from .inference import read_clip, recognize as run, views_of
    from .viz import save_clip
    _task_of(args.name, 'action-recognition', 'recognize', 'recognizes actions in videos')
    if args.topk < 1:
        raise ValueError(f'--topk {args.topk} must be at least 1')
    stems = _outputs(args.videos, args.out, ('.png', '.json'))
    pre = get_weights(args.name).preprocess
    views = views_of(pre, _views(args.views))
    clips = [read_clip(p, pre, clips=views[0]) for p in args.videos]  # every file is read before the model is built
    net = get_model(args.name, pretrained=True)
    t0 = time.perf_counter()
    results = run(net, clips, topk=args.topk, views=views)
    dt = time.perf_counter() - t0
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for path, stem, frames, top in zip(args.videos, stems, clips, results):
        print(path)
        for label, p in top:
            print(f'  {p:7.4f}  {label}')
        if args.out:
            picture, record = (os.path.join(args.out, stem + s) for s in ('.png', '.json'))
            save_clip(frames[:len(frames) // (views[0] or 1)], top, picture)
            _write_json({'video': path, 'model': net.weights.name, 'views': list(views), 'png': stem + '.png',
                         'topk': [{'label': label, 'prob': p} for label, p in top]}, record)
            print(f'  -> {picture}, {record}')
    print(f'{len(args.videos)} video(s) in {dt * 1000:.0f} ms', file=sys.stderr)
    return 0
