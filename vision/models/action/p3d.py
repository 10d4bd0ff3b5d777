"""P3D, Pseudo-3D ResNet (Qiu et al., arXiv:1711.10305): parameter-compatible with GluonCV 0.10.5's `p3d_resnet*`.

A ResNet bottleneck whose 3x3 conv becomes a 1x3x3 spatial conv S and a 3x1x1 temporal conv T, combined in turn as
P3D-A (T after S), P3D-B (S and T side by side, summed) and P3D-C (S, plus T of S). The blocks of stages 1-3 are
such 3D blocks, each followed by a 2x1x1 max pool over time; stage 4 is a plain 2D ResNet stage on the remaining
single frame. So a clip's T must pool to 1: 16 frames (every 2nd of 32; 16-31 work) at 224x224. Layout: blocks ->
model -> weights records -> registered builders; structural names are GluonCV's (`layer1.0.conv_temporal`,
`layer4.0.downsample.0`, `fc`).
"""
from mxnet import init
from mxnet.gluon import nn

from ....registry import register_model
from .base import BatchNorm, action_weights, conv1x3x3, conv3x1x1, make_norm, resolve_nclass
from .clipnet import ClipNet, pooled

DESIGNS = ('A', 'B', 'C')


# -- blocks -------------------------------------------------------------------------------------------------------
class Bottleneck(nn.HybridBlock):
    """P3D's bottleneck, the `num_layers`-th block of the net: while num_layers < depth_3d a 3D block (1x1x1 to
    `planes`; S = 1x3x3 and T = 3x1x1 combined as block_design[num_layers % 3]; 1x1x1 to 4 x planes), after that a
    2D ResNet bottleneck (1x1, 3x3, 1x1); BN after each conv, ReLU after all but the last, then the shortcut
    (`downsample` where the shape changes). The first conv carries the stride: 1x2x2 in a 3D block with a
    downsample (none in the net's first block), 2 in the first 2D block. `spatial_stride` is the stride of a block
    without downsample (GluonCV's: its callers pass 1); `temporal_stride`, `dilation`, `layer_name` are accepted as
    GluonCV's."""
    expansion = 4

    def __init__(self, inplanes, planes, spatial_stride=1, temporal_stride=1, dilation=1, downsample=None,
                 num_layers=0, depth_3d=13, block_design=DESIGNS, norm_layer=BatchNorm, norm_kwargs=None,
                 layer_name='', **kwargs):
        super().__init__(**kwargs)
        self.inplanes, self.planes, self.dilation = inplanes, planes, dilation
        self.downsample = downsample
        self.num_layers = self.block_id = int(num_layers)
        self.depth_3d, self.block_design = depth_3d, tuple(block_design)
        self.design = self.block_design[self.block_id % len(self.block_design)]
        if self.design not in DESIGNS:
            raise ValueError(f'block_design holds P3D units {DESIGNS}, not {self.design!r}')
        self.is_3d = self.num_layers < depth_3d
        norm = (norm_layer, norm_kwargs)
        with self.name_scope():
            if self.is_3d:
                strides = 1 if self.num_layers == 0 else ((1, 2, 2) if downsample is not None else spatial_stride)
                self.conv1 = nn.Conv3D(planes, 1, strides, use_bias=False, in_channels=inplanes)
                self.bn1 = make_norm(*norm, planes)
                self.conv2 = conv1x3x3(planes, planes)
                self.bn2 = make_norm(*norm, planes)
                self.conv_temporal = conv3x1x1(planes, planes)
                self.bn_temporal = make_norm(*norm, planes)
                self.conv3 = nn.Conv3D(planes * self.expansion, 1, use_bias=False, in_channels=planes)
            else:
                strides = 2 if self.num_layers == depth_3d else 1
                self.conv1 = nn.Conv2D(planes, 1, strides, use_bias=False, in_channels=inplanes)
                self.bn1 = make_norm(*norm, planes)
                self.conv2 = nn.Conv2D(planes, 3, 1, 1, use_bias=False, in_channels=planes)
                self.bn2 = make_norm(*norm, planes)
                self.conv3 = nn.Conv2D(planes * self.expansion, 1, use_bias=False, in_channels=planes)
            self.bn3 = make_norm(*norm, planes * self.expansion)
            self.relu = nn.Activation('relu')

    def _spatial(self, x):
        return self.relu(self.bn2(self.conv2(x)))

    def _temporal(self, x):
        return self.relu(self.bn_temporal(self.conv_temporal(x)))

    def P3DA(self, x):
        """P3D-A: the temporal conv after the spatial one."""
        return self._temporal(self._spatial(x))

    def P3DB(self, x):
        """P3D-B: the spatial and the temporal conv side by side, summed."""
        return self._spatial(x) + self._temporal(x)

    def P3DC(self, x):
        """P3D-C: the spatial conv plus the temporal conv of it."""
        s = self._spatial(x)
        return s + self._temporal(s)

    def hybrid_forward(self, F, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = getattr(self, f'P3D{self.design}')(out) if self.is_3d else self._spatial(out)
        out = self.bn3(self.conv3(out))
        return F.Activation(out + (x if self.downsample is None else self.downsample(x)), act_type='relu')


# -- model --------------------------------------------------------------------------------------------------------
class P3D(ClipNet):
    """GluonCV's P3D: a 1x7x7 stem (64, spatial stride 2), a 2x3x3 max pool (stride 2), stages 1-3 of 3D bottlenecks
    (`layers`; 64, 128, 256 planes; 2 and 3 halve H and W) each followed by a 2x1x1 max pool over time, the last
    frame's 2D stage 4 (512 planes), global average pooling, then the features (2048) averaged over num_segments x
    num_crop clips a video, dropout and the Dense head `fc` (normal init, `init_std`); `feat_ext=True` returns the
    averaged features. `block_design` is the P3D unit cycle of the 3D blocks (GluonCV's class takes it but always
    uses A, B, C). `shortcut_type`, `partial_bn` and `ctx` are accepted and, as in GluonCV 0.10.5, change nothing
    (the net comes uninitialized; GluonCV's builders initialize it with MSRAPrelu:
    `net.initialize(mx.init.MSRAPrelu())`)."""

    def __init__(self, nclass, block, layers, shortcut_type='B', block_design=DESIGNS, dropout_ratio=0.5,
                 num_segments=1, num_crop=1, feat_ext=False, init_std=0.001, ctx=None, partial_bn=False,
                 norm_layer=BatchNorm, norm_kwargs=None, **kwargs):
        super().__init__(num_segments, num_crop, feat_ext, **kwargs)
        if block is not Bottleneck or len(layers) != 4:
            raise ValueError(f'P3D takes its Bottleneck blocks and four stage depths, not {block!r}, {layers!r}')
        self.shortcut_type, self.block_design, self.partial_bn = shortcut_type, tuple(block_design), partial_bn
        self.dropout_ratio, self.init_std = dropout_ratio, init_std
        self.feat_dim = 512 * block.expansion
        self.depth_3d = sum(layers[:3])  # stages 1-3 are 3D, stage 4 2D
        norm = (norm_layer, norm_kwargs)
        with self.name_scope():
            self.conv1 = nn.Conv3D(64, (1, 7, 7), (1, 2, 2), (0, 3, 3), use_bias=False, in_channels=3)
            self.bn1 = make_norm(*norm, 64)
            self.relu = nn.Activation('relu')
            self.pool = nn.MaxPool3D((2, 3, 3), 2, (0, 1, 1))
            self.pool2 = nn.MaxPool3D((2, 1, 1), (2, 1, 1))
            inplanes, count = 64, 0
            for i, planes in enumerate((64, 128, 256, 512)):
                stride = 1 if i == 0 else 2
                downsample = None
                if stride != 1 or inplanes != planes * block.expansion:
                    downsample = nn.HybridSequential(prefix=f'layer{i + 1}_downsample_')
                    conv = nn.Conv3D(planes * 4, 1, (1, stride, stride), use_bias=False, in_channels=inplanes) \
                        if count < self.depth_3d else nn.Conv2D(planes * 4, 1, stride, use_bias=False,
                                                                in_channels=inplanes)
                    with downsample.name_scope():
                        downsample.add(conv, make_norm(*norm, planes * 4))
                stage = nn.HybridSequential(prefix=f'layer{i + 1}_')
                with stage.name_scope():
                    for j in range(layers[i]):
                        stage.add(block(inplanes, planes, stride if j == 0 else 1, 1, 1,
                                        downsample if j == 0 else None, count, self.depth_3d, self.block_design,
                                        norm_layer, norm_kwargs))
                        inplanes, count = planes * block.expansion, count + 1
                setattr(self, f'layer{i + 1}', stage)
            self.avgpool = nn.GlobalAvgPool2D()
            self.dropout = nn.Dropout(dropout_ratio)
            self.fc = nn.Dense(nclass, in_units=self.feat_dim, weight_initializer=init.Normal(sigma=init_std))

    def clip_problem(self, frames, height, width):
        t = pooled(frames, 2, 2)  # the stem's pool, then one 2x1x1 pool after each 3D stage
        for _ in range(3):
            t = pooled(t, 2, 2) if t >= 2 else 0
        if t != 1:
            return ('takes clips of 16 frames (16-31 work: its three 3D stages must pool time to the one frame '
                    'stage 4 sees)')
        return None

    def hybrid_forward(self, F, x):
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        x = self.pool2(self.layer3(self.pool2(self.layer2(self.pool2(self.layer1(x))))))
        x = self.layer4(F.squeeze(x, axis=2))  # the single frame left, as an image
        x = self.consensus(F.squeeze(self.avgpool(x), axis=(2, 3)))
        return x if self.feat_ext else self.fc(self.dropout(x))


# -- weights records (GluonCV 0.10.5 model_store.py, its model-zoo table) ------------------------------------------
#: depth -> (layers, trainable parameters at 400 classes, counted on GluonCV's net)
_DEPTHS = {50: ((3, 4, 6, 3), 25745232), 101: ((3, 4, 23, 3), 48088400)}
_PAPER = 'https://arxiv.org/abs/1711.10305'


def _reg(depth):
    arch = f'p3d_resnet{depth}_kinetics400'
    # ResNet-101 runs two clips: the parity test compares a family variant's smallest input, the ResNet-50 one
    return dict(weights=action_weights(arch, _DEPTHS[depth][1], (1, 3, 16, 224, 224), _PAPER,
                                       {'frames': 16, 'step': 2}),
                task='action-recognition', protected=('nclass',), test_input=(1 if depth == 50 else 2, 3, 16, 32, 32))


def _p3d(depth, nclass, classes, num_segments, num_crop, feat_ext, dropout_ratio, init_std, partial_bn, norm_layer,
         norm_kwargs, pretrained_base):
    """`pretrained_base` is accepted and, as in GluonCV, changes nothing: the net has no ImageNet body."""
    return P3D(resolve_nclass(nclass, classes, 400), Bottleneck, _DEPTHS[depth][0], dropout_ratio=dropout_ratio,
               num_segments=num_segments, num_crop=num_crop, feat_ext=feat_ext, init_std=init_std,
               partial_bn=partial_bn, norm_layer=norm_layer, norm_kwargs=norm_kwargs)


@register_model(**_reg(50))
def p3d_resnet50_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, feat_ext=False,
                             dropout_ratio=0.5, init_std=0.001, partial_bn=False, norm_layer=BatchNorm,
                             norm_kwargs=None, classes=None):
    """P3D, ResNet-50 (stages 1-3 pseudo-3D), Kinetics-400 (arXiv:1711.10305)."""
    return _p3d(50, **locals())


@register_model(**_reg(101))
def p3d_resnet101_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, feat_ext=False,
                              dropout_ratio=0.5, init_std=0.001, partial_bn=False, norm_layer=BatchNorm,
                              norm_kwargs=None, classes=None):
    """P3D, ResNet-101 (stages 1-3 pseudo-3D), Kinetics-400 (arXiv:1711.10305)."""
    return _p3d(101, **locals())
