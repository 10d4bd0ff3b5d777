"""GluonCV's INT8 models as records: the graphs are GluonCV's (sha256 of its files and of its packed strings as its
own decoder reads them, in the peers venv), the parameter names each graph takes are those GluonCV's export gives
each base parameter, and a base parameter file fetched from a mirror on 127.0.0.1 through get_model gives exactly
GluonCV's INT8 outputs (GluonCV's own builder run on the same file); bad input is one clear error."""
import base64
import dataclasses
import hashlib
import json
import os
import zlib

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.errors import ChecksumError, ExportError, WeightsNotFoundError
from gluonzoo.vision.models import quantized
from gluonzoo.weights import Source

from ..conftest import registered, sha1, zipped
from ..peers import run_peer

NAMES = sorted(quantized.GRAPHS)
#: GluonCV's INT8 graphs of TSN video models: each averages a fixed number of frames a video
VIDEO = ['inceptionv3_kinetics400_int8', 'inceptionv3_ucf101_int8', 'resnet18_v1b_kinetics400_int8',
         'resnet50_v1b_kinetics400_int8', 'vgg16_ucf101_int8']
#: the prefix GluonCV's quantized.py builds each base net with (the names its export gives the graph), by name start
#: (its TSN builders take the prefix and drop it: their graphs have their bases' own names)
PREFIX = {'mobilenet': 'mobilenet0_', 'resnet': 'resnetv10_', 'ssd': 'ssd0_', 'fcn': 'fcn0_', 'psp': 'pspnet0_',
          'deeplab': None, 'simple_pose': 'pose0_', 'vgg16': 'vgg0_', 'inceptionv3': 'inception30_'}
#: run end to end, at the graph's own input size: the smallest classifier, SSD and TSN (random weights
#: saturate the pose nets' calibrated int8 ranges: a few distinct heatmap values, nothing to compare)
RUN = {'mobilenet1.0_int8': (1, 3, 224, 224), 'ssd_512_mobilenet1.0_voc_int8': (1, 3, 512, 512),
       'resnet18_v1b_kinetics400_int8': (7, 3, 224, 224)}


@pytest.fixture(scope='module')
def gluoncv_int8(tmp_path_factory):
    out = tmp_path_factory.mktemp('int8')
    jobs = [{'name': n, 'prefix': next(v for k, v in PREFIX.items() if n.startswith(k)),
             **({'shape': list(RUN[n])} if n in RUN else {})} for n in NAMES]
    run_peer('gluoncv_quantized.py', out, jobs)
    return out


def test_every_gluoncv_graph_is_registered(gluoncv_int8):
    # the sha256 each record holds, computed by the peers venv from GluonCV's own copy (files, and the packed
    # strings through GluonCV's own decoder), and here from the copy `make weights-packages` installed
    theirs = json.loads((gluoncv_int8 / 'graphs.json').read_text())
    assert sorted(theirs) == NAMES == gz.list_models('*_int8') and set(VIDEO) <= set(NAMES)
    for name in NAMES:
        assert theirs[name] == quantized.GRAPHS[name][2], name
        assert hashlib.sha256(quantized.graph_json(name).encode('utf-8')).hexdigest() == theirs[name]


@pytest.mark.parametrize('name', NAMES)
def test_record_is_the_base_checkpoint(name):
    w, base = gz.get_weights(name), gz.get_weights(quantized.GRAPHS[name][0])
    assert w.name == f'{name}.{quantized.TAG}' and w.default
    # the base's file under its own name (one cache file for both, and GluonCV's caches work), its classes and
    # preprocessing; trainable parameters: the base's (registry tests recount them on the built graph)
    assert (w.sha1, w.source, w.file_name, w.classes, w.num_params) == \
        (base.sha1, base.source, base.file_name, base.classes, base.num_params)
    assert not w.config  # the graph is fixed; build() traces the base net with the base record's config
    # a video graph's consensus averages its own number of frames a video: its record says that one
    segments = _graph_segments(name)
    assert dict(w.preprocess) == dict(base.preprocess, **({'segments': segments} if segments else {}))
    assert w.input_shape == ((segments,) + base.input_shape[1:] if segments else base.input_shape)


def _graph_segments(name):
    """The frames a video that graph `name`'s segmental consensus (a Reshape to (-1, frames, C), then a mean over
    axis 1) averages; None for an image graph."""
    nodes = json.loads(quantized.graph_json(name))['nodes']
    means = [nodes[n['inputs'][0][0]] for n in nodes if n['op'] == 'mean']
    frames = [int(m['attrs']['shape'].strip('()').split(',')[1]) for m in means if m['op'] == 'Reshape']
    assert (name in VIDEO) == bool(frames) and len(frames) <= 1, (name, frames)
    return frames[0] if frames else None


