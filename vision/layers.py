"""Building blocks shared by the vision families, and the base class that gives every classifier its
input check and its feature extractor.

Blocks here have no parameters of their own or name their children the way GluonCV's families do, so a family
that uses them keeps GluonCV's structural parameter names (`features.3.body.0.weight`).
"""
import mxnet as mx
from mxnet.gluon import nn

from ..errors import BadInputError


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
             'leaky0.1': lambda: nn.LeakyReLU(0.1)}
    if kind not in table:
        raise ValueError(f'unknown activation {kind!r}; one of {sorted(table)}')
    return table[kind]()


# -- convolution helpers ------------------------------------------------------------------------------------------
def conv_bn(seq, channels, kernel=1, stride=1, pad=0, groups=1, act='relu', in_channels=0, **bn_kwargs):
    """Append Conv2D (no bias) -> BatchNorm -> activation (act=None: none) to a HybridSequential."""
    seq.add(nn.Conv2D(channels, kernel, stride, pad, groups=groups, use_bias=False, in_channels=in_channels))
    seq.add(nn.BatchNorm(**bn_kwargs))
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


# -- base class: input check + features ---------------------------------------------------------------------------
class Classifier(nn.HybridBlock):
    """A classification net made of `stages()` run in order, then a head.

    Subclasses set `in_channels`, `fixed_input` ((H, W) when a fixed-size pool or Dense needs it, else None),
    `input_stride` and
    `feature_info`: one (stage index, channels, stride) per feature map a detector or segmenter can tap.
    """
    in_channels = 3
    fixed_input = None
    input_stride = 1  # sizes that agree with fixed_input after integer division by this are accepted too
    feature_info = ()

    def stages(self):
        """The blocks that map the image to the last feature map, in order."""
        return list(self.features._children.values())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray):
            self.check_input(x.shape)
        return super().forward(x, *args)

    def check_input(self, shape):
        """Raise BadInputError naming the expected shape when `shape` cannot run through this net."""
        want_hw, k = self.fixed_input, self.input_stride
        bad = len(shape) != 4 or shape[1] != self.in_channels or \
            (want_hw and [d // k for d in shape[2:]] != [d // k for d in want_hw])
        if bad:
            hw = 'x'.join(map(str, want_hw)) if want_hw else 'HxW'
            raise BadInputError(f'{type(self).__name__} takes batches of shape Nx{self.in_channels}x{hw} '
                                f'(NCHW), got {"x".join(map(str, shape))}; resize/convert the images '
                                f'(the weights record\'s preprocess says how)')

    def feature_extractor(self, out_indices=None):
        """A block returning the stage feature maps of `out_indices` (positions in feature_info; default all)."""
        if not self.feature_info:
            raise ValueError(f'{type(self).__name__} declares no feature stages; features_only is not available')
        n = len(self.feature_info)
        out_indices = tuple(range(n)) if out_indices is None else tuple(out_indices)
        bad = [i for i in out_indices if not -n <= i < n]
        if bad or not out_indices:
            raise ValueError(f'out_indices {out_indices} out of range: {type(self).__name__} has {n} feature '
                             f'stages {[c for _, c, _ in self.feature_info]} (channels)')
        return FeatureExtractor(self, sorted(i % n for i in out_indices))


class FeatureExtractor(nn.HybridBlock):
    """The stages of a Classifier up to the deepest requested one, returning a list of feature maps.

    `channels` and `strides` describe the outputs. It shares the classifier's parameters; the head is left out
    so nothing unused sits in the hybridized graph.
    """

    def __init__(self, net, out_indices, **kwargs):
        super().__init__(**kwargs)
        info = [net.feature_info[i] for i in out_indices]
        self.taps = [stage for stage, _, _ in info]
        self.channels = [c for _, c, _ in info]
        self.strides = [s for _, _, s in info]
        self.in_channels, self.fixed_input = net.in_channels, None
        self._check = net.check_input
        for i, block in enumerate(net.stages()[:self.taps[-1] + 1]):
            self.register_child(block, f'stage{i}')
        self._n = self.taps[-1] + 1

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray) and len(x.shape) == 4 and x.shape[1] != self.in_channels:
            self._check(x.shape)
        return super().forward(x, *args)

    def hybrid_forward(self, F, x):
        outs = []
        children = list(self._children.values())
        for i in range(self._n):
            x = children[i](x)
            if i in self.taps:
                outs.append(x)
        return outs


def last_per_stride(candidates):
    """feature_info from (stage index, channels, cumulative stride) candidates: the deepest one at each stride."""
    out = {}
    for idx, channels, stride in candidates:
        out[stride] = (idx, channels, stride)
    return [out[s] for s in sorted(out)]
