"""R(2+1)D (Tran et al., arXiv:1711.11248): parameter-compatible with GluonCV 0.10.5's `r2plus1d_resnet*`.

A 3D ResNet whose 3x3x3 convolutions are factored into a 1x3x3 spatial conv to `midplanes` channels, BN, ReLU and a
3x1x1 temporal conv: midplanes = (in x out x 27) // (in x 9 + 3 x out), so the pair has about the parameters of the
3x3x3 conv it replaces. ResNet-18/34 are made of BasicBlocks (two such pairs), ResNet-50/101/152 of Bottlenecks
(1x1x1, a pair, 1x1x1). Stages 2-4 halve T, H and W. Clips are (N, 3, T, H, W); GluonCV's are 16 frames (32 frames,
every 2nd) at 112x112. Layout: blocks -> model -> weights records -> registered builders; structural names are
GluonCV's (`layer1.0.conv1.conv2`, `layer2.0.downsample.0`, `fc`).
"""
from mxnet import init
from mxnet.gluon import nn

from ....registry import register_model
from .base import BatchNorm, action_weights, conv3x1x1, make_norm, resolve_nclass
from .clipnet import ClipNet


def midplanes_of(inplanes, planes):
    """The (2+1)D pair's middle width: what keeps its parameters those of a 3x3x3 conv (GluonCV's arithmetic)."""
    return (inplanes * planes * 3 * 3 * 3) // (inplanes * 3 * 3 + 3 * planes)


# -- blocks -------------------------------------------------------------------------------------------------------
class Conv2Plus1D(nn.HybridBlock):
    """A 3x3x3 conv factored: 1x3x3 to `midplanes` (spatial `stride`), BN, ReLU, 3x1x1 to `planes` (temporal
    `stride`); `padding` pads both."""

    def __init__(self, inplanes, planes, midplanes, stride=1, padding=1, norm_layer=BatchNorm, norm_kwargs=None,
                 **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.conv1 = nn.Conv3D(midplanes, (1, 3, 3), (1, stride, stride), (0, padding, padding), use_bias=False,
                                   in_channels=inplanes)
            self.bn1 = make_norm(norm_layer, norm_kwargs, midplanes)
            self.relu = nn.Activation('relu')
            self.conv2 = nn.Conv3D(planes, (3, 1, 1), (stride, 1, 1), (padding, 0, 0), use_bias=False,
                                   in_channels=midplanes)

    def hybrid_forward(self, F, x):
        return self.conv2(self.relu(self.bn1(self.conv1(x))))


class BasicBlock(nn.HybridBlock):
    """Two (2+1)D pairs (both `midplanes_of(inplanes, planes)` wide; the first carries `stride`) with BN, ReLU
    between, and the shortcut (`downsample` where the shape changes). `layer_name` is accepted as GluonCV's."""
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None, norm_layer=BatchNorm, norm_kwargs=None,
                 layer_name='', **kwargs):
        super().__init__(**kwargs)
        self.downsample = downsample
        mid = midplanes_of(inplanes, planes)
        with self.name_scope():
            self.conv1 = Conv2Plus1D(inplanes, planes, mid, stride, norm_layer=norm_layer, norm_kwargs=norm_kwargs)
            self.bn1 = make_norm(norm_layer, norm_kwargs, planes)
            self.relu = nn.Activation('relu')
            self.conv2 = Conv2Plus1D(planes, planes, mid, norm_layer=norm_layer, norm_kwargs=norm_kwargs)
            self.bn2 = make_norm(norm_layer, norm_kwargs, planes)

    def hybrid_forward(self, F, x):
        out = self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x)))))
        return F.Activation(out + (x if self.downsample is None else self.downsample(x)), act_type='relu')


