"""NASNet-A (Zoph et al., arXiv:1707.07012): parameter-compatible with GluonCV 0.10.5 `nasnet_4_1056` (NASNet
Mobile), `nasnet_5_1538`, `nasnet_7_1920` and `nasnet_6_4032` (NASNet Large, 331 pixels), named
nasnet_<cells per stage>_<penultimate filters>.

Layout: blocks -> model -> registered builders; GluonCV publishes no NASNet checkpoint. A cell takes the outputs
of the two cells before it, and its five sums of two branch ops are data (_NORMAL, _REDUCE). GluonCV ports the
PyTorch port of TF's nets, so BatchNorm keeps TF's epsilon 1e-3 (momentum 0.1, as ported), and the first reduction
cell emulates TF's 'SAME' padding of stride-2 ops by shifting them one pixel. `use_aux` adds GluonCV's auxiliary
head after the second stage and makes the net return (logits, aux logits); GluonCV turns it on by default, here it
is off, since a classifier returns one array of logits and no checkpoint needs the head. `norm_layer` /
`norm_kwargs` are GluonCV's: a BatchNorm class (e.g. SyncBatchNorm) and its keyword arguments.
"""
import math

import mxnet as mx
from mxnet.gluon import nn

from ....errors import BadInputError
from ....heads import reset_head
from ....registry import register_model
from ...layers import norm_factory
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
class Body(nn.HybridBlock):
    """Blocks run in order under the attribute `body`, the path GluonCV's parameters have
    (`comb_iter_0_left.body.1.body.0.weight`)."""

    def __init__(self, *blocks):
        super().__init__(prefix='')
        self.body = nn.HybridSequential(prefix='')
        self.body.add(*blocks)

    def hybrid_forward(self, F, x):
        return self.body(x)


