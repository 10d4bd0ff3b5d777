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
