"""The gluonnlp.loss / .utils / .metric calls of tests/compat/test_nlp_train_utils.py, written once for both sides:
`cases(nlp, d, folder)` runs them with the package nlp (gluonnlp in the peers venv, gluonzoo.nlp in ours) on the
inputs d (name -> NDArray), in the empty folder `folder`, and returns {case: numpy array}."""
import os
import random
import warnings

import mxnet as mx
import numpy as np


def _with_grad(out, name, block, x, *rest):
    x = x.copy()
    x.attach_grad()
    with mx.autograd.record():
        y = block(x, *rest)
    y.backward()
    out[name], out[name + '.grad'] = y.asnumpy(), x.grad.asnumpy()


def _net(d):
    net = mx.gluon.nn.Dense(4, in_units=3)
    net.initialize()
    net.weight.set_data(d['w'])
    net.bias.set_data(d['b'])
    return net


def cases(nlp, d, folder):
    out = {}
    L = nlp.loss
    _with_grad(out, 'masked_ce', L.MaskedSoftmaxCrossEntropyLoss(), d['scores'], d['ids'], d['valid'])
    _with_grad(out, 'masked_ce_dense', L.MaskedSoftmaxCELoss(sparse_label=False), d['scores'], d['dist'], d['valid'])
    out['smooth_ids'] = L.LabelSmoothing(units=7)(d['ids']).asnumpy()
    out['smooth_ids_call'] = L.LabelSmoothing(epsilon=0.3)(d['ids'], 7).asnumpy()
    _with_grad(out, 'smooth_dense_units', L.LabelSmoothing(sparse_label=False, units=7), d['dist'])
    # the regularizers take the last of the states: the gradient is of that one
    ar, tar = L.ActivationRegularizationLoss(alpha=2), L.TemporalActivationRegularizationLoss(beta=3)
    _with_grad(out, 'ar', lambda h1, h0: ar(h0, h1), d['h1'], d['h0'])
    _with_grad(out, 'tar', lambda h1, h0: tar(h0, h1), d['h1'], d['h0'])
    out['ar_off'] = L.ActivationRegularizationLoss()(d['h1']).asnumpy()

    acc = nlp.metric.MaskedAccuracy(axis=-1)
    acc.update([d['ids']], [d['scores']], [d['mask']])
    acc.update([d['ids']], [d['scores'].argmax(-1)])
    lnl = nlp.metric.LengthNormalizedLoss()
    lnl.update([d['ids'], d['valid']], d['loss'])
    lnl.update([d['ids'], [d['valid'], 4]], [d['loss'], 2.5])
    out['metrics'] = np.array([acc.get()[1], lnl.get()[1], acc.get_global()[1]])

    U = nlp.utils
    net = _net(d)
    with mx.autograd.record():
        net(d['x']).square().sum().backward()
    out['norm'] = U.grad_global_norm(net.collect_params().values()).asnumpy()
    out['norm_tuple'] = np.concatenate([a.asnumpy().astype(np.float32) for a in U.grad_global_norm(
        net.collect_params().values(), max_norm=1e4)])
    out['clip_norm'] = U.clip_grad_global_norm(net.collect_params().values(), 0.5).asnumpy()
    out['clipped_w'], out['clipped_b'] = net.weight.grad().asnumpy(), net.bias.grad().asnumpy()
    out['clipped_norm'] = U.grad_global_norm(net.collect_params().values()).asnumpy()

    U.set_seed(7)
    out['seeded'] = np.concatenate([mx.nd.random.uniform(shape=5).asnumpy(), np.random.rand(3),
                                    [random.random()]]).astype(np.float32)

    for name in ('a.txt', 'b.txt', 'c.log', 'd.bin'):
        open(os.path.join(folder, name), 'w').close()
    U.mkdir(os.path.join(folder, 'x', 'y'))
    U.mkdir(os.path.join(folder, 'x', 'y'))
    U.remove(os.path.join(folder, 'd.bin'))
    U.remove(os.path.join(folder, 'missing'))
    found = U.glob(f'{folder}/*.txt, {folder}/*.log') + U.glob(f'{folder}/x', separator=None)
    out['files'] = np.array(sorted(os.path.relpath(f, folder) for f in found) + sorted(os.listdir(folder)))

    U.save_parameters(net, os.path.join(folder, 'net.params'))
    again = _net({'w': d['w'] * 0, 'b': d['b'] * 0})
    U.load_parameters(again, os.path.join(folder, 'net.params'))
    out['loaded_w'] = again.weight.data().asnumpy()
    trainer = mx.gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.1})
    trainer.step(1)
    U.save_states(trainer, os.path.join(folder, 'net.states'))
    fresh = mx.gluon.Trainer(again.collect_params(), 'adam', {'learning_rate': 0.1})
    U.load_states(fresh, os.path.join(folder, 'net.states'))
    out['states'] = np.array(sorted(fresh._updaters[0].states))

    verdicts = []
    for v in ('0.9.0', '0.10.0', '0.10.1', '1.0'):
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter('always')
                U.check_version(v, warning_only=v == '1.0')
            verdicts.append('warned' if caught else 'ok')
        except AssertionError:
            verdicts.append('raised')
    U.check_version('1.0', library=np)
    out['versions'] = np.array(verdicts)

    class Double(U.Parallelizable):
        def forward_backward(self, x):
            return x * 2
    pool = U.Parallel(2, Double())
    for i in range(5):
        pool.put(i)
    out['parallel'] = np.array(sorted(pool.get() for _ in range(5)))
    return out


