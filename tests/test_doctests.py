"""Run the doctest examples of every gluonzoo module (the installed package, as users import it)."""
import doctest
import importlib
import pkgutil

import pytest

# vision/ and text/ live beside zoo/ (setup.py package_dir), so each root is walked on its own
ROOTS = ['gluonzoo', 'gluonzoo.vision', 'gluonzoo.text']
MODULES = sorted({r for r in ROOTS} | {m.name for r in ROOTS
                                        for m in pkgutil.walk_packages(importlib.import_module(r).__path__, r + '.')})


def test_walks_the_subpackages():
    assert 'gluonzoo.vision.transforms.presets' in MODULES and 'gluonzoo.store' in MODULES


@pytest.mark.parametrize('name', MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
