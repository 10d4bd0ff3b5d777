"""Deep Layer Aggregation (Yu et al., arXiv:1707.06484): parameter-compatible with GluonCV 0.10.5 `dla34`.

Six levels (a 7x7 stem at full resolution, two conv levels, four aggregation trees of basic blocks), each halving
the resolution after level0. GluonCV's classifier pools every level and concatenates them before the Dense head;
`use_feature=True` (GluonCV's CenterNet backbone) drops the head and returns the six level maps. Detectors can also
tap the levels through feature_info (`level0`..`level5`). Layout: blocks -> model -> weights record -> builder.
"""
from mxnet.gluon import nn

from ....errors import BadInputError
from ....registry import register_model
from ._gluoncv import gluoncv
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
class BasicBlock(nn.HybridBlock):
    """Two 3x3 conv-BN, ReLU between and after the residual sum; the residual is given when it is projected."""

    def __init__(self, in_channels, channels, stride, norm):
        super().__init__(prefix='')
        self.conv1 = nn.Conv2D(channels, 3, stride, 1, use_bias=False, in_channels=in_channels)
        self.bn1 = norm(channels)
        self.relu = nn.Activation('relu')
        self.conv2 = nn.Conv2D(channels, 3, 1, 1, use_bias=False, in_channels=channels)
        self.bn2 = norm(channels)

    def hybrid_forward(self, F, x, residual=None):
        out = self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x)))))
        return self.relu(out + (x if residual is None else residual))


class Root(nn.HybridBlock):
    """The aggregation node: 1x1 conv-BN-ReLU over the concatenated inputs (plus the first one with `residual`)."""

    def __init__(self, in_channels, channels, residual, norm):
        super().__init__(prefix='')
        self.conv = nn.Conv2D(channels, 1, use_bias=False, in_channels=in_channels)
        self.bn = norm(channels)
        self.relu = nn.Activation('relu')
        self.residual = residual

    def hybrid_forward(self, F, *xs):
        out = self.bn(self.conv(F.concat(*xs, dim=1)))
        return self.relu(out + xs[0] if self.residual else out)


class Tree(nn.HybridBlock):
    """A tree of `levels`: one level is two basic blocks and a root over (second, first, carried inputs); a deeper
    tree nests two subtrees and hands its first subtree's output (and, as a level root, its downsampled input) to
    the second one's root."""

    def __init__(self, levels, in_channels, channels, norm, stride=1, level_root=False, root_dim=0,
                 residual_root=False):
        super().__init__(prefix='')
        root_dim = (root_dim or 2 * channels) + (in_channels if level_root else 0)
        self.levels, self.level_root = levels, level_root
        self.downsample = nn.MaxPool2D(stride, stride) if stride > 1 else None
        self.project = None
        if levels == 1:
            self.tree1 = BasicBlock(in_channels, channels, stride, norm)
            self.tree2 = BasicBlock(channels, channels, 1, norm)
            if in_channels != channels:
                self.project = nn.HybridSequential(prefix='')
                self.project.add(nn.Conv2D(channels, 1, use_bias=False, in_channels=in_channels), norm(channels))
            self.root = Root(root_dim, channels, residual_root, norm)
        else:
            self.tree1 = Tree(levels - 1, in_channels, channels, norm, stride, residual_root=residual_root)
            self.tree2 = Tree(levels - 1, channels, channels, norm, root_dim=root_dim + channels,
                              residual_root=residual_root)

    def hybrid_forward(self, F, x, carried=None):
        carried = list(carried or [])
        bottom = x if self.downsample is None else self.downsample(x)
        if self.level_root:
            carried.append(bottom)
        if self.levels == 1:
            x1 = self.tree1(x, bottom if self.project is None else self.project(bottom))
            return self.root(self.tree2(x1), x1, *carried)
        x1 = self.tree1(x)
        return self.tree2(x1, carried + [x1])