def test_parameter_names_are_gluoncvs(gluoncv_int8):
    for name in NAMES:  # the builder alone: no weights (17 random-weight nets would take 4 GB here)
        net = quantized.build(name)
        ours = {k: p.name for k, p in net._collect_params_with_prefix().items()}
        assert ours == json.loads((gluoncv_int8 / f'{name}.names.json').read_text()), name


@pytest.mark.parametrize('name', sorted(RUN))
def test_outputs_equal_gluoncvs(gluoncv_int8, http_server, name):
    # the same graph over the same parameters: equal to the bit (both run MXNet 1.9.1's oneDNN INT8 kernels)
    data = (gluoncv_int8 / f'{name}.params').read_bytes()
    w = dataclasses.replace(gz.get_weights(name), arch='int8_test_net', sha1=sha1(data), store_name=None,
                            source=Source(kind='mirror', url=http_server.base))
    http_server.files[f'/{w.mirror_path}'] = zipped(w.file_name, data)
    with registered('int8_test_net', lambda classes=None: quantized.build(name, classes), task=w.task, weights=[w]):
        net = gz.get_model('int8_test_net', pretrained=True)
    assert http_server.hits == [f'/{w.mirror_path}'] and net.classes == list(w.classes)
    ref = np.load(gluoncv_int8 / f'{name}.npz')
    ys = net(mx.nd.array(ref['x']))
    ys = ys if isinstance(ys, (list, tuple)) else [ys]
    assert len(ys) == len(ref.files) - 1
    for i, y in enumerate(ys):
        assert np.array_equal(y.asnumpy(), ref[f'y{i}']), i
    assert len(np.unique(ref[f'y{len(ys) - 1}'])) > 50  # a real output, not saturated int8 arithmetic


def test_pretrained_false_is_the_graph_with_random_weights():
    # GluonCV returns the graph with its parameters uninitialized; the registry gives every pretrained=False net
    # Gluon's default initialization, this one too
    net = gz.get_model('mobilenet1.0_int8')
    net.initialize()
    y = net(mx.nd.random.uniform(shape=(1, 3, 224, 224)))
    assert y.shape == (1, 1000) and np.isfinite(y.asnumpy()).all()


def test_export_refuses_the_graph_in_one_line(tmp_path):
    # no ONNX converter takes oneDNN's INT8 ops; nothing is left behind
    net = gz.get_model('mobilenet1.0_int8')
    net.initialize()
    with pytest.raises(ExportError, match="cannot export op '_contrib_quantize_v2'.*no ONNX converter"):
        gz.export(net, str(tmp_path / 'out' / 'm'), input_shape=(1, 3, 224, 224), formats=('onnx',))
    assert not os.path.exists(tmp_path / 'out') or os.listdir(tmp_path / 'out') == []


def test_bad_input_is_one_clear_error(monkeypatch, tmp_path):
    with pytest.raises(ValueError, match='fixed INT8 graph for the 1000 classes.*use mobilenet1.0 for another'):
        gz.get_model('mobilenet1.0_int8', classes=10)
    with pytest.raises(ValueError, match='features_only is not available'):
        gz.get_model('mobilenet1.0_int8', features_only=True)
    monkeypatch.setattr(store, 'VENV_PACKAGES', str(tmp_path / 'none'))
    with pytest.raises(WeightsNotFoundError, match=r'package gluoncv, which is not installed.*make weights-packages'):
        gz.get_model('mobilenet1.0_int8')
    folder = tmp_path / 'pkgs' / quantized.FOLDER
    os.makedirs(folder)
    (folder / 'mobilenet1.0_int8-symbol.json').write_text('{}')
    packed = {'fcn_resnet101_voc_int8': b'not base64 of zlib', 'psp_resnet101_voc_int8': base64.b64encode(
        zlib.compress(b'{}'))}  # GluonCV's layout: a dict literal of bytes
    (folder / 'quantized.py').write_text(f'_compressed_int8_json = {packed!r}\n')
    monkeypatch.setenv('GLUONZOO_PACKAGES', str(tmp_path / 'pkgs'))
    with pytest.raises(ChecksumError, match='has sha256 .*run `make weights-packages`'):
        gz.get_model('mobilenet1.0_int8')
    with pytest.raises(ChecksumError, match='no readable graph for fcn_resnet101_voc_int8.*make weights-packages'):
        gz.get_model('fcn_resnet101_voc_int8')
    with pytest.raises(ChecksumError, match='no readable graph for deeplab_resnet101_voc_int8'):  # not in the dict
        gz.get_model('deeplab_resnet101_voc_int8')
    with pytest.raises(ChecksumError, match='psp_resnet101_voc_int8.s graph in .* has sha256'):  # not GluonCV's
        gz.get_model('psp_resnet101_voc_int8')
