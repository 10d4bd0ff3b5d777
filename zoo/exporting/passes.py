"""Graph passes on a finished ONNX model for a target runtime.

OpenCV 4.6 DNN (Debian's libopencv-dev / libopencv-java) rejects Clip whose min/max are inputs (opset >= 11, how
ReLU6 exports) and ignores count_include_pad on a padded AveragePool (silently wrong near the borders). Both are
rewritten into ops it runs right; tests/export/test_opencv.py runs the result in cv2.dnn against ORT.
"""
import numpy as np


def _const(model, name):
    from onnx import numpy_helper
    for t in model.graph.initializer:
        if t.name == name:
            return numpy_helper.to_array(t)
    for n in model.graph.node:
        if n.op_type == 'Constant' and n.output[0] == name:
            return numpy_helper.to_array(n.attribute[0].t)
    raise ValueError(f'{name} is not a constant')


def _add_init(model, name, value):
    from onnx import numpy_helper
    model.graph.initializer.append(numpy_helper.from_array(np.asarray(value), name))
    return name


def clip_as_relu(model):
    """Clip(x, a, b) -> a + Relu(x - a) - Relu(x - b): exact for a <= b; Clip(x, 0, b) -> Relu(x) - Relu(x - b)."""
    from onnx import helper
    out = []
    for n in model.graph.node:
        if n.op_type != 'Clip' or len(n.input) < 2:
            out.append(n)
            continue
        x, y, p = n.input[0], n.output[0], (n.name or n.output[0]) + '_ocv'
        a = float(_const(model, n.input[1])) if len(n.input) > 1 and n.input[1] else -np.inf
        b = float(_const(model, n.input[2])) if len(n.input) > 2 and n.input[2] else np.inf
        if np.isfinite(a) and a == 0:
            lo = [helper.make_node('Relu', [x], [p + '_lo'])]
        elif np.isfinite(a):
            _add_init(model, p + '_a', np.float32(a))
            lo = [helper.make_node('Sub', [x, p + '_a'], [p + '_xa']),
                  helper.make_node('Relu', [p + '_xa'], [p + '_r']),
                  helper.make_node('Add', [p + '_r', p + '_a'], [p + '_lo'])]
        else:
            lo = [helper.make_node('Identity', [x], [p + '_lo'])]
        if np.isfinite(b):
            _add_init(model, p + '_b', np.float32(b))
            hi = [helper.make_node('Sub', [x, p + '_b'], [p + '_xb']),
                  helper.make_node('Relu', [p + '_xb'], [p + '_rb']),
                  helper.make_node('Sub', [p + '_lo', p + '_rb'], [y], name=n.name)]
        else:
            hi = [helper.make_node('Identity', [p + '_lo'], [y], name=n.name)]
        out += lo + hi
    del model.graph.node[:]
    model.graph.node.extend(out)


def explicit_avgpool_pad(model):
    """AveragePool(pads, count_include_pad=1) -> Pad(zeros) + AveragePool without pads: the same numbers."""
    from onnx import helper
    out = []
    for n in model.graph.node:
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        pads = list(attrs.get('pads', []))
        if n.op_type != 'AveragePool' or not any(pads) or not attrs.get('count_include_pad', 0):
            out.append(n)
            continue
        k = len(pads) // 2
        p = (n.name or n.output[0]) + '_ocv'
        _add_init(model, p + '_pads', np.array([0, 0] + pads[:k] + [0, 0] + pads[k:], np.int64))
        out.append(helper.make_node('Pad', [n.input[0], p + '_pads'], [p + '_padded'], mode='constant'))
        attrs.pop('pads')
        attrs['count_include_pad'] = 0
        out.append(helper.make_node('AveragePool', [p + '_padded'], list(n.output), name=n.name, **attrs))
    del model.graph.node[:]
    model.graph.node.extend(out)


def for_opencv(model):
    clip_as_relu(model)
    explicit_avgpool_pad(model)
    return model
