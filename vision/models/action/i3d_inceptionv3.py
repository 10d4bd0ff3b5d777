"""I3D on Inception v3 (Carreira & Zisserman, arXiv:1705.07750; Szegedy et al., arXiv:1512.00567):
parameter-compatible with GluonCV 0.10.5's `action_recognition.i3d_inceptionv3` (I3D_InceptionV3,
i3d_inceptionv3_kinetics400).

Inception v3 with every conv and pool 3D, each kernel k x k growing a temporal k (1 x 7 -> 7 x 1 x 7, 7 x 1 ->
7 x 7 x 1), padded in time only where the 2D net is unpadded in space; blocks B and D and their max pools stride 2 in
time too. Each conv is conv -> BN (eps 1e-3) -> ReLU; a global average over T, H, W, GluonCV's consensus over the
views and Dropout + Dense follow. Structural names are GluonCV's: `features.0-18` (blocks
`features.<i>.<branch>...`), the Dense as `head.1` and `output`. `pretrained_base` inflates the registry's
`inceptionv3` ImageNet weights (GluonCV's rule, i3d_base.py); `partial_bn` gives every BatchNorm after the first
global statistics.
Layout: blocks -> model -> weights record -> registered builder.
"""
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import HybridConcurrent

from ....registry import register_model
from .base import BatchNorm, resolve_nclass
from .i3d_base import I3DNet, pretrained_2d
from .i3d_inceptionv1 import basic_conv, branch
from .i3d_resnet import i3d_weights

T3 = (1, 0, 0)  # pad 1 in time only: the 3x3x3 kernels where Inception v3's 3x3 is unpadded


# -- blocks -------------------------------------------------------------------------------------------------------
def _avg():
    return nn.AvgPool3D(pool_size=3, strides=1, padding=1)


def _max():
    return nn.MaxPool3D(pool_size=3, strides=2, padding=T3)


def _concat(prefix, *branches):
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        out.add(*branches)
    return out


def _block_a(c, pool_features, prefix, norm):
    return _concat(prefix, branch(None, *norm, (c, 64, 1)), branch(None, *norm, (c, 48, 1), (48, 64, 5, 1, 2)),
                   branch(None, *norm, (c, 64, 1), (64, 96, 3, 1, 1), (96, 96, 3, 1, 1)),
                   branch(_avg(), *norm, (c, pool_features, 1)))


def _block_b(prefix, norm):
    return _concat(prefix, branch(None, *norm, (288, 384, 3, 2, T3)),
                   branch(None, *norm, (288, 64, 1), (64, 96, 3, 1, 1), (96, 96, 3, 2, T3)), branch(_max(), *norm))


def _block_c(c, c7, prefix, norm):
    wide, tall = ((7, 1, 7), 1, (3, 0, 3)), ((7, 7, 1), 1, (3, 3, 0))  # 2D 1x7 and 7x1, inflated
    return _concat(prefix, branch(None, *norm, (c, 192, 1)),
                   branch(None, *norm, (c, c7, 1), (c7, c7, *wide), (c7, 192, *tall)),
                   branch(None, *norm, (c, c7, 1), (c7, c7, *tall), (c7, c7, *wide), (c7, c7, *tall),
                          (c7, 192, *wide)),
                   branch(_avg(), *norm, (c, 192, 1)))


def _block_d(prefix, norm):
    return _concat(prefix, branch(None, *norm, (768, 192, 1), (192, 320, 3, 2, T3)),
                   branch(None, *norm, (768, 192, 1), (192, 192, (7, 1, 7), 1, (3, 0, 3)),
                          (192, 192, (7, 7, 1), 1, (3, 3, 0)), (192, 192, 3, 2, T3)),
                   branch(_max(), *norm))


def _split(norm):
    """1x3 and 3x1 (inflated: 3x1x3, 3x3x1) side by side, Inception-E's widening."""
    out = HybridConcurrent(axis=1, prefix='')
    out.add(branch(None, *norm, (384, 384, (3, 1, 3), 1, (1, 0, 1))),
            branch(None, *norm, (384, 384, (3, 3, 1), 1, (1, 1, 0))))
    return out


