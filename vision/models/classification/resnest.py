"""ResNeSt (Zhang et al., arXiv:2004.08955): parameter-compatible with GluonCV 0.10.5 `resnest{14,26,50,101,200,269}`.

A ResNet-D (deep stem, average-pool shortcut) whose bottleneck 3x3 is a split-attention conv: radix 2, one group,
its stride moved to an average pool after it. GluonCV's `dilated` / `dilation` options (the segmentation backbones)
and `norm_layer` / `norm_kwargs` / `use_global_stats` / `last_gamma` / `final_drop` / `split_drop_ratio` work as
there. GluonCV's DropBlock (a training-only regularizer, identity at inference, no parameters) is not implemented.
Layout: blocks -> model -> weights records -> registered builders.
"""
from mxnet.gluon import nn

from ....registry import register_model
from ...meta import IMAGENET
from ._gluoncv import gluoncv
from .base import Classifier, Stage

RADIX = 2  # every GluonCV ResNeSt checkpoint


# -- blocks -------------------------------------------------------------------------------------------------------
class SplitAttentionConv(nn.HybridBlock):
    """A 3x3 conv giving RADIX splits of `channels`, summed with per-channel softmax weights (across the splits)
    computed from their pooled sum."""

    def __init__(self, channels, stride, dilation, in_channels, norm, drop_ratio=0.0):
        super().__init__(prefix='')
        inter = max(in_channels * RADIX // 4, 32)
        self.channels = channels
        self.conv = nn.Conv2D(channels * RADIX, 3, stride, dilation, dilation, groups=RADIX, use_bias=False,
                              in_channels=in_channels)
        self.bn = norm(channels * RADIX)
        self.relu = nn.Activation('relu')
        self.fc1 = nn.Conv2D(inter, 1, in_channels=channels)
        self.bn1 = norm(inter)
        self.relu1 = nn.Activation('relu')
        self.drop = nn.Dropout(drop_ratio) if drop_ratio > 0 else None
        self.fc2 = nn.Conv2D(channels * RADIX, 1, in_channels=inter)

    def hybrid_forward(self, F, x):
        x = self.relu(self.bn(self.conv(x)))
        splits = F.reshape(x.expand_dims(1), (0, RADIX, self.channels, 0, 0))  # (N, radix, C, H, W)
        gap = F.contrib.AdaptiveAvgPooling2D(F.sum(splits, axis=1), output_size=1)
        atten = self.relu1(self.bn1(self.fc1(gap)))
        if self.drop is not None:
            atten = self.drop(atten)
        atten = self.fc2(atten).reshape((0, RADIX, -1, 1, 1))
        return F.sum(F.broadcast_mul(F.softmax(atten, axis=1), splits), axis=1)


class Bottleneck(nn.HybridBlock):
    """1x1 -> split-attention 3x3 -> 1x1 (x4), post-activation; a strided (or dilation-changing) block pools 3x3
    after the split-attention conv ('avd') instead of striding it."""

    def __init__(self, planes, stride, dilation, avd, downsample, in_channels, norm, last_gamma, split_drop_ratio):
        super().__init__(prefix='')
        self.conv1 = nn.Conv2D(planes, 1, use_bias=False, in_channels=in_channels)
        self.bn1 = norm(planes)
        self.relu1 = nn.Activation('relu')
        self.conv2 = SplitAttentionConv(planes, 1 if avd else stride, dilation, planes, norm, split_drop_ratio)
        self.conv3 = nn.Conv2D(planes * 4, 1, use_bias=False, in_channels=planes)
        self.bn3 = norm(planes * 4, **({'gamma_initializer': 'zeros'} if last_gamma else {}))
        self.avd_layer = nn.AvgPool2D(3, stride, 1) if avd else None
        self.relu3 = nn.Activation('relu')
        self.downsample = downsample

    def hybrid_forward(self, F, x):
        out = self.conv2(self.relu1(self.bn1(self.conv1(x))))
        if self.avd_layer is not None:
            out = self.avd_layer(out)
        out = self.bn3(self.conv3(out))
        residual = x if self.downsample is None else self.downsample(x)
        return self.relu3(out + residual)


def _shortcut(channels, stride, pre_dilation, in_channels, norm):
    """Average pool (so no input pixel is skipped), then a 1x1 projection; a dilated stage's strided first block
    pools a wider window (GluonCV's `dilation=3`)."""
    kernel, pad = (stride * pre_dilation, int(pre_dilation > 1)) if stride > 1 else (1, 0)
    seq = nn.HybridSequential(prefix='')
    seq.add(nn.AvgPool2D(kernel, stride, pad, ceil_mode=True, count_include_pad=False),
            nn.Conv2D(channels, 1, use_bias=False, in_channels=in_channels), norm(channels))
    return seq


# -- model --------------------------------------------------------------------------------------------------------
_LAYERS = {14: [1, 1, 1, 1], 26: [2, 2, 2, 2], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 200: [3, 24, 36, 3],
           269: [3, 30, 48, 8]}
# (stride, dilation, first block's dilation) of layer1 and layer2, then of layer3 and layer4 by GluonCV's
# `dilation` (dilated=True is 4)
_EARLY = ((1, 1, 1), (2, 1, 1))
_DILATION = {1: ((2, 1, 1), (2, 1, 1)), 2: ((2, 1, 1), (1, 2, 1)), 3: ((1, 2, 1), (2, 2, 2)),
             4: ((1, 2, 1), (1, 4, 2))}


class ResNeSt(Classifier):
    """ResNeSt of `depth` (deep stem of `stem_width`, radix 2, 1 group, width 64) with GluonCV's options."""
    head_name = 'fc'

    def __init__(self, depth, classes=1000, stem_width=32, dilated=False, dilation=1, norm_layer=nn.BatchNorm,
                 norm_kwargs=None, use_global_stats=False, last_gamma=False, final_drop=0.0, split_drop_ratio=0.0,
                 in_channels=3, **kwargs):
        super().__init__(**kwargs)
        if depth not in _LAYERS:
            raise ValueError(f'ResNeSt depth {depth!r} is not one of {sorted(_LAYERS)}')
        dilation = 4 if dilated else dilation
        if dilation not in _DILATION:
            raise ValueError(f'ResNeSt dilation {dilation!r} is not one of {sorted(_DILATION)}')
        norm_kwargs = dict(norm_kwargs or {}, **({'use_global_stats': True} if use_global_stats else {}))

        def norm(channels, **extra):
            return norm_layer(in_channels=channels, **norm_kwargs, **extra)

        self.in_channels = in_channels
        stem_out = stem_width * 2
        with self.name_scope():
            self.conv1 = nn.HybridSequential(prefix='conv1')
            self.conv1.add(nn.Conv2D(stem_width, 3, 2, 1, use_bias=False, in_channels=in_channels),
                           norm(stem_width), nn.Activation('relu'),
                           nn.Conv2D(stem_width, 3, 1, 1, use_bias=False, in_channels=stem_width),
                           norm(stem_width), nn.Activation('relu'),
                           nn.Conv2D(stem_out, 3, 1, 1, use_bias=False, in_channels=stem_width))
            self.bn1 = norm(stem_out)
            self.relu = nn.Activation('relu')
            self.maxpool = nn.MaxPool2D(3, 2, 1)
            inplanes, total_stride = stem_out, 4
            self.feature_info = [Stage('relu', stem_out, 2)]
            for i, (n, (stride, dil, first_dil)) in enumerate(zip(_LAYERS[depth], _EARLY + _DILATION[dilation])):
                planes = 64 * 2 ** i
                layer = nn.HybridSequential(prefix=f'layers{i + 1}_')
                with layer.name_scope():
                    down = _shortcut(planes * 4, stride, first_dil, inplanes, norm)  # every stage widens
                    layer.add(Bottleneck(planes, stride, first_dil, stride > 1 or dil != first_dil, down, inplanes,
                                         norm, last_gamma, split_drop_ratio))
                    for _ in range(1, n):
                        layer.add(Bottleneck(planes, 1, dil, False, None, planes * 4, norm, last_gamma,
                                             split_drop_ratio))
                setattr(self, f'layer{i + 1}', layer)
                inplanes, total_stride = planes * 4, total_stride * stride
                self.feature_info.append(Stage(f'layer{i + 1}', inplanes, total_stride))
            self.avgpool = nn.GlobalAvgPool2D()
            self.flat = nn.Flatten()
            self.drop = nn.Dropout(final_drop) if final_drop > 0 else None
            self.fc = nn.Dense(classes, in_units=inplanes)

    def stages(self):
        return [(name, getattr(self, name)) for name in
                ('conv1', 'bn1', 'relu', 'maxpool', 'layer1', 'layer2', 'layer3', 'layer4')]

    def hybrid_forward(self, F, x):
        for _, stage in self.stages():
            x = stage(x)
        x = self.flat(self.avgpool(x))
        if self.drop is not None:
            x = self.drop(x)
        return self.fc(x)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'resnest14': '7e0b0cae2fd7e9084d1e498b858af1429a6eb1cb',
    'resnest26': '364590740605b6a2b95f5bb77436d781a817436f',
    'resnest50': 'bcfefe1dd1dd1ef5cfed5563123c1490ea37b42e',
    'resnest101': '5da943b3230f071525a98639945a6b3b3a45ac95',
    'resnest200': '0c5d117df664ace220aa6fc2922c094bb079d381',
    'resnest269': '11ae7f5da2bcdbad05ba7e84f9b74383e717f3e3',
}
_PARAMS = {'resnest14': 10611688, 'resnest26': 17069448, 'resnest50': 27483240, 'resnest101': 48275016,
           'resnest200': 70201544, 'resnest269': 110929480}
