"""Tests that run over the whole registry: every arch builds and runs; every weights record is well formed."""

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.logs import check_weights
from gluonzoo.registry import count_params, get_entry
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
    kwargs = dict(entry.test_kwargs, **({'classes': 7} if entry.head else {}))
    net = gz.get_model(name, **kwargs)
    inputs = entry.example_inputs()
    outs = net(*inputs)
    net.hybridize()
    houts = net(*inputs)
    outs, houts = (_flat(o) for o in (outs, houts))  # nested: e.g. a language model's (scores, [h, c])
    if entry.head:
        assert outs[0].shape[-1] == 7
    for a, b in zip(outs, houts):
        a, b = a.asnumpy(), b.asnumpy()
        assert np.isfinite(a).all()
        assert np.abs(a - b).max() <= 1e-4 * max(np.abs(a).max(), 1e-30)


@pytest.mark.parametrize('name', RECORDS)
def test_weights_record(name):
    w = gz.get_weights(name)
    assert w.problems() == []
    assert w.name == name
    entry = get_entry(w.arch)
    assert sum(r.default for r in entry.weights.values()) == 1
    # num_params recomputed from the net the record's config builds (text nets take the registry's small inputs)
    net = gz.get_model(name, pretrained=False)
    net(*(entry.example_inputs() if callable(entry.test_input) else (mx.nd.zeros(w.input_shape),)))
    assert count_params(net) == w.num_params
    if w.log:
        # a checkpoint gluonzoo trained: its log is here, ends with this file, and was written by the very command
        # (and one-thread environment) the record names, which `gluonzoo train` reruns
        header = check_weights(w).header
        env, argv = recipe_command(w)
        assert header['command'] == argv
        assert {k: header['env'][k] for k in env} == env
    if w.classes:
        from gluonzoo.registry import _class_names
        assert len(_class_names(w)) == w.num_classes
    assert w.as_dict()['sha1'] == w.sha1