class Bottleneck(nn.HybridBlock):
    """1x1x1 to `planes`, a (2+1)D pair carrying `stride`, 1x1x1 to 4 x planes, each with BN (ReLU after the first
    two), and the shortcut (`downsample` where the shape changes). `layer_name` is accepted as GluonCV's."""
    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None, norm_layer=BatchNorm, norm_kwargs=None,
                 layer_name='', **kwargs):
        super().__init__(**kwargs)
        self.downsample = downsample
        with self.name_scope():
            self.conv1 = nn.Conv3D(planes, 1, use_bias=False, in_channels=inplanes)
            self.bn1 = make_norm(norm_layer, norm_kwargs, planes)
            self.relu = nn.Activation('relu')
            self.conv2 = Conv2Plus1D(planes, planes, midplanes_of(inplanes, planes), stride, norm_layer=norm_layer,
                                     norm_kwargs=norm_kwargs)
            self.bn2 = make_norm(norm_layer, norm_kwargs, planes)
            self.conv3 = nn.Conv3D(planes * self.expansion, 1, use_bias=False, in_channels=planes)
            self.bn3 = make_norm(norm_layer, norm_kwargs, planes * self.expansion)

    def hybrid_forward(self, F, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return F.Activation(out + (x if self.downsample is None else self.downsample(x)), act_type='relu')


# -- model --------------------------------------------------------------------------------------------------------
class R2Plus1D(ClipNet):
    """GluonCV's R(2+1)D: a (2+1)D stem (1x7x7 to 45 channels with spatial stride 2, then 3x1x1 to 64), four stages
    of `layers` `block`s (64 - 512 planes; stages 2-4 stride 2 in T, H and W), global average pooling, then the
    features (512 x block.expansion) averaged over num_segments x num_crop clips a video, dropout and the Dense head
    `fc` (normal init, `init_std`); `feat_ext=True` returns the averaged features. `partial_bn` and `ctx` are
    accepted and, as in GluonCV 0.10.5, change nothing (the net comes uninitialized; GluonCV's builders initialize
    it with MSRAPrelu: `net.initialize(mx.init.MSRAPrelu())`)."""

    def __init__(self, nclass, block, layers, dropout_ratio=0.5, num_segments=1, num_crop=1, feat_ext=False,
                 init_std=0.001, ctx=None, partial_bn=False, norm_layer=BatchNorm, norm_kwargs=None, **kwargs):
        super().__init__(num_segments, num_crop, feat_ext, **kwargs)
        if block not in (BasicBlock, Bottleneck) or len(layers) != 4:
            raise ValueError(f'R2Plus1D takes block BasicBlock or Bottleneck and four stage depths, not {block!r}, '
                             f'{layers!r}')
        self.partial_bn, self.dropout_ratio, self.init_std = partial_bn, dropout_ratio, init_std
        self.feat_dim = 512 * block.expansion
        norm = (norm_layer, norm_kwargs)
        with self.name_scope():
            self.conv1 = nn.Conv3D(45, (1, 7, 7), (1, 2, 2), (0, 3, 3), use_bias=False, in_channels=3)
            self.bn1 = make_norm(*norm, 45)
            self.relu = nn.Activation('relu')
            self.conv2 = conv3x1x1(45, 64)
            self.bn2 = make_norm(*norm, 64)
            inplanes = 64
            for i, planes in enumerate((64, 128, 256, 512)):
                stage = _stage(block, inplanes, planes, layers[i], 1 if i == 0 else 2, *norm, f'layer{i + 1}_')
                setattr(self, f'layer{i + 1}', stage)
                inplanes = planes * block.expansion
            self.avgpool = nn.GlobalAvgPool3D()
            self.dropout = nn.Dropout(dropout_ratio)
            self.fc = nn.Dense(nclass, in_units=self.feat_dim, weight_initializer=init.Normal(sigma=init_std))

    def hybrid_forward(self, F, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.relu(self.bn2(self.conv2(x)))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = self.consensus(F.squeeze(self.avgpool(x), axis=(2, 3, 4)))  # not flatten: oneDNN fails on it
        return x if self.feat_ext else self.fc(self.dropout(x))


def _stage(block, inplanes, planes, blocks, stride, norm_layer, norm_kwargs, prefix):
    downsample = None
    if stride != 1 or inplanes != planes * block.expansion:
        downsample = nn.HybridSequential(prefix=prefix + 'downsample_')
        with downsample.name_scope():
            downsample.add(nn.Conv3D(planes * block.expansion, 1, stride, use_bias=False, in_channels=inplanes),
                           make_norm(norm_layer, norm_kwargs, planes * block.expansion))
    stage = nn.HybridSequential(prefix=prefix)
    with stage.name_scope():
        stage.add(block(inplanes, planes, stride, downsample, norm_layer, norm_kwargs))
        for _ in range(1, blocks):
            stage.add(block(planes * block.expansion, planes, norm_layer=norm_layer, norm_kwargs=norm_kwargs))
    return stage


# -- weights records (GluonCV 0.10.5 model_store.py, its model-zoo table) ------------------------------------------
#: depth -> (block, layers, trainable parameters at 400 classes, counted on GluonCV's net)
_DEPTHS = {18: (BasicBlock, (2, 2, 2, 2), 31505325), 34: (BasicBlock, (3, 4, 6, 3), 61831661),
           50: (Bottleneck, (3, 4, 6, 3), 53949691), 101: (Bottleneck, (3, 4, 23, 3), 99913475),
           152: (Bottleneck, (3, 8, 36, 3), 137770491)}
_PAPER = 'https://arxiv.org/abs/1711.11248'
#: GluonCV's recipe: 16 frames, every 2nd of 32, resized to 128x171, centre crop 112
PREPROCESS = {'frames': 16, 'step': 2, 'resize': (128, 171), 'crop': 112}


def _reg(depth):
    arch = f'r2plus1d_resnet{depth}_kinetics400'
    # ResNet-18 runs one clip, the others two: the parity test compares a family variant's smallest input, i.e.
    # the BasicBlock net; tests/vision/test_action_3d.py compares a Bottleneck one
    return dict(weights=action_weights(arch, _DEPTHS[depth][2], (1, 3, 16, 112, 112), _PAPER, PREPROCESS),
                task='action-recognition', protected=('nclass',), test_input=(1 if depth == 18 else 2, 3, 4, 32, 32))


def _r2plus1d(depth, nclass, classes, num_segments, num_crop, feat_ext, dropout_ratio, init_std, partial_bn,
              norm_layer, norm_kwargs, pretrained_base):
    """`pretrained_base` is accepted and, as in GluonCV, changes nothing: the net has no ImageNet body."""
    block, layers, _ = _DEPTHS[depth]
    return R2Plus1D(resolve_nclass(nclass, classes, 400), block, layers, dropout_ratio, num_segments, num_crop,
                    feat_ext, init_std, partial_bn=partial_bn, norm_layer=norm_layer, norm_kwargs=norm_kwargs)


@register_model(**_reg(18))
def r2plus1d_resnet18_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, feat_ext=False,
                                  dropout_ratio=0.5, init_std=0.001, partial_bn=False, norm_layer=BatchNorm,
                                  norm_kwargs=None, classes=None):
    """R(2+1)D, ResNet-18 of BasicBlocks, Kinetics-400 (arXiv:1711.11248)."""
    return _r2plus1d(18, **locals())


@register_model(**_reg(34))
def r2plus1d_resnet34_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, feat_ext=False,
                                  dropout_ratio=0.5, init_std=0.001, partial_bn=False, norm_layer=BatchNorm,
                                  norm_kwargs=None, classes=None):
    """R(2+1)D, ResNet-34 of BasicBlocks, Kinetics-400 (arXiv:1711.11248)."""
    return _r2plus1d(34, **locals())


@register_model(**_reg(50))
def r2plus1d_resnet50_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, feat_ext=False,
                                  dropout_ratio=0.5, init_std=0.001, partial_bn=False, norm_layer=BatchNorm,
                                  norm_kwargs=None, classes=None):
    """R(2+1)D, ResNet-50 of Bottlenecks, Kinetics-400 (arXiv:1711.11248)."""
    return _r2plus1d(50, **locals())


@register_model(**_reg(101))
def r2plus1d_resnet101_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, feat_ext=False,
                                   dropout_ratio=0.5, init_std=0.001, partial_bn=False, norm_layer=BatchNorm,
                                   norm_kwargs=None, classes=None):
    """R(2+1)D, ResNet-101 of Bottlenecks, Kinetics-400 (arXiv:1711.11248)."""
    return _r2plus1d(101, **locals())


@register_model(**_reg(152))
def r2plus1d_resnet152_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, feat_ext=False,
                                   dropout_ratio=0.5, init_std=0.001, partial_bn=False, norm_layer=BatchNorm,
                                   norm_kwargs=None, classes=None):
    """R(2+1)D, ResNet-152 of Bottlenecks, Kinetics-400 (arXiv:1711.11248)."""
    return _r2plus1d(152, **locals())
