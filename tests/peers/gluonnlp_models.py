"""(peers venv) For each job {name, kind, kwargs}: build the GluonNLP 0.10.0 model with a small vocabulary and random
weights (random LayerNorm scales and shifts too, so a mixed-up LayerNorm shows), save its parameters, seeded inputs
and every output to OUT/<name>.params and OUT/<name>.npz.
kind: 'bert' | 'roberta' | 'distilbert' | 'classifier' | 'lm' | 'nmt'.
Also writes OUT/vocab.json from gluonnlp's Vocab.to_json and OUT/bertvocab.json from BERTVocab.to_json."""
import json
import os
import sys

import mxnet as mx
import numpy as np
import gluonnlp as nlp

WORDS = 'the quick brown fox jumps over a lazy dog and then runs far away from it'.split()


def _randomize(net, x_args):
    net.initialize(mx.init.Normal(0.3))
    net(*x_args)  # settle deferred shapes
    for pname, p in net.collect_params().items():
        if pname.endswith(('gamma', 'beta', 'bias')):
            lo = 0.5 if pname.endswith('gamma') else -0.5
            p.set_data(mx.nd.array(np.random.uniform(lo, lo + 1.0, size=p.shape).astype('float32')))


def _flatten(out):
    if isinstance(out, (list, tuple)):
        return [y for o in out for y in _flatten(o)]
    return [out]


def main(out, jobs):
    counter = nlp.data.count_tokens(WORDS + WORDS[:5])
    vocab = nlp.Vocab(counter)
    bert_vocab = nlp.vocab.BERTVocab(counter)
    with open(os.path.join(out, 'vocab.json'), 'w') as f:
        f.write(vocab.to_json())
    with open(os.path.join(out, 'bertvocab.json'), 'w') as f:
        f.write(bert_vocab.to_json())
    for job in jobs:
        name, kind, kw = job['name'], job['kind'], job['kwargs']
        mx.random.seed(0)
        np.random.seed(0)
        batch, length = 2, 7
        ids = mx.nd.array(np.random.randint(0, len(vocab), size=(batch, length)).astype('float32'))
        types = mx.nd.array(np.random.randint(0, 2, size=(batch, length)).astype('float32'))
        valid = mx.nd.array([length, 4])
        masked = mx.nd.array([[0, 3], [1, 2]])
        if kind == 'nmt':  # transformer_en_de_512 needs a dataset name, so build it as that builder does
            from gluonnlp.model.transformer import get_transformer_encoder_decoder
            from gluonnlp.model.translation import NMTModel
            enc, dec, one = get_transformer_encoder_decoder(dropout=0.1, max_src_length=530, max_tgt_length=549,
                                                            scaled=True, **kw)
            net = NMTModel(src_vocab=vocab, tgt_vocab=vocab, encoder=enc, decoder=dec, one_step_ahead_decoder=one,
                           share_embed=True, embed_size=kw['units'], tie_weights=True, embed_initializer=None,
                           prefix='transformer_')
            tgt = mx.nd.array(np.random.randint(0, len(vocab), size=(batch, 5)).astype('float32'))
            args = (ids, tgt, valid, mx.nd.array([5, 3]))
        elif kind == 'lm':  # time-major ids, as GluonNLP's language models take them
            net, _ = nlp.model.get_model(job['arch'], vocab=vocab, pretrained=False, hparam_allow_override=True,
                                         **kw)
            args = (mx.nd.array(np.random.randint(0, len(vocab), size=(length, batch)).astype('float32')),)
        elif kind in ('bert', 'classifier'):
            net, _ = nlp.model.get_model(job['arch'], vocab=bert_vocab, pretrained=False, hparam_allow_override=True,
                                         use_decoder=kind == 'bert', use_classifier=kind == 'bert', **kw)
            if kind == 'classifier':
                net = nlp.model.BERTClassifier(net, num_classes=3, dropout=0.1)
                args = (ids, types, valid)
            else:
                args = (ids, types, valid, masked)
        elif kind == 'roberta':
            net, _ = nlp.model.get_model(job['arch'], vocab=vocab, pretrained=False, hparam_allow_override=True, **kw)
            args = (ids, valid, masked)
        else:  # distilbert defaults dataset_name to its own corpus, whose vocab would be downloaded
            net, _ = nlp.model.get_model(job['arch'], dataset_name=None, vocab=vocab, pretrained=False,
                                         hparam_allow_override=True, **kw)
            args = (ids, valid)
        _randomize(net, args)
        ys = _flatten(net(*args))
        net.save_parameters(os.path.join(out, f'{name}.params'))
        np.savez(os.path.join(out, f'{name}.npz'), *[a.asnumpy() for a in args],
                 **{f'y{i}': y.asnumpy() for i, y in enumerate(ys)})
        print(name, len(bert_vocab), len(vocab), flush=True)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
