"""(peers venv) For each job {name, op, ...} run gluonnlp.embedding on the files in OUT and write what it sees to
OUT/<name>.json: tokens, vectors and lookups of a loaded file (text, .npz, word2vec .bin), the outcome of updates,
the evaluation blocks' outputs, and GluonNLP's source tables."""
import json
import os
import sys

import mxnet as mx

import gluonnlp as nlp
from gluonnlp import _constants as C


def seen(emb, probe):
    return {'idx_to_token': emb.idx_to_token, 'unknown_token': emb.unknown_token,
            'idx_to_vec': emb.idx_to_vec.asnumpy().tolist(), 'probe': emb[probe].asnumpy().tolist(),
            'contains': [t in emb for t in probe]}


def run(out, job):
    op = job['op']
    path = os.path.join(out, job.get('file', ''))
    kw = job.get('kwargs', {})
    if op == 'from_file':
        emb = nlp.embedding.TokenEmbedding.from_file(path, **kw)
        if job.get('serialize'):
            emb.serialize(os.path.join(out, job['serialize']))
        return seen(emb, job['probe'])
    if op == 'deserialize':
        return seen(nlp.embedding.TokenEmbedding.deserialize(path), job['probe'])
    if op == 'w2v_bin':
        return seen(nlp.embedding.Word2Vec(source=path, **kw), job['probe'])
    if op == 'vocab':
        vocab = nlp.Vocab(nlp.data.count_tokens(job['tokens']))
        vocab.set_embedding(nlp.embedding.TokenEmbedding.from_file(path))
        return vocab.embedding.idx_to_vec.asnumpy().tolist()
    if op == 'setitem':
        emb = nlp.embedding.TokenEmbedding(**kw)
        for tokens, vecs in job['updates']:
            emb[tokens] = mx.nd.array(vecs)
        return seen(emb, job['probe'])
    if op == 'similarity':
        vec = mx.nd.array(job['idx_to_vec'])
        blk = nlp.embedding.evaluation.WordEmbeddingSimilarity(vec, **kw)
        blk.initialize()
        return blk(mx.nd.array(job['w1']), mx.nd.array(job['w2'])).asnumpy().tolist()
    if op == 'analogy':
        vec = mx.nd.array(job['idx_to_vec'])
        blk = nlp.embedding.evaluation.WordEmbeddingAnalogy(vec, **kw)
        blk.initialize()
        return blk(*[mx.nd.array(job[w]) for w in ('w1', 'w2', 'w3')]).asnumpy().tolist()
    if op == 'lists':
        return {'sources': nlp.embedding.list_sources(),
                'functions': nlp.embedding.evaluation.list_evaluation_functions(),
                'tables': {'glove': C.GLOVE_NPZ_SHA1, 'fasttext': C.FAST_TEXT_NPZ_SHA1,
                           'fasttext.bin': C.FAST_TEXT_BIN_SHA1, 'word2vec': C.WORD2VEC_NPZ_SHA1}}
    raise ValueError(op)


def main(out, jobs):
    for job in jobs:
        try:
            result = {'ok': run(out, job)}
        except Exception as e:  # the peer's error type is part of what is compared
            result = {'error': type(e).__name__}
        with open(os.path.join(out, job['name'] + '.json'), 'w') as f:
            json.dump(result, f)
        print(job['name'], list(result), flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
