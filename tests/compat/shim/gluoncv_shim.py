"""A pytest plugin that runs GluonCV's own tests (installed by the gluoncv wheel into the peers venv's
site-packages/tests/) against gluonzoo.cv: `import gluoncv` and every `gluoncv.X` give gluonzoo.cv's module, the
same object, so nothing of GluonCV itself is imported. Cases that need a download, a pretrained GluonCV checkpoint
or a model another open issue adds are skipped by name (SKIPS), each counted and printed at the end.

    .venv/bin/python -m pytest -c tests/compat/shim/pytest.ini -p gluoncv_shim \
        .venv-peers/lib/python3.11/site-packages/tests/unittests/test_nn.py

(tests/compat/test_gluoncv_own_tests.py and `make test-peers` run it so.)
"""
import importlib
import importlib.abc
import importlib.machinery
import sys
import types

import pytest

PEER, OURS = 'gluoncv', 'gluonzoo.cv'

#: {test file::test name pattern: why it is skipped}; a pattern is fnmatch-style over `file.py::test`
SKIPS = {
    'test_utils_metric.py::test_voc07_metric_difficult': 'downloads the pikachu dataset from S3 and builds '
                                                         "yolo3_darknet53_custom with transfer='voc' (a GluonCV checkpoint)",
    'test_data_transforms.py::test_transforms_presets_*': "reads GluonCV's tiny_motorbike / tiny_coco datasets, which "
                                                          'its CI downloads into ~/.mxnet/datasets',
    'test_data_datasets.py::test_pascal_voc_detection': "reads GluonCV's tiny_motorbike dataset (its CI downloads it)",
    'test_data_datasets.py::test_coco_*': "reads GluonCV's tiny_coco dataset (its CI downloads it)",
    'test_data_datasets.py::test_lst_detection': 'downloads dog.jpg from GitHub (test_gluoncv_tutorials.py runs the '
                                                 'same .lst calls on a local photo)',
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == PEER or fullname.startswith(PEER + '.'):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return types.ModuleType(spec.name)

    def exec_module(self, module):
        # the import system returns what sys.modules holds once this returns: gluonzoo's own module
        sys.modules[module.__name__] = importlib.import_module(OURS + module.__name__[len(PEER):])


def install():
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())


install()
_SKIPPED = []
#: the package name GluonCV's tests folder is imported under: the wheel installs site-packages/tests/ without an
#: __init__.py, so `from ..unittests.common import ...` in tests/model_zoo/ needs a package above both folders
TESTS_PACKAGE = 'gluoncv_tests'


def _tests_root(path):
    """The folder above `path`'s chain of packages (GluonCV's tests/), or None outside a package."""
    top = path.parent
    if not (top / '__init__.py').exists():
        return None
    while (top.parent / '__init__.py').exists():
        top = top.parent
    return top.parent


class _PeerTestModule(pytest.Module):
    """A GluonCV test file imported as gluoncv_tests.<package>.<file>, so its relative imports resolve."""

    def _getobj(self):
        root = _tests_root(self.path)
        if TESTS_PACKAGE not in sys.modules:
            package = types.ModuleType(TESTS_PACKAGE)
            package.__path__ = [str(root)]
            sys.modules[TESTS_PACKAGE] = package
        parts = self.path.relative_to(root).with_suffix('').parts
        return importlib.import_module('.'.join((TESTS_PACKAGE,) + parts))


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    if _tests_root(module_path) is not None and 'site-packages' in module_path.parts:
        return _PeerTestModule.from_parent(parent, path=module_path)
    return None


#: models of pretrained_model_list() whose GluonCV checkpoint is not on this (offline) machine: GluonCV's tests
#: build those as they build the models without weights (get_model + initialize), so the build and forward still run
_UNTRAINED = []


def _offline_pretrained_list():
    import os
    from gluonzoo import registry, store
    real = _REAL_PRETRAINED()
    have = []
    for name in real:
        w = registry.get_weights(name)
        if w.source.kind != 'mirror' or os.path.exists(os.path.join(store.cache_root(), f'{w.file_stem}.params')):
            have.append(name)
        elif name not in _UNTRAINED:
            _UNTRAINED.append(name)
    return have


_REAL_PRETRAINED = None


def pytest_configure(config):
    global _REAL_PRETRAINED
    model_zoo = importlib.import_module(OURS + '.model_zoo')
    if _REAL_PRETRAINED is None and hasattr(model_zoo, 'pretrained_model_list'):
        _REAL_PRETRAINED = model_zoo.pretrained_model_list
        model_zoo.pretrained_model_list = _offline_pretrained_list  # this test process only


def pytest_collection_modifyitems(config, items):
    import fnmatch
    for item in items:
        key = f'{item.path.name}::{item.name}'
        why = next((w for pattern, w in SKIPS.items() if fnmatch.fnmatchcase(key, pattern)), None)
        if why:
            item.add_marker(pytest.mark.skip(reason=why))
            _SKIPPED.append((key, why))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # a case that needs a GluonCV checkpoint (or a pretrained base) this offline machine does not have is skipped,
    # named with the file it wanted, and counted like the SKIPS
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is not None and call.when == 'call':
        from gluonzoo.errors import WeightsNotFoundError
        if call.excinfo.errisinstance(WeightsNotFoundError):
            why = 'needs a checkpoint not on this machine: ' + str(call.excinfo.value).split(' is not in ')[0]
            report.outcome, report.longrepr = 'skipped', (str(item.path), item.location[1], why)
            _SKIPPED.append((f'{item.path.name}::{item.name}', why))


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(f'gluoncv_shim: {len(_UNTRAINED)} pretrained model(s) built untrained (GluonCV\'s '
                                f'checkpoint not on this machine): {", ".join(_UNTRAINED)}')
    terminalreporter.write_line(f'gluoncv_shim: {len(_SKIPPED)} GluonCV test(s) skipped (by name, or for a checkpoint):')
    for key, why in _SKIPPED:
        terminalreporter.write_line(f'  {key}: {why}')
