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
    net = get_model(args.name, pretrained=True)
    net.hybridize()
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
    net = get_model(args.name, pretrained=True)
    net.hybridize()
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
