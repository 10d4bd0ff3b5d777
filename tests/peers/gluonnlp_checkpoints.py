"""(peers venv) GluonNLP's own checkpoints and vocabularies, small, in its mirror layout; and its model-store tables.

argv: OUT and a JSON job list. A job {'tables': true} writes OUT/tables.json: gluonnlp's `_model_sha1` entries of the
archs its get_model knows, `_vocab_sha1`, and the URL and zip member it would fetch for each (its own formats).
A job {case, arch, dataset, vocab: 'bert'|'plain', kwargs, load_kwargs, texts} makes a checkpoint: the dataset's
vocabulary (two for the transformer, `_src`/`_tgt`) is written as `{name}-{sha1[:8]}.vocab` and entered into
gluonnlp's table; the model is built by `nlp.model.get_model(arch, dataset_name=...)` (tiny hparams, random weights
incl. LayerNorm scales and shifts) and saved as `{arch}_{dataset}-{sha1[:8]}.params`, entered into the model store;
then it is loaded back by gluonnlp itself, `get_model(..., pretrained=True, root=OUT/root, **load_kwargs)`, and that
model's outputs on seeded inputs are the reference (OUT/<case>.npz, the vocab JSON it returned in
OUT/<case>.vocab<i>.json, the tokens of `texts` by its BERTTokenizer in OUT/<case>.tokens.json). Every file is also
zipped where the mirror has it: OUT/mirror/gluon/models/... and OUT/mirror/gluon/dataset/vocab/....
A job {spiece: FILE, special, sentencepiece_path} writes OUT/FILE.json: gluonnlp's
BERTVocab.from_sentencepiece(OUT/FILE, **special), importing sentencepiece from sentencepiece_path if need be.
Prints one JSON line {case: {'params_sha1', 'vocab_sha1s'}}.
"""
import hashlib
import inspect
import json
import os
import re
import sys
import zipfile

import mxnet as mx
import numpy as np
import gluonnlp as nlp
from gluonnlp.data import utils as data_utils
from mxnet.gluon.model_zoo import model_store

WORDS = ('the quick brown fox jumps over a lazy dog and then runs far away from it jump ##s ##ed ##ing un ##able '
         'cafe . , ! 北 京').split()


def _sha1(path):
    with open(path, 'rb') as f:
        return hashlib.sha1(f.read()).hexdigest()


def _zip(out, folder, path):
    os.makedirs(os.path.join(out, 'mirror', folder), exist_ok=True)
    stem = os.path.splitext(os.path.basename(path))[0]
    with zipfile.ZipFile(os.path.join(out, 'mirror', folder, stem + '.zip'), 'w') as zf:
        zf.write(path, os.path.basename(path))


def _vocab(out, root, name, kind):
    counter = nlp.data.count_tokens(WORDS + WORDS[:5])
    vocab = nlp.vocab.BERTVocab(counter) if kind == 'bert' else nlp.Vocab(counter)
    tmp = os.path.join(root, name + '.tmp')
    with open(tmp, 'w') as f:
        f.write(vocab.to_json())
    sha = _sha1(tmp)
    path = os.path.join(root, f'{name}-{sha[:8]}.vocab')
    os.replace(tmp, path)
    data_utils._vocab_sha1[name] = [sha, '.vocab', {}]
    _zip(out, 'gluon/dataset/vocab', path)
    return sha


def _randomize(net, args):
    net.initialize(mx.init.Normal(0.3))
    net(*args)
    for name, p in net.collect_params().items():
        if name.endswith(('gamma', 'beta', 'bias')):
            lo = 0.5 if name.endswith('gamma') else -0.5
            p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))


def _inputs(arch, vocab_size, heads):
    np.random.seed(0)
    batch, length = 2, 7
    ids = mx.nd.array(np.random.randint(0, vocab_size, size=(batch, length)).astype('float32'))
    if arch.startswith('standard_') or arch.startswith('awd_'):
        return (mx.nd.array(np.random.randint(0, vocab_size, size=(length, batch)).astype('float32')),)
    if arch.startswith('transformer_'):
        tgt = mx.nd.array(np.random.randint(0, vocab_size, size=(batch, 5)).astype('float32'))
        return ids, tgt, mx.nd.array([length, 4]), mx.nd.array([5, 3])
    types = mx.nd.array(np.random.randint(0, 2, size=(batch, length)).astype('float32'))
    args = (ids, types, mx.nd.array([length, 4]))
    return args + (mx.nd.array([[0, 3], [1, 2]]),) if heads else args


