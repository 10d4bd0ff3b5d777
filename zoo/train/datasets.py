"""The datasets recipes train on, by config name (`--dataset`): each domain's train package registers a loader
`loader(cfg) -> task` (see protocol.py), and the engine runs that task. `gluonzoo verify` rebuilds the evaluation
split of a logged run through the same loader, so a checkpoint is re-measured on exactly the data its log names.

A user's own data is `kind:PATH` (`voc:data/my_voc`, `coco:/data/coco`): the loader registered as `kind`, declared
`loader(cfg, path)`, gets PATH as written.
"""
import difflib
import inspect

from ..discovery import discover
from ..errors import BadInputError

_DATASETS = {}


def register_dataset(name=None):
    """Register the decorated loader under `name` (default: its function name); a duplicate is an error."""
    def deco(fn):
        key = name or fn.__name__
        if key in _DATASETS:
            raise ValueError(f'dataset {key!r} is already registered (by {_DATASETS[key].__module__})')
        _DATASETS[key] = fn
        return fn
    return deco


def list_datasets():
    discover(('tasks', 'models', 'train'))
    return sorted(_DATASETS)


def _takes_path(fn):
    """Whether a loader is declared `loader(cfg, path)`: a second parameter without a default (a loader's optional
    settings, e.g. wordnet_glosses' max_length, do not count)."""
    required = [p for p in inspect.signature(fn).parameters.values() if p.default is inspect.Parameter.empty]
    return len(required) >= 2


def load_task(cfg):
    """The task of cfg.dataset, `name` or `kind:PATH`; an unknown name is an error naming the closest and listing
    the known ones, a PATH given to a loader that takes none (or none given to one that needs it) an error too."""
    known = list_datasets()
    name, sep, path = cfg.dataset.partition(':')
    if name not in _DATASETS:
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.0)
        raise BadInputError(f'unknown dataset {name!r}; did you mean {close[0]!r}? (known: '
                            f'{", ".join(known)}; your own data: voc:PATH or coco:PATH)')
    loader = _DATASETS[name]
    kwargs = _options(name, loader, getattr(cfg, 'dataset_kwargs', None) or {})
    if not _takes_path(loader):
        if sep:
            raise BadInputError(f'dataset {name!r} takes no PATH: --dataset {name}')
        return loader(cfg, **kwargs)
    if not path:
        raise BadInputError(f'dataset {name!r} reads your files: --dataset {name}:PATH')
    return loader(cfg, path, **kwargs)


def _options(name, loader, given):
    """cfg.dataset_kwargs checked against the loader's optional settings: an unknown one names those it has."""
    params = inspect.signature(loader).parameters
    known = [k for k, p in params.items() if p.default is not inspect.Parameter.empty]
    bad = sorted(k for k in given if k not in known)
    if bad:
        raise BadInputError(f'dataset {name!r} has no setting {", ".join(map(repr, bad))} (--dataset-kwargs); '
                            f'its settings: {", ".join(known) or "none"}')
    return dict(given)
