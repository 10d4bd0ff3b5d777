"""I3D on ResNet (Carreira & Zisserman, arXiv:1705.07750), with non-local blocks for `i3d_nl*` (Wang et al.,
arXiv:1711.07971): parameter-compatible with GluonCV 0.10.5's `action_recognition.i3d_resnet` (I3D_ResNetV1 and
its ten builders).

A ResNet-50/101/152 V1 whose convs are 3D: the stem is a 5x7x7 conv (stride 2 in time too) and a 1x3x3 max pool
(stride 2 in time), a 2x1x1 max pool follows layer1, and in each residual block that `inflate_freq` marks the first
1x1 conv becomes 3x1x1 ('3x1x1' style; '3x3x3' inflates the 3x3 instead); a block that `nonlocal_freq` marks (in
`nonlocal_stages`) ends with a NonLocal. The clip's layer4 map is averaged over T, H and W, the views of a video
averaged (num_segments * num_crop), and a Dense gives the scores. Structural names are GluonCV's: `first_stage.0-3`,
`res_layers.<stage>.<block>` whose layers are saved twice, as `bottleneck.<i>` and by name (`conv1`, `bn1`, ...,
`nonlocal_block`), `downsample.0-1`, and the Dense as `head.1` and `fc`.

As in GluonCV, `norm_layer` / `norm_kwargs` reach the stem's and the shortcuts' BatchNorms only (its blocks build
plain ones), so `partial_bn` (global statistics) and `bn_frozen` act on those; `bn_eval`, `frozen_stages` and
`inflate_stride` are kept and change nothing. `pretrained_base` inflates the registry's ImageNet ResNet V1b
(resnet50_v1b / resnet101_v1b), GluonCV's 2D net for these.
Layout: blocks -> model -> weights records -> registered builders.
"""
from mxnet.gluon import nn
from mxnet.gluon.block import HybridBlock

from ....errors import BadInputError
from ....registry import get_model, register_model
from .base import GLUONCV_TABLE, BatchNorm, action_weights, resolve_nclass
from .i3d_base import I3DNet, pretrained_2d
from .non_local import build_nonlocal_block


# -- blocks -------------------------------------------------------------------------------------------------------
def _convs(inplanes, planes, stride, temporal_stride, dilation, if_inflate, inflate_style):
    """A block's first two convs: 1x1 and 1x3x3, with the 1x1 inflated to 3x1x1 or the 3x3 to 3x3x3."""
    first = dict(in_channels=inplanes, channels=planes, kernel_size=1, use_bias=False)
    second = dict(in_channels=planes, channels=planes, kernel_size=(1, 3, 3), padding=(0, dilation, dilation),
                  dilation=(1, dilation, dilation), use_bias=False, strides=(1, stride, stride))
    if if_inflate:
        second['strides'] = (temporal_stride, stride, stride)
        if inflate_style == '3x1x1':
            first.update(kernel_size=(3, 1, 1), padding=(1, 0, 0))
        else:
            second.update(kernel_size=3, padding=(1, dilation, dilation))
    return nn.Conv3D(**first), nn.Conv3D(**second)


