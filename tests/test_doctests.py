"""Run the doctest examples of every gluonzoo module (the installed package, as users import it)."""
import doctest
import importlib
import inspect
import pkgutil

import pytest

# vision/ and text/ live beside zoo/ (setup.py package_dir), so each root is walked on its own
ROOTS = ['gluonzoo', 'gluonzoo.vision', 'gluonzoo.text']
MODULES = sorted({r for r in ROOTS} | {m.name for r in ROOTS
                                        for m in pkgutil.walk_packages(importlib.import_module(r).__path__, r + '.')})


def test_walks_the_subpackages():
    assert 'gluonzoo.vision.transforms.presets' in MODULES and 'gluonzoo.store' in MODULES


def _examples_in_source(module):
    """How many `>>>` lines (not marked +SKIP) the module's source has: counted from the text, independently of
    doctest's finder."""
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return 0
    return sum(line.lstrip().startswith('>>> ') and '+SKIP' not in line for line in source.splitlines())


@pytest.mark.parametrize('name', MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    # a module whose source shows examples must have had them run: a decorator or a re-export that hides a
    # docstring from doctest's finder would otherwise pass with nothing tested
    assert result.attempted >= _examples_in_source(module), (name, result)


def test_some_modules_have_examples():
    assert sum(_examples_in_source(importlib.import_module(n)) > 0 for n in MODULES) >= 5
