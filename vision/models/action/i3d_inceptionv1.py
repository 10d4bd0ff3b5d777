"""I3D on Inception v1 / GoogLeNet-BN (Carreira & Zisserman, arXiv:1705.07750; Szegedy et al., arXiv:1409.4842):
parameter-compatible with GluonCV 0.10.5's `action_recognition.i3d_inceptionv1` (I3D_InceptionV1,
i3d_inceptionv1_kinetics400).

GoogLeNet with every conv and pool 3D: a 7x7x7 stem (stride 2 in time too), 1x3x3 pools in the stem, 3x3x3 pools
between the inception stages (stride 2), each conv conv -> BN (eps 1e-3) -> ReLU, then a global average over T, H, W,
GluonCV's consensus over the views and Dropout + Dense. Structural names are GluonCV's: `features.0-16` (the mixed
blocks `features.<i>.<branch>.<layer>`), the Dense as `head.1` and `output`. `pretrained_base` inflates the
registry's `googlenet` ImageNet weights (GluonCV's rule, i3d_base.py); `partial_bn` gives every BatchNorm after the
first global statistics.
Layout: blocks -> model -> weights record -> registered builder.
"""
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import HybridConcurrent

from ....registry import register_model
from .base import BatchNorm, resolve_nclass
from .i3d_base import I3DNet, pretrained_2d
from .i3d_resnet import i3d_weights


# -- blocks -------------------------------------------------------------------------------------------------------
def basic_conv(in_channels, channels, norm_layer=BatchNorm, norm_kwargs=None, kernel_size=1, strides=1, padding=0):
    """Conv3D (no bias) -> norm_layer (eps 1e-3) -> ReLU, as one HybridSequential (GluonCV's _make_basic_conv)."""
    out = nn.HybridSequential(prefix='')
    out.add(nn.Conv3D(in_channels=in_channels, channels=channels, kernel_size=kernel_size, strides=strides,
                      padding=padding, use_bias=False),
            norm_layer(in_channels=channels, epsilon=0.001, **(norm_kwargs or {})), nn.Activation('relu'))
    return out


def branch(pool, norm_layer, norm_kwargs, *convs):
    """An optional pool block, then one basic_conv per (in, out, kernel[, strides[, padding]])."""
    out = nn.HybridSequential(prefix='')
    if pool is not None:
        out.add(pool)
    for conv in convs:
        out.add(basic_conv(conv[0], conv[1], norm_layer, norm_kwargs, *conv[2:]))
    return out


def _mixed(in_channels, c1, c3, c5, pool_features, prefix, norm_layer, norm_kwargs):
    """An inception block: 1x1; 1x1 -> 3x3x3; 1x1 -> 3x3x3; 3x3x3 max pool -> 1x1 (c3, c5: (reduce, out))."""
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        out.add(branch(None, norm_layer, norm_kwargs, (in_channels, c1, 1)),
                branch(None, norm_layer, norm_kwargs, (in_channels, c3[0], 1), (c3[0], c3[1], 3, 1, 1)),
                branch(None, norm_layer, norm_kwargs, (in_channels, c5[0], 1), (c5[0], c5[1], 3, 1, 1)),
                branch(nn.MaxPool3D(pool_size=3, strides=1, padding=1), norm_layer, norm_kwargs,
                       (in_channels, pool_features, 1)))
    return out


# -- model --------------------------------------------------------------------------------------------------------
# name -> (in channels, 1x1, (3x3 reduce, 3x3), (second 3x3 reduce, 3x3), pool projection), as GoogLeNet's
_MIXED = {'3a': (192, 64, (96, 128), (16, 32), 32), '3b': (256, 128, (128, 192), (32, 96), 64),
          '4a': (480, 192, (96, 208), (16, 48), 64), '4b': (512, 160, (112, 224), (24, 64), 64),
          '4c': (512, 128, (128, 256), (24, 64), 64), '4d': (512, 112, (144, 288), (32, 64), 64),
          '4e': (528, 256, (160, 320), (32, 128), 128), '5a': (832, 256, (160, 320), (32, 128), 128),
          '5b': (832, 384, (192, 384), (48, 128), 128)}