def _block_e(c, prefix, norm):
    b3 = nn.HybridSequential(prefix='')
    b3.add(branch(None, *norm, (c, 384, 1)), _split(norm))
    b3dbl = nn.HybridSequential(prefix='')
    b3dbl.add(branch(None, *norm, (c, 448, 1), (448, 384, 3, 1, 1)), _split(norm))
    return _concat(prefix, branch(None, *norm, (c, 320, 1)), b3, b3dbl, branch(_avg(), *norm, (c, 192, 1)))


# -- model --------------------------------------------------------------------------------------------------------
class I3D_InceptionV3(I3DNet):  # noqa: N801 (GluonCV's name)
    """GluonCV's I3D Inception v3: (N * num_segments * num_crop, 3, T, H, W) clips -> (N, nclass) scores (module
    docstring; at least 75x75 pixels); `pretrained_base` (unless `pretrained`: a checkpoint follows) inflates the
    registry's inceptionv3 ImageNet weights, on `ctx`. Without it the net is left for `initialize()`."""
    head_attr = 'output'

    def __init__(self, nclass=1000, pretrained=False, pretrained_base=True, num_segments=1, num_crop=1,
                 feat_ext=False, dropout_ratio=0.5, init_std=0.01, partial_bn=False, ctx=None, norm_layer=BatchNorm,
                 norm_kwargs=None, **kwargs):
        super().__init__(**kwargs)
        self._setup(num_segments, num_crop, feat_ext, dropout_ratio, init_std)
        self.feat_dim = 2048
        norm = (norm_layer, norm_kwargs)
        n = (norm_layer, dict(norm_kwargs or {}, use_global_stats=True)) if partial_bn else norm

        def conv(*setting):
            return basic_conv(*setting[:2], *n, *setting[2:])
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(basic_conv(3, 32, *norm, 3, 2, T3), conv(32, 32, 3, 1, T3), conv(32, 64, 3, 1, 1),
                              nn.MaxPool3D(pool_size=3, strides=(1, 2, 2), padding=T3), conv(64, 80, 1),
                              conv(80, 192, 3, 1, T3), nn.MaxPool3D(pool_size=3, strides=(1, 2, 2), padding=T3),
                              _block_a(192, 32, 'A1_', n), _block_a(256, 64, 'A2_', n), _block_a(288, 64, 'A3_', n),
                              _block_b('B_', n), _block_c(768, 128, 'C1_', n), _block_c(768, 160, 'C2_', n),
                              _block_c(768, 160, 'C3_', n), _block_c(768, 192, 'C4_', n), _block_d('D_', n),
                              _block_e(1280, 'E1_', n), _block_e(2048, 'E2_', n), nn.GlobalAvgPool3D())
            self._make_head(nclass)
        if pretrained_base and not pretrained:
            self.inflate_from(pretrained_2d('inceptionv3', ctx), ctx)

    def hybrid_forward(self, F, x):
        return self.consensus(F, F.squeeze(self.features(x), axis=(2, 3, 4)))


# -- weights record (GluonCV 0.10.5 model_store.py, its model-zoo table) -----------------------------------------
_PARAMS = {'i3d_inceptionv3_kinetics400': 72963120}  # GluonCV's net, counted in the peers venv


# -- registered builder -------------------------------------------------------------------------------------------
@register_model(weights=i3d_weights('i3d_inceptionv3_kinetics400', params=_PARAMS), task='action-recognition',
                protected=('nclass',), test_input=(1, 3, 4, 75, 75), test_kwargs={'pretrained_base': False})
def i3d_inceptionv3_kinetics400(nclass=400, pretrained_base=True, ctx=None, num_segments=1, num_crop=1,
                                partial_bn=False, feat_ext=False, use_tsn=False, dropout_ratio=0.5, init_std=0.01,
                                norm_layer=BatchNorm, norm_kwargs=None, classes=None):
    """I3D Inception v3, Kinetics-400 (GluonCV; arXiv:1705.07750). `use_tsn` is accepted and, as in GluonCV,
    changes nothing."""
    return I3D_InceptionV3(nclass=resolve_nclass(nclass, classes, 400), pretrained_base=pretrained_base,
                           num_segments=num_segments, num_crop=num_crop, feat_ext=feat_ext,
                           dropout_ratio=dropout_ratio, init_std=init_std, partial_bn=partial_bn, ctx=ctx,
                           norm_layer=norm_layer, norm_kwargs=norm_kwargs)
