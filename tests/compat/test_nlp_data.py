"""gluonzoo.nlp.data against GluonNLP 0.10's gluonnlp.data (the peers venv) on the same inputs and files: sequence
utilities, TSV/corpus/text-line datasets, train_valid_split, transforms (ClipSequence, PadSequence, the BERT
tokenizers and BERTSentenceTransform with their int32 outputs), language-model batchify, samplers, bucket schemes
and streams; the Moses and sentencepiece wrappers; bad inputs."""
import json
import os

import mxnet as mx
import numpy as np
import pytest

import gluonzoo.nlp as nlp
from tests.peers import run_peer
from tests.peers.calls_json import lists

WORDS = 'the cat sat on the mat and the dog ran to the cat'.split()
TEXTS = ['Héllo, World! It\'s 3.5 o\'clock.', 'unaffable 中文 tokens\tand\u00a0spaces', 'The cat sat.',
         'Ünïcödé  ACCENTS: café!!', '']
WORDPIECES = ['hello', ',', 'world', '!', 'it', "'", 's', '3', '.', '5', 'o', 'clock', 'un', '##aff', '##able',
              '中', '文', 'token', '##s', 'and', 'space', 'the', 'cat', 'sat', 'unicode', 'accent', 'cafe']
LENGTHS = [5, 12, 3, 8, 1, 9, 4, 4, 7, 10, 2]
# whitespace (Zs too), controls (Cc, Cf; tab, newline and return are whitespace), ASCII and Unicode punctuation
CHARS = [' ', '\t', '\r', '\n', '\u00a0', '\u3000', 'A', '-', '\u0005', '\u200b', '$', '`', '.', '\u3002', '中', 'é']


def _files(d):
    tsv = os.path.join(d, 'a.tsv')
    with open(tsv, 'w', encoding='utf8') as f:
        f.write('id\ttext\tlabel\n1\tgood film\tpos\n2\tbad one\tneg\n3\tmeh\tneu\n')
    bad = os.path.join(d, 'bad.tsv')
    with open(bad, 'w', encoding='utf8') as f:
        f.write('1\tgood film\tpos\n2\tno label\n3\tok\tneu\n')
    corpus = os.path.join(d, 'corpus.txt')
    with open(corpus, 'w', encoding='utf8') as f:
        f.write('  the cat sat \n\nthe dog ran\n')
    for i in range(3):
        with open(os.path.join(d, f'part{i}.txt'), 'w') as f:
            f.write(f'line {i}a\nline {i}b\n')
    return dict(tsv=tsv, tsv_bad=bad, corpus=corpus, pattern=os.path.join(d, 'part*.txt'))


@pytest.fixture(scope='module')
def job(tmp_path_factory):
    d = str(tmp_path_factory.mktemp('nlp_data'))
    return dict(_files(d), parts=['data'], words=WORDS, texts=TEXTS, wordpieces=WORDPIECES, lengths=LENGTHS,
                chars=CHARS, seqs=[['a', '', 'b', 'c', 'd'], [], ['e']], n=11,
                slices=[[3, False, 0], [3, True, 0], [4, True, 2], [5, False, 1]])


@pytest.fixture(scope='module')
def ref(job, tmp_path_factory):
    return json.loads(run_peer('gluonnlp_data_api.py', tmp_path_factory.mktemp('nlp_data_peer'), job))['data']


def test_sequences_and_datasets_match_gluonnlp(job, ref):
    assert nlp.data.concat_sequence(job['seqs']) == ref['concat']
    assert [nlp.data.slice_sequence(list(range(job['n'])), n, pad_last=p, pad_val=-1, overlap=o)
            for n, p, o in job['slices']] == ref['slice']
    assert list(nlp.data.TSVDataset(job['tsv'], num_discard_samples=1, field_indices=[2, 0])) == ref['tsv']
    assert list(nlp.data.TSVDataset(job['tsv'], num_discard_samples=1)) == ref['tsv_all']
    with pytest.warns(UserWarning, match='1 incomplete samples'):
        missing = nlp.data.TSVDataset(job['tsv_bad'], field_indices=[2], allow_missing=True)
    assert list(missing) == ref['tsv_missing']
    assert list(nlp.data.CorpusDataset(job['corpus'], bos='<bos>', eos='<eos>')) == ref['corpus']
    assert list(nlp.data.CorpusDataset(job['corpus'], flatten=True, eos='<eos>')) == ref['corpus_flat']
    assert list(nlp.data.CorpusDataset(job['corpus'], skip_empty=False)) == ref['corpus_keep_empty']
    assert list(nlp.data.TextLineDataset(job['corpus'])) == ref['lines']
    assert isinstance(nlp.data.TextLineDataset(job['corpus']), mx.gluon.data.SimpleDataset)
    np.random.seed(7)
    train, valid = nlp.data.train_valid_split(list(range(20)), valid_ratio=0.2)
    assert [list(train), list(valid)] == ref['split']
    np.random.seed(7)
    train, valid = nlp.data.train_valid_split(list(range(20)), valid_ratio=0.25, stratify=[i % 3 for i in range(20)])
    assert [list(train), list(valid)] == ref['split_stratified']
    both = nlp.data.ConcatDataset([train, valid])
    assert len(both) == 20 and both[len(train)] == valid[0]