# -- model --------------------------------------------------------------------------------------------------------
_CONFIGS = {34: ([1, 1, 1, 2, 2, 1], [16, 32, 64, 128, 256, 512])}  # depth -> (levels, channels) of each level


class DLA(Classifier):
    """DLA of `depth` with basic blocks; the head sees the globally pooled maps of all six levels."""
    head_name = 'fc'

    def __init__(self, depth, classes=1000, momentum=0.9, norm_layer=nn.BatchNorm, norm_kwargs=None,
                 residual_root=False, use_feature=False, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if depth not in _CONFIGS:
            raise ValueError(f'DLA depth {depth!r} is not one of {sorted(_CONFIGS)}')
        levels, channels = _CONFIGS[depth]
        norm_kwargs = dict(norm_kwargs or {}, momentum=momentum)

        def norm(c):
            return norm_layer(in_channels=c, **norm_kwargs)

        self.in_channels, self.use_feature = in_channels, use_feature
        with self.name_scope():
            self.base_layer = nn.HybridSequential(prefix='base')
            self.base_layer.add(nn.Conv2D(channels[0], 7, 1, 3, use_bias=False, in_channels=in_channels),
                                norm(channels[0]), nn.Activation('relu'))
            for i in (0, 1):  # plain conv levels
                level = nn.HybridSequential(prefix=f'level{i}_')
                for j in range(levels[i]):
                    level.add(nn.Conv2D(channels[i], 3, 2 if i and not j else 1, 1, use_bias=False,
                                        in_channels=channels[0] if j == 0 else channels[i]),
                              norm(channels[i]), nn.Activation('relu'))
                setattr(self, f'level{i}', level)
            for i in range(2, 6):
                setattr(self, f'level{i}', Tree(levels[i], channels[i - 1], channels[i], norm, 2, level_root=i > 2,
                                                residual_root=residual_root))
            if not use_feature:
                self.global_avg_pool = nn.GlobalAvgPool2D()
                self.fc = nn.Dense(classes, in_units=sum(channels))
        self.feature_info = [Stage(f'level{i}', c, 2 ** i) for i, c in enumerate(channels)]

    def stages(self):
        return [(name, getattr(self, name)) for name in ['base_layer'] + [f'level{i}' for i in range(6)]]

    def check_input(self, shape):
        super().check_input(shape)
        # a tree's shortcut max-pools (rounding down) what its strided conv halves rounding up: odd maps misalign
        if any(d % 32 for d in shape[2:]):
            raise BadInputError(f'DLA takes batches of shape Nx{self.in_channels}xHxW (NCHW) with H and W multiples '
                                f'of 32, got {"x".join(map(str, shape))}; resize or pad the images')

    def hybrid_forward(self, F, x):
        maps = []
        for _, stage in self.stages():
            x = stage(x)
            maps.append(x)
        maps = maps[1:]
        if self.use_feature:
            return maps
        return self.fc(F.concat(*[F.flatten(self.global_avg_pool(m)) for m in maps], dim=1))


# -- weights record (GluonCV 0.10.5 model_store.py; GluonCV's table publishes no accuracy for it) -----------------
DLA34_GLUONCV = gluoncv('dla34', '5fd8d651eea4b8f3767174ea63bd0afc1fa541d8', 16238104,
                        'https://arxiv.org/abs/1707.06484')


# -- registered builder -------------------------------------------------------------------------------------------
@register_model(weights=[DLA34_GLUONCV], task='image-classification', protected=('in_channels', 'use_feature'),
                test_input=(1, 3, 32, 32))
def dla34(classes=1000, in_channels=3, momentum=0.9, norm_layer=nn.BatchNorm, norm_kwargs=None, residual_root=False,
          use_feature=False):
    """DLA-34 (arXiv:1707.06484)."""
    return DLA(34, classes, momentum, norm_layer, norm_kwargs, residual_root, use_feature, in_channels)