class I3D_InceptionV1(I3DNet):  # noqa: N801 (GluonCV's name)
    """GluonCV's I3D Inception v1: (N * num_segments * num_crop, 3, T, H, W) clips -> (N, nclass) scores (module
    docstring); `pretrained_base` (unless `pretrained`: a checkpoint follows) inflates the registry's googlenet
    ImageNet weights, on `ctx`. Without it the net is left for `initialize()`."""
    head_attr = 'output'

    def __init__(self, nclass=1000, pretrained=False, pretrained_base=True, num_segments=1, num_crop=1,
                 feat_ext=False, dropout_ratio=0.5, init_std=0.01, partial_bn=False, ctx=None, norm_layer=BatchNorm,
                 norm_kwargs=None, **kwargs):
        super().__init__(**kwargs)
        self._setup(num_segments, num_crop, feat_ext, dropout_ratio, init_std)
        self.feat_dim = 1024
        norm = dict(norm_layer=norm_layer, norm_kwargs=norm_kwargs)
        frozen = dict(norm_layer=norm_layer, norm_kwargs=dict(norm_kwargs or {}, use_global_stats=True)) \
            if partial_bn else norm  # every BatchNorm after the stem's keeps its statistics

        def stem_pool():
            return nn.MaxPool3D(pool_size=(1, 3, 3), strides=(1, 2, 2), padding=(0, 1, 1))
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(basic_conv(3, 64, kernel_size=7, strides=2, padding=3, **norm), stem_pool(),
                              basic_conv(64, 64, kernel_size=1, **frozen),
                              basic_conv(64, 192, kernel_size=3, padding=(1, 1, 1), **frozen), stem_pool())
            for name, setting in _MIXED.items():
                self.features.add(_mixed(*setting, f'Mixed_{name}_', **frozen))
                if name == '3b':
                    self.features.add(nn.MaxPool3D(pool_size=3, strides=(2, 2, 2), padding=(1, 1, 1)))
                elif name == '4e':
                    self.features.add(nn.MaxPool3D(pool_size=2, strides=(2, 2, 2)))
            self.features.add(nn.GlobalAvgPool3D())
            self._make_head(nclass)
        if pretrained_base and not pretrained:
            self.inflate_from(pretrained_2d('googlenet', ctx), ctx)

    def hybrid_forward(self, F, x):
        return self.consensus(F, F.squeeze(self.features(x), axis=(2, 3, 4)))


# -- weights record (GluonCV 0.10.5 model_store.py, its model-zoo table) -----------------------------------------
_PARAMS = {'i3d_inceptionv1_kinetics400': 12697264}  # GluonCV's net, counted in the peers venv


# -- registered builder -------------------------------------------------------------------------------------------
@register_model(weights=i3d_weights('i3d_inceptionv1_kinetics400', params=_PARAMS), task='action-recognition',
                protected=('nclass',), test_input=(1, 3, 8, 32, 32), test_kwargs={'pretrained_base': False})
def i3d_inceptionv1_kinetics400(nclass=400, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                                partial_bn=False, feat_ext=False, use_tsn=False, dropout_ratio=0.5, init_std=0.01,
                                norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """I3D Inception v1, Kinetics-400 (GluonCV; arXiv:1705.07750). `use_tsn` is accepted and, as in GluonCV,
    changes nothing."""
    return I3D_InceptionV1(nclass=resolve_nclass(nclass, classes, 400), pretrained_base=pretrained_base,
                           num_segments=num_segments, num_crop=num_crop, feat_ext=feat_ext,
                           dropout_ratio=dropout_ratio, init_std=init_std, partial_bn=partial_bn, ctx=ctx,
                           norm_layer=norm_layer, norm_kwargs=norm_kwargs)
