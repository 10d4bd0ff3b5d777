"""VGG-16 atrous, SSD's own body (Liu et al., arXiv:1512.02325): parameter-compatible with GluonCV 0.10.5's
`VGGAtrousExtractor` (`vgg16_atrous_300` / `_512`) and its ImageNet-pretrained `vgg16_atrous` file.

VGG-16's conv stages with fc6/fc7 turned into a dilated 3x3 and a 1x1 conv; the 38x38 (300) map of conv4_3 is
L2-normalized per position with a learnt per-channel scale (init 20), and extra stages of 1x1 + 3x3 convs add the
coarser maps. The input is first multiplied by the constant `init_scale` = ImageNet std * 255: the weights came from
Caffe's VGG, which saw mean-subtracted 0-255 pixels, while the preprocessing also divides by the std. Class and
scope names are GluonCV's, so both of its parameter file layouts (structural and prefixed) load.
"""
import mxnet as mx
from mxnet.gluon import nn

from .....errors import BadInputError
from .....store import fetch
from .....weights import GLUONCV_REPO, Source, Weights
from ....meta import IMAGENET_STD

# GluonCV's init of these convs (Gaussian Xavier over fan-out, zero bias): the extras, which no pretrained file
# holds, start where GluonCV's do
_INIT = dict(weight_initializer=mx.init.Xavier(rnd_type='gaussian', factor_type='out', magnitude=2),
             bias_initializer='zeros')


class Normalize(nn.HybridBlock):
    """x / ||x|| over channels at each position, times a learnt per-channel `scale` (initialized to `initial`)."""

    def __init__(self, channels, initial=20, eps=1e-5):
        super().__init__()
        self.eps = eps
        with self.name_scope():
            self.scale = self.params.get('normalize_scale', shape=(1, channels, 1, 1),
                                         init=mx.init.Constant(initial))

    def hybrid_forward(self, F, x, scale):
        return F.broadcast_mul(F.L2Normalization(x, mode='channel', eps=self.eps), scale)


def _pool(F, x, kernel=2, stride=2, pad=0):
    # 'full' rounds up (ceil mode): 75 -> 38 at 300, which the anchor steps assume
    return F.Pooling(x, pool_type='max', kernel=(kernel,) * 2, stride=(stride,) * 2, pad=(pad,) * 2,
                     pooling_convention='full')


def _conv_relu(seq, batch_norm, *args, **kwargs):
    seq.add(nn.Conv2D(*args, **_INIT, **kwargs))
    if batch_norm:
        seq.add(nn.BatchNorm())
    seq.add(nn.Activation('relu'))


class VGGAtrousExtractor(nn.HybridBlock):
    """VGG atrous with `layers` convs per stage of `filters` channels, the dilated fc6/fc7 stage, and `extras`
    (per extra stage, (channels, kernel, stride, pad) of each conv); `batch_norm` puts a BatchNorm after every conv.
    Returns [normalized conv4_3, fc7, extras...]."""

    def __init__(self, layers, filters, extras, batch_norm=False, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            scale = mx.nd.array(IMAGENET_STD).reshape((1, 3, 1, 1)) * 255  # float32 math, as GluonCV's constant
            self.init_scale = self.params.get_constant('init_scale', scale)
            self.stages = nn.HybridSequential()
            for n, f in zip(layers, filters):
                stage = nn.HybridSequential(prefix='')
                with stage.name_scope():
                    for _ in range(n):
                        _conv_relu(stage, batch_norm, f, 3, padding=1)
                self.stages.add(stage)
            stage = nn.HybridSequential(prefix='dilated_')
            with stage.name_scope():
                _conv_relu(stage, batch_norm, 1024, 3, padding=6, dilation=6)
                _conv_relu(stage, batch_norm, 1024, 1)
            self.stages.add(stage)
            self.norm4 = Normalize(filters[3], 20)
            self.extras = nn.HybridSequential()
            for i, convs in enumerate(extras):
                extra = nn.HybridSequential(prefix=f'extra{i}_')
                with extra.name_scope():
                    for f, k, s, p in convs:
                        _conv_relu(extra, batch_norm, f, k, s, p)
                self.extras.add(extra)

    def hybrid_forward(self, F, x, init_scale):
        x = F.broadcast_mul(x, init_scale)
        for stage in self.stages[:3]:
            x = _pool(F, stage(x))
        x = self.stages[3](x)
        outputs = [self.norm4(x)]
        x = self.stages[4](_pool(F, x))
        x = self.stages[5](_pool(F, x, 3, 1, 1))  # pool5 keeps the size: fc6 is dilated instead
        outputs.append(x)
        for extra in self.extras:
            x = extra(x)
            outputs.append(x)
        return outputs


#: per VGG depth, (convs per stage, channels per stage) (GluonCV's vgg_spec)
SPECS = {11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]), 13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
         16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]), 19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512])}