def test_transforms_and_bert_tokenizers_match_gluonnlp(job, ref):
    assert nlp.data.ClipSequence(3)(job['seqs'][0]) == ref['clip']
    pads = [nlp.data.PadSequence(6, pad_val=-1)(list(range(3))), nlp.data.PadSequence(2)(list(range(3))),
            nlp.data.PadSequence(2, clip=False)(list(range(3))),
            lists(nlp.data.PadSequence(4, pad_val=9)(np.ones((2, 2), dtype='int32'))),
            lists(nlp.data.PadSequence(4, pad_val=9)(mx.nd.ones((2,), dtype='float16')))]
    assert pads == ref['pad']
    assert [nlp.data.BERTBasicTokenizer(lower=lower)(t) for t in TEXTS for lower in (True, False)] == ref['basic']
    tok = nlp.data.BERTTokenizer(nlp.vocab.BERTVocab(nlp.data.count_tokens(WORDPIECES)), lower=True)
    assert [tok(t) for t in TEXTS] == ref['wordpiece']
    plain = nlp.Vocab(nlp.data.count_tokens(WORDPIECES), reserved_tokens=['[CLS]', '[SEP]'], unknown_token='[UNK]',
                      padding_token=None, bos_token=None, eos_token=None)
    assert [nlp.data.BERTTokenizer(plain, lower=True)(t) for t in TEXTS] == ref['wordpiece_plain']
    assert [nlp.data.BERTTokenizer.is_first_subword(t) for t in WORDPIECES] == ref['first_subword']
    basic = nlp.data.BERTBasicTokenizer()
    assert [[basic._is_whitespace(c), basic._is_control(c), basic._is_punctuation(c)] for c in CHARS] == \
        ref['char_predicates']
    pair = nlp.data.BERTSentenceTransform(tok, 12, pad=True, pair=True)
    single = nlp.data.BERTSentenceTransform(tok, 8, pad=False, pair=False)
    assert [lists(pair((a, b))) for a, b in zip(TEXTS, TEXTS[1:])] == ref['sentence_pair']  # int32, as GluonNLP
    assert [lists(single((t,))) for t in TEXTS] == ref['sentence_single']


def test_batchify_samplers_and_streams_match_gluonnlp(job, ref):
    v = nlp.Vocab(nlp.data.count_tokens(WORDS))
    assert [lists(x) for x in nlp.data.batchify.CorpusBatchify(v, 3)(WORDS)] == ref['corpus_batchify']
    for last in ('keep', 'discard'):
        got = nlp.data.batchify.CorpusBPTTBatchify(v, 3, 2, last_batch=last)(WORDS)
        assert [lists(list(x)) for x in got] == ref['bptt_' + last]
    assert list(nlp.data.SortedSampler(LENGTHS)) == ref['sorted']
    assert list(nlp.data.SortedSampler(LENGTHS, reverse=False)) == ref['sorted_up']
    assert [list(nlp.data.SplitSampler(len(LENGTHS), 3, k, shuffle=False, repeat=2)) for k in range(3)] == \
        ref['split_sampler']
    assert [len(nlp.data.SplitSampler(len(LENGTHS), 3, k, even_size=True)) for k in range(3)] == \
        ref['split_sampler_len']
    schemes = {'const': nlp.data.ConstWidthBucket(), 'linear': nlp.data.LinearWidthBucket(),
               'exp': nlp.data.ExpWidthBucket(bucket_len_step=1.5)}
    got = {k: [list(b) for b in nlp.data.FixedBucketSampler(LENGTHS, 2, num_buckets=3, bucket_scheme=s)]
           for k, s in schemes.items()}
    assert got == ref['buckets']
    assert list(nlp.data.SimpleDataStream([(1, 2), (3, 4)]).transform(lambda a, b: a + b)) == ref['stream']
    assert list(nlp.data.PrefetchingStream(nlp.data.SimpleDataStream(range(5)))) == ref['prefetch']
    files = nlp.data.SimpleDatasetStream(nlp.data.TextLineDataset, job['pattern'], file_sampler='sequential')
    assert [list(d) for d in files] == ref['dataset_stream']
    assert nlp.data.batchify.language_model.CorpusBPTTBatchify is nlp.data.batchify.CorpusBPTTBatchify


