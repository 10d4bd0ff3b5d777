"""zoo/aliases.py: a peer's leaf modules served from its API snapshot resolve to the nearest real package's own
objects, a name that package lacks is an AttributeError that says so, and real files always win."""
import importlib
import json
import sys

import pytest

from gluonzoo import aliases


@pytest.fixture
def package(tmp_path, monkeypatch):
    root = tmp_path / 'aliaspkg'
    (root / 'real').mkdir(parents=True)
    (root / '__init__.py').write_text('from gluonzoo import aliases\n'
                                      "aliases.install(__name__, 'peer', __file__.replace('__init__.py', 'api.json'))\n"
                                      'def f():\n    return "ours"\n'
                                      "__getattr__ = aliases.children(__name__, moved={'moved': 'leaf.deeper'})\n")
    (root / 'real' / '__init__.py').write_text('from gluonzoo import aliases\nWHO = "the real file"\n'
                                               '__getattr__ = aliases.children(__name__)\n')
    api = {'peer': {'f': 'function', 'leaf': 'module', 'real': 'module', 'moved': 'module'},
           'peer.f': {'f': 'function'},  # GluonCV's `model_zoo.alexnet`: a module whose function hides it
           'peer.leaf': {'f': 'function', 'g': 'function', 'deeper': 'module'},
           'peer.leaf.deeper': {'f': 'function'},
           'peer.real': {'WHO': 'other', 'f': 'function', 'gone': 'function'}}
    (root / 'api.json').write_text(json.dumps(api))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield importlib.import_module('aliaspkg')
    for name in [n for n in sys.modules if n == 'aliaspkg' or n.startswith('aliaspkg.')]:
        del sys.modules[name]
    aliases._SNAPSHOTS.pop('aliaspkg', None)


def test_a_leaf_module_is_a_view_of_the_real_package(package):
    from aliaspkg.leaf import f
    assert f is package.f and f() == 'ours'
    deeper = importlib.import_module('aliaspkg.leaf.deeper')
    assert deeper.f is package.f  # through the chain of leaf modules up to the real package
    assert package.leaf.deeper is deeper  # attribute access imports as the peer's __init__ would
    assert dir(package.leaf) == ['f']  # only what resolves
    assert package.leaf.__all__ == ['f']


def test_a_name_the_package_lacks_says_so(package):
    with pytest.raises(AttributeError, match=r'aliaspkg.leaf.g is not provided by gluonzoo'):
        package.leaf.g
    with pytest.raises(AttributeError, match=r"has no attribute 'h'"):
        package.leaf.h  # not in the snapshot at all
    with pytest.raises(ImportError):
        from aliaspkg.leaf import g  # noqa: F401
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module('aliaspkg.nothere')  # not in the snapshot: no module is made up


def test_a_real_file_wins(package):
    real = importlib.import_module('aliaspkg.real')
    assert real.WHO == 'the real file' and not isinstance(real, aliases.LeafModule)


def test_a_leaf_module_does_not_replace_the_function_of_its_name(package):
    leaf = importlib.import_module('aliaspkg.f')  # Python binds a first-imported submodule onto its parent
    assert isinstance(leaf, aliases.LeafModule) and leaf.f is package.f
    assert package.f() == 'ours'  # still the function, as in the peer


def test_a_real_sub_package_takes_what_it_lacks_from_the_package_above(package):
    real = importlib.import_module('aliaspkg.real')
    assert real.f is package.f  # the peer's aliaspkg.real.f: the one function, from the package above
    with pytest.raises(AttributeError, match='gone'):
        real.gone  # in the peer's module, but neither package has it
    with pytest.raises(AttributeError, match="has no attribute 'h'"):
        real.h  # not the peer's name here: no lookup above


def test_a_moved_module_is_the_peer_module_it_names(package):
    assert package.moved is importlib.import_module('aliaspkg.leaf.deeper')
