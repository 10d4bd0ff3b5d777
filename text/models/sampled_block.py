"""GluonNLP 0.10's sampled output layers, with its names and signatures: a Dense over `num_classes` that scores only
the true class and `num_sampled` candidates (from a candidate sampler, e.g. gluonnlp.data.UnigramCandidateSampler),
each minus the log of its expected count (Jean et al., arXiv:1412.2007; Mnih & Teh, arXiv:1206.6426).

`layer(x (N, in_unit), (sampled (S,), expected_count_sampled (S,), expected_count_true (N,)), label (N,))` ->
(scores (N, 1 + S): the true class in column 0, new labels): importance sampling (ISDense) trains with softmax
cross-entropy on the new label 0 of every row; NCE (NCEDense) with a sigmoid loss on the new labels (1 for column 0,
0 for the samples). `remove_accidental_hits` pushes a sampled copy of the true class to -1e37. The Sparse* layers
keep the weight row_sparse and pull only the rows a batch needs (for vocabularies too large for a dense gradient);
they are Blocks, not hybridizable, as GluonNLP's.
"""
import mxnet as mx
from mxnet.gluon import Block, HybridBlock

__all__ = ['ISDense', 'NCEDense', 'SparseISDense', 'SparseNCEDense']


def _scores(F, x, sampled_values, label, rows, biases, num_sampled, in_unit, remove_hits, sparse_label):
    """(scores, new label) from the rows and biases of [sampled..., true...] (the ids the layer looked up)."""
    sampled, count_sampled, count_true = sampled_values
    x = F.reshape(x, shape=(-1, in_unit))
    sampled_rows = F.slice_axis(rows, axis=0, begin=0, end=num_sampled)
    true_rows = F.slice_axis(rows, axis=0, begin=num_sampled, end=None)
    true = F.sum(true_rows * x, axis=1) + F.slice_axis(biases, axis=0, begin=num_sampled, end=None)
    true = true - F.log(F.reshape(F.cast(count_true, 'float32'), shape=(-1,)))
    scores = F.FullyConnected(x, sampled_rows, F.slice_axis(biases, axis=0, begin=0, end=num_sampled),
                              num_hidden=num_sampled)
    if remove_hits:
        hits = F.broadcast_equal(F.reshape(F.cast(label, 'int32'), shape=(-1, 1)),
                                 F.reshape(F.cast(sampled, 'int32'), shape=(1, -1)))
        scores = scores + F.cast(hits, 'float32') * -1e37
    scores = F.broadcast_sub(scores, F.reshape(F.log(F.cast(count_sampled, 'float32')), shape=(1, num_sampled)))
    scores = F.concat(F.reshape(true, shape=(-1, 1)), scores, dim=1)
    if sparse_label:
        return scores, F.zeros_like(label)
    return scores, F.concat(F.ones_like(F.reshape(label, shape=(-1, 1))), F.zeros_like(F.slice_axis(
        scores, axis=1, begin=1, end=None)), dim=1)


def _ids(F, sampled_values, label):
    return F.concat(F.cast(sampled_values[0], 'int32'), F.cast(F.reshape(label, shape=(-1,)), 'int32'), dim=0)


class _Sampled:
    """What the dense and sparse layers share: the settings, the parameters and the repr."""

    def _setup(self, num_classes, num_sampled, in_unit, remove_accidental_hits, sparse_label, dtype,
               weight_initializer, bias_initializer, weight_stype, grad_stype):
        self._num_classes, self._num_sampled, self._in_unit = num_classes, num_sampled, in_unit
        self._remove_accidental_hits, self._sparse_label = remove_accidental_hits, sparse_label
        with self.name_scope():
            self.weight = self.params.get('weight', shape=(num_classes, in_unit), init=weight_initializer,
                                          dtype=dtype, stype=weight_stype, grad_stype=grad_stype)
            self.bias = self.params.get('bias', shape=(num_classes,), init=bias_initializer, dtype=dtype)

    def _finish(self, F, x, sampled_values, label, rows, biases):
        return _scores(F, x, sampled_values, label, rows, biases, self._num_sampled, self._in_unit,
                       self._remove_accidental_hits, self._sparse_label)

    def __repr__(self):
        return (f'{type(self).__name__}({self._in_unit} -> {self._num_classes}, with {self._num_sampled} samples, '
                f'remove_accidental_hits={self._remove_accidental_hits})')


