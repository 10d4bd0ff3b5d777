"""SlowFast (Feichtenhofer et al., arXiv:1812.03982): parameter-compatible with GluonCV 0.10.5's `slowfast_*`.

Two 3D ResNets see the same video: the fast pathway many frames (32 or 64) with 1/beta_inv of the channels, the slow
one few frames (4, 8 or 16) at full width. After the stem and after res2, res3 and res4 a lateral conv (kernel
fusion_kernel_size x 1 x 1, temporal stride alpha) brings the fast features to the slow frame rate, and the slow
pathway goes on from the channel concatenation. Both are pooled, concatenated (slow first) and classified.

A clip holds the fast frames, then the slow frames, along T: (N, 3, fast_frames + slow_frames, H, W), e.g.
32 + 4 = 36 for 4x16 (GluonCV's loader takes 64 consecutive frames and keeps every 2nd and every 16th).
Layout: blocks -> model -> weights records -> registered builders. Structural names are GluonCV's (`fast_res2.0.conv1`,
`lateral_p1.0`, `slow_res5.2.bn3`, `fc`), so its .params files load strictly.
"""
from mxnet import init
from mxnet.gluon import nn

from ....errors import WeightsNotFoundError
from ....registry import get_model, register_model
from .base import BatchNorm, action_weights, copy_all_but_head, make_norm, resolve_nclass
from .clipnet import ClipNet


