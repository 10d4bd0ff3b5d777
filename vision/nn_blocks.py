"""Small blocks of GluonCV's `gluoncv.nn.block` and `gluoncv.nn.predictor` that gluonzoo had no block for:
Identity, Consensus (the mean over a video's segments), BatchNormCudnnOff, and the conv / dense predictors
(a layer kept as the child `predictor`, so parameter names follow GluonCV's).

>>> import mxnet as mx
>>> Consensus(nclass=2, num_segments=3)(mx.nd.arange(12).reshape((6, 2))).asnumpy().tolist()
[[2.0, 3.0], [8.0, 9.0]]
"""
import mxnet as mx
from mxnet.gluon import nn


class Identity(nn.HybridBlock):
    """x -> x."""

    def hybrid_forward(self, F, x):
        return x


class Consensus(nn.HybridBlock):
    """(B * num_segments, nclass) scores -> (B, nclass), the mean over each clip's segments."""

    def __init__(self, nclass, num_segments, **kwargs):
        super().__init__(**kwargs)
        self.nclass, self.num_segments = nclass, num_segments

    def hybrid_forward(self, F, x):
        return x.reshape((-1, self.num_segments, self.nclass)).mean(axis=1)


class BatchNormCudnnOff(nn.BatchNorm):
    """BatchNorm that never takes cuDNN's kernel (the same numbers on CPU, where there is none)."""

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        return F.BatchNorm(x, gamma, beta, running_mean, running_var, name='fwd', cudnn_off=True, **self._kwargs)


class ConvPredictor(nn.HybridBlock):
    """A conv predicting `num_channel` values per position (3x3, padding 1 by default; Xavier(2) weights, zero
    bias)."""

    def __init__(self, num_channel, kernel=(3, 3), pad=(1, 1), stride=(1, 1), activation=None, use_bias=True,
                 in_channels=0, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.predictor = nn.Conv2D(num_channel, kernel, strides=stride, padding=pad, activation=activation,
                                       use_bias=use_bias, in_channels=in_channels,
                                       weight_initializer=mx.init.Xavier(magnitude=2), bias_initializer='zeros')

    def hybrid_forward(self, F, x):
        return self.predictor(x)


class FCPredictor(nn.HybridBlock):
    """A dense layer predicting `num_output` values."""

    def __init__(self, num_output, activation=None, use_bias=True, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.predictor = nn.Dense(num_output, activation=activation, use_bias=use_bias)

    def hybrid_forward(self, F, x):
        return self.predictor(x)


class DropBlock(nn.HybridBlock):
    """DropBlock (Ghiasi et al., arXiv:1810.12890) on (N, c, h, w) maps, in training only: seeds drawn with
    probability gamma (so that about `drop_prob` of the map is dropped), each grown to a block_size square, the
    same mask for every sample, and the kept values scaled up by numel / kept. Identity at inference or with
    drop_prob 0. `drop_prob` is an attribute (set_drop_prob, DropBlockScheduler change it)."""

    def __init__(self, drop_prob, block_size, c, h, w):
        super().__init__()
        self.drop_prob, self.block_size, self.c, self.h, self.w = drop_prob, block_size, c, h, w
        self.numel = c * h * w
        pad = max(block_size - 1, 0)
        self.padding = (pad // 2, pad - pad // 2, pad // 2, pad - pad // 2)
        self.dtype = 'float32'

    def hybrid_forward(self, F, x):
        if not mx.autograd.is_training() or self.drop_prob <= 0:
            return x
        b = self.block_size
        gamma = self.drop_prob * (self.h * self.w) / b ** 2 / ((self.w - b + 1) * (self.h - b + 1))
        seeds = F.random.uniform(0, 1, shape=(1, self.c, self.h, self.w), dtype=self.dtype) < gamma
        keep = 1 - F.Pooling(seeds, pool_type='max', kernel=(b, b), pad=self.padding)
        scale = self.numel / keep.sum(axis=0, exclude=True).reshape((-1, 1, 1, 1))
        return F.broadcast_mul(F.broadcast_mul(x, keep), scale)

    def cast(self, dtype):
        super().cast(dtype)
        self.dtype = dtype

    def __repr__(self):
        return f'{type(self).__name__}(drop_prob: {self.drop_prob}, block_size{self.block_size})'


def set_drop_prob(drop_prob, module):
    """Set `drop_prob` of `module` when it is a DropBlock (use with `net.apply`)."""
    if isinstance(module, DropBlock):
        module.drop_prob = drop_prob


class DropBlockScheduler:
    """Raise every DropBlock's drop_prob of `net` linearly from start_prob to end_prob over `num_epochs`:
    call it with the epoch (0-based) at the start of each (the net is hybridized again, so the new value takes)."""

    def __init__(self, net, start_prob, end_prob, num_epochs):
        self.net, self.start_prob, self.end_prob, self.num_epochs = net, start_prob, end_prob, num_epochs

    def __call__(self, epoch):
        p = self.start_prob + (self.end_prob - self.start_prob) * (epoch + 1) / self.num_epochs
        if not 0 <= p <= 1:
            raise ValueError(f'epoch {epoch}: drop probability {p} is outside [0, 1] (num_epochs={self.num_epochs})')
        self.net.apply(lambda m: set_drop_prob(p, m))
        self.net.hybridize()
