"""The losses GluonNLP's training scripts construct (`gluonnlp.loss`), with GluonNLP's arguments and outputs:
the length-masked softmax cross-entropy of sequence models, label smoothing, and AWD-LSTM's activation
regularizers (AR, TAR)."""
from mxnet import gluon
from mxnet.gluon import HybridBlock
from mxnet.gluon.loss import Loss

__all__ = ['ActivationRegularizationLoss', 'LabelSmoothing', 'MaskedSoftmaxCELoss', 'MaskedSoftmaxCrossEntropyLoss',
           'TemporalActivationRegularizationLoss']


class MaskedSoftmaxCrossEntropyLoss(gluon.loss.SoftmaxCrossEntropyLoss):
    """Softmax cross-entropy of (B, T, C) scores against (B, T) labels (or (B, T, C) distributions with
    `sparse_label=False`), the steps at or past each sequence's `valid_length` weighted 0: (B,), the mean over T."""

    def __init__(self, sparse_label=True, from_logits=False, weight=None, **kwargs):
        super().__init__(axis=-1, sparse_label=sparse_label, from_logits=from_logits, weight=weight, batch_axis=0,
                         **kwargs)

    def hybrid_forward(self, F, pred, label, valid_length):  # pylint: disable=arguments-differ
        ones = F.expand_dims(F.ones_like(label), axis=-1) if self._sparse_label else F.ones_like(label)
        steps = F.SequenceMask(F.cast(ones, 'float32'), sequence_length=valid_length, use_sequence_length=True,
                               axis=1)
        return super().hybrid_forward(F, pred, label, steps)


#: GluonNLP's older name of the same loss
MaskedSoftmaxCELoss = MaskedSoftmaxCrossEntropyLoss


class LabelSmoothing(HybridBlock):
    """Labels to smoothed distributions: (1 - epsilon) * one-hot + epsilon / units. Sparse labels (ids) need
    `units` (here or in the call); dense ones (already distributions over `axis`) take their size from the input.
    The gradient with respect to dense inputs is (1 - epsilon) times the incoming one."""

    def __init__(self, axis=-1, epsilon=0.1, units=None, sparse_label=True, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._axis, self._epsilon, self._units, self._sparse = axis, epsilon, units, sparse_label

    def hybrid_forward(self, F, inputs, units=None):  # pylint: disable=arguments-differ
        units = units if units is not None else self._units
        if self._sparse:
            if units is None:
                raise ValueError('LabelSmoothing with sparse_label=True needs units (the number of classes), in '
                                 'the constructor or the call')
            inputs = F.one_hot(inputs, depth=units)
        if units is not None:
            return (1 - self._epsilon) * inputs + self._epsilon / units
        size = F.sum(F.ones_like(inputs), axis=self._axis, keepdims=True)  # the class count, in the graph
        return F.broadcast_add((1 - self._epsilon) * inputs, self._epsilon / size)


class _LastStateRegularizer(Loss):
    """factor * mean(penalty(states[-1])) over the last of the states given (GluonNLP's AR/TAR take the last layer's
    outputs); zeros(1) when the factor is 0 or no state is given."""
    _factor_name = ''

    def __init__(self, factor, weight=None, batch_axis=None, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._factor = factor

    def __repr__(self):
        return f'{type(self).__name__} ({self._factor_name}={self._factor})'

    def hybrid_forward(self, F, *states):
        if self._factor == 0 or not states:
            return F.zeros(1)
        return self._factor * F.mean(F.square(self._penalty(F, states[-1])))


class ActivationRegularizationLoss(_LastStateRegularizer):
    """AR (Merity et al. 2017): alpha * mean(h^2) of the last layer's outputs h."""
    _factor_name = 'alpha'

    def __init__(self, alpha=0, weight=None, batch_axis=None, **kwargs):
        super().__init__(alpha, weight, batch_axis, **kwargs)

    def _penalty(self, F, h):
        return h


class TemporalActivationRegularizationLoss(_LastStateRegularizer):
    """TAR (Merity et al. 2017): beta * mean((h_t+1 - h_t)^2) of the last layer's outputs h, time on axis 0."""
    _factor_name = 'beta'

    def __init__(self, beta=0, weight=None, batch_axis=None, **kwargs):
        super().__init__(beta, weight, batch_axis, **kwargs)

    def _penalty(self, F, h):
        return F.slice_axis(h, axis=0, begin=1, end=None) - F.slice_axis(h, axis=0, begin=0, end=-1)
