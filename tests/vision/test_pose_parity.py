"""A parameter file saved from GluonCV 0.10.5's pose net loads strictly into gluonzoo's and gives the same heatmaps;
the pose records hold GluonCV's facts (model_store sha1, published OKS AP only for the same checkpoint).

Registry-driven over the pose-estimation `.gluoncv` records: every variant of a family is covered by its smallest
member (a variant is the arch with its size tokens taken out: simple_pose_resnet#_v1b and _v1d,
mobile_pose_resnet#_v1b, each MobileNet). OPTIONS builds GluonCV's keyword options on both sides.
"""
import collections
import json
import re

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.errors import BadInputError
from gluonzoo.registry import get_entry
from gluonzoo.vision.meta import COCO_KEYPOINTS
from gluonzoo.vision.models.pose import mobile_pose, simple_pose
from gluonzoo.weights import GLUONCV_REPO

from ..peers import run_peer

RECORDS = [n for n in gz.list_models(task='pose-estimation', tags=True) if n.endswith('.gluoncv')]
_SIZE = re.compile(r'\d{2,3}(?=_|x|$)|\d\.\d+')
#: GluonCV's own options, away from the defaults (other deconvolutions, a bias, a 3x3 final conv, 5 joints)
OPTIONS = {
    'simple_pose_resnet18_v1b': dict(num_joints=5, num_deconv_filters=(32, 16, 8), num_deconv_kernels=(4, 3, 2),
                                     final_conv_kernel=3, deconv_with_bias=True),
    'mobile_pose_mobilenetv3_small': dict(num_joints=5),
}


def _smallest_per_variant():
    best = collections.OrderedDict()
    for name in RECORDS:
        w = gz.get_weights(name)
        key = (get_entry(w.arch).builder.__module__, _SIZE.sub('#', w.arch))
        if key not in best or w.num_params < best[key].num_params:
            best[key] = w
    return [(w.arch, {}) for w in best.values()] + list(OPTIONS.items())


CASES = _smallest_per_variant()


def _file(name, kwargs):
    return name + ('-options' if kwargs else '')


@pytest.fixture(scope='module')
def gluoncv_files(tmp_path_factory):
    out = tmp_path_factory.mktemp('gluoncv_pose')
    run_peer('gluoncv_models.py', out, [{'name': n, 'shape': list(get_entry(n).test_input), 'kwargs': k,
                                         'file': _file(n, k)} for n, k in CASES])
    run_peer('gluoncv_model_store.py', out, [])
    return out


def test_every_family_variant_is_covered():
    names = [n for n, k in CASES if not k]
    assert sorted(names) == ['mobile_pose_mobilenet1.0', 'mobile_pose_mobilenetv2_1.0',
                             'mobile_pose_mobilenetv3_large', 'mobile_pose_mobilenetv3_small',
                             'mobile_pose_resnet18_v1b', 'simple_pose_resnet18_v1b', 'simple_pose_resnet50_v1d']
    assert len(RECORDS) == 13  # every simple_pose_* and mobile_pose_* checkpoint of GluonCV's model_store


@pytest.mark.parametrize('name,kwargs', CASES, ids=[_file(n, k) for n, k in CASES])
def test_gluoncv_params_load_strictly_and_match(gluoncv_files, name, kwargs):
    net = gz.get_model(name, **kwargs) if kwargs else gz.get_model(f'{name}.gluoncv')
    stem = _file(name, kwargs)
    net.load_parameters(str(gluoncv_files / f'{stem}.params'))  # strict: no missing, no extra, same shapes
    ref = np.load(gluoncv_files / f'{stem}.npz')
    ys = [k for k in ref.files if re.fullmatch(r'y\d+', k)]
    assert ys == ['y0']  # one heatmap array, nothing else
    y = net(mx.nd.array(ref['x'])).asnumpy()
    assert y.shape == ref['y0'].shape and y.shape[1] == kwargs.get('num_joints', 17)
    assert np.abs(y - ref['y0']).max() / np.abs(ref['y0']).max() <= 1e-5


def test_records_hold_gluoncvs_facts(gluoncv_files):
    store = json.loads((gluoncv_files / 'sha1.json').read_text())
    gluoncv_pose = {k for k in store if k.startswith(('simple_pose_', 'mobile_pose_'))}
    assert {gz.get_weights(n).arch for n in RECORDS} == gluoncv_pose
    tables = {**simple_pose.OKS_AP, **mobile_pose.OKS_AP}
    for name in RECORDS:
        w = gz.get_weights(name)
        assert store[w.arch] == w.sha1 and w.file_stem == f'{w.arch}-{w.sha1[:8]}', name
        assert w.source.kind == 'mirror' and w.source.url == GLUONCV_REPO and w.classes is None
        assert w.input_shape == (1, 3, 256, 192) and w.preprocess['mean'] == (0.485, 0.456, 0.406)
        assert dict(w.config) == {'num_joints': 17, 'joints': COCO_KEYPOINTS}
        hashtag, plain, _ = tables[w.arch]
        if hashtag == w.sha1[:8]:
            assert (w.metrics['oks_ap'], w.metrics['oks_ap50'], w.metrics['oks_ap75']) == plain, name
        else:
            assert not w.metrics, name
    assert not gz.get_weights('mobile_pose_mobilenetv3_small').metrics  # its table row is another checkpoint
    assert gz.get_weights('simple_pose_resnet50_v1d').metrics['oks_ap'] == 71.6


def test_options_are_gluoncvs():
    with pytest.raises(ValueError, match="no option 'num_joint'.*did you mean 'num_joints'"):
        gz.get_model('simple_pose_resnet18_v1b', num_joint=5)
    with pytest.raises(ValueError, match='num_joints=17'):
        gz.get_model('mobile_pose_resnet18_v1b.gluoncv', num_joints=5)  # a checkpoint keeps its heatmaps
    with pytest.raises(ValueError, match='num_deconv_layers=2 needs'):
        gz.get_model('simple_pose_resnet18_v1b', num_deconv_layers=2)
    with pytest.raises(ValueError, match='num_deconv_kernels take'):
        gz.get_model('simple_pose_resnet18_v1b', num_deconv_kernels=(4, 4, 5))
    with pytest.raises(BadInputError, match='Nx3xHxW'):
        gz.get_model('mobile_pose_mobilenetv3_small')(mx.nd.zeros((1, 1, 64, 64)))
