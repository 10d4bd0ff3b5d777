"""(peers venv) The public API of an installed peer as JSON {module: {name: kind}}, kind one of module, class,
function, other: every module under the given subpackages (pkgutil.walk_packages), and for each its `__all__`, or
else its public attributes that the peer itself defines (numpy, mxnet, os... left out). The peer's top-level
package lists the subpackages asked for and its own top-level classes (GluonNLP's `Vocab`).

    .venv-peers/bin/python tests/peers/peer_api.py gluoncv model_zoo,data,utils,nn,loss > api.json
"""
import importlib
import inspect
import json
import pkgutil
import sys
import types
import warnings


def _kind(value):
    if isinstance(value, types.ModuleType):
        return 'module'
    if inspect.isclass(value):
        return 'class'
    if callable(value):
        return 'function'
    return 'other'


def _defined_in(value, root):
    source = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, '__module__', None)
    return isinstance(source, str) and (source == root or source.startswith(root + '.'))


def public_names(module, root):
    names = getattr(module, '__all__', None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith('_') and _defined_in(getattr(module, n), root)]
    return {n: _kind(getattr(module, n, None)) for n in sorted(set(names)) if hasattr(module, n)}


def peer_api(root, subpackages):
    warnings.filterwarnings('ignore')
    top = importlib.import_module(root)
    api = {root: {**{s: 'module' for s in subpackages},
                  **{n: k for n, k in public_names(top, root).items() if k == 'class'}}}
    for sub in subpackages:
        package = importlib.import_module(f'{root}.{sub}')
        api[package.__name__] = public_names(package, root)
        for info in pkgutil.walk_packages(getattr(package, '__path__', []), package.__name__ + '.',
                                          onerror=lambda name: None):
            try:
                module = importlib.import_module(info.name)
            except Exception as e:  # noqa: BLE001 -- a peer module that does not import here is not its API here
                print(f'{info.name} does not import: {type(e).__name__}: {e}', file=sys.stderr)
                continue
            api[info.name] = public_names(module, root)
    return api


if __name__ == '__main__':
    json.dump(peer_api(sys.argv[1], sys.argv[2].split(',')), sys.stdout, indent=0, sort_keys=True)