class _SampledDense(_Sampled, HybridBlock):
    def __init__(self, num_classes, num_sampled, in_unit, remove_accidental_hits, sparse_label, dtype='float32',
                 weight_initializer=None, bias_initializer='zeros', sparse_grad=True, prefix=None, params=None):
        HybridBlock.__init__(self, prefix=prefix, params=params)
        self._sparse_grad = sparse_grad
        self._setup(num_classes, num_sampled, in_unit, remove_accidental_hits, sparse_label, dtype,
                    weight_initializer, bias_initializer, 'default', 'row_sparse' if sparse_grad else 'default')

    def hybrid_forward(self, F, x, sampled_values, label, weight, bias):  # pylint: disable=arguments-differ
        ids = _ids(F, sampled_values, label)
        rows = F.Embedding(ids, weight, input_dim=self._num_classes, output_dim=self._in_unit,
                           sparse_grad=self._sparse_grad)
        return self._finish(F, x, sampled_values, label, rows, F.take(bias, ids))


class _SparseSampledDense(_Sampled, Block):
    def __init__(self, num_classes, num_sampled, in_unit, remove_accidental_hits, sparse_label, dtype='float32',
                 weight_initializer=None, bias_initializer='zeros', prefix=None, params=None):
        Block.__init__(self, prefix=prefix, params=params)
        self._setup(num_classes, num_sampled, in_unit, remove_accidental_hits, sparse_label, dtype,
                    weight_initializer, bias_initializer, 'row_sparse', 'row_sparse')

    def forward(self, x, sampled_values, label):  # pylint: disable=arguments-differ
        F = mx.nd
        ids = _ids(F, sampled_values, label)
        rows = F.Embedding(ids, self.weight.row_sparse_data(ids), input_dim=self._num_classes,
                           output_dim=self._in_unit, sparse_grad=True)
        return self._finish(F, x, sampled_values, label, rows, F.take(self.bias.data(ids.context), ids))


class NCEDense(_SampledDense):
    """Noise-contrastive estimation output layer (labels: 1 for the true column, 0 for the samples)."""

    def __init__(self, num_classes, num_sampled, in_unit, remove_accidental_hits=False, dtype='float32',
                 weight_initializer=None, bias_initializer='zeros', sparse_grad=True, prefix=None, params=None):
        super().__init__(num_classes, num_sampled, in_unit, remove_accidental_hits, False, dtype,
                         weight_initializer, bias_initializer, sparse_grad, prefix, params)


class ISDense(_SampledDense):
    """Importance-sampled softmax output layer (label: 0, the true column)."""

    def __init__(self, num_classes, num_sampled, in_unit, remove_accidental_hits=True, dtype='float32',
                 weight_initializer=None, bias_initializer='zeros', sparse_grad=True, prefix=None, params=None):
        super().__init__(num_classes, num_sampled, in_unit, remove_accidental_hits, True, dtype,
                         weight_initializer, bias_initializer, sparse_grad, prefix, params)


class SparseNCEDense(_SparseSampledDense):
    """NCEDense with a row_sparse weight."""

    def __init__(self, num_classes, num_sampled, in_unit, remove_accidental_hits=True, dtype='float32',
                 weight_initializer=None, bias_initializer='zeros', prefix=None, params=None):
        super().__init__(num_classes, num_sampled, in_unit, remove_accidental_hits, False, dtype,
                         weight_initializer, bias_initializer, prefix, params)


class SparseISDense(_SparseSampledDense):
    """ISDense with a row_sparse weight."""

    def __init__(self, num_classes, num_sampled, in_unit, remove_accidental_hits=True, dtype='float32',
                 weight_initializer=None, bias_initializer='zeros', prefix=None, params=None):
        super().__init__(num_classes, num_sampled, in_unit, remove_accidental_hits, True, dtype,
                         weight_initializer, bias_initializer, prefix, params)