# The crop each checkpoint is evaluated at (ResNeSt's README table, whose Gluon column is these files); its
# scripts/gluon/verify.py resizes the short side to ceil(crop / 0.875) (bilinear) up to 320, and above that crops
# the center crop/(crop + 32) of the short side and resizes it bicubically (= short side to crop + 32, center crop).
_PREPROCESS = {224: IMAGENET, 256: dict(IMAGENET, resize=293, crop=256), 320: dict(IMAGENET, resize=366, crop=320),
               416: dict(IMAGENET, resize=448, crop=416, interp='cubic')}
_CROP = {'resnest14': 224, 'resnest26': 224, 'resnest50': 224, 'resnest101': 256, 'resnest200': 320,
         'resnest269': 416}
_PAPER = 'https://arxiv.org/abs/2004.08955'


def _weights(arch):
    return [gluoncv(arch, _SHA1[arch], _PARAMS[arch], _PAPER, preprocess=_PREPROCESS[_CROP[arch]],
                    recipe=f'GluonCV 0.10.5 scripts/classification/imagenet/train_horovod.py ({arch}.sh in the '
                           f'GluonCV model zoo logs)')]


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels',), test_input=(1, 3, 32, 32))


@register_model(weights=_weights('resnest14'), **_REG)
def resnest14(classes=1000, in_channels=3, dilated=False, dilation=1, norm_layer=nn.BatchNorm, norm_kwargs=None,
              use_global_stats=False, last_gamma=False, final_drop=0.0, split_drop_ratio=0.0):
    """ResNeSt-14 (arXiv:2004.08955)."""
    return ResNeSt(14, classes, 32, dilated, dilation, norm_layer, norm_kwargs, use_global_stats, last_gamma,
                   final_drop, split_drop_ratio, in_channels)


