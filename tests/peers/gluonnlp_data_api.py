"""(peers venv) GluonNLP 0.10's gluonnlp.data and gluonnlp.vocab on the inputs the test passes (a JSON object: word
lists, texts and the paths of files it wrote into OUT); prints one JSON object of what GluonNLP returns."""
import json
import sys

import mxnet as mx
import numpy as np

import gluonnlp as nlp

from calls_json import lists


def vocab_part(j):
    words = j['words']
    counter = nlp.data.count_tokens(words)
    out = {'counter': sorted(counter.items()), 'counter_type': type(counter).__name__,
           'discard': sorted(counter.discard(2, '<unk>').items())}
    v = nlp.Vocab(counter, 4, 1, '<unk>', '<p>', None, '<e>', ['<r>'])
    out['positional'] = v.idx_to_token
    v = nlp.Vocab(counter, cls_token='<cls>', sep_token='<sep>', reserved_tokens=['<r>'])
    out['named'] = {'idx_to_token': v.idx_to_token, 'reserved': v.reserved_tokens, 'cls': v.cls_token,
                    'indices': v.to_indices(j['probe']), 'call': v(j['probe'][0]), 'item': v[j['probe']],
                    'tokens': v.to_tokens([1, 2, 3]), 'one': v.to_tokens(4), 'repr': repr(v),
                    'json': v.to_json()}
    v = nlp.Vocab(counter, min_freq=2, unknown_token=None, padding_token=None, bos_token=None, eos_token=None,
                  token_to_idx={words[0]: 0})
    out['moved'] = v.idx_to_token
    b = nlp.vocab.BERTVocab(counter)
    out['bert'] = b.idx_to_token
    emb = nlp.embedding.TokenEmbedding(unknown_token='<unk>', idx_to_token=j['emb_tokens'],
                                       idx_to_vec=mx.nd.array(j['emb_vecs']))
    v = nlp.Vocab(counter)
    v.set_embedding(emb, emb)
    out['set_embedding'] = v.embedding.idx_to_vec.asnumpy().tolist()
    out['set_embedding_lookup'] = v.embedding[j['probe']].asnumpy().tolist()
    ng = nlp.vocab.NGramHashes(num_subwords=j['buckets'], special_tokens={'<unk>'})
    out['ngrams'] = [[int(h) for h in hs] for hs in ng(j['probe'] + ['<unk>'])]
    out['ngrams_2'] = [[int(h) for h in hs] for hs in nlp.vocab.create_subword_function(
        'NGramHashes', num_subwords=97, ngrams=[1, 2])(j['probe'])]
    out['subwords_to_indices'] = [int(h) for h in ng.subwords_to_indices(['<he', 'llo>', 'é'])]
    out['bytes'] = nlp.vocab.ByteSubwords()(j['probe'])
    out['subword_names'] = sorted(nlp.vocab.list_subword_functions())
    elmo = nlp.vocab.ELMoCharVocab()
    out['elmo'] = elmo[['<bos>', 'hé', '<eos>', 'x' * 60]]
    out['elmo_len'] = len(elmo)
    return out


