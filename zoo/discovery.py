"""The one place zoo/ names the domains. Importing a domain's `tasks` module registers its tasks (and their CLI
verbs), its `models` package its model families; its `train` package registers the datasets its recipes train on.

Everything else in zoo/ reaches task code (preprocessing, predict/embed, class names, verify checks, datasets)
through what the domains register (gluonzoo.tasks, gluonzoo.registry, gluonzoo.train.datasets), never by importing
them.
"""
import importlib

#: subpackages of gluonzoo that register tasks, model families and training datasets
DOMAINS = ('vision', 'text')
#: what discover() imports of every domain, in this order (tasks first: model records are checked against them)
PARTS = ('tasks', 'models')

_STATE = {}  # part -> 'running' while its imports run (they may call back here), then 'done'


def discover(parts=PARTS):
    """Import `parts` ('tasks', 'models', 'train') of every domain, each once."""
    package = __name__.rpartition('.')[0]
    for part in parts:
        if _STATE.get(part):
            continue
        _STATE[part] = 'running'
        try:
            for domain in DOMAINS:
                importlib.import_module(f'{package}.{domain}.{part}')
        except BaseException:
            del _STATE[part]  # a failed import is retried (and raises again) on the next call, not half-registered
            raise
        _STATE[part] = 'done'
