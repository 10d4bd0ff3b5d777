"""HRNet (Wang et al., arXiv:1908.07919): parameter-compatible with GluonCV 0.10.5 `hrnet_w*_c` (ImageNet
classification) and `hrnet_w*_s` (Cityscapes semantic segmentation, 19 classes).

A stride-4 stem and a bottleneck layer, then three stages of parallel branches at strides 4, 8, 16 (and 32) that
exchange features after every module: strided 3x3 convs carry a branch down, a 1x1 conv and an upsampling carry it
up. The `_c` head merges the branches into 2048 features for a Dense layer; the `_s` head upsamples every branch to
stride 4, concatenates them and predicts a score map of (N, classes, H/4, W/4), which GluonCV does not resize to
the input.

Layout: blocks -> model -> weights records -> registered builders. GluonCV quirks kept because its checkpoints
and outputs depend on them: `norm_layer` / `norm_kwargs` reach only the stem, the transitions and the heads (the
residual blocks and the fuse layers keep a plain BatchNorm); the residual blocks' convs have no bias, the heads'
convs do.
"""
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import Identity

from ....errors import BadInputError
from ....registry import register_model
from ._gluoncv import gluoncv
from .base import Classifier

_INTERP = ('nearest', 'bilinear', 'bilinear_like')


def _conv3x3(channels, in_channels, stride=1, use_bias=False):
    return nn.Conv2D(channels, 3, stride, 1, use_bias=use_bias, in_channels=in_channels)


def _conv_norm_relu(conv, norm, relu=True):
    """A HybridSequential of `conv`, norm_layer(**norm_kwargs) and (with `relu`) a ReLU."""
    layer, kwargs = norm
    seq = nn.HybridSequential(prefix='')
    seq.add(conv, layer(**kwargs))
    if relu:
        seq.add(nn.Activation('relu'))
    return seq


# -- blocks -------------------------------------------------------------------------------------------------------
class Block(nn.HybridBlock):
    """Post-activation residual block without conv bias: two 3x3 convs, or (`bottleneck`) 1x1, 3x3, 1x1 at a
    quarter of the width; a 1x1 conv shortcut where the width changes."""

    def __init__(self, channels, in_channels, bottleneck):
        super().__init__(prefix='')
        self.body = nn.HybridSequential(prefix='')
        if bottleneck:
            mid = channels // 4
            self.body.add(nn.Conv2D(mid, 1, use_bias=False, in_channels=in_channels), nn.BatchNorm(),
                          nn.Activation('relu'), _conv3x3(mid, mid), nn.BatchNorm(), nn.Activation('relu'),
                          nn.Conv2D(channels, 1, use_bias=False, in_channels=mid), nn.BatchNorm())
        else:
            self.body.add(_conv3x3(channels, in_channels), nn.BatchNorm(), nn.Activation('relu'),
                          _conv3x3(channels, channels), nn.BatchNorm())
        self.downsample = None
        if in_channels != channels:
            self.downsample = nn.HybridSequential(prefix='')
            self.downsample.add(nn.Conv2D(channels, 1, use_bias=False, in_channels=in_channels), nn.BatchNorm())

    def hybrid_forward(self, F, x):
        residual = self.downsample(x) if self.downsample else x
        return F.Activation(self.body(x) + residual, act_type='relu')


def _layer(channels, in_channels, blocks, bottleneck):
    seq = nn.HybridSequential(prefix='')
    seq.add(*[Block(channels, in_channels if k == 0 else channels, bottleneck) for k in range(blocks)])
    return seq


def _fuse(in_channels, channels, steps):
    """What carries branch j to branch i (steps = i - j): a 1x1 conv (upsampled in the forward) for a coarser
    branch, nothing for itself, `steps` stride-2 3x3 convs for a finer one (all in one flat Sequential)."""
    if steps == 0:
        return Identity()  # holds branch i's place, so the next branch keeps GluonCV's index
    seq = nn.HybridSequential(prefix='')
    if steps < 0:
        seq.add(nn.Conv2D(channels, 1, use_bias=False, in_channels=in_channels), nn.BatchNorm())
    for k in range(steps):
        last = k == steps - 1
        seq.add(_conv3x3(channels if last else in_channels, in_channels, 2), nn.BatchNorm())
        if not last:
            seq.add(nn.Activation('relu'))
    return seq


