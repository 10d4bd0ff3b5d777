"""What export does with a graph that ends in non-maximum suppression (MXNet's `_contrib_box_nms`, how every
detector of the zoo ends): the NMS settings written into the ONNX metadata for the services, and for
`target='opencv'` (OpenCV 4.6 DNN has no NonMaxSuppression layer) the graph cut before the NMS, so that it returns
the candidate rows (id, score, x1, y1, x2, y2) and the service runs the suppression itself.

The graph is read as MXNet's symbol JSON: nodes in topological order, each with `op`, `name`, `attrs` and
`inputs` ([node index, output index, version]).
"""
import json

from ..errors import ExportError

NMS_OP = '_contrib_box_nms'
#: ops that only pick rows or columns of the NMS output (a detector's post_nms cut and its ids/scores/boxes split)
_PICKS = {'slice_axis', 'slice', 'split', '_split_v2', 'SliceChannel'}


def graph_nodes(sym):
    """(nodes, heads) of a symbol's JSON."""
    graph = json.loads(sym.tojson())
    return graph['nodes'], graph['heads']


def nms_nodes(sym):
    """[(index, node)] of the graph's box_nms nodes, in graph order (the last one is the detector's final NMS)."""
    nodes, _ = graph_nodes(sym)
    return [(i, n) for i, n in enumerate(nodes) if n['op'] == NMS_OP]


def entry_symbol(sym, entry):
    """The internal output of `sym` that the JSON input entry [node index, output index, ...] refers to."""
    nodes, _ = graph_nodes(sym)
    node, k = nodes[entry[0]], entry[1]
    internals = sym.get_internals()
    names = internals.list_outputs()
    # MXNet names internal outputs: a variable by its name, an op's by name_output (one) or name_output<k>
    candidates = [node['name']] if node['op'] == 'null' else [f'{node["name"]}_output{k}'] + \
        ([f'{node["name"]}_output'] if k == 0 else [])
    for candidate in candidates:
        if candidate in names:
            return internals[names.index(candidate)]
    raise ExportError(f'cannot find output {k} of node {node["name"]} in the graph')


def _downstream(nodes, start):
    """Indices of the nodes that read, directly or not, node `start`'s outputs (JSON order is topological)."""
    reached = {start}
    for i in range(start + 1, len(nodes)):
        if any(e[0] in reached for e in nodes[i]['inputs']):
            reached.add(i)
    return reached - {start}


def nms_settings(sym):
    """The final NMS's settings as the ONNX metadata carries them (`gluonzoo.nms.*`), or {} when the graph has no
    NMS. post_nms is read from the graph: the end of the row slice that follows the NMS, -1 when none cuts it."""
    found = nms_nodes(sym)
    if not found:
        return {}
    index, node = found[-1]
    attrs = node.get('attrs', {})
    nodes, _ = graph_nodes(sym)
    post = -1
    for i in sorted(_downstream(nodes, index)):
        n = nodes[i]
        a = n.get('attrs', {})
        if n['op'] == 'slice_axis' and n['inputs'][0][0] == index and int(a.get('axis', 0)) in (1, -2) and \
                int(a.get('begin', 0)) == 0 and a.get('end', 'None') != 'None':
            post = int(a['end'])
            break
    return {'iou_threshold': float(attrs.get('overlap_thresh', 0.5)), 'topk': int(attrs.get('topk', -1)),
            'valid_threshold': float(attrs.get('valid_thresh', 0)), 'post_nms': post,
            'per_class': int(attrs.get('id_index', -1)) >= 0 and
            str(attrs.get('force_suppress', 'False')) not in ('True', '1'),
            'id_index': int(attrs.get('id_index', -1)), 'score_index': int(attrs.get('score_index', 1)),
            'coord_start': int(attrs.get('coord_start', 2)), 'background_id': float(attrs.get('background_id', -1))}


def metadata(settings, in_graph):
    """`gluonzoo.nms.*` props (flat strings) from nms_settings(): what a service needs to finish the job."""
    if not settings:
        return {}
    props = {f'gluonzoo.nms.{k}': repr(float(settings[k])) for k in ('iou_threshold', 'valid_threshold')}
    props.update({f'gluonzoo.nms.{k}': str(settings[k]) for k in ('topk', 'post_nms')})
    props['gluonzoo.nms.per_class'] = '1' if settings['per_class'] else '0'
    props['gluonzoo.nms.in_graph'] = '1' if in_graph else '0'
    if not in_graph:  # the candidate rows' layout
        props['gluonzoo.nms.rows'] = 'id,score,x1,y1,x2,y2' if (settings['id_index'], settings['score_index'],
                                                                settings['coord_start']) == (0, 1, 2) else \
            f'id_index={settings["id_index"]},score_index={settings["score_index"]},coord_start=' \
            f'{settings["coord_start"]}'
    return props


def cut_before_nms(sym, where):
    """The symbol of the rows going into the final NMS, for a runtime without NonMaxSuppression; `where(node name)`
    names the block of a node for errors. The NMS must be the graph's last real step: only row/column picks after
    it, every output after it, no other NMS before it (Faster R-CNN's proposals are suppressed inside the graph,
    so it cannot be cut: one ExportError says so)."""
    found = nms_nodes(sym)
    if not found:
        return sym
    nodes, heads = graph_nodes(sym)
    index, node = found[-1]
    why = None
    if len(found) > 1:
        why = (f'the NMS of {where(found[0][1]["name"])} feeds the rest of the graph (its boxes go on to later '
               'layers), so the graph cannot end before NMS')
    else:
        after = _downstream(nodes, index)
        other = [nodes[i] for i in sorted(after) if nodes[i]['op'] not in _PICKS]
        if other:
            why = (f'{where(node["name"])} NMS output goes through {other[0]["op"]} ({other[0]["name"]}), not only '
                   'row/column picks, so the candidate rows are not the detections before NMS')
        elif any(h[0] not in after and h[0] != index for h in heads):
            why = 'the graph has outputs that do not come from its NMS'
    if why:
        raise ExportError(f"target 'opencv': OpenCV 4.6 DNN has no NonMaxSuppression layer, and {why}; export "
                          "with target='ort' (ONNX Runtime runs the NMS in the graph)")
    if node['inputs'][0][0] >= len(nodes):
        raise ExportError('malformed graph: the NMS input is not a node')
    return entry_symbol(sym, node['inputs'][0])
