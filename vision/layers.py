"""Building blocks shared by the vision families (activations, conv-BN units, the SE gate, DUC).

Blocks here have no parameters of their own or name their children the way GluonCV's families do, so a family
that uses them keeps GluonCV's structural parameter names (`features.3.body.0.weight`). Box, anchor, NMS and RoI
operations live in vision/ops/; the classifier base class in models/classification/base.py.
"""
import functools

from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import PixelShuffle2D


def norm_factory(norm_layer=None, norm_kwargs=None, **defaults):
    """GluonCV's `norm_layer` / `norm_kwargs` pair as one callable that makes a norm layer: `norm_layer` (BatchNorm
    when None) with the family's `defaults`, which `norm_kwargs` override; a call may add more (in_channels=...)."""
    return functools.partial(norm_layer or nn.BatchNorm, **{**defaults, **(norm_kwargs or {})})


# -- activations (parameter-free) ---------------------------------------------------------------------------------
class ReLU6(nn.HybridBlock):
    """min(max(x, 0), 6)."""

    def hybrid_forward(self, F, x):
        return F.clip(x, 0, 6, name='relu6')


class HardSigmoid(nn.HybridBlock):
    """relu6(x + 3) / 6, the MobileNetV3 gate."""

    def hybrid_forward(self, F, x):
        return F.clip(x + 3.0, 0, 6) / 6.0


class HardSwish(nn.HybridBlock):
    """x * hard_sigmoid(x)."""

    def hybrid_forward(self, F, x):
        return x * (F.clip(x + 3.0, 0, 6) / 6.0)


def activation(kind):
    """A parameter-free activation block by name."""
    table = {'relu': lambda: nn.Activation('relu'), 'relu6': ReLU6, 'hard_sigmoid': HardSigmoid,
             'hard_swish': HardSwish, 'sigmoid': lambda: nn.Activation('sigmoid'),
             'leaky0.1': lambda: nn.LeakyReLU(0.1), 'swish': nn.Swish,
             'leaky': lambda: nn.LeakyReLU(0.375)}  # GluonCV MobileNetV3's 'leaky' slope
    if kind not in table:
        raise ValueError(f'unknown activation {kind!r}; one of {sorted(table)}')
    return table[kind]()


class Activation(nn.HybridBlock):
    """GluonCV MobileNetV3's `Activation(act_func)`: `activation(act_func)` as a block of its own (child `act`)."""

    def __init__(self, act_func, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.act = activation(act_func)

    def hybrid_forward(self, F, x):
        return self.act(x)


# -- convolution helpers ------------------------------------------------------------------------------------------
def conv_bn(seq, channels, kernel=1, stride=1, pad=0, groups=1, act='relu', in_channels=0, norm_layer=nn.BatchNorm,
            **bn_kwargs):
    """Append Conv2D (no bias) -> norm_layer (BatchNorm) -> activation (act=None: none) to a HybridSequential."""
    seq.add(nn.Conv2D(channels, kernel, stride, pad, groups=groups, use_bias=False, in_channels=in_channels))
    seq.add(norm_layer(**bn_kwargs))
    if act:
        seq.add(activation(act))
    return seq


def conv_bn_seq(channels, kernel=1, stride=1, pad=0, act='relu', **kwargs):
    """A fresh HybridSequential(conv, bn, act): the 'basic conv' unit of Inception and DarkNet."""
    return conv_bn(nn.HybridSequential(prefix=''), channels, kernel, stride, pad, act=act, **kwargs)


class SEGate(nn.HybridSequential):
    """Squeeze-and-excitation gate x * sigmoid(fc2(relu(fc1(pool(x))))) (Hu et al., arXiv:1709.01507).

    A Sequential of the four gate layers, so a family's `se` child names them `se.0` / `se.2` as GluonCV does.
    `dense=True` uses bias-free Dense layers (GluonCV's SE-ResNet); otherwise 1x1 convs with bias (SE-ResNeXt).
    """

    def __init__(self, mid, out, dense=False, **kwargs):
        super().__init__(prefix='', **kwargs)
        self.dense = dense
        if dense:
            self.add(nn.Dense(mid, use_bias=False), nn.Activation('relu'), nn.Dense(out, use_bias=False))
        else:
            self.add(nn.Conv2D(mid, 1), nn.Activation('relu'), nn.Conv2D(out, 1))
        self.add(nn.Activation('sigmoid'))

    def hybrid_forward(self, F, x):
        w = F.contrib.AdaptiveAvgPooling2D(x, output_size=1)
        for block in self._children.values():
            w = block(w)
        if self.dense:
            w = w.expand_dims(axis=2).expand_dims(axis=2)
        return F.broadcast_mul(x, w)


class DUC(nn.HybridBlock):
    """Dense upsampling convolution: 3x3 conv (no bias) -> BN -> ReLU -> pixel shuffle by `upscale_factor`, so
    `planes` channels become planes / factor^2 at factor times the size (GluonCV's nn.block.DUC, whose BatchNorm
    only turns cuDNN off: the same numbers)."""

    def __init__(self, planes, upscale_factor=2, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.conv = nn.Conv2D(planes, 3, padding=1, use_bias=False)
            self.bn = nn.BatchNorm()
            self.relu = nn.Activation('relu')
            self.pixel_shuffle = PixelShuffle2D(upscale_factor)

    def hybrid_forward(self, F, x):
        return self.pixel_shuffle(self.relu(self.bn(self.conv(x))))