class Bottleneck(HybridBlock):
    """GluonCV's I3D bottleneck: 1x1 (or 3x1x1) -> 1x3x3 (or 3x3x3, stride here) -> 1x1 x4, BatchNorm + ReLU
    between, the shortcut (`downsample` when the shape changes) added, ReLU, then the NonLocal when `if_nonlocal`
    and `nonlocal_cfg`. The layers sit in `bottleneck` too (its structural names). `norm_layer` / `norm_kwargs`
    are accepted and, as in GluonCV's, the block's BatchNorms are plain ones."""
    expansion = 4
    #: i3d_slow's bottleneck (GluonCV's copy) holds its layers by name only
    in_sequence = True

    def __init__(self, inplanes, planes, spatial_stride=1, temporal_stride=1, dilation=1, downsample=None,
                 if_inflate=True, inflate_style='3x1x1', if_nonlocal=True, nonlocal_cfg=None, norm_layer=BatchNorm,
                 norm_kwargs=None, layer_name='', **kwargs):
        super().__init__(**kwargs)
        del norm_layer, norm_kwargs
        if inflate_style not in ('3x1x1', '3x3x3'):
            raise BadInputError(f"inflate_style={inflate_style!r} is not '3x1x1' or '3x3x3'")
        self.inplanes, self.planes = inplanes, planes
        self.spatial_stride, self.temporal_stride, self.dilation = spatial_stride, temporal_stride, dilation
        out = planes * self.expansion
        if self.in_sequence:
            self.bottleneck = nn.HybridSequential(prefix=layer_name)
        with (self.bottleneck if self.in_sequence else self).name_scope():
            self.conv1, self.conv2 = _convs(inplanes, planes, spatial_stride, temporal_stride, dilation, if_inflate,
                                            inflate_style)
            self.bn1 = BatchNorm(in_channels=planes)
            self.bn2 = BatchNorm(in_channels=planes)
            self.conv3 = nn.Conv3D(in_channels=planes, channels=out, kernel_size=1, use_bias=False)
            self.bn3 = BatchNorm(in_channels=out)
            self.relu = nn.Activation('relu')
            self.downsample = downsample
            self.nonlocal_block = None
            if if_nonlocal and nonlocal_cfg is not None:
                self.nonlocal_block = build_nonlocal_block(dict(nonlocal_cfg, in_channels=out))
        if self.in_sequence:
            self.bottleneck.add(self.conv1, self.bn1, self.relu, self.conv2, self.bn2, self.relu, self.conv3,
                                self.bn3)
            if self.nonlocal_block is not None:
                self.bottleneck.add(self.nonlocal_block)

    def hybrid_forward(self, F, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        identity = x if self.downsample is None else self.downsample(x)
        out = F.Activation(out + identity, act_type='relu')
        return out if self.nonlocal_block is None else self.nonlocal_block(out)


def _per_block(value, blocks, what):
    value = (value,) * blocks if isinstance(value, int) else tuple(value)
    if len(value) != blocks:
        raise BadInputError(f'{what} {value} has {len(value)} entries for a stage of {blocks} blocks')
    return value


def make_res_layer(block, inplanes, planes, blocks, spatial_stride=1, temporal_stride=1, dilation=1,
                   inflate_freq=1, inflate_style='3x1x1', nonlocal_freq=1, nonlocal_cfg=None, norm_layer=BatchNorm,
                   norm_kwargs=None, layer_name=''):
    """One stage of `blocks` blocks (GluonCV's): the first strides and, when the shape changes, has the 1x1x1
    conv + `norm_layer` shortcut; `inflate_freq` / `nonlocal_freq` (an int or one flag a block) pick the inflated
    blocks and those followed by a NonLocal."""
    inflate_freq = _per_block(inflate_freq, blocks, 'inflate_freq')
    nonlocal_freq = _per_block(nonlocal_freq, blocks, 'nonlocal_freq')
    out = planes * block.expansion
    downsample = None
    if spatial_stride != 1 or inplanes != out:
        downsample = nn.HybridSequential(prefix=layer_name + 'downsample_')
        with downsample.name_scope():
            downsample.add(nn.Conv3D(in_channels=inplanes, channels=out, kernel_size=1, use_bias=False,
                                     strides=(temporal_stride, spatial_stride, spatial_stride)),
                           norm_layer(in_channels=out, **(norm_kwargs or {})))
    layers = nn.HybridSequential(prefix=layer_name)
    with layers.name_scope():
        for i in range(blocks):
            layers.add(block(inplanes=inplanes if i == 0 else out, planes=planes,
                             spatial_stride=spatial_stride if i == 0 else 1,
                             temporal_stride=temporal_stride if i == 0 else 1, dilation=dilation,
                             downsample=downsample if i == 0 else None, if_inflate=inflate_freq[i] == 1,
                             inflate_style=inflate_style, if_nonlocal=nonlocal_freq[i] == 1,
                             nonlocal_cfg=nonlocal_cfg, layer_name=f'{i}_'))
    return layers


def resnet_stem(norm_layer, norm_kwargs, kernel_t, stride_t, pool_kernel_t, pool_stride_t):
    """The kernel_t x 7 x 7 conv (stride stride_t, 2, 2) + BN + ReLU + pool_kernel_t x 3 x 3 max pool."""
    stem = nn.HybridSequential(prefix='')
    stem.add(nn.Conv3D(in_channels=3, channels=64, kernel_size=(kernel_t, 7, 7), strides=(stride_t, 2, 2),
                       padding=((kernel_t - 1) // 2, 3, 3), use_bias=False),
             norm_layer(in_channels=64, **(norm_kwargs or {})), nn.Activation('relu'),
             nn.MaxPool3D(pool_size=(pool_kernel_t, 3, 3), strides=(pool_stride_t, 2, 2),
                          padding=(pool_kernel_t // 2, 1, 1)))
    return stem


def global_stats(norm_kwargs):
    """`norm_kwargs` plus use_global_stats=True (GluonCV's bn_frozen / partial_bn), a copy."""
    return dict(norm_kwargs or {}, use_global_stats=True)


# -- model --------------------------------------------------------------------------------------------------------
class I3D_ResNetV1(I3DNet):  # noqa: N801 (GluonCV's name)
    """GluonCV's I3D ResNet: (N * num_segments * num_crop, 3, T, H, W) clips -> (N, nclass) scores (module
    docstring). `depth` 50/101/152; `out_indices`' first stage is the one pooled (feat_dim is layer4's width, so
    that is (3,) in practice); `pretrained_base` (unless `pretrained`: a checkpoint follows) inflates the
    registry's resnet{depth}_v1b ImageNet weights into it, on `ctx`. Without it the net is left for
    `initialize()`, as every gluonzoo net."""
    arch_settings = {50: (Bottleneck, (3, 4, 6, 3)), 101: (Bottleneck, (3, 4, 23, 3)),
                     152: (Bottleneck, (3, 8, 36, 3))}

    def __init__(self, nclass, depth, num_stages=4, pretrained=False, pretrained_base=True, feat_ext=False,
                 num_segments=1, num_crop=1, spatial_strides=(1, 2, 2, 2), temporal_strides=(1, 1, 1, 1),
                 dilations=(1, 1, 1, 1), out_indices=(0, 1, 2, 3), conv1_kernel_t=5, conv1_stride_t=2,
                 pool1_kernel_t=1, pool1_stride_t=2, inflate_freq=(1, 1, 1, 1), inflate_stride=(1, 1, 1, 1),
                 inflate_style='3x1x1', nonlocal_stages=(-1,), nonlocal_freq=(0, 1, 1, 0), nonlocal_cfg=None,
                 bn_eval=True, bn_frozen=False, partial_bn=False, frozen_stages=-1, dropout_ratio=0.5,
                 init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None, ctx=None, **kwargs):
        super().__init__(**kwargs)
        if depth not in self.arch_settings:
            raise BadInputError(f'depth={depth!r}: I3D_ResNetV1 has depths {sorted(self.arch_settings)} (GluonCV\'s '
                                f'BasicBlock I3D for 18/34 is unfinished: its 3x3x3 convs are unpadded)')
        if not (len(spatial_strides) == len(temporal_strides) == len(dilations) == num_stages):
            raise BadInputError(f'spatial_strides, temporal_strides and dilations need {num_stages} entries each')
        if max(out_indices) >= num_stages:
            raise BadInputError(f'out_indices {tuple(out_indices)} name a stage past num_stages={num_stages}')
        self._setup(num_segments, num_crop, feat_ext, dropout_ratio, init_std)
        self.nclass, self.depth, self.num_stages, self.out_indices = nclass, depth, num_stages, tuple(out_indices)
        self.spatial_strides, self.temporal_strides, self.dilations = spatial_strides, temporal_strides, dilations
        self.inflate_freqs = (inflate_freq,) * num_stages if isinstance(inflate_freq, int) else tuple(inflate_freq)
        self.nonlocal_freqs = (nonlocal_freq,) * num_stages if isinstance(nonlocal_freq, int) else \
            tuple(nonlocal_freq)
        self.inflate_style, self.inflate_stride = inflate_style, inflate_stride
        self.nonlocal_stages, self.nonlocal_cfg = tuple(nonlocal_stages), nonlocal_cfg
        self.bn_eval, self.bn_frozen, self.partial_bn, self.frozen_stages = bn_eval, bn_frozen, partial_bn, \
            frozen_stages
        block, stage_blocks = self.arch_settings[depth]
        self.stage_blocks = stage_blocks[:num_stages]
        self.feat_dim = block.expansion * 64 * 2 ** (len(self.stage_blocks) - 1)
        if bn_frozen:
            norm_kwargs = global_stats(norm_kwargs)
        with self.name_scope():
            self.first_stage = resnet_stem(norm_layer, norm_kwargs, conv1_kernel_t, conv1_stride_t, pool1_kernel_t,
                                           pool1_stride_t)
            self.pool2 = nn.MaxPool3D(pool_size=(2, 1, 1), strides=(2, 1, 1))
            if partial_bn:  # every BatchNorm after the stem's (that norm_kwargs reaches)
                norm_kwargs = global_stats(norm_kwargs)
            self.res_layers = nn.HybridSequential(prefix='')
            inplanes = 64
            for i, blocks in enumerate(self.stage_blocks):
                planes = 64 * 2 ** i
                self.res_layers.add(make_res_layer(
                    block, inplanes, planes, blocks, spatial_stride=spatial_strides[i],
                    temporal_stride=temporal_strides[i], dilation=dilations[i], inflate_freq=self.inflate_freqs[i],
                    inflate_style=inflate_style, nonlocal_freq=self.nonlocal_freqs[i],
                    nonlocal_cfg=nonlocal_cfg if i in self.nonlocal_stages else None, norm_layer=norm_layer,
                    norm_kwargs=norm_kwargs, layer_name=f'layer{i + 1}_'))
                inplanes = planes * block.expansion
            self.st_avg = nn.GlobalAvgPool3D()
            self._make_head(nclass)
        if pretrained_base and not pretrained:
            if depth not in (50, 101):
                raise BadInputError(f'pretrained_base: GluonCV inflates resnet50_v1b / resnet101_v1b, there is no 2D '
                                    f'net for depth {depth}; pass pretrained_base=False')
            self.inflate_from(pretrained_2d(f'resnet{depth}_v1b', ctx), ctx)

    def hybrid_forward(self, F, x):
        x = self.first_stage(x)
        outs = []
        for i, layer in enumerate(self.res_layers):
            x = layer(x)
            if i in self.out_indices:
                outs.append(x)
            if i == 0:
                x = self.pool2(x)
        feat = F.squeeze(self.st_avg(outs[0]), axis=(2, 3, 4))
        return self.consensus(F, feat)


# -- weights records (GluonCV 0.10.5 model_store.py, its model-zoo tables) ---------------------------------------
#: trainable parameters of each at its own class count (GluonCV's nets, counted in the peers venv)
_PARAMS = {
    'i3d_resnet50_v1_ucf101': 27430821, 'i3d_resnet50_v1_hmdb51': 27328371, 'i3d_resnet50_v1_kinetics400': 28043472,
    'i3d_resnet50_v1_sthsthv2': 27580398, 'i3d_resnet101_v1_kinetics400': 51754192,
    'i3d_nl5_resnet50_v1_kinetics400': 35401936, 'i3d_nl10_resnet50_v1_kinetics400': 42760400,
    'i3d_nl5_resnet101_v1_kinetics400': 59112656, 'i3d_nl10_resnet101_v1_kinetics400': 66471120,
}
I3D_PAPER = 'https://arxiv.org/abs/1705.07750'
NONLOCAL_PAPER = 'https://arxiv.org/abs/1711.07971'


def clip_sampling(arch):
    """{'frames', 'step'} of GluonCV's table's clip length, e.g. '32 (64/2)': 32 frames, every 2nd of 64."""
    clip = GLUONCV_TABLE[arch][3]
    frames, span = clip.split(' ', 1)
    return {'frames': int(frames), 'step': int(span.strip('()').split('/')[1]), 'segments': int(GLUONCV_TABLE[arch][2])}


def i3d_weights(arch, paper=I3D_PAPER, config=None, params=None):
    """GluonCV's record of `arch`: its clips are preprocess['frames'] frames of 224x224."""
    sampling = clip_sampling(arch)
    return action_weights(arch, (params or _PARAMS)[arch], (1, 3, sampling['frames'], 224, 224), paper,
                          preprocess=sampling, config=config)


# -- registered builders ------------------------------------------------------------------------------------------
#: which blocks of each stage are inflated (GluonCV's): every other one, layer4's middle one
_INFLATE = {50: ((1, 1, 1), (1, 0, 1, 0), (1, 0, 1, 0, 1, 0), (0, 1, 0)),
            101: ((1, 1, 1), (1, 0, 1, 0), tuple((i + 1) % 2 for i in range(23)), (0, 1, 0))}
#: which blocks end in a NonLocal (stages 1 and 2): 5 or 10 of them
_NONLOCAL = {(5, 50): ((0, 0, 0), (0, 1, 0, 1), (0, 1, 0, 1, 0, 1), (0, 0, 0)),
             (10, 50): ((0, 0, 0), (1, 1, 1, 1), (1, 1, 1, 1, 1, 1), (0, 0, 0)),
             (5, 101): ((0, 0, 0), (0, 1, 0, 1), tuple(int(i % 7 == 6) for i in range(23)), (0, 0, 0)),
             (10, 101): ((0, 0, 0), (1, 1, 1, 1), tuple(int(i % 4 == 2) for i in range(23)), (0, 0, 0))}
_REG = dict(task='action-recognition', protected=('nclass',), test_input=(1, 3, 8, 32, 32),
            test_kwargs={'pretrained_base': False})
_FROM_KINETICS = dict(_REG, test_kwargs={'pretrained_base': False, 'use_kinetics_pretrain': False})
#: loading the checkpoint must not fetch the Kinetics-400 one first (GluonCV skips it when pretrained)
_NO_KINETICS = {'use_kinetics_pretrain': False}


def _i3d(depth, nclass, classes, default, pretrained_base, ctx, num_segments, num_crop, partial_bn, bn_frozen,
         feat_ext, dropout_ratio, init_std, norm_layer, norm_kwargs, use_tsn=False, use_kinetics_pretrain=False,
         nonlocal_blocks=None):
    """A GluonCV I3D ResNet builder's net; `use_tsn` is accepted and, as in GluonCV, changes nothing."""
    del use_tsn
    extra = {}
    if nonlocal_blocks:
        extra = dict(nonlocal_stages=(1, 2), nonlocal_cfg={'nonlocal_type': 'gaussian'},
                     nonlocal_freq=_NONLOCAL[nonlocal_blocks, depth])
    net = I3D_ResNetV1(nclass=resolve_nclass(nclass, classes, default), depth=depth,
                       pretrained_base=pretrained_base and not use_kinetics_pretrain, feat_ext=feat_ext,
                       num_segments=num_segments, num_crop=num_crop, out_indices=(3,), inflate_freq=_INFLATE[depth],
                       bn_eval=False, partial_bn=partial_bn, bn_frozen=bn_frozen, dropout_ratio=dropout_ratio,
                       init_std=init_std, norm_layer=norm_layer, norm_kwargs=norm_kwargs, ctx=ctx, **extra)
    if use_kinetics_pretrain:  # GluonCV's fine-tuning start: its Kinetics-400 checkpoint under a new head
        net.copy_body_from(get_model('i3d_resnet50_v1_kinetics400', pretrained=True, ctx=ctx))
    return net


@register_model(weights=i3d_weights('i3d_resnet50_v1_kinetics400'), **_REG)
def i3d_resnet50_v1_kinetics400(nclass=400, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                                partial_bn=False, bn_frozen=False, feat_ext=False, use_tsn=False, dropout_ratio=0.5,
                                init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """I3D ResNet-50 V1, Kinetics-400 (GluonCV; arXiv:1705.07750)."""
    return _i3d(50, default=400, **locals())


@register_model(weights=i3d_weights('i3d_resnet101_v1_kinetics400'), **_REG)
def i3d_resnet101_v1_kinetics400(nclass=400, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                                 partial_bn=False, bn_frozen=False, feat_ext=False, use_tsn=False, dropout_ratio=0.5,
                                 init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """I3D ResNet-101 V1, Kinetics-400 (GluonCV; arXiv:1705.07750)."""
    return _i3d(101, default=400, **locals())


@register_model(weights=i3d_weights('i3d_resnet50_v1_sthsthv2'), **_REG)
def i3d_resnet50_v1_sthsthv2(nclass=174, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                             partial_bn=False, bn_frozen=False, feat_ext=False, use_tsn=False, dropout_ratio=0.5,
                             init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """I3D ResNet-50 V1, Something-Something-V2 (GluonCV; arXiv:1705.07750)."""
    return _i3d(50, default=174, **locals())


@register_model(weights=i3d_weights('i3d_resnet50_v1_hmdb51', config=_NO_KINETICS), **_FROM_KINETICS)
def i3d_resnet50_v1_hmdb51(nclass=51, pretrained_base=True, ctx=None, num_segments=1, num_crop=1, partial_bn=False,
                           bn_frozen=False, feat_ext=False, use_tsn=False, use_kinetics_pretrain=True,
                           dropout_ratio=0.8, init_std=0.001, norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """I3D ResNet-50 V1, HMDB51, fine-tuned from Kinetics-400 (GluonCV; arXiv:1705.07750)."""
    return _i3d(50, default=51, **locals())


@register_model(weights=i3d_weights('i3d_resnet50_v1_ucf101', config=_NO_KINETICS), **_FROM_KINETICS)
def i3d_resnet50_v1_ucf101(nclass=101, pretrained_base=True, ctx=None, num_segments=1, num_crop=1, partial_bn=True,
                           bn_frozen=False, feat_ext=False, use_tsn=False, use_kinetics_pretrain=True,
                           dropout_ratio=0.8, init_std=0.001, norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """I3D ResNet-50 V1, UCF101, fine-tuned from Kinetics-400 (GluonCV; arXiv:1705.07750)."""
    return _i3d(50, default=101, **locals())


@register_model(**_FROM_KINETICS)
def i3d_resnet50_v1_custom(nclass=400, pretrained_base=True, ctx=None, num_segments=1, num_crop=1, partial_bn=True,
                           bn_frozen=False, feat_ext=False, use_tsn=False, use_kinetics_pretrain=True,
                           dropout_ratio=0.8, init_std=0.001, norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """I3D ResNet-50 V1 for a user's classes, started from the Kinetics-400 checkpoint (GluonCV's custom
    builder; arXiv:1705.07750)."""
    return _i3d(50, default=400, **locals())


@register_model(weights=i3d_weights('i3d_nl5_resnet50_v1_kinetics400', NONLOCAL_PAPER), **_REG)
def i3d_nl5_resnet50_v1_kinetics400(nclass=400, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                                    partial_bn=False, bn_frozen=False, feat_ext=False, use_tsn=False,
                                    dropout_ratio=0.5, init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None,
                                    classes=None):
    """I3D ResNet-50 V1 with 5 non-local blocks, Kinetics-400 (GluonCV; arXiv:1711.07971)."""
    return _i3d(50, default=400, nonlocal_blocks=5, **locals())


@register_model(weights=i3d_weights('i3d_nl10_resnet50_v1_kinetics400', NONLOCAL_PAPER), **_REG)
def i3d_nl10_resnet50_v1_kinetics400(nclass=400, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                                     partial_bn=False, bn_frozen=False, feat_ext=False, use_tsn=False,
                                     dropout_ratio=0.5, init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None,
                                     classes=None):
    """I3D ResNet-50 V1 with 10 non-local blocks, Kinetics-400 (GluonCV; arXiv:1711.07971)."""
    return _i3d(50, default=400, nonlocal_blocks=10, **locals())


@register_model(weights=i3d_weights('i3d_nl5_resnet101_v1_kinetics400', NONLOCAL_PAPER), **_REG)
def i3d_nl5_resnet101_v1_kinetics400(nclass=400, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                                     partial_bn=False, bn_frozen=False, feat_ext=False, use_tsn=False,
                                     dropout_ratio=0.5, init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None,
                                     classes=None):
    """I3D ResNet-101 V1 with 5 non-local blocks, Kinetics-400 (GluonCV; arXiv:1711.07971)."""
    return _i3d(101, default=400, nonlocal_blocks=5, **locals())


@register_model(weights=i3d_weights('i3d_nl10_resnet101_v1_kinetics400', NONLOCAL_PAPER), **_REG)
def i3d_nl10_resnet101_v1_kinetics400(nclass=400, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                                      partial_bn=False, bn_frozen=False, feat_ext=False, use_tsn=False,
                                      dropout_ratio=0.5, init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None,
                                      classes=None):
    """I3D ResNet-101 V1 with 10 non-local blocks, Kinetics-400 (GluonCV; arXiv:1711.07971)."""
    return _i3d(101, default=400, nonlocal_blocks=10, **locals())