# -- blocks -------------------------------------------------------------------------------------------------------
class Bottleneck(nn.HybridBlock):
    """SlowFast's bottleneck: a 1x1x1 (`head_conv=1`) or 3x1x1 (`head_conv=3`, temporal) reduction to `planes`,
    a 1x3x3 conv carrying the spatial `strides`, a 1x1x1 expansion to 4 x planes whose BN starts at zero (the block
    starts as its shortcut), and the shortcut: `downsample` (a conv + BN) where the shape changes. `layer_name` is
    GluonCV's parameter prefix."""
    expansion = 4

    def __init__(self, inplanes, planes, strides=1, downsample=None, head_conv=1, norm_layer=BatchNorm,
                 norm_kwargs=None, layer_name='', **kwargs):
        super().__init__(prefix=layer_name or None, **kwargs)
        if head_conv not in (1, 3):
            raise ValueError(f'head_conv is 1 (a 1x1x1 reduction) or 3 (3x1x1, temporal), not {head_conv!r}')
        with self.name_scope():
            self.conv1 = nn.Conv3D(planes, (head_conv, 1, 1), padding=(head_conv // 2, 0, 0), use_bias=False,
                                   in_channels=inplanes)
            self.bn1 = make_norm(norm_layer, norm_kwargs, planes)
            self.conv2 = nn.Conv3D(planes, (1, 3, 3), (1, strides, strides), (0, 1, 1), use_bias=False,
                                   in_channels=planes)
            self.bn2 = make_norm(norm_layer, norm_kwargs, planes)
            self.conv3 = nn.Conv3D(planes * self.expansion, 1, use_bias=False, in_channels=planes)
            self.bn3 = make_norm(norm_layer, norm_kwargs, planes * self.expansion, gamma_initializer='zeros')
            self.relu = nn.Activation('relu')
        self.downsample = downsample

    def hybrid_forward(self, F, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return F.Activation(out + (x if self.downsample is None else self.downsample(x)), act_type='relu')


def _stage(inplanes, planes, blocks, strides, head_conv, temporal_blocks, norm_layer, norm_kwargs, prefix):
    """One ResNet stage of a pathway; past its first `temporal_blocks` blocks (None: all) the heads are 1x1x1."""
    downsample = None
    if strides != 1 or inplanes != planes * Bottleneck.expansion:
        downsample = nn.HybridSequential(prefix=prefix + 'downsample_')
        with downsample.name_scope():
            downsample.add(nn.Conv3D(planes * Bottleneck.expansion, 1, (1, strides, strides), use_bias=False,
                                     in_channels=inplanes),
                           make_norm(norm_layer, norm_kwargs, planes * Bottleneck.expansion))
    stage = nn.HybridSequential(prefix=prefix)
    with stage.name_scope():
        for i in range(blocks):
            head = head_conv if temporal_blocks is None or i < temporal_blocks else 1
            stage.add(Bottleneck(inplanes if i == 0 else planes * Bottleneck.expansion, planes,
                                 strides if i == 0 else 1, downsample if i == 0 else None, head, norm_layer,
                                 norm_kwargs, layer_name=f'block{i}_'))
    return stage


def _lateral(channels, ratio, kernel, alpha, norm_layer, norm_kwargs, prefix):
    """Fast -> slow fusion: a kernel x 1 x 1 conv with temporal stride alpha to `ratio` x the channels, BN, ReLU."""
    seq = nn.HybridSequential(prefix=prefix)
    with seq.name_scope():
        seq.add(nn.Conv3D(channels * ratio, (kernel, 1, 1), (alpha, 1, 1), (kernel // 2, 0, 0), use_bias=False,
                          in_channels=channels),
                make_norm(norm_layer, norm_kwargs, channels * ratio), nn.Activation('relu'))
    return seq


# -- model --------------------------------------------------------------------------------------------------------
class SlowFast(ClipNet):
    """GluonCV's SlowFast network: `layers` bottlenecks a stage in both pathways (ResNet-50: 3, 4, 6, 3); the fast
    pathway has width_per_group // beta_inv stem channels and takes `fast_frames`, the slow one `slow_frames` (the
    T of a clip is their sum); laterals reduce time by `alpha` with `fusion_kernel_size` x 1 x 1 convs to
    `fusion_conv_channel_ratio` x the fast channels. res4 and res5 of the slow pathway and every fast stage have
    3x1x1 heads; `num_block_temp_kernel_fast` / `_slow` keep them on only that many of res4's blocks.

    The fast and slow pooled features (width_per_group * 32 // beta_inv + width_per_group * 32: 2304) are averaged
    over num_segments x num_crop clips a video, then dropout (`dropout_ratio`) and the Dense head `fc` (normal init,
    `init_std`); `feat_ext=True` returns the averaged features. `slow_temporal_stride` / `fast_temporal_stride` say
    how the loader samples the frames (the net never uses them). `pretrained`, `pretrained_base`, `bn_eval`,
    `bn_frozen`, `partial_bn` and `frozen_stages` are accepted and, as in GluonCV 0.10.5, change nothing; `ctx` too:
    the net comes uninitialized (GluonCV's initializes itself with MSRAPrelu: `net.initialize(mx.init.MSRAPrelu())`).
    """

    def __init__(self, nclass, block=Bottleneck, layers=None, num_block_temp_kernel_fast=None,
                 num_block_temp_kernel_slow=None, pretrained=False, pretrained_base=False, feat_ext=False,
                 num_segments=1, num_crop=1, bn_eval=True, bn_frozen=False, partial_bn=False, frozen_stages=-1,
                 dropout_ratio=0.5, init_std=0.01, alpha=8, beta_inv=8, fusion_conv_channel_ratio=2,
                 fusion_kernel_size=5, width_per_group=64, num_groups=1, slow_temporal_stride=16,
                 fast_temporal_stride=2, slow_frames=4, fast_frames=32, norm_layer=BatchNorm, norm_kwargs=None,
                 ctx=None, **kwargs):
        super().__init__(num_segments, num_crop, feat_ext, **kwargs)
        if block is not Bottleneck:
            raise ValueError('SlowFast is built of its Bottleneck blocks only (as GluonCV\'s)')
        layers = tuple(layers or (3, 4, 6, 3))
        if len(layers) != 4:
            raise ValueError(f'layers gives the blocks of res2 - res5: four counts, not {layers!r}')
        self.dropout_ratio, self.init_std = dropout_ratio, init_std
        self.alpha, self.beta_inv = alpha, beta_inv
        self.fusion_conv_channel_ratio, self.fusion_kernel_size = fusion_conv_channel_ratio, fusion_kernel_size
        self.width_per_group, self.num_groups = width_per_group, num_groups
        self.dim_inner = num_groups * width_per_group
        self.out_dim_ratio = beta_inv // fusion_conv_channel_ratio
        self.slow_temporal_stride, self.fast_temporal_stride = slow_temporal_stride, fast_temporal_stride
        self.slow_frames, self.fast_frames = slow_frames, fast_frames
        w, inner, norm = width_per_group, self.dim_inner, (norm_layer, norm_kwargs)
        self.feat_dim = w * 32 // beta_inv + w * 32
        with self.name_scope():
            self.fast_conv1 = nn.Conv3D(w // beta_inv, (5, 7, 7), (1, 2, 2), (2, 3, 3), use_bias=False,
                                        in_channels=3)
            self.fast_bn1 = make_norm(*norm, w // beta_inv)
            self.fast_relu = nn.Activation('relu')
            self.fast_maxpool = nn.MaxPool3D((1, 3, 3), (1, 2, 2), (0, 1, 1))
            # res2 - res5: (input channels, planes, stride, temporal blocks) of the fast pathway
            for i, (cin, planes, strides, temporal) in enumerate([
                    (w // beta_inv, inner // beta_inv, 1, None), (w * 4 // beta_inv, inner * 2 // beta_inv, 2, None),
                    (w * 8 // beta_inv, inner * 4 // beta_inv, 2, num_block_temp_kernel_fast),
                    (w * 16 // beta_inv, inner * 8 // beta_inv, 2, None)]):
                setattr(self, f'fast_res{i + 2}', _stage(cin, planes, layers[i], strides, 3, temporal, *norm,
                                                          f'fast_res{i + 2}_'))
            for name, cin in (('p1', w // beta_inv), ('res2', w * 4 // beta_inv), ('res3', w * 8 // beta_inv),
                              ('res4', w * 16 // beta_inv)):
                setattr(self, f'lateral_{name}', _lateral(cin, fusion_conv_channel_ratio, fusion_kernel_size, alpha,
                                                          *norm, f'lateral_{name}_'))
            self.slow_conv1 = nn.Conv3D(w, (1, 7, 7), (1, 2, 2), (0, 3, 3), use_bias=False, in_channels=3)
            self.slow_bn1 = make_norm(*norm, w)
            self.slow_relu = nn.Activation('relu')
            self.slow_maxpool = nn.MaxPool3D((1, 3, 3), (1, 2, 2), (0, 1, 1))
            # the slow stages take their input concatenated with the lateral's w * k // out_dim_ratio channels
            for i, (k, head, temporal) in enumerate([(1, 1, None), (4, 1, None), (8, 3, num_block_temp_kernel_slow),
                                                     (16, 3, None)]):
                cin = w * k + w * k // self.out_dim_ratio
                setattr(self, f'slow_res{i + 2}', _stage(cin, inner * (1 << i), layers[i], 1 if i == 0 else 2,
                                                          head, temporal, *norm, f'slow_res{i + 2}_'))
            self.avg = nn.GlobalAvgPool3D()
            self.dp = nn.Dropout(dropout_ratio)
            self.fc = nn.Dense(nclass, in_units=self.feat_dim, weight_initializer=init.Normal(sigma=init_std))

    def clip_problem(self, frames, height, width):
        want = self.fast_frames + self.slow_frames
        if frames != want:
            return (f'takes clips of fast_frames + slow_frames = {self.fast_frames} + {self.slow_frames} = {want} '
                    f'frames (the fast pathway\'s, then the slow one\'s, along T)')
        return None

    def hybrid_forward(self, F, x):
        fast = F.slice_axis(x, axis=2, begin=0, end=self.fast_frames)
        slow = F.slice_axis(x, axis=2, begin=self.fast_frames, end=self.fast_frames + self.slow_frames)
        fast, lateral = self.FastPath(F, fast)
        x = self.consensus(F.concat(self.SlowPath(F, slow, lateral), fast, dim=1))
        return x if self.feat_ext else self.fc(self.dp(x))

    def FastPath(self, F, x):
        """The fast pathway's pooled features (N, fast channels) and the four laterals to the slow pathway."""
        x = self.fast_maxpool(self.fast_relu(self.fast_bn1(self.fast_conv1(x))))
        lateral = []
        for stage, fuse in ((self.fast_res2, self.lateral_p1), (self.fast_res3, self.lateral_res2),
                            (self.fast_res4, self.lateral_res3), (self.fast_res5, self.lateral_res4)):
            lateral.append(fuse(x))  # what enters each stage also goes to the slow pathway's same stage
            x = stage(x)
        return F.squeeze(self.avg(x), axis=(2, 3, 4)), lateral  # not flatten: oneDNN fails on it

    def SlowPath(self, F, x, lateral):
        """The slow pathway's pooled features (N, slow channels), each stage fed its input and the lateral."""
        x = self.slow_maxpool(self.slow_relu(self.slow_bn1(self.slow_conv1(x))))
        for stage, fused in zip((self.slow_res2, self.slow_res3, self.slow_res4, self.slow_res5), lateral):
            x = stage(F.concat(x, fused, dim=1))
        return F.squeeze(self.avg(x), axis=(2, 3, 4))


# -- weights records (GluonCV 0.10.5 model_store.py, its model-zoo table) ------------------------------------------
#: name -> (layers, alpha, fusion_kernel_size, slow_frames, fast_frames, slow_temporal_stride, temporal blocks of
#: res4, trainable parameters at 400 classes, counted on GluonCV's net)
_CONFIGS = {
    'slowfast_4x16_resnet50_kinetics400': ((3, 4, 6, 3), 8, 5, 4, 32, 16, None, 34480216),
    'slowfast_4x16_resnet50_custom': ((3, 4, 6, 3), 8, 5, 4, 32, 16, None, 34480216),
    'slowfast_8x8_resnet50_kinetics400': ((3, 4, 6, 3), 4, 7, 8, 32, 8, None, 34566488),
    'slowfast_4x16_resnet101_kinetics400': ((3, 4, 23, 3), 8, 5, 4, 32, 16, None, 62826968),
    'slowfast_8x8_resnet101_kinetics400': ((3, 4, 23, 3), 4, 5, 8, 32, 8, None, 62826968),
    'slowfast_16x8_resnet101_kinetics400': ((3, 4, 23, 3), 4, 5, 16, 64, 8, None, 62826968),
    'slowfast_16x8_resnet101_50_50_kinetics400': ((3, 4, 23, 3), 4, 5, 16, 64, 8, 6, 53774808),
}
_PAPER = 'https://arxiv.org/abs/1812.03982'


def _weights(arch):
    _, _, _, slow, fast, _, _, params = _CONFIGS[arch]
    # GluonCV's test: 64 consecutive frames (new_length 64, new_step 1), every 2nd to the fast pathway, every
    # slow_temporal_stride-th to the slow one
    return action_weights(arch, params, (1, 3, fast + slow, 224, 224), _PAPER,
                          preprocess={'frames': 64, 'step': 1, 'slowfast': (fast, slow)})


# -- registered builders ------------------------------------------------------------------------------------------
def _test_input(arch, videos=1):
    """A short clip of the frames the net takes at 32x32; the ResNet-101 twins of a ResNet-50 run two videos, which
    also makes the parity test (a family variant's smallest input) compare the ResNet-50 one."""
    _, _, _, slow, fast, _, _, _ = _CONFIGS[arch]
    return (videos, 3, fast + slow, 32, 32)


def _reg(arch, videos=1, **test_kwargs):
    return dict(weights=_weights(arch), task='action-recognition', protected=('nclass',),
                test_input=_test_input(arch, videos), test_kwargs=test_kwargs)


def _slowfast(arch, nclass, classes, num_segments, num_crop, feat_ext, dropout_ratio, init_std, norm_layer,
              norm_kwargs, **ignored):
    """`ignored`: GluonCV's builder options that change nothing (pretrained_base, use_tsn, partial_bn, bn_eval, ...;
    these nets have no ImageNet body)."""
    layers, alpha, kernel, slow, fast, slow_stride, temporal, _ = _CONFIGS[arch]
    return SlowFast(resolve_nclass(nclass, classes, 400), layers=layers, num_block_temp_kernel_fast=temporal,
                    num_block_temp_kernel_slow=temporal, feat_ext=feat_ext, num_segments=num_segments,
                    num_crop=num_crop, dropout_ratio=dropout_ratio, init_std=init_std, alpha=alpha, beta_inv=8,
                    fusion_conv_channel_ratio=2, fusion_kernel_size=kernel, width_per_group=64, num_groups=1,
                    slow_temporal_stride=slow_stride, fast_temporal_stride=2, slow_frames=slow, fast_frames=fast,
                    norm_layer=norm_layer, norm_kwargs=norm_kwargs)


@register_model(**_reg('slowfast_4x16_resnet50_kinetics400'))
def slowfast_4x16_resnet50_kinetics400(nclass=400, pretrained_base=True, use_tsn=False, num_segments=1, num_crop=1,
                                       partial_bn=False, feat_ext=False, dropout_ratio=0.5, init_std=0.01,
                                       bn_eval=True, bn_frozen=False, frozen_stages=-1, norm_layer=BatchNorm,
                                       norm_kwargs=None, classes=None):
    """SlowFast 4x16 (4 slow frames, temporal stride 16), ResNet-50 pathways, Kinetics-400 (arXiv:1812.03982)."""
    return _slowfast('slowfast_4x16_resnet50_kinetics400', **locals())


@register_model(**_reg('slowfast_4x16_resnet50_custom', use_kinetics_pretrain=False))
def slowfast_4x16_resnet50_custom(nclass=400, pretrained_base=True, use_tsn=False, num_segments=1, num_crop=1,
                                  partial_bn=False, feat_ext=False, use_kinetics_pretrain=True, dropout_ratio=0.5,
                                  init_std=0.01, bn_eval=True, bn_frozen=False, frozen_stages=-1,
                                  norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """SlowFast 4x16, ResNet-50, for your classes: with `use_kinetics_pretrain` (GluonCV's default) all but the
    head start from slowfast_4x16_resnet50_kinetics400's checkpoint (arXiv:1812.03982)."""
    net = _slowfast('slowfast_4x16_resnet50_custom', **locals())
    if use_kinetics_pretrain:
        try:
            source = get_model('slowfast_4x16_resnet50_kinetics400', pretrained=True)
        except WeightsNotFoundError as e:
            raise WeightsNotFoundError(f'slowfast_4x16_resnet50_custom starts from the Kinetics-400 checkpoint '
                                       f'(use_kinetics_pretrain=True): {e}; or pass use_kinetics_pretrain=False '
                                       f'to start from scratch') from None
        copy_all_but_head(net, source, 'fc')
    return net


@register_model(**_reg('slowfast_8x8_resnet50_kinetics400'))
def slowfast_8x8_resnet50_kinetics400(nclass=400, pretrained_base=True, use_tsn=False, num_segments=1, num_crop=1,
                                      partial_bn=False, feat_ext=False, dropout_ratio=0.5, init_std=0.01,
                                      bn_eval=True, bn_frozen=False, frozen_stages=-1, norm_layer=BatchNorm,
                                      norm_kwargs=None, classes=None):
    """SlowFast 8x8 (8 slow frames, stride 8; 7x1x1 laterals), ResNet-50, Kinetics-400 (arXiv:1812.03982)."""
    return _slowfast('slowfast_8x8_resnet50_kinetics400', **locals())


@register_model(**_reg('slowfast_4x16_resnet101_kinetics400', videos=2))
def slowfast_4x16_resnet101_kinetics400(nclass=400, pretrained_base=True, use_tsn=False, num_segments=1, num_crop=1,
                                        partial_bn=False, feat_ext=False, dropout_ratio=0.5, init_std=0.01,
                                        bn_eval=True, bn_frozen=False, frozen_stages=-1, norm_layer=BatchNorm,
                                        norm_kwargs=None, classes=None):
    """SlowFast 4x16, ResNet-101 pathways, Kinetics-400 (arXiv:1812.03982)."""
    return _slowfast('slowfast_4x16_resnet101_kinetics400', **locals())


@register_model(**_reg('slowfast_8x8_resnet101_kinetics400', videos=2))
def slowfast_8x8_resnet101_kinetics400(nclass=400, pretrained_base=True, use_tsn=False, num_segments=1, num_crop=1,
                                       partial_bn=False, feat_ext=False, dropout_ratio=0.5, init_std=0.01,
                                       bn_eval=True, bn_frozen=False, frozen_stages=-1, norm_layer=BatchNorm,
                                       norm_kwargs=None, classes=None):
    """SlowFast 8x8, ResNet-101 pathways, Kinetics-400 (arXiv:1812.03982)."""
    return _slowfast('slowfast_8x8_resnet101_kinetics400', **locals())


@register_model(**_reg('slowfast_16x8_resnet101_kinetics400'))
def slowfast_16x8_resnet101_kinetics400(nclass=400, pretrained_base=True, use_tsn=False, num_segments=1, num_crop=1,
                                        partial_bn=False, feat_ext=False, dropout_ratio=0.5, init_std=0.01,
                                        bn_eval=True, bn_frozen=False, frozen_stages=-1, norm_layer=BatchNorm,
                                        norm_kwargs=None, classes=None):
    """SlowFast 16x8 (16 slow, 64 fast frames), ResNet-101 pathways, Kinetics-400 (arXiv:1812.03982)."""
    return _slowfast('slowfast_16x8_resnet101_kinetics400', **locals())


@register_model(**_reg('slowfast_16x8_resnet101_50_50_kinetics400'))
def slowfast_16x8_resnet101_50_50_kinetics400(nclass=400, pretrained_base=True, use_tsn=False, num_segments=1,
                                              num_crop=1, partial_bn=False, feat_ext=False, dropout_ratio=0.5,
                                              init_std=0.01, bn_eval=True, bn_frozen=False, frozen_stages=-1,
                                              norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """SlowFast 16x8, ResNet-101 pathways whose res4 keeps 3x1x1 heads on its first 6 blocks only, as ResNet-50's
    (GluonCV's "50_50"), Kinetics-400 (arXiv:1812.03982)."""
    return _slowfast('slowfast_16x8_resnet101_50_50_kinetics400', **locals())
