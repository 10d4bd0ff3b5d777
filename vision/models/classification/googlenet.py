"""GoogLeNet with batch normalization (Szegedy et al., arXiv:1409.4842; BN as in arXiv:1502.03167):
parameter-compatible with GluonCV 0.10.5 `googlenet`, including its auxiliary heads (`aux_logits=True`).

Every conv is conv (no bias) -> BN (eps 1e-3) -> ReLU; an inception block's third branch is a 3x3 conv (not 5x5),
as in GluonCV. GluonCV registers the last Dense twice, as `head.2` and `output`, so its files hold both names and
this net keeps both. Layout: blocks -> model -> weights record -> registered builder.
"""
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import HybridConcurrent

from ....heads import reset_head
from ....registry import register_model
from ._gluoncv import gluoncv
from .base import Classifier, Stage


# -- blocks -------------------------------------------------------------------------------------------------------
def _conv(norm, channels, kernel=1, stride=1, pad=0):
    out = nn.HybridSequential(prefix='')
    out.add(nn.Conv2D(channels, kernel, stride, pad, use_bias=False), norm(channels), nn.Activation('relu'))
    return out


def _inception(norm, c1, c3, c5, pool, prefix):
    """Four branches concatenated: 1x1; 1x1 -> 3x3; 1x1 -> 3x3; 3x3/1 max pool -> 1x1 (c3, c5: (reduce, out))."""
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        for convs, pooled in (([(c1, 1)], False), ([(c3[0], 1), (c3[1], 3)], False),
                              ([(c5[0], 1), (c5[1], 3)], False), ([(pool, 1)], True)):
            branch = nn.HybridSequential(prefix='')
            if pooled:
                branch.add(nn.MaxPool2D(3, 1, 1))
            for channels, kernel in convs:
                branch.add(_conv(norm, channels, kernel, pad=kernel // 2))
            out.add(branch)
    return out


def _aux_head(norm, classes):
    """The auxiliary classifier GluonCV hangs on inception4a / 4d (training signal; 4x4x128 at 224 pixels)."""
    out = nn.HybridSequential(prefix='')
    out.add(nn.AvgPool2D(5, 3), _conv(norm, 128), nn.Flatten(), nn.Dense(1024, in_units=2048),
            nn.Activation('relu'), nn.Dropout(0.7), nn.Dense(classes, in_units=1024))
    return out


# -- model --------------------------------------------------------------------------------------------------------
# name -> (1x1, (3x3 reduce, 3x3), (second 3x3 reduce, 3x3), pool projection); max pools follow 3b and 4e
_BLOCKS = [('3a', 64, (96, 128), (16, 32), 32), ('3b', 128, (128, 192), (32, 96), 64),
           ('4a', 192, (96, 208), (16, 48), 64), ('4b', 160, (112, 224), (24, 64), 64),
           ('4c', 128, (128, 256), (24, 64), 64), ('4d', 112, (144, 288), (32, 64), 64),
           ('4e', 256, (160, 320), (32, 128), 128), ('5a', 256, (160, 320), (32, 128), 128),
           ('5b', 384, (192, 384), (48, 128), 128)]


class GoogLeNet(Classifier):
    """GoogLeNet-BN for 224x224 inputs; `aux_logits` adds the two auxiliary heads and returns (out, aux2, aux1);
    `partial_bn` freezes the statistics of every BatchNorm but the first."""
    fixed_input = (224, 224)
    input_stride = 32  # 224..255 pixels give the 7x7 map the head's average pool expects
    head_name = 'head'

    def __init__(self, classes=1000, dropout_ratio=0.4, aux_logits=False, partial_bn=False, norm_layer=nn.BatchNorm,
                 norm_kwargs=None, in_channels=3, pretrained_base=True, ctx=None, **kwargs):
        # pretrained_base and ctx: GluonCV's signature takes them and uses neither, so its calls run here too
        super().__init__(**kwargs)
        self.in_channels, self.aux_logits = in_channels, aux_logits
        norm_kwargs = dict(norm_kwargs or {})

        def norm(channels):
            return norm_layer(in_channels=channels, **dict({'epsilon': 0.001}, **norm_kwargs))

        with self.name_scope():
            self.conv1 = _conv(norm, 64, 7, 2, 3)
            self.maxpool1 = nn.MaxPool2D(3, 2, ceil_mode=True)
            if partial_bn:  # `norm` reads the dict when called: every BatchNorm from here on keeps its statistics
                norm_kwargs['use_global_stats'] = True
            self.conv2 = _conv(norm, 64)
            self.conv3 = _conv(norm, 192, 3, pad=1)
            self.maxpool2 = nn.MaxPool2D(3, 2, ceil_mode=True)
            for name, *channels in _BLOCKS:
                setattr(self, f'inception{name}', _inception(norm, *channels, prefix=f'Mixed_{name}_'))
            self.maxpool3 = nn.MaxPool2D(3, 2, ceil_mode=True)
            self.maxpool4 = nn.MaxPool2D(2, 2)
            if aux_logits:
                self.aux1 = _aux_head(norm, classes)
                self.aux2 = _aux_head(norm, classes)
            self.head = nn.HybridSequential(prefix='')
            self.head.add(nn.AvgPool2D(7), nn.Dropout(dropout_ratio), nn.Dense(classes, in_units=1024))
            self.output = self.head[2]
        self.feature_info = [Stage(n, c, s) for n, c, s in (('conv1', 64, 2), ('conv3', 192, 4),
                                                            ('inception3b', 480, 8), ('inception4e', 832, 16),
                                                            ('inception5b', 1024, 32))]

    def stages(self):
        names = ['conv1', 'maxpool1', 'conv2', 'conv3', 'maxpool2', 'inception3a', 'inception3b', 'maxpool3',
                 'inception4a', 'inception4b', 'inception4c', 'inception4d', 'inception4e', 'maxpool4',
                 'inception5a', 'inception5b']
        return [(name, getattr(self, name)) for name in names]

    def hybrid_forward(self, F, x):
        aux = []
        for name, stage in self.stages():
            x = stage(x)
            if self.aux_logits and name in ('inception4a', 'inception4d'):
                aux.insert(0, (self.aux1 if name == 'inception4a' else self.aux2)(x))
        x = self.head(x)
        return (x, *aux) if self.aux_logits else x

    def reset_class(self, classes, reuse_weights=None):
        old = self.classes
        for name in ('aux1', 'aux2') if self.aux_logits else ():
            reset_head(self, name, classes, reuse_weights, old)
        super().reset_class(classes, reuse_weights)
        self.output = self.head[2]


# -- weights record (GluonCV 0.10.5 model_store.py) ---------------------------------------------------------------
GOOGLENET_GLUONCV = gluoncv('googlenet', 'c7c89366fb4410c0aeb34827795f7dab9423f950', 6624904,
                            'https://arxiv.org/abs/1409.4842',
                            recipe='GluonCV 0.10.5 scripts/classification/imagenet/train_imagenet.py '
                                   '(googlenet_mixup.sh in the GluonCV model zoo logs)')


# -- registered builder -------------------------------------------------------------------------------------------
@register_model(weights=[GOOGLENET_GLUONCV], task='image-classification', protected=('in_channels', 'aux_logits'),
                test_input=(1, 3, 224, 224))
def googlenet(classes=1000, in_channels=3, dropout_ratio=0.4, aux_logits=False, partial_bn=False,
              norm_layer=nn.BatchNorm, norm_kwargs=None):
    """GoogLeNet (arXiv:1409.4842)."""
    return GoogLeNet(classes, dropout_ratio, aux_logits, partial_bn, norm_layer, norm_kwargs, in_channels)
