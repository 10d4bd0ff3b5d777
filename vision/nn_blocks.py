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
