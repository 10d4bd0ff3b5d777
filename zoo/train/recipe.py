"""The body every recipe script shares: parse flags over its defaults, precheck, fit, print the result."""
import os
import sys


def run_recipe(argv, defaults, doc, build=None):
    """Run one recipe; `build(cfg, classes)` makes the net when the recipe does not take it from the registry.

    Returns the process exit code: 0, or 2 with one `prog: error: ...` line for a bad config or dataset.
    """
    from ..errors import GluonzooError
    from . import fit, parse_args, precheck
    from .datasets import load_task
    prog = os.path.basename(sys.argv[0])
    try:
        cfg = parse_args(argv, defaults, description=doc.splitlines()[0])
        precheck(cfg)  # a bad --out / --resume fails before any data is read
        task = load_task(cfg)
        result = fit(cfg, task, net=build(cfg, task.classes) if build else None, argv=argv)
    except (GluonzooError, ValueError, FileNotFoundError) as e:
        print(f'{prog}: error: {e}', file=sys.stderr)
        return 2
    print(f'{result["split"]} ' + ' '.join(f'{k} {v:.4f}' for k, v in result['metrics'].items()))
    print(f'weights {result["weights_path"]} sha1 {result["weights_sha1"]}')
    return 0
