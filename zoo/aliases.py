"""A peer's module layout over gluonzoo's one implementation: `gluonzoo.cv` is GluonCV's tree, `gluonzoo.nlp`
GluonNLP's (docs/from_gluoncv.md, docs/from_gluonnlp.md).

Each package of the peer that gluonzoo spells out is a real file there (`cv/utils/viz/__init__.py`) whose names are
the real functions and classes, imported from where they live. What remains are the peer's *leaf* modules whose names
the package above them already exports (`gluoncv.utils.viz.bbox.plot_bbox` is `gluoncv.utils.viz.plot_bbox`; the
118 family modules of `gluoncv.model_zoo`): those are declared, not written, by the peer's API snapshot committed
beside the package (`gluoncv_api.json`, names only, read from the installed peer by scripts/docs/migration.py). A
leaf module resolves each of its snapshot names from the nearest real package above it, then from the real packages
above that (a real sub-package holds only the names its parent lacks), so no name has two implementations and a
name gluonzoo lacks is an AttributeError, never a stand-in.

    install('gluonzoo.cv', 'gluoncv', '/path/to/gluoncv_api.json')   # in cv/__init__.py
    __getattr__ = children('gluonzoo.cv.model_zoo')                  # `gcv.model_zoo.resnetv1b` without import
"""
import importlib
import importlib.abc
import importlib.machinery
import json
import sys
import types

#: our package name -> (the peer's root name, {peer module: {name: kind}})
_SNAPSHOTS = {}


def install(package, peer, snapshot_path):
    """Serve `package`'s leaf modules from the snapshot of `peer`'s API (once per process)."""
    with open(snapshot_path) as f:
        _SNAPSHOTS[package] = (peer, json.load(f))
    if not any(isinstance(f, _LeafFinder) for f in sys.meta_path):
        sys.meta_path.append(_LeafFinder())  # last: a real file always wins


def snapshot(package):
    """{our module name: {name: kind}} of the peer `package` mirrors."""
    peer, api = _SNAPSHOTS[package]
    return {package + m[len(peer):]: names for m, names in api.items()}


def _lookup(fullname):
    """(package, names) of the snapshot module `fullname`, or None."""
    for package, (peer, api) in _SNAPSHOTS.items():
        if fullname == package or fullname.startswith(package + '.'):
            names = api.get(peer + fullname[len(package):])
            return None if names is None else (package, names)
    return None


class _Package(types.ModuleType):
    """A real package of ours: importing one of its leaf modules must not replace the function or class of the same
    name (Python binds a submodule onto its parent after every first import; `import gluoncv.model_zoo.alexnet`
    leaves `gluoncv.model_zoo.alexnet` the function there, because its `__init__` re-imports it over the module)."""

    def __setattr__(self, attr, value):
        old = self.__dict__.get(attr)
        if isinstance(value, LeafModule) and old is not None and not isinstance(old, types.ModuleType):
            return
        super().__setattr__(attr, value)


def children(name, moved=None):
    """A module `__getattr__` for a real package: the peer's submodules of `name` import on first attribute access,
    as the peer's own `__init__` imports them; a name of the peer's module that the package does not define itself
    is its parent package's (a real sub-package holds only what the package above lacks: `gluoncv.model_zoo.ssd`'s
    matchers, not the 24 SSD builders `gluoncv.model_zoo` has too). `moved` maps the peer's module-valued names that
    are another module of the peer (`gluoncv.model_zoo.anchor` is `gluoncv.model_zoo.ssd.anchor`, which its
    `from .ssd import *` leaves there) to that module, relative to `name`. Call it from the package's own body (it
    marks the package so)."""
    if name in sys.modules and type(sys.modules[name]) is types.ModuleType:
        sys.modules[name].__class__ = _Package
    moved = dict(moved or {})

    def __getattr__(attr):
        here = _lookup(name)
        if attr in moved:
            return importlib.import_module(f'{name}.{moved[attr]}')
        kind = here[1].get(attr) if here is not None else None
        if _lookup(f'{name}.{attr}') is not None and kind in (None, 'module'):
            return importlib.import_module(f'{name}.{attr}')
        # the peer's attribute must be the module: `gluoncv.model_zoo.alexnet` is the function its __init__
        # imports over the module of the same name, so a leaf module there would be the wrong thing to hand back
        parent = name.rpartition('.')[0]
        if kind not in (None, 'module') and _lookup(parent) is not None:
            return getattr(importlib.import_module(parent), attr)
        raise AttributeError(f'module {name!r} has no attribute {attr!r}')
    return __getattr__


def _upwards(name):
    """`name` and the packages above it, up to the root of the peer's tree it is in."""
    while True:
        yield name
        name = name.rpartition('.')[0]
        if _lookup(name) is None:
            return


class LeafModule(types.ModuleType):
    """A peer module that is only a view of the nearest real package above it."""

    def __getattr__(self, attr):
        names = self.__dict__.get('_peer_names', {})
        if attr not in names and _lookup(f'{self.__name__}.{attr}') is not None:
            # a submodule the peer's `__init__` does not import, but importing the peer loads (rpn.rpn_target)
            return importlib.import_module(f'{self.__name__}.{attr}')
        if attr not in names:
            raise AttributeError(f'module {self.__name__!r} has no attribute {attr!r}')
        if names[attr] == 'module' and _lookup(f'{self.__name__}.{attr}') is not None:
            return importlib.import_module(f'{self.__name__}.{attr}')
        home = self.__dict__['_home']
        # the nearest real package first, then each real package above it: a real sub-package holds only what the
        # packages above it lack
        for package in _upwards(home):
            value = getattr(importlib.import_module(package), attr, None)
            if value is not None and not (isinstance(value, LeafModule) and names[attr] != 'module'):
                break  # (a LeafModule where the peer has a function or class is ours only the module)
        else:
            raise AttributeError(f'{self.__name__}.{attr} is not provided by gluonzoo ({home} has no {attr!r}): '
                                 'docs/from_gluoncv.md and docs/from_gluonnlp.md list what is not and why')
        setattr(self, attr, value)
        return value

    def __dir__(self):
        home = importlib.import_module(self.__dict__['_home'])
        return sorted(n for n in self.__dict__['_peer_names'] if hasattr(home, n))


class _LeafFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if _lookup(fullname) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return LeafModule(spec.name)

    def exec_module(self, module):
        _, names = _lookup(module.__name__)
        home = module.__name__.rpartition('.')[0]
        while isinstance(sys.modules.get(home) or importlib.import_module(home), LeafModule):
            home = home.rpartition('.')[0]
        module.__dict__.update(_peer_names=names, _home=home, __path__=[],
                               __doc__=f'The peer\'s module {module.__name__}: its names are {home}\'s.')
        module.__all__ = list(module.__dir__())
