"""(peers venv) GluonNLP 0.10's DatasetLoader, ShardedDataLoader, UnigramCandidateSampler,
EmbeddingCenterContextBatchify and fast_bert_tokenizer on the job's files and inputs; write OUT/extras.json.
One job: {files, loader_cases, sharded_cases, sampler_cases, embedding_cases, texts, vocab, words, codepoint_ranges}."""
import json
import os
import random
import sys

import mxnet as mx
import numpy as np
import gluonnlp as nlp
from gluonnlp.data import fast_bert_tokenizer as fbt
from gluonnlp.data.batchify import EmbeddingCenterContextBatchify

from calls_json import dataset_fn, lists


def batch_sampler_fn(dataset, batch_size, num_shards=0):
    return nlp.data.FixedBucketSampler([1] * len(dataset), batch_size=batch_size, num_buckets=1, shuffle=False,
                                       num_shards=num_shards)


def loader(job, case):
    dl = nlp.data.DatasetLoader(job['pattern'], case['order'], dataset_fn=dataset_fn,
                                batch_sampler_fn=batch_sampler_fn, batch_sampler_params=case['sampler'],
                                num_dataset_workers=case['workers'], num_batch_workers=case['workers'],
                                circle_length=case['circle'], pin_memory=case.get('pin', False))
    return [lists(b) for b in dl]


def sharded(job, case):
    dataset = mx.gluon.data.ArrayDataset(np.array(job['x'], 'float32'), np.array(job['y'], 'int64'))
    kw = dict(case['kwargs'])
    if 'shards' in case:
        kw['batch_sampler'] = nlp.data.FixedBucketSampler([1] * len(dataset), batch_size=2, num_buckets=1,
                                                          shuffle=False, num_shards=case['shards'])
    np.random.seed(case.get('seed', 0))
    dl = nlp.data.ShardedDataLoader(dataset, **kw)
    return {'len': len(dl), 'epochs': [[lists(b) for b in dl] for _ in range(case.get('epochs', 1))]}


def candidates(case):
    s = nlp.data.UnigramCandidateSampler(mx.nd.array(case['weights']), dtype=case['dtype'])
    s.initialize()
    if case.get('hybridize'):
        s.hybridize()
    mx.random.seed(case['seed'])
    draws = s(mx.nd.zeros(tuple(case['shape'])))
    params = {k[len(s.prefix):]: v.data().asnumpy().tolist() for k, v in s.collect_params().items()}
    return {'draws': lists(draws), 'params': params, 'repr': repr(s)}


class _SentenceFix:
    """numpy, but searchsorted(side='right'): GluonNLP's _get_context looks a center up with side='left', so the
    first word of each sentence after the first is taken for the previous sentence's last (its contexts then come
    from that sentence). gluonzoo keeps contexts inside sentences, as GluonNLP documents; the patched peer is the
    reference for everything else."""

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def searchsorted(a, v):
        return np.searchsorted(a, v, side='right')


def embedding(job, case, fixed):
    from gluonnlp.data.batchify import embedding as module
    module.np = _SentenceFix() if fixed else np
    random.seed(case['seed'])
    batches = EmbeddingCenterContextBatchify(**case['kwargs'])(job[case['corpus']])
    out = [[lists(center), lists(list(context))] for center, context in batches]
    module.np = np
    return out


def main(out, jobs):
    job, = jobs
    res = {'loader': [loader(job, c) for c in job['loader_cases']],
           'sharded': [sharded(job, c) for c in job['sharded_cases']],
           'sampler': [candidates(c) for c in job['sampler_cases']],
           'embedding': [embedding(job, c, True) for c in job['embedding_cases']],
           'embedding_as_is': [embedding(job, c, False) for c in job['embedding_cases']]}
    try:
        nlp.data.UnigramCandidateSampler(mx.nd.ones(2049), dtype='float16')
    except ValueError as e:
        res['fp16_error'] = str(e)
    basic, cased = fbt.BasicTokenizer(lower=True), fbt.BasicTokenizer(lower=False)
    wordpiece = fbt.WordpieceTokenizer(set(job['vocab']), unk_token='<unk>', max_input_chars_per_word=12)
    res['basic'] = [[basic.tokenize(t), cased.tokenize(t)] for t in job['texts']]
    res['wordpiece'] = [wordpiece.tokenize(t) for t in job['words']]
    res['whitespace'] = [fbt.whitespace_tokenize(t) for t in job['texts']]
    import unicodedata
    chars = [chr(c) for r in job['codepoint_ranges'] for c in range(*r)]
    res['predicates'] = {
        'punctuation': [fbt.is_punctuation(c, unicodedata.category(c)) for c in chars],
        'control': [fbt.is_control(c, unicodedata.category(c)) for c in chars],
        'whitespace': [fbt.is_whitespace(c, unicodedata.category(c)) for c in chars],
        'chinese': [fbt.is_chinese_char(c) for c in chars]}
    with open(os.path.join(out, 'extras.json'), 'w') as f:
        json.dump(res, f)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
    sys.stdout.flush()
    # GluonNLP's loaders leave worker pools to the interpreter's exit, whose teardown can hang
    # (bugs.python.org/issue34172; the peer run once timed out under make test's load): the results are written
    os._exit(0)
