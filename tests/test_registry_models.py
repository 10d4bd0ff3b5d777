"""Tests that run over the registry by task: every arch builds, hybridizes and gives what its task says a correct
output is (gluonzoo.tasks: classifiers logits of `classes`, detectors ids/scores/boxes, ...); every weights record
is well formed."""
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.logs import check_weights
from gluonzoo.registry import count_params, get_entry
from gluonzoo.tasks import get_task
from gluonzoo.recipes import recipe_command

ARCHS = gz.list_models()
RECORDS = gz.list_models(tags=True)


def test_registry_is_not_empty():
    assert 'mobilenetv2_1.0' in ARCHS and 'mobilenetv2_1.0.in1k' in RECORDS


def _flat(out):
    return [y for o in out for y in _flat(o)] if isinstance(out, (list, tuple)) else [out]


@pytest.mark.parametrize('name', ARCHS)
def test_builds_hybridizes_and_runs(name):
    entry = get_entry(name)
    task = get_task(entry.task)
    classes = 7 if task.has_classes else None
    net = gz.get_model(name, classes=classes, **entry.test_kwargs)
    inputs = entry.example_inputs()
    outs = _flat(net(*inputs))  # nested: e.g. a language model's (scores, [h, c])
    task.check_outputs(outs, inputs, classes)
    net.hybridize()
    houts = _flat(net(*inputs))
    task.check_outputs(houts, inputs, classes)
    for a, b in zip(outs, houts):
        a, b = a.asnumpy(), b.asnumpy()
        assert np.abs(a - b).max() <= 1e-4 * max(np.abs(a).max(), 1e-30)


@pytest.mark.parametrize('name', RECORDS)
def test_weights_record(name):
    w = gz.get_weights(name)
    assert w.problems() == []
    assert w.name == name
    entry = get_entry(w.arch)
    assert sum(r.default for r in entry.weights.values()) == 1
    # num_params recomputed from the net the record's config builds (text nets take the registry's small inputs);
    # its output is what the record's task says, for the record's classes
    # the test's own options that leave parameter shapes alone (no backbone download, fewer proposals)
    light = {k: v for k, v in entry.test_kwargs.items() if k not in entry.protected}
    net = gz.get_model(name, pretrained=False, **light)
    inputs = entry.example_inputs() if callable(entry.test_input) else (mx.nd.zeros(w.input_shape),)
    out = _flat(net(*inputs))
    assert count_params(net) == w.num_params
    task = get_task(w.task)
    assert task.record_problems(w) == []
    task.check_outputs(out, inputs, w.num_classes)
    if w.log:
        # a checkpoint gluonzoo trained: its log is here, ends with this file, and was written by the very command
        # (and one-thread environment) the record names, which `gluonzoo train` reruns
        header = check_weights(w).header
        env, argv = recipe_command(w)
        assert header['command'] == argv
        assert {k: header['env'][k] for k in env} == env
    assert w.as_dict()['sha1'] == w.sha1
