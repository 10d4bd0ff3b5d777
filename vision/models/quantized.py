"""GluonCV 0.10.5's INT8 models: its quantized graphs over the fp32 weights of their base checkpoints.

GluonCV calibrated these graphs once (MXNet's oneDNN quantization) and ships them inside its pip package,
gluoncv/model_zoo/quantized/, as symbol JSON files or compressed strings; the weights are the base model's own
.params file (resnet50_v1's for resnet50_v1_int8). Here the package is a weights package (files only, `make
weights-packages`), each graph is checked against its sha256, and the weights come through the base record's own
source and cache file. The graph
addresses its inputs by symbol names (`resnetv10_conv0_weight`); the block maps them onto the base net's structural
names (`features.0.weight`), which the base checkpoint uses, so the one loading path loads it strictly as it loads
any other checkpoint: GluonCV instead loads the base net, exports it and reloads the export.

Layout: the graphs as data -> the block -> weights records and registered builders.
"""
import ast
import base64
import dataclasses
import functools
import hashlib
import inspect
import re
import zlib

import mxnet as mx
from mxnet import gluon

from ... import store
from ...errors import BadInputError, ChecksumError
from ...registry import get_entry, get_weights, register_model

#: the weights package that holds the graphs (pinned in constraints.txt, installed files-only)
PACKAGE = 'gluoncv'
FOLDER = 'gluoncv/model_zoo/quantized'

#: INT8 model -> (base arch, where GluonCV keeps its graph, sha256 of the graph's JSON text, gluoncv==0.10.5.post0).
#: 'file': {FOLDER}/{model}-symbol.json; 'packed': a zlib + base64 string of `_compressed_int8_json` in
#: {FOLDER}/quantized.py, read as a literal (the file is never run).
GRAPHS = {
    'mobilenet1.0_int8': ('mobilenet1.0', 'file', '10676c9e84b4d238c928e22eb22152946b37e81a066366ed9c340a214d2d6159'),
    'resnet50_v1_int8': ('resnet50_v1', 'file', '3f2173e9e6708f05728c446a6b26fbb7d39d8febca08e5d4753cdf928d0c242f'),
    'ssd_300_vgg16_atrous_voc_int8': (
        'ssd_300_vgg16_atrous_voc', 'file', '13e7d9d277efc6a307a0270b3d9dd5f52bc2e93badeb988ba57a4de6d4e347ef'),
    'ssd_512_mobilenet1.0_voc_int8': (
        'ssd_512_mobilenet1.0_voc', 'file', 'c891c584dc8ce5c1f60cb17248ec0874d32ff99795c36441b761ee15f9df2a90'),
    'ssd_512_resnet50_v1_voc_int8': (
        'ssd_512_resnet50_v1_voc', 'file', '1bf05d738a99e8e2cbaf80a28b88491d0945aaf2d265808e545ecd4be18599d5'),
    'ssd_512_vgg16_atrous_voc_int8': (
        'ssd_512_vgg16_atrous_voc', 'file', '487ebd441dd5f285ab66a2d8a329b62a8e53cdaf538ff6e26f23c60d0f573ee1'),
    'fcn_resnet101_voc_int8': (
        'fcn_resnet101_voc', 'packed', '09a7b4dd185c6f93a50e1fdf941ddab8c0ad3e192e99e601dd2ec17032cf0c47'),
    'fcn_resnet101_coco_int8': (
        'fcn_resnet101_coco', 'packed', '5d37cf82e73ddd6e728aea326ad7dcccbb037893d1b13cf1769396f2dff41516'),
    'psp_resnet101_voc_int8': (
        'psp_resnet101_voc', 'packed', '81736fb54aa9ddd9769f32861e9b57ae3d8260cabf41cf2fdc3716a0f9f4d732'),
    'psp_resnet101_coco_int8': (
        'psp_resnet101_coco', 'packed', 'c52baaef93b7ec8ba326ecf22be3bfbe8e671128409fa68522886d0ce14c5736'),
    'deeplab_resnet101_voc_int8': (
        'deeplab_resnet101_voc', 'packed', '38a9b048e93f3bdb86b45d39358fee949a5f351805fad11355c83ff965b74fbb'),
    'deeplab_resnet101_coco_int8': (
        'deeplab_resnet101_coco', 'packed', '0fc7fed6ed0dfb6b3c56f5b6a79996772defa2f048c1f81fe06f2fbf6c188ebe'),
    'simple_pose_resnet18_v1b_int8': (
        'simple_pose_resnet18_v1b', 'packed', '1c69876777b1aee3f68227463b8f76b703865f715a8da3b86e8dbbb820d37c10'),
    'simple_pose_resnet50_v1b_int8': (
        'simple_pose_resnet50_v1b', 'packed', '5a1dcecc21b3eb8ddf1be09f545af2e5dd11bf24ab23144f723133e12e4864c0'),
    'simple_pose_resnet50_v1d_int8': (
        'simple_pose_resnet50_v1d', 'packed', 'e432d300b28035dd481b7bd5edf5c134b4f038d3c87c1a1936e2e2a1fc76cae1'),
    'simple_pose_resnet101_v1b_int8': (
        'simple_pose_resnet101_v1b', 'packed', '8b2024ad84b94be018a755125ac66a0d28dcc0a733a7fc2f89789595be4ecbd4'),
    'simple_pose_resnet101_v1d_int8': (
        'simple_pose_resnet101_v1d', 'packed', '0d7021c07a0dc8d7ee7e05f1895ed39cb34448e0e4f97c2bfd230e4be95721eb'),
    # TSN frame models (vision/models/action/tsn.py): each graph averages a fixed number of frames a video
    'vgg16_ucf101_int8': ('vgg16_ucf101', 'packed', '9afae0062f422044166a771b067b084bfd0daa17c4ef4ef02006c627fb88718b'),
    'inceptionv3_ucf101_int8': (
        'inceptionv3_ucf101', 'packed', '73ed2836d89328980ecdebb830b08352d1b9119d46f39a530684331599dbf3c1'),
    'inceptionv3_kinetics400_int8': (
        'inceptionv3_kinetics400', 'packed', '10cdb5b6389606d4d72ec9e8480d7a7918b192b1505398c1cef160ec8b7cb2c1'),
    'resnet18_v1b_kinetics400_int8': (
        'resnet18_v1b_kinetics400', 'packed', '5c5e359645cdbb25a73de05ee054d7fbc6903b0c902a690a39041a3f3ad6140f'),
    'resnet50_v1b_kinetics400_int8': (
        'resnet50_v1b_kinetics400', 'packed', '7490df8454da3f71b74dc8d460b14fe52e4025a8d3af14477ddb721933b4a6a8'),
}
#: video graphs whose consensus averages other than their base record's segments a video (GluonCV calibrated
#: inceptionv3_kinetics400_int8 with --num-segments 3; its fp32 net was trained and tested with 7): the record's
#: preprocess and input shape say the graph's
SEGMENTS = {'inceptionv3_kinetics400_int8': 3}

