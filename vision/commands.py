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
        raise ValueError(f'{args.name} is a {task.name} model and `gluonzoo predict` classifies images: {use}')
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
