"""Small blocks, initializers and the optimizer GluonNLP's scripts take from `gluonnlp.model`, `.initializer` and
`.optimizer`: GELU, L2Normalization, HighwayBias, TruncNorm, BERTAdam."""
import math
import os

import mxnet as mx
import numpy as np
from mxnet.gluon import HybridBlock

__all__ = ['BERTAdam', 'GELU', 'HighwayBias', 'L2Normalization', 'TruncNorm']


class GELU(HybridBlock):
    """x * Phi(x); `approximate=True` is the tanh form 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""

    def __init__(self, approximate=False, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._approximate = approximate

    def hybrid_forward(self, F, x):
        if not self._approximate:
            return F.LeakyReLU(x, act_type='gelu')
        return 0.5 * x * (1 + F.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))

    def __repr__(self):
        return f'{type(self).__name__}()'


class L2Normalization(HybridBlock):
    """x / (||x||_2 over `axis` + eps)."""

    def __init__(self, axis=-1, eps=1e-6, **kwargs):
        super().__init__(**kwargs)
        self._axis, self._eps = axis, eps

    def hybrid_forward(self, F, x):
        return F.broadcast_div(x, F.norm(x, axis=self._axis, keepdims=True) + self._eps)


@mx.init.register
class HighwayBias(mx.init.Initializer):
    """A highway layer's [transform; gate] bias: its first half `nonlinear_transform_bias`, its second half
    `transform_gate_bias` (a negative gate bias starts the layer close to carrying its input through)."""

    def __init__(self, nonlinear_transform_bias=0.0, transform_gate_bias=-2.0, **kwargs):
        super().__init__(**kwargs)
        self.nonlinear_transform_bias, self.transform_gate_bias = nonlinear_transform_bias, transform_gate_bias

    def _init_weight(self, name, arr):
        half = arr.shape[0] // 2
        arr[:half] = self.nonlinear_transform_bias
        arr[half:] = self.transform_gate_bias


@mx.init.register
class TruncNorm(mx.init.Initializer):
    """Normal(mean, stdev) truncated to two standard deviations (scipy.stats.truncnorm; draws from NumPy's global
    generator, so np.random.seed fixes them)."""

    def __init__(self, mean=0, stdev=0.01, **kwargs):
        super().__init__(**kwargs)
        from scipy.stats import truncnorm
        self._rv = truncnorm(-2, 2, mean, stdev)

    def _init_weight(self, name, arr):
        arr[:] = self._rv.rvs(arr.size).reshape(arr.shape)


@mx.optimizer.register
class BERTAdam(mx.optimizer.Optimizer):
    """Adam without bias correction and with decoupled weight decay (BERT's optimizer), on MXNet's AdamW kernels
    with eta = the learning rate. As GluonNLP's, the Trainer hands it up to $MXNET_OPTIMIZER_AGGREGATION_SIZE
    (default 4) dense parameters at once, which go through multi_adamw_update: that kernel's numbers are not
    adamw_update's (for tiny gradients they differ in the second digit), so matching GluonNLP means taking the same
    path. `multi_precision` keeps a float32 master copy of float16 weights."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self.aggregate_num = max(1, min(50, int(os.getenv('MXNET_OPTIMIZER_AGGREGATION_SIZE', '4'))))

    def _rescale(self, ctx):
        """rescale_grad as the (1,) NDArray the AdamW kernels take, made again only when the Trainer changes it."""
        key = (self.rescale_grad, ctx)
        if getattr(self, '_rescale_key', None) != key:
            self._rescale_key, self._rescale_nd = key, mx.nd.full((1,), self.rescale_grad, ctx=ctx)
        return self._rescale_nd

    def create_state(self, index, weight):
        return (mx.nd.zeros(weight.shape, weight.context, dtype=weight.dtype),
                mx.nd.zeros(weight.shape, weight.context, dtype=weight.dtype))

    def create_state_multi_precision(self, index, weight):
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype('float32')
            return self.create_state(index, master), master
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        self._step(index, weight, grad, state, False)

    def update_multi_precision(self, index, weight, grad, state):
        first = weight[0] if isinstance(weight, (list, tuple)) else weight
        self._step(index, weight, grad, state, self.multi_precision and first.dtype == np.float16)

    def _step(self, indices, weights, grads, states, master):
        if not isinstance(indices, (list, tuple)):
            indices, weights, grads, states = [indices], [weights], [grads], [states]
        self._update_count(indices)
        lrs, wds = self._get_lrs(indices), self._get_wds(indices)
        kwargs = {'beta1': self.beta1, 'beta2': self.beta2, 'epsilon': self.epsilon,
                  'rescale_grad': self._rescale(weights[0].context)}
        if self.clip_gradient:
            kwargs['clip_gradient'] = self.clip_gradient
        dense = all(w.stype == 'default' and g.stype == 'default' for w, g in zip(weights, grads))
        if self.aggregate_num > 1 and dense:
            for i in range(0, len(indices), self.aggregate_num):
                part = slice(i, i + self.aggregate_num)
                w, g, n = weights[part], grads[part], len(weights[part])
                common = dict(out=w, size=n, lrs=[1.0] * n, wds=wds[part], etas=lrs[part], **kwargs)
                if master:
                    mean, var = zip(*[s[0] for s in states[part]])
                    w32 = [s[1] for s in states[part]]
                    mx.nd.contrib.multi_mp_adamw_update(w, g, mean, var, w32, **common)
                else:
                    mean, var = zip(*states[part])
                    mx.nd.contrib.multi_adamw_update(w, g, mean, var, **common)
            return
        for w, g, s, lr, wd in zip(weights, grads, states, lrs, wds):
            if master:
                (mean, var), w32 = s
                mx.nd.contrib.mp_adamw_update(w, g, mean, var, w32, out=w, lr=1, wd=wd, eta=lr, **kwargs)
            else:
                mean, var = s
                mx.nd.contrib.adamw_update(w, g, mean, var, out=w, lr=1, wd=wd, eta=lr, **kwargs)