def layer_cases(nlp, d):
    """GELU, L2Normalization, the initializers, BERTAdam and StreamBPTTBatchify: {case: numpy array}."""
    out = {}
    words = 'the cat sat on the mat while a dog ran after the cat and then everyone slept'.split()
    vocab = nlp.Vocab(nlp.data.count_tokens(words))
    corpus = [mx.gluon.data.SimpleDataset([words[i:i + n] for i, n in zip(range(0, 18, 3), (3, 1, 4, 2, 5, 3))]),
              mx.gluon.data.SimpleDataset([words[::2], words[1::3]])]
    for sampler, last in (('sequential', 'keep'), ('sequential', 'discard'), ('random', 'keep')):
        np.random.seed(3)
        batches = list(nlp.data.batchify.StreamBPTTBatchify(vocab, 4, 3, sampler=sampler, last_batch=last)(corpus))
        out[f'bptt_{sampler}_{last}'] = np.stack([np.stack([x.asnumpy(), y.asnumpy()]) for x, y in batches])
    x = d['scores']
    out['gelu'] = nlp.model.GELU()(x).asnumpy()
    out['gelu_tanh'] = nlp.model.GELU(approximate=True)(x).asnumpy()
    out['l2norm'] = nlp.model.L2Normalization()(x).asnumpy()
    out['l2norm_axis1'] = nlp.model.L2Normalization(axis=1, eps=0.1)(x).asnumpy()
    dense = mx.gluon.nn.Dense(6, in_units=3, bias_initializer=nlp.initializer.HighwayBias(),
                              weight_initializer=nlp.initializer.TruncNorm(stdev=0.5))
    np.random.seed(11)
    dense.initialize()
    out['highway_bias'], out['truncnorm'] = dense.bias.data().asnumpy(), dense.weight.data().asnumpy()
    out['highway_bias_1'] = mx.nd.zeros(4)
    nlp.initializer.HighwayBias(0.5, 1.0)._init_weight('b', out['highway_bias_1'])
    out['highway_bias_1'] = out['highway_bias_1'].asnumpy()
    net = _net(d)
    trainer = mx.gluon.Trainer(net.collect_params(), 'bertadam', {'learning_rate': 0.05, 'wd': 0.01})
    for step in range(3):
        with mx.autograd.record():
            (net(d['x'] * (step + 1)) ** 2).sum().backward()
        trainer.step(2)
    out['bertadam_w'], out['bertadam_b'] = net.weight.data().asnumpy(), net.bias.data().asnumpy()
    return out
