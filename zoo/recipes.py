"""The command a trained checkpoint's record holds, and where a run of it leaves its files.

The record of every checkpoint gluonzoo trained names the exact command that made it (`recipe`: environment
variables, then `python scripts/... --out DIR --log FILE`, run from the source checkout) and the log that command
wrote (`log`, under logs/). The store reads the rebuilt file from where that command leaves it; `gluonzoo train`
(train/rerun.py) reruns the command.

    >>> recipe_command(Weights(arch='a', tag='t', sha1='0' * 40, task='translation', num_params=1,
    ...     source=Source(kind='recipe'), log='logs/a.t.jsonl',
    ...     recipe='OMP_NUM_THREADS=1 python scripts/x.py --out out/a --log out/a.t.jsonl'))
    ({'OMP_NUM_THREADS': '1'}, ['python', 'scripts/x.py', '--out', 'out/a', '--log', 'out/a.t.jsonl'])
"""
import os
import shlex

from .errors import BadInputError
from .logs import ROOT, check_weights
from .weights import Source, Weights  # noqa: F401 (the doctest)


def recipe_command(w):
    """(environment variables, argv) of a trained record's recipe; argv starts with 'python'."""
    if not (w.recipe and w.log):
        raise BadInputError(f'{w.name} was not trained by a gluonzoo recipe: its record names no recipe command '
                            'and log (gluonzoo list --pretrained shows the checkpoints; trained ones have a log)')
    tokens = shlex.split(w.recipe)
    env = {}
    while tokens and '=' in tokens[0] and not tokens[0].startswith('-'):
        key, value = tokens.pop(0).split('=', 1)
        env[key] = value
    if not tokens or tokens[0] != 'python' or not {'--out', '--log'} <= set(tokens):
        raise BadInputError(f"{w.name}: its recipe {w.recipe!r} is not 'python SCRIPT ... --out DIR --log FILE'")
    return env, tokens


def run_paths(w):
    """(out folder, log file) that the recipe of `w` writes, absolute."""
    _, argv = recipe_command(w)
    return tuple(os.path.join(ROOT, argv[argv.index(flag) + 1]) for flag in ('--out', '--log'))


def weights_path(w):
    """Where a run of the recipe leaves the file of `w`: its --out folder, under the name the committed log gives."""
    return os.path.join(run_paths(w)[0], check_weights(w).final['weights_file'])
