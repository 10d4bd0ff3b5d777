"""DeepLabV3+ on a dilated Wider ResNet-38 (Chen et al., Encoder-Decoder with Atrous Separable Convolution,
arXiv:1802.02611; the body of Rota Bulò et al., In-Place Activated BatchNorm, arXiv:1712.02616): parameter-compatible
with GluonCV 0.10.5's `deeplab_v3b_plus_wideresnet_citys` (its VPLR checkpoint).

The body is GluonCV's WiderResNetA2 with `dilation=True` (stride 8): a 3x3 stem, max-pool, two stages of
pre-activation basic blocks, another max-pool, three more basic stages (the last two dilated 2 and 4) and two
bottleneck blocks (dilation 4, dropout inside). The decoder joins the ASPP output, upsampled, with a 48-channel
projection of mod2's stride-2 map. There is no auxiliary head. Structural names are GluonCV's (`mod2.0.bn1.0.gamma`,
`mod6.0.convs.5.weight`, `head.aspp.b4.gap.1.weight`, `head.c1_block.0.weight`, `head.block.6.weight`).
Layout: blocks -> model -> weights records -> registered builders.
"""
from mxnet.gluon import nn
from mxnet.gluon.nn import BatchNorm

from ....heads import class_names
from ....registry import register_model
from ...meta import CITYSCAPES
from .base import ASPPPooling, REG, Segmenter, conv_bn_relu, norm, resize_like, resize_to, seg_weights
from .deeplab import RATES

# (channels of each block, blocks, dilation, dropout) of mod2 .. mod7: wider_resnet38_a2
_STAGES = (((128, 128), 3, 1, None), ((256, 256), 3, 1, None), ((512, 512), 6, 1, None),
           ((512, 1024), 3, 2, None), ((512, 1024, 2048), 1, 4, 0.3), ((1024, 2048, 4096), 1, 4, 0.5))


# -- blocks -------------------------------------------------------------------------------------------------------
def _bn_relu(channels):
    seq = nn.HybridSequential(prefix='')
    seq.add(nn.BatchNorm(in_channels=channels), nn.Activation('relu'))
    return seq


