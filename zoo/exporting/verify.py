"""MXNet vs ONNX Runtime on the same inputs: relative error against the largest |output| (DESIGN.md: random-weight
nets can produce values near 1e-19, so never an absolute bound)."""
import os
import tempfile

import numpy as np

from ..errors import ParityError

RTOL = 1e-4


def _flat(outs):
    if isinstance(outs, (list, tuple)):
        return [y for o in outs for y in _flat(o)]
    return [outs]


def ort_session(onnx_file, threads=1):
    """An ONNX Runtime CPU session on a file (or serialized model bytes); warnings off (it lists every initializer
    it drops as unused)."""
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    return ort.InferenceSession(onnx_file, opts, providers=['CPUExecutionProvider'])


def _feed(net, sess, inputs):
    names = [i.name for i in sess.get_inputs()]
    graph = getattr(net, '_cached_graph', None)
    if graph:  # the hybridized net's input names in call order: an input the graph never reads is not fed
        return {v.name: x.asnumpy() for v, x in zip(graph[0], inputs) if v.name in names}
    return {n: x.asnumpy() for n, x in zip(names, inputs)}


def _has_nms(net):
    from .detection import nms_nodes
    graph = getattr(net, '_cached_graph', None)
    return bool(graph) and bool(nms_nodes(graph[1]))


def compare(net, onnx_file, inputs, rtol=RTOL, session=None):
    """Run `net` and the ONNX file on `inputs`; return the worst relative error, raise ParityError above rtol.
    A net whose graph ends in NMS exported for ONNX Runtime is compared by compare_detections."""
    in_graph = _has_nms(net) and _nms_in_graph(onnx_file)
    if in_graph == '1' and session is None:
        return compare_detections(net, onnx_file, inputs, rtol)['error']
    if in_graph == '0':  # target opencv: the graph ends with the candidate rows
        return compare_candidates(net, onnx_file, inputs, rtol, session)
    sess = session or ort_session(onnx_file)
    got = sess.run(None, _feed(net, sess, inputs))
    ref = [o.asnumpy() for o in _flat(net(*inputs))]
    if len(got) != len(ref):
        raise ParityError(f'{onnx_file}: ONNX has {len(got)} outputs, MXNet {len(ref)}')
    worst = 0.0
    for i, (a, b) in enumerate(zip(ref, got)):
        if a.shape != b.shape:
            raise ParityError(f'{onnx_file}: output {i} has shape {b.shape} in ORT, {a.shape} in MXNet')
        scale = max(float(np.abs(a).max()) if a.size else 0.0, 1e-30)
        err = float(np.abs(a.astype(np.float64) - b).max()) / scale if a.size else 0.0
        worst = max(worst, err)
        if not err <= rtol:
            raise ParityError(f'{onnx_file}: output {i} relative error {err:.3g} > {rtol:g} '
                              f'(max |output| {scale:.3g})')
    return worst


def verify_export(name, input_shape=None, batch=2, seed=0):
    """Export `name` at full size (its default weights when it has any, else random init) and compare MXNet with
    ORT. Image models export at batch 1 and compare at `batch`, which checks the dynamic batch axis; text models
    use the registry's example inputs. Returns the worst relative error; raises ParityError above 1e-4."""
    import mxnet as mx
    from ..registry import get_entry, get_model, initialize_unset
    from .core import export
    entry = get_entry(name)
    net = get_model(name, pretrained=bool(entry.weights))
    initialize_unset(net)  # no weights: random init
    w = getattr(net, 'weights', None)
    mx.random.seed(seed)
    if callable(entry.test_input) and input_shape is None:
        inputs = export_inputs = entry.example_inputs()
    else:
        shape = tuple(input_shape or (w.input_shape if w else (1, 3, 224, 224)))
        inputs = (mx.nd.random.uniform(shape=(batch,) + shape[1:]),)
        export_inputs = (inputs[0][:1],)
    with tempfile.TemporaryDirectory() as tmp:
        written = export(net, os.path.join(tmp, 'm'), inputs=export_inputs, formats=('onnx',), name=name)
        return compare(net, written['onnx'], inputs)


# -- detectors: graphs that end in NMS ------------------------------------------------------------------------------
#: scores this close (relative to the largest) are a tie: float noise (1e-7) can order them either way
TIE = 1e-5


def _nms_in_graph(onnx_file):
    """'1' / '0' from the file's gluonzoo.nms.in_graph, None when it has none."""
    import onnx
    model = onnx.load(onnx_file, load_external_data=False)
    return {p.key: p.value for p in model.metadata_props}.get('gluonzoo.nms.in_graph')