#: per input size, (channels, kernel, stride, pad) of the two convs of each extra stage (GluonCV's extra_spec)
EXTRAS = {300: [((256, 1, 1, 0), (512, 3, 2, 1)), ((128, 1, 1, 0), (256, 3, 2, 1)),
                ((128, 1, 1, 0), (256, 3, 1, 0)), ((128, 1, 1, 0), (256, 3, 1, 0))],
          512: [((256, 1, 1, 0), (512, 3, 2, 1)), ((128, 1, 1, 0), (256, 3, 2, 1)),
                ((128, 1, 1, 0), (256, 3, 2, 1)), ((128, 1, 1, 0), (256, 3, 2, 1)),
                ((128, 1, 1, 0), (256, 4, 1, 1))]}

#: GluonCV's ImageNet-trained VGG-16 atrous (model_store.py `vgg16_atrous`): the SSD body's `pretrained_base`, the
#: extras left out. Not a registered model (it is no classifier: no head); the SSD builders fetch it themselves.
VGG16_ATROUS = Weights(arch='vgg16_atrous', tag='gluoncv', sha1='4fa2e1ad96b8c8d1ba9e5a43556cd909d70b3985',
                       task='object-detection', num_params=20484416, source=Source(kind='mirror', url=GLUONCV_REPO),
                       input_shape=(1, 3, 300, 300), license='Apache-2.0 (GluonCV)',
                       paper='https://arxiv.org/abs/1409.1556')


def get_vgg_atrous_extractor(num_layers, im_size, pretrained=False, ctx=None, root=None, **kwargs):
    """GluonCV's builder: the VGG-`num_layers` (11, 13, 16, 19) atrous body of the `im_size` (300, 512) SSD;
    `pretrained` loads GluonCV's ImageNet vgg16_atrous into all but the extras (left uninitialized, as every other
    layer is without it, for the detector to initialize), the only such file GluonCV publishes."""
    if num_layers not in SPECS or im_size not in EXTRAS:
        raise BadInputError(f'no VGG atrous body of depth {num_layers} for {im_size} pictures: depth one of '
                            f'{sorted(SPECS)}, size one of {sorted(EXTRAS)}')
    if pretrained and (num_layers != 16 or kwargs.get('batch_norm')):
        raise BadInputError(f'GluonCV publishes ImageNet weights for vgg16_atrous only, not vgg{num_layers}_atrous'
                            f'{"_bn" if kwargs.get("batch_norm") else ""}: pass pretrained=False')
    body = VGGAtrousExtractor(*SPECS[num_layers], EXTRAS[im_size], **kwargs)
    if pretrained:
        body.load_parameters(fetch(VGG16_ATROUS, root), ctx=ctx, allow_missing=True)  # GluonCV's call: no extras
    return body


def vgg16_atrous_300(**kwargs):
    """The 300 SSD's VGG-16 atrous body (GluonCV's builder)."""
    return get_vgg_atrous_extractor(16, 300, **kwargs)


def vgg16_atrous_512(**kwargs):
    """The 512 SSD's VGG-16 atrous body (GluonCV's builder)."""
    return get_vgg_atrous_extractor(16, 512, **kwargs)


def vgg16_atrous(size, pretrained=False):
    """The VGG-16 atrous body of the `size` (300 or 512) SSD (the SSD builders' call)."""
    return get_vgg_atrous_extractor(16, size, pretrained)