class HRModule(nn.HybridBlock):
    """`blocks` basic blocks on each branch, then every branch becomes the ReLU of the sum of all branches brought
    to its resolution (`interp` upsamples the coarser ones)."""

    def __init__(self, channels, blocks, interp):
        super().__init__(prefix='')
        self.interp = interp
        self.branches = nn.HybridSequential(prefix='')
        self.branches.add(*[_layer(c, c, blocks, bottleneck=False) for c in channels])
        self.fuse_layers = nn.HybridSequential(prefix='')
        for i, c in enumerate(channels):
            row = nn.HybridSequential(prefix='')
            row.add(*[_fuse(c_j, c, i - j) for j, c_j in enumerate(channels)])
            self.fuse_layers.add(row)

    def _up(self, F, x, scale, like):
        if self.interp == 'nearest':
            return F.UpSampling(x, scale=scale, sample_type='nearest')
        if self.interp == 'bilinear':
            return F.contrib.BilinearResize2D(x, scale_height=scale, scale_width=scale, align_corners=False)
        return F.contrib.BilinearResize2D(x, like=like, mode='like', align_corners=False)

    def hybrid_forward(self, F, x, *rest):
        xs = [branch(b) for branch, b in zip(self.branches, (x,) + rest)]
        out = []
        for i, row in enumerate(self.fuse_layers):
            y = xs[0] if i == 0 else row[0](xs[0])
            for j in range(1, len(xs)):
                z = row[j](xs[j])
                y = y + (self._up(F, z, 2 ** (j - i), xs[i]) if j > i else z)
            out.append(F.relu(y))
        return out


# -- model --------------------------------------------------------------------------------------------------------
#: GluonCV's HRNET_SPEC: (layer1 blocks, layer1 width (x4 out), modules in stages 2-4, blocks per branch, width
#: of the stride-4 branch (each coarser branch doubles it)); the fuse method is always a sum
_SPEC = {'w18_small_v1': (1, 32, (1, 1, 1), 2, 16), 'w18_small_v2': (2, 64, (1, 3, 2), 2, 18),
         'w18': (4, 64, (1, 4, 3), 4, 18), 'w30': (4, 64, (1, 4, 3), 4, 30), 'w32': (4, 64, (1, 4, 3), 4, 32),
         'w40': (4, 64, (1, 4, 3), 4, 40), 'w44': (4, 64, (1, 4, 3), 4, 44), 'w48': (4, 64, (1, 4, 3), 4, 48),
         'w64': (4, 64, (1, 4, 3), 4, 64)}
_HEAD = (32, 64, 128, 256)  # the classification head's bottleneck widths per branch (x4 out)


def _transition(pre, cur, norm):
    """Stage to stage: a 3x3 conv where a branch changes width, and a stride-2 3x3 conv from the coarsest branch
    for the new one."""
    seq = nn.HybridSequential(prefix='')
    for i, c in enumerate(cur):
        if i < len(pre):
            seq.add(_conv_norm_relu(_conv3x3(c, pre[i]), norm) if c != pre[i] else Identity())
            continue
        steps = nn.HybridSequential(prefix='')
        for k in range(i + 1 - len(pre)):
            steps.add(_conv_norm_relu(_conv3x3(c if k == i - len(pre) else pre[-1], pre[-1], 2), norm))
        seq.add(steps)
    return seq