def mxnet_rows(net, inputs):
    """MXNet's candidate rows (the final NMS's input) and the net's outputs, from one run of its graph."""
    import mxnet as mx
    from .detection import entry_symbol, nms_nodes
    graph = net._cached_graph
    sym = graph[1]
    _, node = nms_nodes(sym)[-1]
    group = mx.sym.Group([entry_symbol(sym, node['inputs'][0])] + [sym[i] for i in range(len(sym.list_outputs()))])
    values = {p.name: p.data() for p in net.collect_params().values()}
    values.update({v.name: x for v, x in zip(graph[0], inputs)})
    exe = group.bind(mx.cpu(), {n: values[n] for n in group.list_arguments()},
                      aux_states={n: values[n] for n in group.list_auxiliary_states()}, grad_req='null')
    outs = [o.asnumpy() for o in exe.forward(is_train=False)]
    return outs[0], outs[1:], node


def _rel(a, b):
    scale = max(float(np.abs(a).max()) if a.size else 0.0, 1e-30)
    return float(np.abs(a.astype(np.float64) - b).max()) / scale if a.size else 0.0


def _check_rows(where, ref, got, settings, rtol):
    """Candidate rows of ORT against MXNet's: scores and boxes within rtol of their largest |value|; ids equal except
    where a score sits at the validity threshold (SSD/Faster R-CNN give id -1 to scores <= 0.01: a tie there)."""
    if ref.shape != got.shape:
        raise ParityError(f'{where}: candidate rows have shape {got.shape} in ORT, {ref.shape} in MXNet')
    si, ci, ii = settings['score_index'], settings['coord_start'], settings['id_index']
    err = max(_rel(ref[..., si], got[..., si]), _rel(ref[..., ci:ci + 4], got[..., ci:ci + 4]))
    if not err <= rtol:
        raise ParityError(f'{where}: candidate rows differ from MXNet\'s by {err:.3g} (relative) > {rtol:g}')
    if ii >= 0:
        tol = TIE * max(float(np.abs(ref[..., si]).max()), 1e-30)
        differ = ref[..., ii] != got[..., ii]
        at_threshold = np.abs(ref[..., si]) <= settings['valid_threshold'] + tol
        if (differ & ~at_threshold).any():
            raise ParityError(f'{where}: {int((differ & ~at_threshold).sum())} candidate rows have another class id '
                              'in ORT than in MXNet')
    return err


def _nms_order(rows, settings):
    """Per batch row: the row indices NMS visits, best score first (ties in row order), valid ones, topk of them."""
    si, ii = settings['score_index'], settings['id_index']
    rows = rows.reshape((-1,) + rows.shape[-2:])
    out = []
    for r in rows:
        valid = r[:, si] > np.float32(settings['valid_threshold'])
        if ii >= 0:
            valid &= r[:, ii] != np.float32(settings['background_id'])
        idx = np.flatnonzero(valid)
        idx = idx[np.argsort(-r[idx, si], kind='stable')]
        out.append(idx[:settings['topk']] if settings['topk'] > 0 else idx)
    return out


def _order_is_a_tie(ref_rows, mine, theirs, settings):
    """Whether NMS order `theirs` (ORT's) differs from MXNet's (`mine`) only by ties of MXNet's own scores: rows in one
    top-k and not the other score within TIE of the cut (or of the validity threshold), and the shared rows come in
    an order that sorts MXNet's scores up to TIE."""
    s = ref_rows[:, settings['score_index']].astype(np.float64)
    tol = TIE * max(float(np.abs(s).max()), 1e-30)
    cut = s[mine[-1]] if len(mine) else settings['valid_threshold']
    for r in set(mine.tolist()) ^ set(theirs.tolist()):
        if min(abs(s[r] - cut), abs(s[r] - settings['valid_threshold'])) > tol:
            return False
    shared = [r for r in theirs if r in set(mine.tolist())]
    later_max = np.maximum.accumulate(s[shared][::-1])[::-1] if shared else np.array([])
    return bool(np.all(s[shared][:-1] >= later_max[1:] - tol)) if len(shared) > 1 else True