TAG = 'gluoncv_int8'


def graph_json(name):
    """The JSON text of model `name`'s graph, from the installed gluoncv package, its sha256 checked."""
    sha256 = GRAPHS[name][2]
    path = store.package_file(PACKAGE, _where(name).split(' ')[0], also=f' ({name} is its INT8 graph)')
    if GRAPHS[name][1] == 'file':
        with open(path, 'rb') as f:
            text = f.read()
    else:
        text = _unpack(path, name)
    got = hashlib.sha256(text).hexdigest()
    if got != sha256:
        raise ChecksumError(f'{name}\'s graph in {path} has sha256 {got[:12]}..., the record says {sha256[:12]}... '
                            f'(gluoncv==0.10.5.post0): run `make weights-packages` to reinstall it')
    return text.decode('utf-8')


def _where(name):
    """Where the package keeps graph `name`: its file, or quantized.py and the key of its packed string."""
    if GRAPHS[name][1] == 'file':
        return f'{FOLDER}/{name}-symbol.json'
    return f'{FOLDER}/quantized.py _compressed_int8_json[{name!r}]'


@functools.lru_cache(maxsize=2)
def _packed(path):
    """GluonCV's `_compressed_int8_json` literal of quantized.py at `path` ({} when the file has none)."""
    with open(path, 'rb') as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], 'id', None) == '_compressed_int8_json':
            return ast.literal_eval(node.value)
    return {}


def _unpack(path, name):
    """The JSON bytes of packed graph `name` in quantized.py at `path`; one error when it is missing or unreadable."""
    try:
        return zlib.decompress(base64.b64decode(_packed(path)[name]))
    except (KeyError, ValueError, SyntaxError, zlib.error) as e:
        raise ChecksumError(f'{path} holds no readable graph for {name} ({type(e).__name__}): run '
                            '`make weights-packages` to reinstall gluoncv==0.10.5.post0') from None


# -- the block ------------------------------------------------------------------------------------------------------
def _kind(name):
    """The last word of a parameter name, singular ('weight', 'gamma', 'mean', 'anchor'): what the pairing checks
    (GluonCV's graph calls SSD's anchors `..._anchor_0`, the net `anchors`)."""
    return re.findall(r'[a-z]+', name)[-1].rstrip('s')


