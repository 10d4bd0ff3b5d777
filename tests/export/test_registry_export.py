"""Every registered model exports to ONNX and ONNX Runtime matches MXNet (relative error <= 1e-4 of max |output|),
on the registry's tiny configs and inputs. Models in KNOWN_FAILURES must still fail (strict), never skipped."""
import mxnet as mx
import onnx
import pytest

import gluonzoo as gz
from gluonzoo.exporting import compare
from gluonzoo.exporting.support import KNOWN_FAILURES
from gluonzoo.registry import get_entry
from gluonzoo.tasks import get_task

ARCHS = gz.list_models()


def test_known_failures_are_registered_models():
    assert not set(KNOWN_FAILURES) - set(ARCHS), 'KNOWN_FAILURES names a model that is not registered'


@pytest.mark.parametrize('name', ARCHS)
def test_exports_and_matches_mxnet(name, tmp_path):
    entry = get_entry(name)
    mx.random.seed(0)
    classes = 7 if get_task(entry.task).has_classes else None  # as the registry-wide build test
    net = gz.get_model(name, classes=classes, **entry.test_kwargs)
    inputs = entry.example_inputs()
    if name in KNOWN_FAILURES:
        with pytest.raises(Exception):
            written = gz.export(net, str(tmp_path / 'm'), inputs=inputs, formats=('onnx',))
            compare(net, written['onnx'], inputs)
        return
    written = gz.export(net, str(tmp_path / 'm'), inputs=inputs, name=name, formats=('onnx',))
    model = onnx.load(written['onnx'])  # export ran onnx.checker on it
    assert [o.version for o in model.opset_import] == [13]
    inits = {t.name for t in model.graph.initializer}
    assert inits and not inits & {i.name for i in model.graph.input}, 'weights must be initializers, not inputs'
    assert {p.key: p.value for p in model.metadata_props}['gluonzoo.model'] == name
    compare(net, written['onnx'], inputs)
    if len(inputs) == 1 and len(inputs[0].shape) == 4:  # the batch axis is dynamic
        compare(net, written['onnx'], (mx.nd.random.uniform(shape=(2,) + inputs[0].shape[1:]),))
