"""(peers venv) GluonNLP 0.10.0's ELMo biLM and big LSTMP LM, for each job {name, kind, kwargs}: build the model
with random weights, save its parameters, seeded inputs and every output (then every state) to OUT/<name>.params
and OUT/<name>.npz. kind: 'elmo' (ELMoBiLM with the hyper-parameters gluonnlp's builder `arch` passes, updated with
kwargs: the builders refuse reduced sizes), 'elmo_mask' (the same,
called with a mask, lengths 4 and 2, saved as arr_1), 'bigrnn' (big_rnn_lm_2048_512 with hparam_allow_override and the
vocab of gluonnlp_models.py), or anything gluonnlp_models.py takes (it runs those jobs, writing its vocab JSON too).
Also writes OUT/hparams.json: {arch: the hyper-parameters gluonnlp's builder uses} for ELMo, the big LM and ERNIE.
"""
import json
import os
import sys

import mxnet as mx
import numpy as np
import gluonnlp as nlp
from gluonnlp.model import elmo

import gluonnlp_models as base


ELMO = ('elmo_2x1024_128_2048cnn_1xhighway', 'elmo_2x2048_256_2048cnn_1xhighway', 'elmo_2x4096_512_2048cnn_2xhighway')


def elmo_hparams(arch):
    """The keyword arguments gluonnlp's ELMo builder gives ELMoBiLM (its table is local to the builder), with the
    char_vocab_size its _get_elmo_model adds."""
    seen = {}
    real = elmo._get_elmo_model
    elmo._get_elmo_model = lambda model_cls, *a, **kw: seen.update(kw)
    try:
        getattr(elmo, arch)()
    finally:
        elmo._get_elmo_model = real
    return dict(seen, char_vocab_size=len(nlp.vocab.ELMoCharVocab()))


def _run(out, job):
    name, kind, kw = job['name'], job['kind'], job['kwargs']
    mx.random.seed(0)
    np.random.seed(0)
    batch, length = 2, 5
    if kind.startswith('elmo'):
        net = elmo.ELMoBiLM(**dict(elmo_hparams(job['arch']), **kw))
        chars = np.random.randint(0, len(nlp.vocab.ELMoCharVocab()), size=(batch, length, net._max_chars_per_token))
        args = [mx.nd.array(chars.astype('float32'))]
        states = net.begin_state(mx.nd.zeros, batch_size=batch)
        call = [args[0], states]
        if kind == 'elmo_mask':  # saved as arr_1; gluonzoo's call is (inputs, None, mask)
            args.append(mx.nd.array([[1] * 4 + [0], [1] * 2 + [0] * 3]))
            call.append(args[-1])
    else:
        vocab = nlp.Vocab(nlp.data.count_tokens(base.WORDS + base.WORDS[:5]))
        net, _ = nlp.model.get_model('big_rnn_lm_2048_512', vocab=vocab, pretrained=False,
                                     hparam_allow_override=True, **kw)
        args = [mx.nd.array(np.random.randint(0, len(vocab), size=(length, batch)).astype('float32'))]
        call = [args[0], net.begin_state(batch_size=batch, func=mx.nd.zeros)]
    base._randomize(net, call)
    if kind.startswith('elmo'):  # its encoder writes the final states into the lists it was given: fresh zeros
        call[1] = net.begin_state(mx.nd.zeros, batch_size=batch)
    ys = base._flatten(net(*call))
    net.save_parameters(os.path.join(out, f'{name}.params'))
    np.savez(os.path.join(out, f'{name}.npz'), *[a.asnumpy() for a in args],
             **{f'y{i:02d}': y.asnumpy() for i, y in enumerate(ys)})
    print(name, flush=True)


def main(out, jobs):
    hparams = {a: elmo_hparams(a) for a in ELMO}
    hparams['big_rnn_lm_2048_512'] = nlp.model.language_model.big_rnn_lm_hparams['big_rnn_lm_2048_512']
    hparams['ernie_12_768_12'] = nlp.model.bert.bert_hparams['ernie_12_768_12']
    with open(os.path.join(out, 'hparams.json'), 'w') as f:
        json.dump(hparams, f)
    ours = [j for j in jobs if j['kind'] in ('elmo', 'elmo_mask', 'bigrnn')]
    base.main(out, [j for j in jobs if j not in ours])
    for job in ours:
        _run(out, job)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
