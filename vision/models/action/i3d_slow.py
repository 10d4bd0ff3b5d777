"""The slow pathway of SlowFast alone (Feichtenhofer et al., arXiv:1812.03982), GluonCV's `i3d_slow`:
parameter-compatible with GluonCV 0.10.5's `action_recognition.i3d_slow` (ResNet_SlowFast,
i3d_slow_resnet101_f16s4_kinetics700).

An I3D ResNet (i3d_resnet.py's blocks) that never strides in time: a 1x7x7 stem, a 1x3x3 pool, no pool after
layer1, and only layer3's and layer4's blocks inflated (3x1x1), so a 16-frame clip stays 16 frames deep to the
global average. Structural names are GluonCV's: `first_stage.0-3`, `res_layers.<stage>.<block>` with the block's
layers by name only (`conv1`, `bn1`, ..., `downsample.0-1`), the Dense as `head.1` and `fc`. GluonCV trains it from
scratch (its `pretrained_base` is accepted and loads nothing); as in GluonCV, `norm_layer` / `norm_kwargs` reach the
stem's and shortcuts' BatchNorms, and `partial_bn`, `bn_frozen`, `bn_eval`, `frozen_stages`, `inflate_stride`
change nothing.
Layout: blocks -> model -> weights record -> registered builder.
"""
from mxnet.gluon import nn

from ....errors import BadInputError
from ....registry import register_model
from .base import BatchNorm, resolve_nclass
from . import i3d_resnet
from .i3d_base import I3DNet
from .i3d_resnet import i3d_weights, resnet_stem


# -- blocks -------------------------------------------------------------------------------------------------------
class Bottleneck(i3d_resnet.Bottleneck):
    """i3d_resnet's bottleneck, its layers held by name only (GluonCV's i3d_slow copy of it)."""
    in_sequence = False


def make_res_layer(block, inplanes, planes, blocks, **kwargs):
    """One stage (i3d_resnet.make_res_layer, GluonCV's copy of it here)."""
    return i3d_resnet.make_res_layer(block, inplanes, planes, blocks, **kwargs)


# -- model --------------------------------------------------------------------------------------------------------
class ResNet_SlowFast(I3DNet):  # noqa: N801 (GluonCV's name)
    """GluonCV's slow-only ResNet: (N * num_segments * num_crop, 3, T, H, W) clips -> (N, num_classes) scores
    (module docstring); `depth` 50/101/152. The net is left for `initialize()`."""
    arch_settings = {50: (Bottleneck, (3, 4, 6, 3)), 101: (Bottleneck, (3, 4, 23, 3)),
                     152: (Bottleneck, (3, 8, 36, 3))}

    def __init__(self, num_classes, depth, pretrained=None, pretrained_base=True, feat_ext=False, num_segments=1,
                 num_crop=1, num_stages=4, spatial_strides=(1, 2, 2, 2), temporal_strides=(1, 1, 1, 1),
                 dilations=(1, 1, 1, 1), out_indices=(0, 1, 2, 3), conv1_kernel_t=1, conv1_stride_t=1,
                 pool1_kernel_t=1, pool1_stride_t=1, frozen_stages=-1, inflate_freq=(0, 0, 1, 1),
                 inflate_stride=(1, 1, 1, 1), inflate_style='3x1x1', nonlocal_stages=(-1,),
                 nonlocal_freq=(0, 0, 0, 0), nonlocal_cfg=None, bn_eval=False, bn_frozen=False, partial_bn=False,
                 dropout_ratio=0.5, init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None, ctx=None, **kwargs):
        super().__init__(**kwargs)
        del pretrained, pretrained_base, ctx  # GluonCV's: it trains this net from scratch
        if depth not in self.arch_settings:
            raise BadInputError(f'depth={depth!r}: ResNet_SlowFast has depths {sorted(self.arch_settings)}')
        if not 1 <= num_stages <= 4 or not (len(spatial_strides) == len(temporal_strides) == len(dilations)
                                            == num_stages):
            raise BadInputError(f'num_stages={num_stages} must be 1-4, with as many spatial_strides, '
                                f'temporal_strides and dilations')
        if max(out_indices) >= num_stages:
            raise BadInputError(f'out_indices {tuple(out_indices)} name a stage past num_stages={num_stages}')
        self._setup(num_segments, num_crop, feat_ext, dropout_ratio, init_std)
        self.num_classes, self.depth, self.num_stages, self.out_indices = num_classes, depth, num_stages, \
            tuple(out_indices)
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
        with self.name_scope():
            self.first_stage = resnet_stem(norm_layer, norm_kwargs, conv1_kernel_t, conv1_stride_t, pool1_kernel_t,
                                           pool1_stride_t)
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
            self._make_head(num_classes)

    def hybrid_forward(self, F, x):
        x = self.first_stage(x)
        outs = []
        for i, layer in enumerate(self.res_layers):
            x = layer(x)
            if i in self.out_indices:
                outs.append(x)
        return self.consensus(F, F.squeeze(self.st_avg(outs[0]), axis=(2, 3, 4)))


# -- weights record (GluonCV 0.10.5 model_store.py, its model-zoo table) -----------------------------------------
_PARAMS = {'i3d_slow_resnet101_f16s4_kinetics700': 60973820}  # GluonCV's net, counted in the peers venv
_PAPER = 'https://arxiv.org/abs/1812.03982'


# -- registered builder -------------------------------------------------------------------------------------------
@register_model(weights=i3d_weights('i3d_slow_resnet101_f16s4_kinetics700', _PAPER, params=_PARAMS),
                task='action-recognition', protected=('nclass',), test_input=(1, 3, 4, 32, 32),
                test_kwargs={'pretrained_base': False})
def i3d_slow_resnet101_f16s4_kinetics700(nclass=700, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                                         partial_bn=False, bn_frozen=False, feat_ext=False, dropout_ratio=0.5,
                                         init_std=0.01, norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """Slow-only I3D ResNet-101, 16 frames every 4th, Kinetics-700 (GluonCV; arXiv:1812.03982)."""
    return ResNet_SlowFast(num_classes=resolve_nclass(nclass, classes, 700), depth=101,
                           pretrained_base=pretrained_base, feat_ext=feat_ext, num_segments=num_segments,
                           num_crop=num_crop, out_indices=(3,), bn_eval=False, partial_bn=partial_bn,
                           bn_frozen=bn_frozen, dropout_ratio=dropout_ratio, init_std=init_std,
                           norm_layer=norm_layer, norm_kwargs=norm_kwargs, ctx=ctx)
