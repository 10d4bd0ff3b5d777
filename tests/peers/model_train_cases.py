"""The gluonnlp.model.train and weight-drop calls tests/compat/test_nlp_model_train.py makes on gluonzoo and the
peer script on GluonNLP: `lib` has .model and .train (gluonnlp.model, gluonnlp.model.train),
.apply_weight_drop and .create_subword_function. Each case builds a tiny block with GluonNLP's constructor, loads the parameters the peer
saved (or initializes and saves them, on the peer's side) and returns its outputs; random ones under fixed seeds."""
import os

import mxnet as mx
import numpy as np

TOKENS = {'a': 0, 'b': 1, 'c': 2, 'hello': 3}


def flat(x):
    if isinstance(x, (list, tuple)):
        return [a for y in x for a in flat(y)]
    return [x.asnumpy()]


def lms(train):
    return {
        'awd': lambda: train.AWDRNN('lstm', 20, 8, 12, 2, True, 0.3, 0.4, 0.2, 0.3, 0.1),
        'awd_untied': lambda: train.AWDRNN('lstm', 20, 6, 10, 3, tie_weights=False, dropout=0.2, weight_drop=0.3),
        'std': lambda: train.StandardRNN('lstm', 20, 8, 8, 2, 0.3, True),
        'std_untied': lambda: train.StandardRNN('lstm', 20, 6, 10, 1, dropout=0.0),
    }


def cases(lib, d, folder, save):
    out = {}

    def params(net, name, *inputs, init=mx.init.Normal(0.5)):
        path = os.path.join(folder, name + '.params')
        if save:
            mx.random.seed(0)
            net.initialize(init)
            if inputs:
                net(*inputs)
            net.save_parameters(path)
        else:
            net.load_parameters(path)
        return net

    def put(prefix, arrays):
        for i, a in enumerate(flat(arrays)):
            out[f'{prefix}.{i}'] = a

    ids, train = d['ids'], lib.train
    for name, make in lms(train).items():
        net = params(make(), name, ids)
        begin = net.begin_state(batch_size=2) if name == 'std_untied' else None
        put(f'{name}.predict', net(ids, begin))
        mx.random.seed(7)
        with mx.autograd.train_mode():
            put(f'{name}.train', net(ids, begin))
        net.hybridize()
        put(f'{name}.hybrid', net(ids, begin))
        if name.startswith('std'):  # the AWDRNN's hybridized masks are drawn in another order (see the test)
            mx.random.seed(7)
            with mx.autograd.train_mode():
                put(f'{name}.hybrid_train', net(ids, begin))

    # the neural cache over an AWDRNN and a StandardRNN (the inference classes, as GluonNLP's cache needs), two
    # chunks carrying the histories and the state
    for name in ('awd', 'std'):
        lm = lms(lib.model)[name]()
        cell = train.CacheCell(lm, 20, window=3, theta=0.6, lambdas=0.2)
        cell.load_parameters(os.path.join(folder, name + '.params'))
        words, history, state = d['ids1'], (None, None), cell.begin_state(batch_size=1)
        for chunk in range(2):
            x, y = words[4 * chunk:4 * chunk + 4], words[4 * chunk + 1:4 * chunk + 5]
            p, nwh, ch, state = cell(x, y, *history, begin_state=state)
            history = (nwh, ch)
            put(f'cache_{name}.{chunk}', [p, nwh, ch, state])

    # weight drop on a gluon LSTM (training masks, predict mode, a hybridized training step) and a Dense
    lstm = mx.gluon.rnn.LSTM(4, 2, input_size=3, prefix='wd_lstm_')
    lib.apply_weight_drop(lstm, r'.*h2h_weight', 0.5)
    out['wd.repr'] = np.array(repr(lstm.collect_params()))
    params(lstm, 'wd_lstm')
    x = d['x']
    mx.random.seed(3)
    with mx.autograd.train_mode():
        out['wd.train'], out['wd.train2'] = lstm(x).asnumpy(), lstm(x).asnumpy()
    out['wd.predict'] = lstm(x).asnumpy()
    lstm.hybridize()
    mx.random.seed(5)
    with mx.autograd.record():
        y = lstm(x)
    y.backward()
    out['wd.hybrid_train'], out['wd.grad'] = y.asnumpy(), lstm.l0_h2h_weight.grad().asnumpy()
    dense = params(mx.gluon.nn.Dense(5, in_units=3, prefix='wd_dense_'), 'wd_dense')  # GluonNLP would save a
    lib.apply_weight_drop(dense, 'weight', 0.4, axes=(1,), weight_dropout_mode='always')  # dropped draw of it
    mx.random.seed(11)
    out['wd.always'] = dense(x[0]).asnumpy()

    # trainable embedding models and a fastText .bin
    csr = params(train.CSREmbeddingModel(TOKENS, 4), 'csr', init=mx.init.Uniform(1))
    out['csr.one'], out['csr.many'], out['csr.repr'] = csr['b'].asnumpy(), csr[['a', 'hello', 'b']].asnumpy(), \
        np.array(repr(csr))
    sub = lib.create_subword_function('NGramHashes', num_subwords=30, ngrams=[3, 4])
    ft = params(train.FasttextEmbeddingModel(TOKENS, sub, 4), 'fasttext', init=mx.init.Uniform(1))
    out['ft.one'], out['ft.many'] = ft['hello'].asnumpy(), ft[['a', 'zzzz', 'hello']].asnumpy()
    out['ft.contains'] = np.array(['zzzz' in ft, 'a' in ft, 'hello' in ft])
    out['ft.repr'] = np.array(repr(ft))
    for fmt in ('new', 'old'):
        loaded = train.FasttextEmbeddingModel.load_fasttext_format(os.path.join(folder, f'tiny_{fmt}.bin'))
        out[f'ftbin_{fmt}.weight'] = loaded.weight.data().asnumpy()
        out[f'ftbin_{fmt}.many'] = loaded[['cat', 'dogs', '</s>', 'caterpillar']].asnumpy()
        out[f'ftbin_{fmt}.repr'] = np.array(repr(loaded))

    # the parameters' names, not only a file's keys: GluonNLP's inference and training BigRNN give the same ones
    out['big_names.eval'] = np.array(sorted(lib.model.BigRNN(10, 2, 3, 2, 5, 0.1, 0.2, prefix='bigrnn')
                                            .collect_params().keys()))
    out['big_names.train'] = np.array(sorted(train.BigRNN(10, 2, 3, 2, 5, 6, 0.1, 0.2, prefix='bigrnn')
                                             .collect_params().keys()))

    # the training BigRNN, sparse and dense weights
    sampled = (d['sampled'], d['count_sampled'], d['count_true'])
    for sparse in (True, False):
        net = train.BigRNN(20, 6, 8, 2, 5, num_sampled=4, encode_dropout=0.2, sparse_weight=sparse)
        name = f'big_{sparse}'
        path = os.path.join(folder, name + '.params')
        if save:
            mx.random.seed(0)
            net.initialize(mx.init.Normal(0.5))
        else:
            net.load_parameters(path)
        if sparse:  # row_sparse weights are read (and saved) through a trainer's kvstore
            mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1}, kvstore='local')
        if save:  # a first batch settles the cells' deferred input sizes
            net(ids, d['labels'], net.begin_state(batch_size=2), sampled)
            net.save_parameters(path)
        put(f'{name}.predict', net(ids, d['labels'], net.begin_state(batch_size=2), sampled))
        mx.random.seed(9)
        with mx.autograd.train_mode():
            put(f'{name}.train', net(ids, d['labels'], net.begin_state(batch_size=2), sampled))
    return out
