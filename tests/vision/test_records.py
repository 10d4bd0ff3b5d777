"""The GluonCV weights records hold GluonCV's own facts: sha1 from its model_store, published metrics only for
the checkpoint its table names, its mirror layout."""
import json

import pytest

import gluonzoo as gz
from gluonzoo.vision.models.classification._gluoncv import GLUONCV_TABLE
from gluonzoo.weights import GLUONCV_REPO

from ..peers import run_peer

GLUONCV_RECORDS = [n for n in gz.list_models(task='image-classification', tags=True) if n.endswith('.gluoncv')]


@pytest.fixture(scope='module')
def model_store(tmp_path_factory):
    out = tmp_path_factory.mktemp('store')
    run_peer('gluoncv_model_store.py', out, [])
    return json.loads((out / 'sha1.json').read_text())


def test_sha1s_are_gluoncvs(model_store):
    assert len(GLUONCV_RECORDS) >= 60
    for name in GLUONCV_RECORDS:
        w = gz.get_weights(name)
        assert model_store[w.store_name or w.arch] == w.sha1, name
        assert w.source.kind == 'mirror' and w.source.url == GLUONCV_REPO
        # GluonCV's file name, so its caches and mirrors work; its own name for a model only where it differs
        assert w.file_stem == f'{w.store_name or w.arch}-{w.sha1[:8]}'
        assert w.store_name is None or w.store_name not in gz.list_models(), name


def test_published_metrics_belong_to_the_same_checkpoint():
    for name in GLUONCV_RECORDS:
        w = gz.get_weights(name)
        row = GLUONCV_TABLE.get(w.arch)
        if w.metrics:
            assert row[2] == w.sha1[:8] and (w.metrics['top1'], w.metrics['top5']) == row[:2], name
        elif w.arch.startswith(('resnet', 'vgg', 'densenet', 'mobilenet', 'squeezenet', 'resnext')):
            assert row is None or row[2] != w.sha1[:8], name
    assert not gz.get_weights('mobilenetv3_small.gluoncv').metrics  # its table row is another checkpoint
    assert gz.get_weights('resnet50_v1d.gluoncv').metrics['top1'] == 79.15


#: (resize, crop, interp) where GluonCV evaluates at another size than 256 -> 224 bilinear: the 299-pixel nets
#: (train_imagenet.py --input-size 299, resize = ceil(299 / 0.875)), and ResNeSt's own crop sizes (the ResNeSt
#: repository's README table and scripts/gluon/verify.py; 416 is a bicubic resize of the centre 416/448)
EVAL_SIZES = {'inceptionv3': (342, 299, 'linear'), 'xception': (342, 299, 'linear'),
              'resnest101': (293, 256, 'linear'), 'resnest200': (366, 320, 'linear'),
              'resnest269': (448, 416, 'cubic')}


def test_gluoncv_records_preprocess_like_gluoncv():
    for name in GLUONCV_RECORDS:
        w = gz.get_weights(name)
        pre = w.preprocess
        if name.startswith('cifar'):
            continue
        assert pre['mean'] == (0.485, 0.456, 0.406)
        assert (pre['resize'], pre['crop'], pre['interp']) == EVAL_SIZES.get(w.arch, (256, 224, 'linear')), name


def test_docs_name_every_vision_family():
    import os
    text = open(os.path.join(os.path.dirname(__file__), '..', '..', 'docs', 'vision.md')).read()
    from gluonzoo.registry import get_entry
    files = {get_entry(n).builder.__module__.rsplit('.', 1)[-1] for n in gz.list_models(task='image-classification')
             if get_entry(n).domain == 'vision'}
    for f in files:
        assert f'`{f}.py`' in text, f'docs/vision.md does not list {f}.py'
