"""The registry and model semantics GluonCV's / GluonNLP's scripts rely on (issue 26): model names in any case,
`get_model(name)` returning an uninitialized net for the script's own `net.initialize(...)`, SSD's arity error as
the TypeError MXNet's `quantize_net` probes for, one parameter set per arch whatever `pretrained` is, CenterNet's
(B, K) ids and scores, and the CLI's one-line usage errors."""
import logging
import os
import subprocess
import sys
import warnings

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import UnknownModelError
from gluonzoo.registry import get_entry


# -- model names in any case (GluonCV lower-cases them) ----------------------------------------------------------
def test_names_in_any_case_resolve_to_the_registered_one():
    assert get_entry('ResNet50_v1b').name == 'resnet50_v1b'
    assert get_entry('MOBILENETV2_1.0.IN1K').name == 'mobilenetv2_1.0'
    assert gz.get_weights('MobileNetV2_1.0').name == gz.get_weights('mobilenetv2_1.0').name
    assert gz.get_weights('MobileNetV2_1.0.GluonCV').name == 'mobilenetv2_1.0.gluoncv'
    assert gz.get_weights('transformer_en_de_512.wmt2014').name == 'transformer_en_de_512.WMT2014'  # a tag in caps
    net = gz.get_model('CIFAR_ResNet20_v1', classes=3)
    assert type(net) is type(gz.get_model('cifar_resnet20_v1', classes=3))


def test_a_name_unknown_in_any_case_is_still_refused_with_the_closest():
    with pytest.raises(UnknownModelError, match=r"unknown model 'ResNet50_v9b'; closest: .*resnet50_v1b"):
        gz.get_model('ResNet50_v9b')
    with pytest.raises(UnknownModelError, match=r"mobilenetv2_1\.0 has no weights 'NoSuch'"):
        gz.get_weights('MobileNetV2_1.0.NoSuch')


# -- the CLI: one `gluonzoo: error:` prefix ----------------------------------------------------------------------
def _cli(*args):
    p = subprocess.run([sys.executable, '-m', 'gluonzoo.cli', *args], capture_output=True, text=True,
                       env=dict(os.environ), timeout=120)
    return p.returncode, p.stdout, [line for line in p.stderr.splitlines() if line.strip()]


@pytest.mark.parametrize('args, says', [
    (['bogus'], "gluonzoo: error: argument command: invalid choice: 'bogus'"),
    (['list', '--bogus'], 'gluonzoo: error: unrecognized arguments: --bogus'),
    (['export', 'mobilenetv2_1.0', '--input-shape', '1,a'], "gluonzoo: error: export: argument --input-shape: "
                                                             "'1,a' is not a shape"),
])
def test_cli_usage_error_has_the_prefix_once(args, says):
    code, out, err = _cli(*args)
    assert code == 1 and out == '' and len(err) == 1, err
    assert err[0].startswith(says) and err[0].count('gluonzoo:') == 1, err[0]


# -- SSD under MXNet's quantize_net -------------------------------------------------------------------------------
def test_ssd_arity_error_is_a_type_error_and_quantize_net_passes():
    net = gz.get_model('ssd_300_mobilenet0.25_voc', pretrained_base=False)
    net.initialize()
    x = mx.nd.random.uniform(shape=(1, 3, 64, 64))
    with pytest.raises(TypeError, match='takes one batch of images Nx3xHxW .* and 1 more inputs'):
        net(x, x)
    with pytest.raises(ValueError, match='takes one batch of images'):  # a bad shape stays a ValueError
        net(mx.nd.zeros((1, 4, 64, 64)))
    # what GluonCV's tests/model_zoo do: the loader yields (image, label); quantize_net drops the label after the
    # net's TypeError
    calib = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(x, mx.nd.zeros((1, 1))), batch_size=1)
    quiet = logging.getLogger('gluonzoo.test.quiet')
    quiet.setLevel(logging.ERROR)
    qnet = mx.contrib.quantization.quantize_net(net, quantized_dtype='auto', exclude_layers_match=['flatten', 'concat'],
                                                calib_data=calib, calib_mode='none', ctx=mx.cpu(), logger=quiet)
    ids, scores, boxes = qnet(x)
    assert ids.shape[0] == 1 and boxes.shape[-1] == 4


# -- get_model(name) is uninitialized, as GluonCV's and GluonNLP's are ---------------------------------------------
PLAIN = [('resnet18_v1', {}, (1, 3, 64, 64)), ('mobilenetv2_1.0', {}, (1, 3, 64, 64)),
         ('cifar_resnet20_v1', {}, (1, 3, 32, 32)),
         ('ssd_300_mobilenet0.25_voc', {'pretrained_base': False}, (1, 3, 64, 64))]