@register_model(weights=_weights('resnest26'), **_REG)
def resnest26(classes=1000, in_channels=3, dilated=False, dilation=1, norm_layer=nn.BatchNorm, norm_kwargs=None,
              use_global_stats=False, last_gamma=False, final_drop=0.0, split_drop_ratio=0.0):
    """ResNeSt-26 (arXiv:2004.08955)."""
    return ResNeSt(26, classes, 32, dilated, dilation, norm_layer, norm_kwargs, use_global_stats, last_gamma,
                   final_drop, split_drop_ratio, in_channels)


@register_model(weights=_weights('resnest50'), **_REG)
def resnest50(classes=1000, in_channels=3, dilated=False, dilation=1, norm_layer=nn.BatchNorm, norm_kwargs=None,
              use_global_stats=False, last_gamma=False, final_drop=0.0, split_drop_ratio=0.0):
    """ResNeSt-50 (arXiv:2004.08955)."""
    return ResNeSt(50, classes, 32, dilated, dilation, norm_layer, norm_kwargs, use_global_stats, last_gamma,
                   final_drop, split_drop_ratio, in_channels)


@register_model(weights=_weights('resnest101'), **_REG)
def resnest101(classes=1000, in_channels=3, dilated=False, dilation=1, norm_layer=nn.BatchNorm, norm_kwargs=None,
               use_global_stats=False, last_gamma=False, final_drop=0.0, split_drop_ratio=0.0):
    """ResNeSt-101 (arXiv:2004.08955)."""
    return ResNeSt(101, classes, 64, dilated, dilation, norm_layer, norm_kwargs, use_global_stats, last_gamma,
                   final_drop, split_drop_ratio, in_channels)


@register_model(weights=_weights('resnest200'), **_REG)
def resnest200(classes=1000, in_channels=3, dilated=False, dilation=1, norm_layer=nn.BatchNorm, norm_kwargs=None,
               use_global_stats=False, last_gamma=False, final_drop=0.2, split_drop_ratio=0.0):
    """ResNeSt-200 (arXiv:2004.08955)."""
    return ResNeSt(200, classes, 64, dilated, dilation, norm_layer, norm_kwargs, use_global_stats, last_gamma,
                   final_drop, split_drop_ratio, in_channels)


@register_model(weights=_weights('resnest269'), **_REG)
def resnest269(classes=1000, in_channels=3, dilated=False, dilation=1, norm_layer=nn.BatchNorm, norm_kwargs=None,
               use_global_stats=False, last_gamma=False, final_drop=0.2, split_drop_ratio=0.0):
    """ResNeSt-269 (arXiv:2004.08955)."""
    return ResNeSt(269, classes, 64, dilated, dilation, norm_layer, norm_kwargs, use_global_stats, last_gamma,
                   final_drop, split_drop_ratio, in_channels)