class HRNetBase(Classifier):
    """The HRNet body of `spec` (a `_SPEC` key) up to its multi-resolution outputs; the heads subclass it."""

    def __init__(self, spec, stage_interp_type, norm_layer, norm_kwargs, in_channels, **kwargs):
        super().__init__(**kwargs)
        if spec not in _SPEC:
            raise ValueError(f'HRNet spec {spec!r} is not one of {sorted(_SPEC)}')
        if stage_interp_type not in _INTERP:
            raise ValueError(f'stage_interp_type {stage_interp_type!r} is not one of {", ".join(_INTERP)}')
        layer1_blocks, layer1_width, modules, blocks, width = _SPEC[spec]
        bn_kwargs = dict(norm_kwargs or {})
        self.norm = norm = (norm_layer, bn_kwargs)
        self.in_channels, self.interp = in_channels, stage_interp_type
        with self.name_scope():
            self.conv1 = nn.Conv2D(64, 3, 2, 1, use_bias=False, in_channels=in_channels)
            self.bn1 = norm_layer(**bn_kwargs)
            self.conv2 = nn.Conv2D(64, 3, 2, 1, use_bias=False, in_channels=64)
            self.bn2 = norm_layer(**bn_kwargs)
            self.layer1 = _layer(layer1_width * 4, 64, layer1_blocks, bottleneck=True)
            pre = [layer1_width * 4]
            for s, n in enumerate(modules):
                cur = [width * 2 ** k for k in range(s + 2)]
                setattr(self, f'transition{s + 1}', _transition(pre, cur, norm))
                stage = nn.HybridSequential(prefix='')
                stage.add(*[HRModule(cur, blocks, stage_interp_type) for _ in range(n)])
                setattr(self, f'stage{s + 2}', stage)
                pre = cur
        self.branch_channels = pre

    def check_input(self, shape):
        super().check_input(shape)
        # the upsampling by powers of 2 lands on the finer branch's size only when the stride-4 map divides by 8
        if self.interp != 'bilinear_like' and any(-(-d // 4) % 8 for d in shape[2:]):
            raise BadInputError(f'{type(self).__name__} with stage_interp_type={self.interp!r} takes heights and '
                                f'widths that are multiples of 32, got {"x".join(map(str, shape[2:]))}; resize '
                                f'the images or build it with stage_interp_type=\'bilinear_like\'')

    def multi_scale(self, F, x):
        """The branch outputs at strides 4, 8, 16, 32."""
        x = F.relu(self.bn1(self.conv1(x)))
        ys = [self.layer1(F.relu(self.bn2(self.conv2(x))))]
        for transition, stage in ((self.transition1, self.stage2), (self.transition2, self.stage3),
                                  (self.transition3, self.stage4)):
            xs = [t(ys[min(i, len(ys) - 1)]) for i, t in enumerate(transition)]
            for module in stage:
                xs = module(*xs)
            ys = xs
        return ys


class HRNet(HRNetBase):
    """HRNet image classifier: each branch widened by a bottleneck, summed from fine to coarse through stride-2
    convs, then a 2048-channel 1x1 conv, global pooling and the Dense `classifier`."""
    head_name = 'classifier'

    def __init__(self, spec, classes=1000, stage_interp_type='nearest', norm_layer=nn.BatchNorm, norm_kwargs=None,
                 in_channels=3, **kwargs):
        super().__init__(spec, stage_interp_type, norm_layer, norm_kwargs, in_channels, **kwargs)
        norm = self.norm
        with self.name_scope():
            self.incre_blocks = nn.HybridSequential(prefix='')
            self.incre_blocks.add(*[_layer(h * 4, c, 1, bottleneck=True)
                                    for c, h in zip(self.branch_channels, _HEAD)])
            self.downsamp_blocks = nn.HybridSequential(prefix='')
            self.downsamp_blocks.add(*[_conv_norm_relu(_conv3x3(b * 4, a * 4, 2, use_bias=True), norm)
                                       for a, b in zip(_HEAD, _HEAD[1:])])
            self.final_layer = _conv_norm_relu(nn.Conv2D(2048, 1, in_channels=_HEAD[-1] * 4), norm)
            self.avg = nn.GlobalAvgPool2D()
            self.classifier = nn.Dense(classes, in_units=2048)

    def hybrid_forward(self, F, x):
        ys = self.multi_scale(F, x)
        y = self.incre_blocks[0](ys[0])
        for i in range(1, len(ys)):
            y = self.incre_blocks[i](ys[i]) + self.downsamp_blocks[i - 1](y)
        return self.classifier(self.avg(self.final_layer(y)))


class HRNetSeg(HRNetBase):
    """HRNet semantic segmentation: the branches upsampled (bilinear) to stride 4 and concatenated, a 1x1 conv,
    and `last_layer`'s final conv scoring `classes` per pixel at stride 4 (its reset_class swaps that conv)."""
    head_name = 'last_layer'

    def __init__(self, spec, classes=19, norm_layer=nn.BatchNorm, norm_kwargs=None, final_conv_kernel=1,
                 in_channels=3, **kwargs):
        super().__init__(spec, 'bilinear_like', norm_layer, norm_kwargs, in_channels, **kwargs)
        if final_conv_kernel not in (1, 3):
            raise ValueError(f'final_conv_kernel {final_conv_kernel!r} is not 1 or 3')
        total = sum(self.branch_channels)
        with self.name_scope():
            self.last_layer = _conv_norm_relu(nn.Conv2D(total, 1, in_channels=total), self.norm)
            self.last_layer.add(nn.Conv2D(classes, final_conv_kernel, 1, final_conv_kernel // 2, in_channels=total))

    def hybrid_forward(self, F, x):
        ys = self.multi_scale(F, x)
        ups = [F.contrib.BilinearResize2D(y, like=ys[0], mode='like', align_corners=False) for y in ys[1:]]
        return self.last_layer(F.concat(ys[0], *ups, dim=1))


# -- weights records (GluonCV 0.10.5 model_store.py: `hrnet_<spec>_cls`; no `_s` checkpoints) ---------------------
_SHA1 = {
    'hrnet_w18_small_v1_c': 'c224ae0fe80dd060d244b6a934dada1de0a9c021',
    'hrnet_w18_small_v2_c': '346da53060b949a3a3ffb83a9b6f9ba46c5c4fbc',
    'hrnet_w18_c': '9c946e56229ae6d1e4ec482c3be63ae2ee33d654',
    'hrnet_w30_c': '2d8eb90b4a3dc8a4fc8d95910e83de425f002c74',
    'hrnet_w32_c': 'd1d41a36de3d1eca7b595973779268bc3f828f5b',
    'hrnet_w40_c': 'f8b0a2f9e2db56d23c594847b7f913db9e56cc57',
    'hrnet_w44_c': 'b36ab13a611bfd196c46dc9cdda918b63789722d',
    'hrnet_w48_c': 'be50e56dea846e87343b09b4ba9687b98bd47d0c',
    'hrnet_w64_c': '76f1b7077179f21c4147ff77f9e0999db879d7ec',
}
_PARAMS = {'hrnet_w18_small_v1_c': 13187464, 'hrnet_w18_small_v2_c': 15597464, 'hrnet_w18_c': 21299004,
           'hrnet_w30_c': 37712220, 'hrnet_w32_c': 41232680, 'hrnet_w40_c': 57557160, 'hrnet_w44_c': 67064984,
           'hrnet_w48_c': 77469864, 'hrnet_w64_c': 128059944}
_PAPER = 'https://arxiv.org/abs/1908.07919'


def _weights(arch):
    # GluonCV's table publishes no HRNet accuracy nor a training command; its files are named `{arch[:-2]}_cls`
    return [gluoncv(arch, _SHA1[arch], _PARAMS[arch], _PAPER, store_name=f'{arch[:-2]}_cls',
                    recipe=f'GluonCV 0.10.5 model_zoo checkpoint {arch[:-2]}_cls (no published training command)')]


def _classifier(spec, classes, num_classes, **kwargs):
    if num_classes is not None and classes not in (1000, num_classes):
        raise ValueError(f'classes={classes!r} and num_classes={num_classes!r} disagree: pass one of them '
                         f'(num_classes is GluonCV\'s name for it)')
    return HRNet(spec, classes if num_classes is None else num_classes, **kwargs)


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='image-classification', protected=('in_channels', 'num_classes'), test_input=(1, 3, 32, 32))
_SEG = dict(task='semantic-segmentation', protected=('in_channels',), test_input=(1, 3, 32, 32))
_BN = nn.BatchNorm
_SEG_BN = {'momentum': 0.99}  # GluonCV's `_s` builders fix it


@register_model(weights=_weights('hrnet_w18_small_v1_c'), **_REG)
def hrnet_w18_small_v1_c(classes=1000, in_channels=3, stage_interp_type='nearest', norm_layer=_BN, norm_kwargs=None,
                         num_classes=None):
    """HRNet-W18-Small-v1 ImageNet classifier (arXiv:1908.07919)."""
    return _classifier('w18_small_v1', classes, num_classes, stage_interp_type=stage_interp_type,
                       norm_layer=norm_layer, norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(weights=_weights('hrnet_w18_small_v2_c'), **_REG)
def hrnet_w18_small_v2_c(classes=1000, in_channels=3, stage_interp_type='nearest', norm_layer=_BN, norm_kwargs=None,
                         num_classes=None):
    """HRNet-W18-Small-v2 ImageNet classifier (arXiv:1908.07919)."""
    return _classifier('w18_small_v2', classes, num_classes, stage_interp_type=stage_interp_type,
                       norm_layer=norm_layer, norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(weights=_weights('hrnet_w18_c'), **_REG)
def hrnet_w18_c(classes=1000, in_channels=3, stage_interp_type='nearest', norm_layer=_BN, norm_kwargs=None,
                num_classes=None):
    """HRNet-W18 ImageNet classifier (arXiv:1908.07919)."""
    return _classifier('w18', classes, num_classes, stage_interp_type=stage_interp_type, norm_layer=norm_layer,
                       norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(weights=_weights('hrnet_w30_c'), **_REG)
def hrnet_w30_c(classes=1000, in_channels=3, stage_interp_type='nearest', norm_layer=_BN, norm_kwargs=None,
                num_classes=None):
    """HRNet-W30 ImageNet classifier (arXiv:1908.07919)."""
    return _classifier('w30', classes, num_classes, stage_interp_type=stage_interp_type, norm_layer=norm_layer,
                       norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(weights=_weights('hrnet_w32_c'), **_REG)
def hrnet_w32_c(classes=1000, in_channels=3, stage_interp_type='nearest', norm_layer=_BN, norm_kwargs=None,
                num_classes=None):
    """HRNet-W32 ImageNet classifier (arXiv:1908.07919)."""
    return _classifier('w32', classes, num_classes, stage_interp_type=stage_interp_type, norm_layer=norm_layer,
                       norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(weights=_weights('hrnet_w40_c'), **_REG)
def hrnet_w40_c(classes=1000, in_channels=3, stage_interp_type='nearest', norm_layer=_BN, norm_kwargs=None,
                num_classes=None):
    """HRNet-W40 ImageNet classifier (arXiv:1908.07919)."""
    return _classifier('w40', classes, num_classes, stage_interp_type=stage_interp_type, norm_layer=norm_layer,
                       norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(weights=_weights('hrnet_w44_c'), **_REG)
def hrnet_w44_c(classes=1000, in_channels=3, stage_interp_type='nearest', norm_layer=_BN, norm_kwargs=None,
                num_classes=None):
    """HRNet-W44 ImageNet classifier (arXiv:1908.07919)."""
    return _classifier('w44', classes, num_classes, stage_interp_type=stage_interp_type, norm_layer=norm_layer,
                       norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(weights=_weights('hrnet_w48_c'), **_REG)
def hrnet_w48_c(classes=1000, in_channels=3, stage_interp_type='nearest', norm_layer=_BN, norm_kwargs=None,
                num_classes=None):
    """HRNet-W48 ImageNet classifier (arXiv:1908.07919)."""
    return _classifier('w48', classes, num_classes, stage_interp_type=stage_interp_type, norm_layer=norm_layer,
                       norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(weights=_weights('hrnet_w64_c'), **_REG)
def hrnet_w64_c(classes=1000, in_channels=3, stage_interp_type='nearest', norm_layer=_BN, norm_kwargs=None,
                num_classes=None):
    """HRNet-W64 ImageNet classifier (arXiv:1908.07919)."""
    return _classifier('w64', classes, num_classes, stage_interp_type=stage_interp_type, norm_layer=norm_layer,
                       norm_kwargs=norm_kwargs, in_channels=in_channels)


@register_model(**_SEG)
def hrnet_w18_small_v1_s(classes=19, in_channels=3, norm_layer=_BN, norm_kwargs=_SEG_BN, final_conv_kernel=1):
    """HRNet-W18-Small-v1 Cityscapes segmentation (arXiv:1908.07919)."""
    return HRNetSeg('w18_small_v1', classes, norm_layer, norm_kwargs, final_conv_kernel, in_channels)


@register_model(**_SEG)
def hrnet_w18_small_v2_s(classes=19, in_channels=3, norm_layer=_BN, norm_kwargs=_SEG_BN, final_conv_kernel=1):
    """HRNet-W18-Small-v2 Cityscapes segmentation (arXiv:1908.07919)."""
    return HRNetSeg('w18_small_v2', classes, norm_layer, norm_kwargs, final_conv_kernel, in_channels)


@register_model(**_SEG)
def hrnet_w48_s(classes=19, in_channels=3, norm_layer=_BN, norm_kwargs=_SEG_BN, final_conv_kernel=1):
    """HRNet-W48 Cityscapes segmentation (arXiv:1908.07919)."""
    return HRNetSeg('w48', classes, norm_layer, norm_kwargs, final_conv_kernel, in_channels)