def detection_session(net, onnx_file):
    """An ORT session on `onnx_file` that also returns the rows going into and out of `net`'s final NMS (its
    graph's box_nms, converted by converters.convert_box_nms), for compare_detections."""
    import onnx
    from onnx import helper
    from .converters import nms_tensors
    from .detection import nms_nodes
    _, node = nms_nodes(net._cached_graph[1])[-1]
    model = onnx.load(onnx_file)
    extra = nms_tensors(node['name'])
    produced = {o for n in model.graph.node for o in n.output}
    if not set(extra) <= produced:
        raise ParityError(f'{onnx_file} has no NMS of {node["name"]} in its graph (an export for target opencv?)')
    model.graph.output.extend([helper.make_empty_tensor_value_info(e) for e in extra])
    return ort_session(model.SerializeToString())


def compare_detections(net, onnx_file, inputs, rtol=RTOL, session=None):
    """MXNet against an ONNX Runtime export of a net ending in NMS (a detector), on `inputs`. Three checks:

    1. the candidate rows going into the final NMS (ORT's, read back from the graph) equal MXNet's within `rtol`
       (ids exactly, but at the validity threshold);
    2. the exported NMS gives exactly what MXNet's box_nms gives on those same ORT rows (every column, every row);
    3. end to end, ORT's (ids, scores, boxes) are MXNet's: same ids in the same order, values within `rtol`, when
       both visit the candidates in the same order. Random weights make near-ties (SSD's softmax saturates at 1.0
       on dozens of rows): when ORT's scores order the candidates otherwise, every difference must be a tie of
       MXNet's own scores (within TIE of each other, of the top-k cut or of the validity threshold), and then which
       of the tied rows NMS keeps may differ, so 3 is not compared (reported as end_to_end='ties').
    Returns {'error': worst relative error seen, 'end_to_end': 'equal' or 'ties', 'tied_batches': count};
    raises ParityError otherwise. `session`: a detection_session(net, onnx_file) to reuse."""
    import mxnet as mx
    from .detection import nms_settings
    ref_rows, ref_outs, node = mxnet_rows(net, inputs)
    settings = nms_settings(net._cached_graph[1])
    sess = session or detection_session(net, onnx_file)
    got = sess.run(None, _feed(net, sess, inputs))
    outs, rows, kept = got[:-2], got[-2], got[-1]
    where = onnx_file
    err = _check_rows(where, ref_rows, rows, settings, rtol)
    attrs = node.get('attrs', {})
    want = mx.nd.contrib.box_nms(mx.nd.array(rows), **attrs).asnumpy()
    if want.shape != kept.shape or not np.array_equal(want, kept):
        bad = int((want != kept).any(-1).sum()) if want.shape == kept.shape else 'all'
        raise ParityError(f'{where}: the exported NMS differs from MXNet\'s box_nms on the same rows ({bad} rows)')
    mine, theirs = _nms_order(ref_rows, settings), _nms_order(rows, settings)
    flat = ref_rows.reshape((-1,) + ref_rows.shape[-2:])
    tied = 0
    for b, (m, t) in enumerate(zip(mine, theirs)):
        if len(m) == len(t) and np.array_equal(m, t):
            continue
        if not _order_is_a_tie(flat[b], m, t, settings):
            raise ParityError(f'{where}: ORT\'s scores put the candidates of batch row {b} in another NMS order than '
                              'MXNet\'s, beyond ties')
        tied += 1
    if not tied:
        if len(outs) != len(ref_outs):
            raise ParityError(f'{where}: ONNX has {len(outs)} outputs, MXNet {len(ref_outs)}')
        if not np.array_equal(outs[0], ref_outs[0]):
            raise ParityError(f'{where}: class ids differ from MXNet\'s (same candidates, same NMS order)')
        for i, (a, b) in enumerate(zip(ref_outs, outs)):
            if a.shape != b.shape:
                raise ParityError(f'{where}: output {i} has shape {b.shape} in ORT, {a.shape} in MXNet')
            e = _rel(a, b)
            if not e <= rtol:
                raise ParityError(f'{where}: output {i} relative error {e:.3g} > {rtol:g}')
            err = max(err, e)
    return {'error': err, 'end_to_end': 'ties' if tied else 'equal', 'tied_batches': tied}


def compare_candidates(net, onnx_file, inputs, rtol=RTOL, session=None):
    """An export cut before NMS (target opencv) against MXNet's rows going into its final NMS; the worst relative
    error (scores, boxes), ids equal but at the validity threshold."""
    from .detection import nms_settings
    ref_rows, _, _ = mxnet_rows(net, inputs)
    sess = session or ort_session(onnx_file)
    got = sess.run(None, _feed(net, sess, inputs))
    if len(got) != 1:
        raise ParityError(f'{onnx_file}: {len(got)} outputs, not the one of candidate rows')
    return _check_rows(onnx_file, ref_rows, got[0], nms_settings(net._cached_graph[1]), rtol)
