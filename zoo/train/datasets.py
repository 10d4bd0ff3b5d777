"""The datasets recipes train on, by config name (`--dataset`): each domain's train package registers a loader
`loader(cfg) -> task` (see protocol.py), and the engine runs that task. `gluonzoo verify` rebuilds the evaluation
split of a logged run through the same loader, so a checkpoint is re-measured on exactly the data its log names.
"""
import difflib

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


def load_task(cfg):
    """The task of cfg.dataset; an unknown name is an error naming the closest and listing the known ones."""
    known = list_datasets()
    if cfg.dataset not in _DATASETS:
        close = difflib.get_close_matches(cfg.dataset, known, n=1, cutoff=0.0)
        raise BadInputError(f'unknown dataset {cfg.dataset!r}; did you mean {close[0]!r}? (known: '
                            f'{", ".join(known)})')
    return _DATASETS[cfg.dataset](cfg)