class Int8Graph(gluon.SymbolBlock):
    """A quantized symbol graph whose parameters answer to the base net's structural names.

    `structural` lists the base net's parameter names in the order the graph takes its inputs: GluonCV quantized
    its traced base net, and our base net traced the same way (depth first through the same computation) takes its
    parameters in the same order. Each pair must be the same kind of parameter, and its shape is the graph's at
    `input_shape`, which the strict load checks against the file: a base net that drifted from GluonCV's is a clear
    error, not a wrong net. save_parameters/load_parameters (and the registry's strict load) use the structural
    names: the net reads and writes the base checkpoint's files.
    """

    def __init__(self, symbol, structural, input_shape, grad_req=None):
        super().__init__(symbol, mx.sym.var('data', dtype='float32'))
        inputs = [n for n in symbol.list_inputs() if n != 'data']
        pairs = list(zip(structural, inputs))
        wrong = [(k, v) for k, v in pairs if _kind(k) != _kind(v)]
        if len(structural) != len(inputs) or wrong:
            raise BadInputError(f'the INT8 graph takes {len(inputs)} parameters, the base net has {len(structural)}'
                                f'{f"; {wrong[0][0]} would feed {wrong[0][1]}" if wrong else ""}: the base '
                                'architecture no longer matches GluonCV\'s')
        args, _, aux = symbol.infer_shape(data=input_shape)
        shapes = dict(zip(symbol.list_arguments() + symbol.list_auxiliary_states(), args + aux))
        params = self.collect_params()
        for k, v in pairs:
            params[v].shape = shapes[v]
            if grad_req and k in grad_req:  # constants (SSD anchors) stay out of training and of the count
                params[v].grad_req = grad_req[k]
        self._structural = {k: params[v] for k, v in pairs}

    def _collect_params_with_prefix(self, prefix=''):
        return {prefix + k: p for k, p in self._structural.items()}

    def feature_extractor(self, out_indices=None):
        raise ValueError('an INT8 graph declares no feature stages; features_only is not available: use the base '
                         'model (features_only=True on it)')


def build(name, classes=None):
    """GluonCV's INT8 graph of `name`, its parameters (uninitialized) named and shaped as its base net's."""
    base = GRAPHS[name][0]
    w = get_weights(base)
    given = list(classes) if isinstance(classes, (list, tuple)) else classes
    if given is not None and given not in (w.num_classes, list(w.classes or ())):
        raise ValueError(f'{name} is GluonCV\'s fixed INT8 graph for the {w.num_classes} classes of {w.name}: '
                         f'classes={classes!r} cannot change its head; use {base} for another class list')
    entry = get_entry(base)
    options = dict(w.config)  # the checkpoint's shape (a segmenter's aux head, a pose net's joints)
    if 'pretrained_base' in inspect.signature(entry.builder).parameters:
        options['pretrained_base'] = False
    ref = entry.builder(**options)
    traced = ref(mx.sym.var('data'))
    traced = mx.sym.Group(list(traced)) if isinstance(traced, (list, tuple)) else traced
    params = {p.name: (k, p) for k, p in ref._collect_params_with_prefix().items()}
    order = [params[n][0] for n in traced.list_inputs() if n != 'data']
    net = Int8Graph(mx.sym.load_json(graph_json(name)), order, _input_shape(name, w),
                    {k: p.grad_req for k, p in params.values()})
    net.classes = list(w.classes) if w.classes else None
    return net


# -- weights records and registered builders --------------------------------------------------------------------------
def _input_shape(name, base):
    """The input shape of graph `name`: its base record's (`base`), with SEGMENTS' frames a video where it says."""
    return (SEGMENTS[name], *base.input_shape[1:]) if name in SEGMENTS else base.input_shape


def _record(name):
    """The base checkpoint's record under the INT8 name: the same file (its cache name too), classes, preprocess
    (a video graph's own segments); no config (the graph is fixed: build() gives the base's to the net it traces)."""
    w = get_weights(GRAPHS[name][0])
    pre = dict(w.preprocess, **({'segments': SEGMENTS[name]} if name in SEGMENTS else {}))
    return dataclasses.replace(
        w, arch=name, tag=TAG, default=True, metrics={}, check={}, config={}, store_name=w.file_stem.rsplit('-', 1)[0],
        preprocess=pre, input_shape=_input_shape(name, w),
        recipe=f'GluonCV 0.10.5 {_where(name)} (oneDNN INT8, calibrated by GluonCV) over the weights of {w.name} '
               f'({w.recipe})')


def _register(name):
    w = _record(name)

    def builder(classes=None):
        return build(name, classes)
    builder.__name__ = builder.__qualname__ = name.replace('.', '_')
    builder.__doc__ = f'GluonCV\'s INT8 {GRAPHS[name][0]} (oneDNN, calibrated by GluonCV).'
    register_model(name, task=w.task, weights=[w], test_input=w.input_shape)(builder)


for _name in GRAPHS:
    _register(_name)