def test_moses_and_sentencepiece_wrappers(tmp_path):
    # GluonNLP's peers venv has neither sacremoses nor sentencepiece: these check the round trips
    tok, detok = nlp.data.SacreMosesTokenizer(), nlp.data.SacreMosesDetokenizer()
    tokens = tok("Hello, World! Isn't it 3.5?")
    assert tokens == ['Hello', ',', 'World', '!', 'Isn', '&apos;t', 'it', '3.5', '?']
    assert tok('a, b', return_str=True) == 'a , b'
    assert detok(['Hello', ',', 'World', '!']) == 'Hello, World!'
    from gluonzoo.text.tokenizers import train_sentencepiece
    model = train_sentencepiece(['the cat sat on the mat', 'the dog ran to the cat'] * 20, str(tmp_path / 'sp'),
                                vocab_size=18)
    sp = nlp.data.SentencepieceTokenizer(model)
    pieces = sp('the cat ran')
    assert pieces and pieces[0].startswith('\u2581')
    assert nlp.data.SentencepieceDetokenizer(model)(pieces) == 'the cat ran'
    vocab = nlp.Vocab(nlp.data.count_tokens(sp.tokens))
    bsp = nlp.data.BERTSPTokenizer(model, vocab, lower=True)
    assert bsp('The CAT, ran') == sp('the') + sp('cat') + sp(',') + sp('ran')
    assert bsp.convert_tokens_to_ids(bsp('the')) == vocab[sp('the')]


def test_registry():
    @nlp.data.register(segment=['train', 'test'])
    class TinyCorpus(mx.gluon.data.SimpleDataset):
        def __init__(self, segment='train'):
            super().__init__([segment])
    assert list(nlp.data.create('tinycorpus', segment='test')) == ['test']
    assert nlp.data.list_datasets('TinyCorpus') == {'segment': ['train', 'test']}
    with pytest.raises(ValueError, match='not an argument of'):
        nlp.data.register(split=['a'])(TinyCorpus)
    with pytest.raises(ValueError, match='no dataset named'):
        nlp.data.create('nope')


def test_bad_data_inputs_say_what_to_do(job, tmp_path):
    with pytest.raises(ValueError, match=r'sample 2 has 2 field\(s\).*allow_missing=True'):
        nlp.data.TSVDataset(job['tsv_bad'], field_indices=[2])
    with pytest.raises(ValueError, match='does not exist'):
        nlp.data.TSVDataset(str(tmp_path / 'missing.tsv'))
    with pytest.raises(ValueError, match='length=2 needs to be larger than overlap=2'):
        nlp.data.slice_sequence([1, 2, 3], 2, overlap=2)
    with pytest.raises(ValueError, match='valid_ratio'):
        nlp.data.train_valid_split([1, 2], valid_ratio=2)
    with pytest.raises(ValueError, match='padding_token'):
        nlp.data.batchify.CorpusBPTTBatchify(nlp.Vocab(padding_token=None), 3, 2)
    with pytest.raises(ValueError, match='no file matches'):
        nlp.data.SimpleDatasetStream(nlp.data.TextLineDataset, str(tmp_path / 'none*.txt'))
    with pytest.raises(ValueError, match='pair=False'):
        tok = nlp.data.BERTTokenizer(nlp.vocab.BERTVocab(nlp.data.count_tokens(['a'])))
        nlp.data.BERTSentenceTransform(tok, 8)(('a',))
    with pytest.raises(ValueError, match='unknown token.*unknown_token='):
        nlp.data.BERTTokenizer(nlp.Vocab(nlp.data.count_tokens(['a']), unknown_token=None))
    with pytest.raises(ValueError, match=r'does not name \(cls_token, sep_token\).*BERTVocab'):
        nlp.data.BERTTokenizer(nlp.Vocab(nlp.data.count_tokens(['a']))).encode('a')
    with pytest.raises(ValueError, match='does not exist'):
        nlp.data.SentencepieceTokenizer(str(tmp_path / 'no.model'))
    with pytest.raises(ValueError, match='part_index'):
        nlp.data.SplitSampler(5, 2, part_index=2)