def data_part(j, out_dir):
    out = {'concat': nlp.data.concat_sequence(j['seqs']),
           'slice': [nlp.data.slice_sequence(list(range(j['n'])), length, pad_last=pad, pad_val=-1, overlap=ov)
                     for length, pad, ov in j['slices']]}
    tsv = nlp.data.TSVDataset(j['tsv'], num_discard_samples=1, field_indices=[2, 0])
    out['tsv'] = list(tsv)
    out['tsv_all'] = list(nlp.data.TSVDataset(j['tsv'], num_discard_samples=1))
    out['tsv_missing'] = list(nlp.data.TSVDataset(j['tsv_bad'], field_indices=[2], allow_missing=True))
    out['corpus'] = list(nlp.data.CorpusDataset(j['corpus'], bos='<bos>', eos='<eos>'))
    out['corpus_flat'] = list(nlp.data.CorpusDataset(j['corpus'], flatten=True, eos='<eos>'))
    out['corpus_keep_empty'] = list(nlp.data.CorpusDataset(j['corpus'], skip_empty=False))
    out['lines'] = list(nlp.data.TextLineDataset(j['corpus']))
    np.random.seed(7)
    train, valid = nlp.data.train_valid_split(list(range(20)), valid_ratio=0.2)
    out['split'] = [list(train), list(valid)]
    np.random.seed(7)
    labels = [i % 3 for i in range(20)]
    train, valid = nlp.data.train_valid_split(list(range(20)), valid_ratio=0.25, stratify=labels)
    out['split_stratified'] = [list(train), list(valid)]
    out['clip'] = nlp.data.ClipSequence(3)(j['seqs'][0])
    out['pad'] = [nlp.data.PadSequence(6, pad_val=-1)(list(range(3))), nlp.data.PadSequence(2)(list(range(3))),
                  nlp.data.PadSequence(2, clip=False)(list(range(3))),
                  lists(nlp.data.PadSequence(4, pad_val=9)(np.ones((2, 2), dtype='int32'))),
                  lists(nlp.data.PadSequence(4, pad_val=9)(mx.nd.ones((2,), dtype='float16')))]
    out['basic'] = [nlp.data.BERTBasicTokenizer(lower=lower)(t) for t in j['texts'] for lower in (True, False)]
    bert_vocab = nlp.vocab.BERTVocab(nlp.data.count_tokens(j['wordpieces']))
    tok = nlp.data.BERTTokenizer(bert_vocab, lower=True)
    out['wordpiece'] = [tok(t) for t in j['texts']]
    # over a plain Vocab (no cls/sep/mask tokens), and the tokenizers' helpers code written for GluonNLP calls
    plain = nlp.Vocab(nlp.data.count_tokens(j['wordpieces']), reserved_tokens=['[CLS]', '[SEP]'],
                      unknown_token='[UNK]', padding_token=None, bos_token=None, eos_token=None)
    out['wordpiece_plain'] = [nlp.data.BERTTokenizer(plain, lower=True)(t) for t in j['texts']]
    out['first_subword'] = [nlp.data.BERTTokenizer.is_first_subword(t) for t in j['wordpieces']]
    basic = nlp.data.BERTBasicTokenizer()
    out['char_predicates'] = [[basic._is_whitespace(c), basic._is_control(c), basic._is_punctuation(c)]
                              for c in j['chars']]
    pair = nlp.data.BERTSentenceTransform(tok, 12, pad=True, pair=True)
    single = nlp.data.BERTSentenceTransform(tok, 8, pad=False, pair=False)
    out['sentence_pair'] = [lists(pair((a, b))) for a, b in zip(j['texts'], j['texts'][1:])]
    out['sentence_single'] = [lists(single((t,))) for t in j['texts']]
    # language-model batchify over the words, with the vocabulary of the words
    v = nlp.Vocab(nlp.data.count_tokens(j['words']))
    out['corpus_batchify'] = [lists(x) for x in nlp.data.batchify.CorpusBatchify(v, 3)(j['words'])]
    for last in ('keep', 'discard'):
        bptt = nlp.data.batchify.CorpusBPTTBatchify(v, 3, 2, last_batch=last)(j['words'])
        out['bptt_' + last] = [lists(list(x)) for x in bptt]
    out['sorted'] = list(nlp.data.SortedSampler(j['lengths']))
    out['sorted_up'] = list(nlp.data.SortedSampler(j['lengths'], reverse=False))
    out['split_sampler'] = [list(nlp.data.SplitSampler(len(j['lengths']), 3, k, shuffle=False, repeat=2))
                            for k in range(3)]
    out['split_sampler_len'] = [len(nlp.data.SplitSampler(len(j['lengths']), 3, k, even_size=True))
                                for k in range(3)]
    schemes = {'const': nlp.data.ConstWidthBucket(), 'linear': nlp.data.LinearWidthBucket(),
               'exp': nlp.data.ExpWidthBucket(bucket_len_step=1.5)}
    out['buckets'] = {k: [list(b) for b in nlp.data.FixedBucketSampler(j['lengths'], 2, num_buckets=3,
                                                                        bucket_scheme=s)]
                      for k, s in schemes.items()}
    stream = nlp.data.SimpleDataStream([(1, 2), (3, 4)]).transform(lambda a, b: a + b)
    out['stream'] = list(stream)
    out['prefetch'] = list(nlp.data.PrefetchingStream(nlp.data.SimpleDataStream(range(5))))
    files = nlp.data.SimpleDatasetStream(nlp.data.TextLineDataset, j['pattern'], file_sampler='sequential')
    out['dataset_stream'] = [list(d) for d in files]
    return out


def main(out_dir, j):
    parts = {'vocab': vocab_part, 'data': lambda j: data_part(j, out_dir)}
    print(json.dumps({k: parts[k](j) for k in j['parts']}))


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
