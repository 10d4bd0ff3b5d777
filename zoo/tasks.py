"""What a task registers with the zoo, so that zoo/ runs every task's models without knowing any of them.

A Task names the keys its weights records' `preprocess` may hold (anything else is refused at registration), how
the registry-wide tests make an example input and what a correct output of it looks like, the eval transform a
record implies (`Weights.transforms()`), the check `gluonzoo verify` reruns, and the command-line verb that runs
the task's models. The domains register theirs; see discovery.py.

    >>> size('crop')(224), size('crop')((0, 3))
    (None, 'crop must be a positive int or (height, width), not (0, 3)')
"""
import dataclasses
import difflib
from typing import Callable, Dict, Mapping, Optional

from .discovery import discover
from .errors import UnknownTaskError


# -- preprocess keys: each a check returning None when the value is fine, else one line saying why not ----------
def _positive_int(v):
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


def size(key):
    """An int (a side) or (height, width) of positive ints."""
    def check(v):
        ok = _positive_int(v) or (isinstance(v, (tuple, list)) and len(v) == 2 and all(map(_positive_int, v)))
        return None if ok else f'{key} must be a positive int or (height, width), not {v!r}'
    return check


def numbers(key, positive=False):
    """A non-empty tuple of numbers (one per channel)."""
    def check(v):
        ok = isinstance(v, (tuple, list)) and v and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                        and (x > 0 or not positive) for x in v)
        return None if ok else f'{key} must be a tuple of {"positive " if positive else ""}numbers, not {v!r}'
    return check


def number(key, positive=True):
    def check(v):
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and (v > 0 or not positive)
        return None if ok else f'{key} must be a {"positive " if positive else ""}number, not {v!r}'
    return check


def one_of(key, *values):
    def check(v):
        return None if v in values else f'{key} must be one of {", ".join(map(repr, values))}, not {v!r}'
    return check


def text(key):
    def check(v):
        return None if isinstance(v, str) and v else f'{key} must be a non-empty string, not {v!r}'
    return check


def flag(key):
    def check(v):
        return None if isinstance(v, bool) else f'{key} must be True or False, not {v!r}'
    return check


def positive_int(key):
    def check(v):
        return None if _positive_int(v) else f'{key} must be a positive int, not {v!r}'
    return check


# -- tasks and commands -------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Task:
    """One task: its name, domain, record schema, test contract and the entry points zoo/ calls.

    `example_inputs(entry)` -> the tuple of NDArrays the registry-wide tests call a model of this task with.
    `check_outputs(outputs, inputs, classes)` raises AssertionError when `outputs` (the model's result on `inputs`,
    flattened to a list) is not what this task's models return; `classes` is the class count the model was built
    with when the task has classes. `transforms(w)` -> the eval preprocessing callable of record `w`.
    `check_record(w)` -> problems beyond the preprocess keys (e.g. mean/std length against the input channels).
    `verify(w, net)` -> [(line, ok)]: the record's own `check` rerun by `gluonzoo verify`.
    `command`: the CLI verb that runs this task's models (`predict`, `embed`).
    """
    name: str
    domain: str
    preprocess: Mapping[str, Callable]
    example_inputs: Callable
    check_outputs: Callable
    has_classes: bool = False
    transforms: Optional[Callable] = None
    check_record: Optional[Callable] = None
    verify: Optional[Callable] = None
    command: Optional[str] = None

    def record_problems(self, w):
        """What is wrong with record `w` for this task: unknown or malformed preprocess keys, then the task's own."""
        out = []
        for key, value in w.preprocess.items():
            check = self.preprocess.get(key)
            if check is None:
                close = difflib.get_close_matches(key, list(self.preprocess), n=1)
                hint = f'did you mean {close[0]!r}? ' if close else ''
                out.append(f'unknown preprocess key {key!r} for {self.name} ({hint}keys: '
                           f'{", ".join(sorted(self.preprocess))})')
            else:
                problem = check(value)
                if problem:
                    out.append('preprocess ' + problem)
        if self.has_classes != bool(w.classes):
            out.append(f'a {self.name} record must {"" if self.has_classes else "not "}name its classes')
        if not out and self.check_record:
            out += self.check_record(w)
        return out


@dataclasses.dataclass(frozen=True)
class Command:
    """A `gluonzoo` subcommand a domain adds: `configure(parser)` adds its arguments, `run(args)` -> exit code."""
    name: str
    help: str
    configure: Callable
    run: Callable


_TASKS: Dict[str, Task] = {}
_COMMANDS: Dict[str, Command] = {}


def register_task(task):
    """Add a Task; a second task of the same name is an error."""
    if task.name in _TASKS:
        raise ValueError(f'task {task.name!r} is already registered')
    if task.command and task.command not in _COMMANDS:
        raise ValueError(f'task {task.name!r} names the command {task.command!r}, which is not registered')
    _TASKS[task.name] = task
    return task


def register_command(command):
    """Add a `gluonzoo` subcommand; a second one of the same name is an error."""
    if command.name in _COMMANDS:
        raise ValueError(f'command {command.name!r} is already registered')
    _COMMANDS[command.name] = command
    return command


def get_task(name):
    """The registered Task called `name`."""
    if name not in _TASKS:
        discover()
    if name not in _TASKS:
        close = difflib.get_close_matches(str(name), list(_TASKS), n=1)
        hint = f'did you mean {close[0]!r}? ' if close else ''
        raise UnknownTaskError(f'unknown task {name!r}; {hint}tasks: {", ".join(sorted(_TASKS))}')
    return _TASKS[name]


def list_tasks(domain=None):
    """Registered task names (of one domain), sorted."""
    discover()
    return sorted(n for n, t in _TASKS.items() if domain in (None, t.domain))


def commands():
    """The subcommands the domains registered, by name."""
    discover()
    return dict(_COMMANDS)