class IdentityResidualBlock(nn.HybridBlock):
    """Pre-activation residual block: BN-ReLU, then two 3x3 convs (`channels` of two) or 1x1-3x3-1x1 (three),
    BN-ReLU between them, dropout before the last conv; the shortcut projects the activated input when the stride
    or width changes."""

    def __init__(self, in_channels, channels, stride=1, dilation=1, dropout=None):
        super().__init__()
        self.bn1 = _bn_relu(in_channels)
        self.convs = nn.HybridSequential(prefix='')
        if len(channels) == 2:
            self.convs.add(nn.Conv2D(channels[0], 3, stride, dilation, dilation, use_bias=False,
                                     in_channels=in_channels), _bn_relu(channels[0]))
        else:
            self.convs.add(nn.Conv2D(channels[0], 1, stride, use_bias=False, in_channels=in_channels),
                           _bn_relu(channels[0]),
                           nn.Conv2D(channels[1], 3, 1, dilation, dilation, use_bias=False, in_channels=channels[0]),
                           _bn_relu(channels[1]))
        if dropout:
            self.convs.add(nn.Dropout(dropout))
        last = 3 if len(channels) == 2 else 1
        self.convs.add(nn.Conv2D(channels[-1], last, 1, dilation * (last // 2), dilation if last == 3 else 1,
                                 use_bias=False, in_channels=channels[-2]))
        self.proj_conv = nn.Conv2D(channels[-1], 1, stride, use_bias=False, in_channels=in_channels) \
            if stride != 1 or in_channels != channels[-1] else None

    def hybrid_forward(self, F, x):
        act = self.bn1(x)
        shortcut = self.proj_conv(act) if self.proj_conv is not None else x
        return self.convs(act) + shortcut


class ASPPPlus(nn.HybridBlock):
    """GluonCV's v3b+ ASPP: branches b0 (1x1), b1-b3 (3x3 at rates 12, 24, 36), b4 (image pooling), concatenated
    pooling first, then a 1x1 conv without norm (`project`)."""

    def __init__(self, in_channels, norm_layer, norm_kwargs, channels=256):
        super().__init__()
        self.b0 = conv_bn_relu(in_channels, channels, 1, norm_layer, norm_kwargs)
        for i, rate in enumerate(RATES):
            setattr(self, f'b{i + 1}', conv_bn_relu(in_channels, channels, 3, norm_layer, norm_kwargs, rate))
        self.b4 = ASPPPooling(in_channels, channels, norm_layer, norm_kwargs)
        self.project = nn.HybridSequential(prefix='bot_aspp_')
        self.project.add(nn.Conv2D(channels, 1, use_bias=False, in_channels=5 * channels))

    def hybrid_forward(self, F, x):
        return self.project(F.concat(self.b4(x), self.b0(x), self.b1(x), self.b2(x), self.b3(x), dim=1))


class DecoderHead(nn.HybridBlock):
    """ASPP on the deep map, upsampled to the stride-2 map `c1` and concatenated with its 48-channel projection,
    then 3x3-256 twice and a 1x1 conv (no bias) to the classes."""

    def __init__(self, classes, in_channels=4096, c1_channels=128, norm_layer=BatchNorm, norm_kwargs=None):
        super().__init__()
        with self.name_scope():
            self.aspp = ASPPPlus(in_channels, norm_layer, norm_kwargs)
            self.c1_block = nn.HybridSequential(prefix='bot_fine_')
            self.c1_block.add(nn.Conv2D(48, 1, use_bias=False, in_channels=c1_channels))
            self.block = nn.HybridSequential(prefix='final_')
            self.block.add(nn.Conv2D(256, 3, padding=1, use_bias=False, in_channels=304),
                           norm(norm_layer, norm_kwargs, 256), nn.Activation('relu'),
                           nn.Conv2D(256, 3, padding=1, use_bias=False, in_channels=256),
                           norm(norm_layer, norm_kwargs, 256), nn.Activation('relu'),
                           nn.Conv2D(classes, 1, use_bias=False, in_channels=256))

    def hybrid_forward(self, F, x, c1):
        c1 = self.c1_block(c1)
        return self.block(F.concat(c1, resize_like(F, self.aspp(x), c1), dim=1))


# -- model --------------------------------------------------------------------------------------------------------
class DeepLabWV3Plus(Segmenter):
    """GluonCV's DeepLabWV3Plus: the dilated Wider ResNet-38 body (`mod1`..`mod7`, `pool2`, `pool3`; its BatchNorms
    are plain, as GluonCV's body ignores `norm_layer`) and the DeepLabV3+ decoder `head` (which takes
    `norm_layer` / `norm_kwargs`)."""

    def __init__(self, nclass, backbone='wideresnet', aux=False, ctx=None, pretrained_base=True, height=None,
                 width=None, base_size=520, crop_size=480, dilated=True, norm_layer=BatchNorm, norm_kwargs=None,
                 init_heads=True, **kwargs):
        # backbone, aux, pretrained_base and dilated are GluonCV's arguments, which its class ignores too: the body
        # is always the dilated Wider ResNet-38 (no ImageNet file published), with no auxiliary head
        del backbone, aux, pretrained_base, dilated
        super().__init__(**kwargs)
        names = class_names(nclass)
        self.classes = names if not isinstance(nclass, int) else None
        self.nclass = len(names)
        self.base_size, self.crop_size = base_size, crop_size
        self._up_kwargs = {'height': height or crop_size, 'width': width or crop_size}
        with self.name_scope():
            self.mod1 = nn.HybridSequential(prefix='mod1')
            self.mod1.add(nn.Conv2D(64, 3, 1, 1, use_bias=False, in_channels=3))
            self.pool2 = nn.MaxPool2D(3, 2, 1)
            self.pool3 = nn.MaxPool2D(3, 2, 1)
            in_channels = 64
            for i, (channels, blocks, dilation, dropout) in enumerate(_STAGES):
                mod = nn.HybridSequential(prefix=f'mod{i + 2}')
                for j in range(blocks):
                    stride = 2 if i == 2 and j == 0 else 1  # mod4 is the last to halve the map
                    mod.add(IdentityResidualBlock(in_channels, channels, stride, dilation, dropout))
                    in_channels = channels[-1]
                setattr(self, f'mod{i + 2}', mod)
            self.head = DecoderHead(self.nclass, in_channels, _STAGES[0][0][-1], norm_layer, norm_kwargs)
        if init_heads:
            self.initialize(ctx=ctx)  # GluonCV's constructor initializes body and head alike

    def _scores(self, F, x, size):
        m2 = self.mod2(self.pool2(self.mod1(x)))
        x = self.mod3(self.pool3(m2))
        for mod in (self.mod4, self.mod5, self.mod6, self.mod7):
            x = mod(x)
        return (resize_to(F, self.head(x, m2), size),)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {'deeplab_v3b_plus_wideresnet_citys': 'ef2bb40ad8f8f59f451969b2fabe4e548394e80a'}
_PARAMS = {'deeplab_v3b_plus_wideresnet_citys': 137103936}
_PAPER = 'https://arxiv.org/abs/1802.02611'


# -- registered builders ------------------------------------------------------------------------------------------
@register_model(weights=seg_weights('deeplab_v3b_plus_wideresnet_citys', _SHA1, _PARAMS, _PAPER, {'aux': False}),
                **REG)
def deeplab_v3b_plus_wideresnet_citys(classes=CITYSCAPES, pretrained_base=True, aux=False, base_size=520,
                                      crop_size=480, height=None, width=None, norm_layer=BatchNorm, norm_kwargs=None):
    """DeepLabV3+, dilated Wider ResNet-38, Cityscapes (arXiv:1802.02611)."""
    if aux:
        raise ValueError('deeplab_v3b_plus_wideresnet_citys has no auxiliary head: aux=True is not an option '
                         '(GluonCV ignores it)')
    del pretrained_base  # GluonCV's option, and as there a no-op: it publishes no ImageNet Wider ResNet-38
    return DeepLabWV3Plus(classes, height=height, width=width, base_size=base_size, crop_size=crop_size,
                          norm_layer=norm_layer, norm_kwargs=norm_kwargs, init_heads=False)
