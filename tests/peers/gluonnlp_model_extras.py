"""(peers venv) GluonNLP 0.10's ConvolutionalEncoder, LSTMPCellWithClip and RoBERTaClassifier with seeded random
weights: each case's parameters to OUT/<case>.params, its inputs and outputs to OUT/<case>.npz (arr_i, y_i).
One job: {conv_cases: {case: kwargs}, lstmp_cases: {case: kwargs}, roberta: kwargs (a small roberta_12_768_12)}."""
import json
import os
import sys

import mxnet as mx
import numpy as np
import gluonnlp as nlp


def _flatten(out):
    if isinstance(out, (list, tuple)):
        return [y for o in out for y in _flatten(o)]
    return [out]


def _save(out, case, net, args):
    net.initialize(mx.init.Normal(0.5))
    net(*args)
    for p in net.collect_params().values():  # random biases too, so a missing one shows
        p.set_data(mx.nd.array(np.random.normal(0, 0.5, size=p.shape).astype('float32')))
    ys = _flatten(net(*args))
    net.save_parameters(os.path.join(out, f'{case}.params'))
    np.savez(os.path.join(out, f'{case}.npz'), *[a.asnumpy() for a in args],
             **{f'y{i}': y.asnumpy() for i, y in enumerate(ys)})


def main(out, job):
    for case, kw in job['conv_cases'].items():
        np.random.seed(0)
        kw = dict(kw)
        masked = kw.pop('masked', False)
        if 'highway_bias' in kw:
            kw['highway_bias'] = nlp.initializer.HighwayBias(*kw['highway_bias'])
        net = nlp.model.ConvolutionalEncoder(**kw)
        x = mx.nd.array(np.random.normal(size=(9, 3, kw.get('embed_size', 15))))
        args = (x, mx.nd.array(np.random.randint(0, 2, size=(9, 3)))) if masked else (x,)
        _save(out, case, net, args)
    for case, kw in job['lstmp_cases'].items():
        np.random.seed(1)
        cell = nlp.model.LSTMPCellWithClip(**kw)
        x = mx.nd.array(np.random.normal(size=(4, 2, kw['input_size'])))  # TNC
        cell.initialize(mx.init.Normal(0.5))
        for p in cell.collect_params().values():
            p.set_data(mx.nd.array(np.random.normal(0, 0.8, size=p.shape).astype('float32')))
        outputs, states = cell.unroll(4, x, layout='TNC', merge_outputs=True)
        cell.save_parameters(os.path.join(out, f'{case}.params'))
        np.savez(os.path.join(out, f'{case}.npz'), x.asnumpy(), y0=outputs.asnumpy(), y1=states[0].asnumpy(),
                 y2=states[1].asnumpy())
    np.random.seed(2)
    vocab = nlp.Vocab(nlp.data.count_tokens('a b c d e f g h i j k l m n o p'.split()))
    roberta, _ = nlp.model.get_model('roberta_12_768_12', vocab=vocab, pretrained=False, use_decoder=False,
                                     hparam_allow_override=True, **job['roberta'])
    net = nlp.model.RoBERTaClassifier(roberta, num_classes=3, dropout=0.1)
    ids = mx.nd.array(np.random.randint(0, len(vocab), size=(2, 6)))
    _save(out, 'roberta_classifier', net, (ids, mx.nd.array([6, 3])))
    with open(os.path.join(out, 'vocab_size.json'), 'w') as f:
        json.dump(len(vocab), f)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2])[0])