@pytest.fixture(scope='module')
def gluoncv_builds(tmp_path_factory):
    import json
    from tests.peers import run_peer
    out = run_peer('gluoncv_registry.py', tmp_path_factory.mktemp('gluoncv_registry'),
                   [{'name': n, 'kwargs': k, 'shape': list(s)} for n, k, s in PLAIN] +
                   [{'name': 'standard_lstm_lm_200', 'gluonnlp': True}])
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize('name, kwargs, shape', PLAIN, ids=[p[0] for p in PLAIN])
def test_get_model_leaves_the_parameters_to_the_callers_initialize(gluoncv_builds, name, kwargs, shape):
    ref = gluoncv_builds[name]
    assert ref['initialized'] == 0 and ref['warnings'] == 0  # what GluonCV hands back
    net = gz.get_model(name, **kwargs)
    assert not [p.name for p in net.collect_params().values() if p._data is not None or p._deferred_init]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        net.initialize(mx.init.Constant(0.01))
    assert not [w for w in caught if 'already initialized' in str(w.message)]
    net(mx.nd.zeros(shape))
    own = [p for p in net.collect_params().values() if p.init is None and p.name.endswith('weight')]
    assert own and all((p.data().asnumpy() == np.float32(0.01)).all() for p in own)  # the caller's init, each one
    mine = {k: list(p.shape) for k, p in net._collect_params_with_prefix().items()}
    assert mine == ref['params']  # the same parameter set as GluonCV's get_model(name)


def test_gluonnlp_spelling_without_weights_is_uninitialized_too(gluoncv_builds):
    from gluonzoo.text import get_model
    from gluonzoo.text.vocab import Vocab, count_tokens
    assert gluoncv_builds['standard_lstm_lm_200']['initialized'] == 0  # GluonNLP's
    net, vocab = get_model('standard_lstm_lm_200', vocab=Vocab(count_tokens('a b c d'.split())), pretrained=False)
    assert not [p.name for p in net.collect_params().values() if p._data is not None or p._deferred_init]
    net.initialize()
    assert net(mx.nd.zeros((3, 2)), net.begin_state(batch_size=2, func=mx.nd.zeros))[0].shape == (3, 2, len(vocab))


def test_features_only_and_transfer_without_weights_are_uninitialized_too():
    feats = gz.get_model('resnet18_v1', features_only=True)
    assert all(p._data is None for p in feats.collect_params().values())
    feats.initialize()
    maps = feats(mx.nd.zeros((1, 3, 64, 64)))
    assert len(maps) > 1 and all(m.ndim == 4 for m in maps)
    net = gz.get_model('cifar_resnet20_v1', classes=3)
    assert all(p._data is None for p in net.collect_params().values())
    net.initialize()
    assert net(mx.nd.zeros((2, 3, 32, 32))).shape == (2, 3)


# -- mobilenetv2_1.0: one parameter set, whichever weights -----------------------------------------------------------
def test_mobilenetv2_files_load_into_either_build(gluoncv_builds, pretrained_home, tmp_path):
    ref = gluoncv_builds['mobilenetv2_1.0']['params']
    x = mx.nd.random.uniform(shape=(1, 3, 64, 64))
    trained = gz.get_model('mobilenetv2_1.0', pretrained=True)  # the default, torchvision's in1k (a head bias)
    trained.save_parameters(str(tmp_path / 'trained.params'))
    plain = gz.get_model('mobilenetv2_1.0')
    plain.load_parameters(str(tmp_path / 'trained.params'))  # what GluonCV's scripts do with a file they saved
    np.testing.assert_allclose(plain(x).asnumpy(), trained(x).asnumpy(), rtol=1e-5, atol=1e-6)
    fresh = gz.get_model('mobilenetv2_1.0')
    fresh.initialize()
    fresh(x)
    assert {k: list(p.shape) for k, p in fresh._collect_params_with_prefix().items()} == ref  # GluonCV's set
    fresh.save_parameters(str(tmp_path / 'fresh.params'))
    trained.load_parameters(str(tmp_path / 'fresh.params'))  # a GluonCV-shaped file into the in1k-built net
    np.testing.assert_allclose(trained(x).asnumpy(), fresh(x).asnumpy(), rtol=1e-5, atol=1e-6)


def test_a_file_that_fits_other_options_says_which(tmp_path):
    net = gz.get_model('mobilenetv2_1.0', classes=10)
    net.initialize()
    net(mx.nd.zeros((1, 3, 64, 64)))
    net.save_parameters(str(tmp_path / 'ten.params'))
    other = gz.get_model('mobilenetv2_1.0')
    with pytest.raises(ValueError, match=r"ten\.params .*classes=10"):
        other.load_parameters(str(tmp_path / 'ten.params'))


# -- CenterNet's (B, K) ids and scores --------------------------------------------------------------------------
CENTER = 'center_net_mobilenetv3_small_duc_voc'


@pytest.fixture(scope='module')
def gluoncv_center_net(tmp_path_factory):
    from tests.peers import run_peer
    out = tmp_path_factory.mktemp('gluoncv_center_net')
    run_peer('gluoncv_center_net.py', out, [{'name': CENTER, 'shape': [2, 3, 64, 64]}])
    return out


def test_center_net_returns_gluoncvs_shapes(gluoncv_center_net):
    ref = np.load(gluoncv_center_net / f'{CENTER}.npz')
    net = gz.get_model(CENTER, pretrained_base=False)
    net.load_parameters(str(gluoncv_center_net / f'{CENTER}.params'))
    x = mx.nd.array(ref['x'])
    for hybrid in (False, True):
        net.hybridize(hybrid)
        ids, scores, boxes = net(x)
        assert ids.shape == ref['ids'].shape == scores.shape == ref['scores'].shape and ids.ndim == 2
        assert boxes.shape == ref['bboxes'].shape
        assert (ids.asnumpy() == ref['ids']).all()
    net.set_nms(0.45, 400, 10)  # ours only (GluonCV's CenterNet ignores set_nms): the same layout
    ids, scores, boxes = net(x)
    assert ids.shape == scores.shape == (2, 10) and boxes.shape == (2, 10, 4)
