"""GluonNLP 0.10's weight drop (DropConnect, Wan et al. 2013): `WeightDropParameter`, a Parameter whose `data()` is
the stored array through dropout, and `apply_weight_drop`, which swaps a block's matching Parameters for such ones.

The dropping Parameter shares the stored arrays, gradients and symbol of the one it replaces, so names, files and
trainers see the same weight: only what a forward pass reads is dropped. Dropout is MXNet's own op, so with
mode='training' the weight is dropped under `autograd.record()`/`train_mode()` only; mode='always' drops at
inference too. A hybridized block reads its parameters through `data()` on every call, so it drops as well.
`save_parameters` writes the weight undropped (GluonNLP's, in mode 'always', writes a dropped draw).

>>> import mxnet as mx
>>> net = mx.gluon.rnn.LSTM(4, input_size=3)
>>> apply_weight_drop(net, r'.*h2h_weight', 0.5)
>>> net.collect_params()['lstm0_l0_h2h_weight']
WeightDropParameter lstm0_l0_h2h_weight (shape=(16, 4), dtype=float32, rate=0.5, mode=training)
"""
import numbers
import re

from mxnet import gluon, nd

from ...errors import BadInputError

__all__ = ['WeightDropParameter', 'apply_weight_drop']

_MODES = ('training', 'always')


def _check(rate, mode):
    if isinstance(rate, bool) or not isinstance(rate, numbers.Real) or not 0 <= rate < 1:
        raise BadInputError(f'weight drop rate must be a number in [0, 1), got {rate!r}')
    if mode not in _MODES:
        raise BadInputError(f"weight drop mode must be 'training' or 'always', got {mode!r}")


class WeightDropParameter(gluon.Parameter):
    """`parameter` seen through dropout of `rate` (mask shared along `axes`), in `mode` 'training' (only while
    autograd trains) or 'always'. It is the same weight: arrays, gradient, initializer and name are shared."""

    def __init__(self, parameter, rate=0.0, mode='training', axes=()):
        if not isinstance(parameter, gluon.Parameter):
            raise BadInputError(f'WeightDropParameter wraps a gluon Parameter, got {type(parameter).__name__}')
        _check(rate, mode)
        # take over the whole state of the wrapped Parameter (not a copy: the same arrays and gradient buffers)
        self.__dict__.update(parameter.__dict__)
        self._rate, self._mode, self._axes = rate, mode, tuple(axes)

    def data(self, ctx=None):
        """The weight on `ctx`, dropped (see the class)."""
        weight = super().data(ctx)
        if self._rate:
            weight = nd.Dropout(weight, p=self._rate, mode=self._mode, axes=self._axes)
        return weight

    def _reduce(self):
        # what save_parameters writes: the weight itself (MXNet reads it through data(), which with mode='always'
        # would save a dropped copy, as GluonNLP's does)
        rate, self._rate = self._rate, 0
        try:
            return super()._reduce()
        finally:
            self._rate = rate

    def __repr__(self):
        return (f'WeightDropParameter {self.name} (shape={self.shape}, dtype={self.dtype}, rate={self._rate}, '
                f'mode={self._mode})')


def _blocks(block):
    yield block
    for child in block._children.values():
        yield from _blocks(child)


def apply_weight_drop(block, local_param_regex, rate, axes=(), weight_dropout_mode='training'):
    """Replace, in `block` and all its children, each Parameter whose local name (the one given to
    `self.params.get`, e.g. 'weight' or 'l0_h2h_weight') matches `local_param_regex` from its start by a
    WeightDropParameter of `rate` (axes: where the mask is shared; mode 'training' or 'always'). rate 0 does
    nothing; a Parameter already dropping is left as it is. Returns None, as GluonNLP's."""
    if not rate:
        return
    _check(rate, weight_dropout_mode)
    if not isinstance(block, gluon.Block):
        raise BadInputError(f'apply_weight_drop works on a gluon Block, got {type(block).__name__}')
    pattern = re.compile(local_param_regex)
    dropping = {}  # id(original) -> its WeightDropParameter, one per shared weight
    for b in _blocks(block):
        for local, param in list(b._reg_params.items()):
            if not pattern.match(local) or isinstance(param, WeightDropParameter):
                continue
            new = dropping.setdefault(id(param), WeightDropParameter(param, rate, weight_dropout_mode, axes))
            b._reg_params[local] = new
            if b.__dict__.get(local) is param:  # the attribute HybridBlock's forward reads
                object.__setattr__(b, local, new)
            params = b._params
            while params is not None:  # the block's ParameterDict and the ones it shares
                if params._params.get(param.name) is param:
                    params._params[param.name] = new
                params = params._shared