def separable(cin, cout, kernel, stride):
    """Depthwise kernel x kernel conv (padding kernel // 2), then pointwise 1x1, no biases."""
    return Body(nn.Conv2D(cin, kernel, stride, kernel // 2, groups=cin, use_bias=False, in_channels=cin),
                nn.Conv2D(cout, 1, use_bias=False, in_channels=cin))


def sep_branch(cin, cout, kernel, stride, norm):
    """ReLU -> separable conv (stride) -> BN -> ReLU -> separable conv -> BN."""
    return Body(nn.Activation('relu'), separable(cin, cout, kernel, stride), norm(), nn.Activation('relu'),
                separable(cout, cout, kernel, 1), norm())


def _shift(F, op, x):
    """`op` on x padded by a zero row and column at the top and left, then cropped of its first row and column: a
    stride-2 op then samples the windows TF's 'SAME' padding (extra pad at the bottom and right) does."""
    x = F.pad(x, mode='constant', constant_value=0, pad_width=(0, 0, 0, 0, 1, 0, 1, 0))
    return F.slice(op(x), begin=(None, None, 1, 1), end=(None, None, None, None))


class ShiftedPool(nn.HybridBlock):
    """A pooling layer (`pool`) with TF's 'SAME' alignment."""

    def __init__(self, pool):
        super().__init__(prefix='')
        self.pool = pool

    def hybrid_forward(self, F, x):
        return _shift(F, self.pool, x)


class ShiftedSepBranch(nn.HybridBlock):
    """sep_branch whose first (strided) separable conv has TF's 'SAME' alignment."""

    def __init__(self, channels, kernel, stride, norm):
        super().__init__(prefix='')
        self.separable = separable(channels, channels, kernel, stride)
        self.body = nn.HybridSequential(prefix='')
        self.body.add(norm(), nn.Activation('relu'), separable(channels, channels, kernel, 1), norm())

    def hybrid_forward(self, F, x):
        return self.body(_shift(F, self.separable, F.Activation(x, act_type='relu')))


def _relu_conv_bn(channels, norm):
    seq = nn.HybridSequential(prefix='')
    seq.add(nn.Activation('relu'), nn.Conv2D(channels, 1, use_bias=False), norm())
    return seq


def _branch_op(spec, cin, cout, norm, shifted):
    kind, kernel, stride = spec
    if kind == 'sep':
        return ShiftedSepBranch(cout, kernel, stride, norm) if shifted else sep_branch(cin, cout, kernel, stride, norm)
    if kind == 'max':
        pool = nn.MaxPool2D(kernel, stride, kernel // 2)
    else:
        pool = nn.AvgPool2D(kernel, stride, kernel // 2, count_include_pad=False)
    return ShiftedPool(pool) if shifted and stride == 2 else pool


#: A cell's five sums, each (left op, its input, right op, its input) as the attributes comb_iter_<i>_left /
#: _right; an op is (kind, kernel, stride), None for the input itself. Inputs: 'a' = conv_1x1(x), 'b' = x_prev
#: brought to x's width and size, 'c<i>' = sum i. A normal cell outputs b and its five sums, a reduction cell (all
#: stride-2 ops applied to a or b) its last four sums.
_NORMAL = ((('sep', 5, 1), 'a', ('sep', 3, 1), 'b'), (('sep', 5, 1), 'b', ('sep', 3, 1), 'b'),
           (('avg', 3, 1), 'a', None, 'b'), (('avg', 3, 1), 'b', ('avg', 3, 1), 'b'),
           (('sep', 3, 1), 'a', None, 'a'))
_REDUCE = ((('sep', 5, 2), 'a', ('sep', 7, 2), 'b'), (('max', 3, 2), 'a', ('sep', 7, 2), 'b'),
           (('avg', 3, 2), 'a', ('sep', 5, 2), 'b'), (None, 'c1', ('avg', 3, 1), 'c0'),
           (('sep', 3, 1), 'c0', ('max', 3, 2), 'a'))
_OUTPUTS = {False: ('b', 'c0', 'c1', 'c2', 'c3', 'c4'), True: ('c1', 'c2', 'c3', 'c4')}


class Cell(nn.HybridBlock):
    """A NASNet-A cell (`reduce`: the reduction cell) of `channels` on (x, x_prev).

    x_prev is brought to the cell's width by a ReLU-1x1 conv-BN (`prev='1x1'`, `conv_prev_1x1`), by the factorized
    reduction when it is twice x's size (`'factorized'`: two stride-2 1x1 convs, the second on the input shifted
    by one pixel, so that together they see every pixel), or taken as it is (None: the first stem cell, whose
    x_prev is x and `b_channels` wide). `shifted` gives the stride-2 ops TF's alignment (the first reduction cell).
    """

    def __init__(self, reduce, channels, prev, norm, b_channels=None, shifted=False):
        super().__init__(prefix='')
        self.prev, self.sums, self.outputs = prev, _REDUCE if reduce else _NORMAL, _OUTPUTS[reduce]
        self.conv_1x1 = _relu_conv_bn(channels, norm)
        if prev == '1x1':
            self.conv_prev_1x1 = _relu_conv_bn(channels, norm)
        elif prev == 'factorized':
            for name in ('path_1', 'path_2'):
                path = nn.HybridSequential(prefix='')
                path.add(nn.AvgPool2D(1, 2, count_include_pad=False), nn.Conv2D(channels // 2, 1, use_bias=False))
                setattr(self, name, path)
            self.final_path_bn = norm()
        width = {'b': b_channels or channels}
        for i, (left, left_in, right, right_in) in enumerate(self.sums):
            for side, spec, src in (('left', left, left_in), ('right', right, right_in)):
                if spec:
                    op = _branch_op(spec, width.get(src, channels), channels, norm, shifted)
                    setattr(self, f'comb_iter_{i}_{side}', op)

    def hybrid_forward(self, F, x, x_prev):
        if self.prev == '1x1':
            b = self.conv_prev_1x1(x_prev)
        elif self.prev == 'factorized':
            x_prev = F.Activation(x_prev, act_type='relu')
            moved = F.slice(F.pad(x_prev, mode='constant', constant_value=0, pad_width=(0, 0, 0, 0, 0, 1, 0, 1)),
                            begin=(None, None, 1, 1), end=(None, None, None, None))
            b = self.final_path_bn(F.concat(self.path_1(x_prev), self.path_2(moved), dim=1))
        else:
            b = x_prev
        v = {'a': self.conv_1x1(x), 'b': b}
        for i, (left, left_in, right, right_in) in enumerate(self.sums):
            lhs = getattr(self, f'comb_iter_{i}_left')(v[left_in]) if left else v[left_in]
            rhs = getattr(self, f'comb_iter_{i}_right')(v[right_in]) if right else v[right_in]
            v[f'c{i}'] = lhs + rhs
        return F.concat(*(v[k] for k in self.outputs), dim=1)


# -- model --------------------------------------------------------------------------------------------------------
#: the cell groups after the stem conv `conv0`, in order
_GROUPS = ('cell_stem_0', 'cell_stem_1', 'norm_1', 'reduction_cell_0', 'norm_2', 'reduction_cell_1', 'norm_3')


def _walk(owner, names, x):
    """Yield (name, output) after `owner`'s stem conv and after each of its cell groups `names`, each cell taking
    (x, x_prev): the outputs of the two cells before it."""
    x_prev = x = owner.conv0(x)
    yield 'conv0', x
    for name in names:
        group = getattr(owner, name)
        for cell in group._children.values() if isinstance(group, nn.HybridSequential) else [group]:
            x, x_prev = cell(x, x_prev), x
        yield name, x


class NASNet(Classifier):
    """NASNet-A: a stride-2 3x3 stem conv, two reduction stem cells, then `repeat` normal cells at each of three
    widths (penultimate_filters // 24, x2, x4) with a reduction cell between them, ReLU, pooling, dropout, Dense.

    Any input whose stride-8 maps are of even size runs (224, 331, 32, 64, ...).
    """
    head_name = 'out'

    def __init__(self, repeat, penultimate_filters, classes=1000, stem_filters=96, filters_multiplier=2,
                 use_aux=False, norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        filters = penultimate_filters // 24
        if repeat < 2 or filters % 2 or (filters // filters_multiplier) % 2:
            raise ValueError(f'NASNet needs repeat >= 2 (got {repeat!r}) and penultimate_filters // 24 and that '
                             f'// filters_multiplier even (got {penultimate_filters!r}, {filters_multiplier!r})')
        norm = norm_factory(norm_layer, norm_kwargs, momentum=0.1, epsilon=0.001)
        self.in_channels = in_channels
        with self.name_scope():
            self.conv0 = nn.HybridSequential(prefix='')
            self.conv0.add(nn.Conv2D(stem_filters, 3, 2, 0, use_bias=False, in_channels=in_channels), norm())
            self.cell_stem_0 = Cell(True, filters // filters_multiplier ** 2, None, norm, b_channels=stem_filters)
            self.cell_stem_1 = Cell(True, filters // filters_multiplier, 'factorized', norm)
            for i in range(3):
                width = filters * 2 ** i
                if i:
                    setattr(self, f'reduction_cell_{i - 1}', Cell(True, width, '1x1', norm, shifted=i == 1))
                stage = nn.HybridSequential(prefix='')
                stage.add(Cell(False, width, 'factorized', norm))
                stage.add(*[Cell(False, width, '1x1', norm) for _ in range(repeat - 1)])
                setattr(self, f'norm_{i + 1}', stage)
            self.out_aux = None
            if use_aux:
                aux_norm = norm_factory(norm_layer, norm_kwargs, epsilon=0.001)
                self.out_aux = nn.HybridSequential(prefix='')
                self.out_aux.add(nn.Conv2D(filters // 3, 1, use_bias=False), aux_norm(), nn.Activation('relu'),
                                 nn.Conv2D(2 * filters, 5, use_bias=False), aux_norm(), nn.Activation('relu'),
                                 nn.Dense(classes))
            self.out = nn.HybridSequential(prefix='')
            self.out.add(nn.Activation('relu'), nn.GlobalAvgPool2D(), nn.Dropout(0.5), nn.Dense(classes))
        self.feature_info = [Stage('conv0', stem_filters, 2),
                             Stage('cell_stem_0', 4 * (filters // filters_multiplier ** 2), 4)] + \
            [Stage(f'norm_{i + 1}', 6 * filters * 2 ** i, 8 * 2 ** i) for i in range(3)]

    def stages(self):
        """The stem conv and the cell groups; the cells take (x, x_prev), so only _walk runs them."""
        return [(name, getattr(self, name)) for name in ('conv0',) + _GROUPS]

    def check_input(self, shape):
        super().check_input(shape)
        eighth = [math.ceil(math.ceil(((d - 3) // 2 + 1) / 2) / 2) for d in shape[2:]]
        if any(m < 2 or m % 2 for m in eighth):
            raise BadInputError(f'NASNet takes images whose stride-8 feature maps have an even size (224x224, '
                                f'331x331, 32x32, ...), got {"x".join(map(str, shape[2:]))}')

    def hybrid_forward(self, F, x):
        aux = None
        for name, x in _walk(self, _GROUPS, x):
            if name == 'norm_2' and self.out_aux is not None:
                aux = self.out_aux(F.contrib.AdaptiveAvgPooling2D(x, output_size=5))
        logits = self.out(x)
        return logits if aux is None else (logits, aux)

    def reset_class(self, classes, reuse_weights=None):
        old = self.classes
        super().reset_class(classes, reuse_weights)
        if self.out_aux is not None:  # the auxiliary head predicts the same classes
            reset_head(self, 'out_aux', classes, reuse_weights, old)

    def feature_extractor(self, out_indices=None):
        # the base class resolves and checks out_indices; its extractor runs stages one input at a time
        return NASNetFeatures(self, super().feature_extractor(out_indices).names)


class NASNetFeatures(nn.HybridBlock):
    """The stem conv and cell groups of a NASNet up to the deepest of `names`, returning the maps after each of
    them (base.FeatureExtractor for cells on two inputs); it shares the net's parameters, the heads left out."""

    def __init__(self, net, names, **kwargs):
        super().__init__(**kwargs)
        info = {s.name: s for s in net.feature_info}
        self.names = list(names)
        self.channels = [info[n].channels for n in names]
        self.strides = [info[n].stride for n in names]
        self.in_channels, self.fixed_input, self._check = net.in_channels, None, net.check_input
        order = ('conv0',) + _GROUPS
        self._groups = order[1:order.index(names[-1]) + 1]
        for name in order[:order.index(names[-1]) + 1]:
            setattr(self, name, getattr(net, name))

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray):
            self._check(x.shape)
        return super().forward(x, *args)

    def hybrid_forward(self, F, x):
        return [y for name, y in _walk(self, self._groups, x) if name in self.names]


# -- registered builders (no weights: GluonCV publishes no NASNet checkpoint) --------------------------------------
_REG = dict(task='image-classification', protected=('in_channels', 'stem_filters', 'filters_multiplier', 'use_aux'),
            test_input=(1, 3, 32, 32))


@register_model(**_REG)
def nasnet_4_1056(classes=1000, in_channels=3, stem_filters=96, filters_multiplier=2, use_aux=False,
                  norm_layer=nn.BatchNorm, norm_kwargs=None):
    """NASNet-A 4 @ 1056, NASNet Mobile (arXiv:1707.07012)."""
    return NASNet(4, 1056, classes, stem_filters, filters_multiplier, use_aux, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def nasnet_5_1538(classes=1000, in_channels=3, stem_filters=96, filters_multiplier=2, use_aux=False,
                  norm_layer=nn.BatchNorm, norm_kwargs=None):
    """NASNet-A 5 @ 1538 (arXiv:1707.07012)."""
    return NASNet(5, 1538, classes, stem_filters, filters_multiplier, use_aux, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def nasnet_7_1920(classes=1000, in_channels=3, stem_filters=96, filters_multiplier=2, use_aux=False,
                  norm_layer=nn.BatchNorm, norm_kwargs=None):
    """NASNet-A 7 @ 1920 (arXiv:1707.07012)."""
    return NASNet(7, 1920, classes, stem_filters, filters_multiplier, use_aux, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def nasnet_6_4032(classes=1000, in_channels=3, stem_filters=96, filters_multiplier=2, use_aux=False,
                  norm_layer=nn.BatchNorm, norm_kwargs=None):
    """NASNet-A 6 @ 4032, NASNet Large, for 331x331 images (arXiv:1707.07012)."""
    return NASNet(6, 4032, classes, stem_filters, filters_multiplier, use_aux, norm_layer, norm_kwargs, in_channels)
