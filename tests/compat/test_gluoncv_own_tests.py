"""GluonCV's own tests, as its wheel installs them into the peers venv (site-packages/tests/), run against
gluonzoo.cv through tests/compat/shim (`gluoncv` is gluonzoo.cv there; nothing of GluonCV is imported). The unit
tests listed run whole; test_model_zoo.py builds every model at full size (tens of minutes: `make test-peers` runs
all of it), so the suite runs a sample of its functions. Cases skipped by name are the shim's SKIPS, each printed.

One pytest process runs them all (junit XML read back); each file's outcome is its own test here."""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tests.peers import PYTHON

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIM = os.path.join(ROOT, 'tests', 'compat', 'shim')
PEER_TESTS = os.path.join(os.path.dirname(os.path.dirname(PYTHON)), 'lib', 'python3.11', 'site-packages', 'tests')

#: GluonCV's unit test files that run offline on CPU: whole, but for the shim's SKIPS (its tiny datasets and photos
#: are downloads; test_utils_metric.py's one test downloads pikachu and a GluonCV checkpoint: make test-peers runs it)
UNITTESTS = ['test_utils_viz.py', 'test_utils_bbox.py', 'test_nn.py', 'test_lr_scheduler.py', 'test_data_transforms.py',
             'test_data_datasets.py']
#: test_model_zoo.py's functions the suite runs (the cheap ones, one of each task); `make test-peers` runs all
MODEL_ZOO_SAMPLE = ['test_classification_models', 'test_set_nms', 'test_quantized_ssd_models', 'test_ssd_models',
                    'test_center_net_models']


def shim_command(paths, *extra):
    return [sys.executable, '-m', 'pytest', '-c', os.path.join(SHIM, 'pytest.ini'), '-p', 'gluoncv_shim', '-q',
            *extra, *paths]


@pytest.fixture(scope='module')
def outcomes(tmp_path_factory):
    """{file: {test: 'passed' | 'failed' | 'skipped'}} from one shim run of every file and sample."""
    out = tmp_path_factory.mktemp('gluoncv_own')
    xml = out / 'junit.xml'
    paths = [os.path.join(PEER_TESTS, 'unittests', f) for f in UNITTESTS]
    paths += [os.path.join(PEER_TESTS, 'model_zoo', f'test_model_zoo.py::{t}') for t in MODEL_ZOO_SAMPLE]
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([SHIM, ROOT]), 'MXNET_HOME': str(out),
           'GLUONZOO_OFFLINE': '1', 'OMP_NUM_THREADS': '1'}
    p = subprocess.run(shim_command(paths, f'--junitxml={xml}'), cwd=str(out), env=env, capture_output=True,
                       text=True, timeout=1200)
    assert xml.exists(), p.stdout[-3000:] + p.stderr[-3000:]
    home = {}
    for path in paths:
        path = path.split('::')[0]
        with open(path) as f:
            home.update((t, os.path.basename(path)) for t in re.findall(r'^def (test_\w+)', f.read(), re.M))
    found = {}
    for case in ET.parse(xml).getroot().iter('testcase'):
        outcome = 'passed'
        for child in case:
            if child.tag in ('failure', 'error'):
                outcome = 'failed: ' + (child.get('message') or '')[:300]
            elif child.tag == 'skipped':
                outcome = 'skipped'
        # the report's class name is empty here (the shim's modules live outside the rootdir): a test's file is the
        # one that defines it
        name = home.get(case.get('name').split('[')[0], '?')
        found.setdefault(name, {})[case.get('name')] = outcome
    found['_log'] = p.stdout[-2000:]
    return found


@pytest.mark.parametrize('name', UNITTESTS + ['test_model_zoo.py'])
def test_gluoncvs_own_tests_pass_through_gluonzoo_cv(outcomes, name):
    cases = outcomes.get(name)
    assert cases, f'{name}: nothing ran\n{outcomes["_log"]}'
    failed = {t: o for t, o in cases.items() if o.startswith('failed')}
    assert not failed, failed
    assert any(o == 'passed' for o in cases.values()), f'{name}: every case was skipped'