def _flatten(out):
    return [y for o in out for y in _flatten(o)] if isinstance(out, (list, tuple)) else [out]


def make(out, job):
    root = os.path.join(out, 'root')
    os.makedirs(root, exist_ok=True)
    arch, ds, kw = job['arch'], job['dataset'], job['kwargs']
    names = [ds + '_src', ds + '_tgt'] if arch.startswith('transformer_') else [ds]
    shas = [_vocab(out, root, n, job['vocab']) for n in names]
    mx.random.seed(0)
    got = nlp.model.get_model(arch, dataset_name=ds, pretrained=False, root=root, hparam_allow_override=True, **kw)
    net, vocabs = got[0], got[1:]
    _randomize(net, _inputs(arch, len(vocabs[0]), True))
    tmp = os.path.join(root, 'net.params')
    net.save_parameters(tmp)
    sha = _sha1(tmp)
    path = os.path.join(root, f'{arch}_{ds}-{sha[:8]}.params')
    os.replace(tmp, path)
    model_store._model_sha1[f'{arch}_{ds}'] = sha
    _zip(out, 'gluon/models', path)
    # the reference: what gluonnlp itself loads from those files
    load = job.get('load_kwargs', {})
    got = nlp.model.get_model(arch, dataset_name=ds, pretrained=True, root=root, hparam_allow_override=True,
                              **kw, **load)
    net, vocabs = got[0], got[1:]
    heads = load.get('use_decoder', True) and load.get('use_classifier', True)
    args = _inputs(arch, len(vocabs[0]), heads)
    ys = _flatten(net(*args))
    np.savez(os.path.join(out, job['case'] + '.npz'), *[a.asnumpy() for a in args],
             **{f'y{i}': y.asnumpy() for i, y in enumerate(ys)})
    for i, v in enumerate(vocabs):
        with open(os.path.join(out, f'{job["case"]}.vocab{i}.json'), 'w') as f:
            f.write(v.to_json())
    if job.get('texts'):
        tokens = {str(lower): [nlp.data.BERTTokenizer(vocabs[0], lower=lower)(t) for t in job['texts']]
                  for lower in (True, False)}
        with open(os.path.join(out, job['case'] + '.tokens.json'), 'w') as f:
            json.dump(tokens, f)
    return {'params_sha1': sha, 'vocab_sha1s': shas}


def tables(out):
    archs = re.findall(r"'(\w+)'\s*:", inspect.getsource(nlp.model.get_model))
    repo = mx.gluon.utils._get_repo_url()
    models = {}
    for name, sha in model_store._model_sha1.items():
        arch = max((a for a in archs if name.startswith(a + '_')), key=len, default=None)
        if arch:
            stem = f'{name}-{sha[:8]}'
            models[name] = {'arch': arch, 'dataset': name[len(arch) + 1:], 'sha1': sha, 'member': stem + '.params',
                            'url': model_store._url_format.format(repo_url=repo, file_name=stem)}
    vocabs = {}
    for name, (sha, ext, special) in data_utils._vocab_sha1.items():
        stem = f'{name}-{data_utils.short_hash(name)}'
        vocabs[name] = {'sha1': sha, 'ext': ext, 'special_tokens': special, 'member': stem + ext,
                        'url': data_utils._url_format.format(repo_url=repo, file_name=stem)}
    with open(os.path.join(out, 'tables.json'), 'w') as f:
        json.dump({'archs': archs, 'models': models, 'vocabs': vocabs}, f)


def main(out, jobs):
    done = {}
    for job in jobs:
        if job.get('tables'):
            tables(out)
        elif job.get('spiece'):  # KoBERT's kind of vocabulary: a SentencePiece model read as a BERTVocab
            sys.path.append(job['sentencepiece_path'])  # `make peers` installs no sentencepiece: the test lends one
            vocab = nlp.vocab.BERTVocab.from_sentencepiece(os.path.join(out, job['spiece']), **job['special'])
            with open(os.path.join(out, job['spiece'] + '.json'), 'w') as f:
                f.write(vocab.to_json())
        else:
            done[job['case']] = make(out, job)
    print(json.dumps(done))


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
