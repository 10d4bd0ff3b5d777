"""Residual Attention Networks (Wang et al., arXiv:1704.06904): parameter-compatible with GluonCV 0.10.5
`residualattentionnet{56,92,128,164,200,236,452}` (224x224 ImageNet) and `cifar_residualattentionnet{56,92,452}`
(32x32 CIFAR-10).

Layout: blocks -> model -> registered builders (GluonCV publishes no checkpoint of these). An attention module
multiplies its trunk by 1 + a sigmoid mask; the mask branch max-pools down `levels` times and bilinearly resizes
back to fixed sizes, so each net takes one input size only. Block and child names follow GluonCV
(`attention_module1.0.softmax2_blocks.0.conv1.weight`). As in GluonCV, `norm_layer` / `norm_kwargs` reach the
stem, the attention modules' branches and the head's BN, but not the residual blocks between the modules nor the
modules' skip and last blocks, which always use BatchNorm.
"""

from mxnet.gluon import nn

from ....registry import register_model
from ...layers import norm_factory
from .base import Classifier, last_per_stride


# -- blocks -------------------------------------------------------------------------------------------------------
class ResidualBlock(nn.HybridBlock):
    """Pre-activation bottleneck BN-ReLU-1x1-BN-ReLU-3x3-BN-ReLU-1x1 (channels/4 inside); a shape change projects
    the pre-activated input with a 1x1 conv (`conv4`)."""

    def __init__(self, channels, in_channels=None, stride=1, bn=nn.BatchNorm):
        super().__init__(prefix='')
        self.project = stride != 1 or (in_channels or channels) != channels
        self.bn1 = bn()
        self.conv1 = nn.Conv2D(channels // 4, 1, use_bias=False)
        self.bn2 = bn()
        self.conv2 = nn.Conv2D(channels // 4, 3, stride, 1, use_bias=False)
        self.bn3 = bn()
        self.conv3 = nn.Conv2D(channels, 1, use_bias=False)
        if self.project:
            self.conv4 = nn.Conv2D(channels, 1, stride, use_bias=False)

    def hybrid_forward(self, F, x):
        pre = F.Activation(self.bn1(x), act_type='relu')
        out = self.conv2(F.Activation(self.bn2(self.conv1(pre)), act_type='relu'))
        out = self.conv3(F.Activation(self.bn3(out), act_type='relu'))
        return out + (self.conv4(pre) if self.project else x)


def _blocks(n, channels, bn):
    seq = nn.HybridSequential(prefix='')
    for _ in range(n):
        seq.add(ResidualBlock(channels, bn=bn))
    return seq


class AttentionModule(nn.HybridBlock):
    """Trunk (`t` blocks) times 1 + mask, between `p` blocks before and one after (`scale` = (p, t, r)).

    The mask goes down `levels` 3x3/2 max pools, with `r` blocks after each (2r at the deepest; levels=0: 2r blocks
    at full size), and a skip block at every level but the deepest; it comes back up by bilinear resizes to
    `sizes` (the trunk's side, then the side of each pooled level but the deepest), adding the level's output and
    skip, `r` blocks each, and ends in BN-ReLU-1x1-BN-ReLU-1x1-sigmoid. GluonCV numbers the mask's block groups
    `softmax1_blocks`, ... in that order (the sigmoid group last); its parameter-free pool and resize blocks are
    plain operators here.
    """

    def __init__(self, channels, sizes, scale=(1, 2, 1), bn=nn.BatchNorm):
        super().__init__(prefix='')
        p, t, r = scale
        self.levels, self.sizes = len(sizes), tuple(sizes)
        deepest = max(self.levels, 1)
        self.first_residual_blocks = _blocks(p, channels, bn)
        self.trunk_branches = _blocks(t, channels, bn)
        self.pool = nn.MaxPool2D(3, 2, 1)
        for i in range(1, 2 * deepest):
            setattr(self, f'softmax{i}_blocks', _blocks(2 * r if i == deepest else r, channels, bn))
            if i < self.levels:
                setattr(self, f'skip{i}_connection_residual_block', ResidualBlock(channels))
        mask = nn.HybridSequential(prefix='')
        mask.add(bn(), nn.Activation('relu'), nn.Conv2D(channels, 1, use_bias=False), bn(), nn.Activation('relu'),
                 nn.Conv2D(channels, 1, use_bias=False), nn.Activation('sigmoid'))
        setattr(self, f'softmax{2 * deepest}_blocks', mask)
        self.last_blocks = ResidualBlock(channels)

    def _group(self, i):
        return getattr(self, f'softmax{i}_blocks')

    def hybrid_forward(self, F, x):
        x = self.first_residual_blocks(x)
        trunk = self.trunk_branches(x)
        down, skips, m = [], [], x
        for i in range(1, self.levels + 1):
            m = self._group(i)(self.pool(m))
            down.append(m)
            if i < self.levels:
                skips.append(getattr(self, f'skip{i}_connection_residual_block')(m))
        if not self.levels:
            m = self._group(1)(m)
        group = self.levels + 1
        for level in range(self.levels - 1, 0, -1):  # back up to each pooled level: resize, + its output + skip
            up = F.contrib.BilinearResize2D(m, height=self.sizes[level], width=self.sizes[level])
            m = self._group(group)(up + down[level - 1] + skips[level - 1])
            group += 1
        if self.levels:
            m = F.contrib.BilinearResize2D(m, height=self.sizes[0], width=self.sizes[0]) + trunk
        mask = self._group(2 * max(self.levels, 1))(m)
        return self.last_blocks((mask + 1) * trunk)


# -- model --------------------------------------------------------------------------------------------------------
# depth -> (attention modules per stage, scale (p, t, r))
_DEPTHS = {56: ((1, 1, 1), (1, 2, 1)), 92: ((1, 2, 3), (1, 2, 1)), 128: ((2, 3, 4), (1, 2, 1)),
           164: ((3, 4, 5), (1, 2, 1)), 200: ((4, 5, 6), (1, 2, 1)), 236: ((5, 6, 7), (1, 2, 1)),
           452: ((5, 6, 7), (2, 4, 3))}
# input side -> stem (channels, kernel, stride, pad, max pool after), stage widths, stride of residual_block4,
# the pooled levels of each stage's attention modules (their sides), the head's average pool
_INPUTS = {224: ((64, 7, 2, 3, True), (256, 512, 1024, 2048), 2, ((56, 28, 14), (28, 14), (14,)), 7),
           32: ((32, 3, 1, 1, False), (128, 256, 512, 1024), 1, ((32, 16), (16,), ()), 8)}


class ResidualAttentionNet(Classifier):
    """Residual Attention Network for `input_size` x `input_size` images (224: ImageNet, 32: CIFAR): `m` attention
    modules in each of the three stages, each with `scale` = (p, t, r) residual units (GluonCV's arguments)."""
    head_name = 'fc'

    def __init__(self, scale, m, input_size=224, classes=1000, norm_layer=nn.BatchNorm, norm_kwargs=None,
                 in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if input_size not in _INPUTS or len(m) != 3 or len(scale) != 3:
            raise ValueError(f'ResidualAttentionNet takes input_size in {sorted(_INPUTS)}, three stages of m and '
                             f'scale (p, t, r), not {input_size!r}, {m!r} and {scale!r}')
        modules, scale = tuple(m), tuple(scale)
        (stem, kernel, stride, pad, pool), widths, stride4, sizes, head_pool = _INPUTS[input_size]
        bn = norm_factory(norm_layer, norm_kwargs)
        self.in_channels, self.fixed_input = in_channels, (input_size, input_size)
        with self.name_scope():
            self.conv1 = nn.HybridSequential(prefix='')
            self.conv1.add(nn.Conv2D(stem, kernel, stride, pad, use_bias=False, in_channels=in_channels), bn(),
                           nn.Activation('relu'))
            self.mpool1 = nn.MaxPool2D(3, 2, 1) if pool else None
            in_width = stem
            for i, width in enumerate(widths[:3]):
                setattr(self, f'residual_block{i + 1}', ResidualBlock(width, in_width, 1 if i == 0 else 2))
                stage = nn.HybridSequential(prefix='')
                for _ in range(modules[i]):
                    stage.add(AttentionModule(width, sizes[i], scale, bn))
                setattr(self, f'attention_module{i + 1}', stage)
                in_width = width
            self.residual_block4 = ResidualBlock(widths[3], widths[2], stride4)
            self.residual_block5 = ResidualBlock(widths[3])
            self.residual_block6 = ResidualBlock(widths[3])
            self.mpool2 = nn.HybridSequential(prefix='')
            self.mpool2.add(bn(), nn.Activation('relu'), nn.AvgPool2D(head_pool, 1))
            self.fc = nn.Conv2D(classes, 1)
        side = 4 if pool else 1
        # one map a stride, the deepest (CIFAR's stem and last stages keep the stride of the stage before)
        self.feature_info = last_per_stride(
            [('conv1', stem, stride)] +
            [(f'attention_module{i + 1}', w, side * 2 ** i) for i, w in enumerate(widths[:3])] +
            [('residual_block6', widths[3], side * 2 ** (3 if stride4 == 2 else 2))])

    def stages(self):
        names = ['conv1'] + (['mpool1'] if self.mpool1 is not None else []) + \
            [n for i in range(1, 4) for n in (f'residual_block{i}', f'attention_module{i}')] + \
            ['residual_block4', 'residual_block5', 'residual_block6', 'mpool2']
        return [(n, getattr(self, n)) for n in names]

    def hybrid_forward(self, F, x):
        for _, block in self.stages():
            x = block(x)
        return F.Flatten(self.fc(x))


class ResidualAttentionModel(ResidualAttentionNet):
    """GluonCV's ResidualAttentionModel: the 224 x 224 (ImageNet) network of `m` modules a stage, `scale` units."""

    def __init__(self, scale, m, classes=1000, norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=3, **kwargs):
        super().__init__(scale, m, 224, classes, norm_layer, norm_kwargs, in_channels, **kwargs)


class cifar_ResidualAttentionModel(ResidualAttentionNet):  # noqa: N801 (GluonCV's name)
    """GluonCV's cifar_ResidualAttentionModel: the 32 x 32 (CIFAR) network of `m` modules a stage, `scale` units."""

    def __init__(self, scale, m, classes=10, norm_layer=nn.BatchNorm, norm_kwargs=None, in_channels=3, **kwargs):
        super().__init__(scale, m, 32, classes, norm_layer, norm_kwargs, in_channels, **kwargs)


def _net(depth, input_size, classes, norm_layer, norm_kwargs, in_channels):
    modules, scale = _DEPTHS[depth]
    cls = ResidualAttentionModel if input_size == 224 else cifar_ResidualAttentionModel
    return cls(scale, modules, classes, norm_layer, norm_kwargs, in_channels)


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 224, 224))
_CIFAR = dict(_REG, test_input=(1, 3, 32, 32))


@register_model(**_REG)
def residualattentionnet56(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-56, 224x224 (arXiv:1704.06904)."""
    return _net(56, 224, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def residualattentionnet92(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-92, 224x224 (arXiv:1704.06904)."""
    return _net(92, 224, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def residualattentionnet128(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-128, 224x224 (arXiv:1704.06904)."""
    return _net(128, 224, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def residualattentionnet164(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-164, 224x224 (arXiv:1704.06904)."""
    return _net(164, 224, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def residualattentionnet200(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-200, 224x224 (arXiv:1704.06904)."""
    return _net(200, 224, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def residualattentionnet236(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-236, 224x224 (arXiv:1704.06904)."""
    return _net(236, 224, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_REG)
def residualattentionnet452(classes=1000, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-452, 224x224 (arXiv:1704.06904)."""
    return _net(452, 224, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_CIFAR)
def cifar_residualattentionnet56(classes=10, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-56 for 32x32 CIFAR images (arXiv:1704.06904)."""
    return _net(56, 32, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_CIFAR)
def cifar_residualattentionnet92(classes=10, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-92 for 32x32 CIFAR images (arXiv:1704.06904)."""
    return _net(92, 32, classes, norm_layer, norm_kwargs, in_channels)


@register_model(**_CIFAR)
def cifar_residualattentionnet452(classes=10, in_channels=3, norm_layer=nn.BatchNorm, norm_kwargs=None):
    """Residual Attention Network-452 for 32x32 CIFAR images (arXiv:1704.06904)."""
    return _net(452, 32, classes, norm_layer, norm_kwargs, in_channels)
