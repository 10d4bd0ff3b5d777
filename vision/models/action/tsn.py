"""TSN-style frame models (Wang et al., Temporal Segment Networks, arXiv:1608.00859): parameter-compatible with
GluonCV 0.10.5's `vgg16_*`, `inceptionv1_*`, `inceptionv3_*` and `resnet*_v1b_*` action recognizers.

A 2D classifier of the registry (vgg16, googlenet, inceptionv3, resnet*_v1b, its ImageNet weights with
`pretrained_base`) scores frames: a batch holds num_segments x num_crop consecutive frames of each video, (N *
segments * crops, 3, H, W); their pooled features are averaged (TSN's segmental consensus) before the head `output`,
so the net answers (N, nclass). Structural names are GluonCV's (`features.0.weight`, `inception3a...`, `layer1...`,
`output.weight`). Layout: the shared model -> the four GluonCV classes -> weights records -> registered builders.

GluonCV's options keep their names and meanings: `nclass` (the registry's `classes` too), `pretrained_base`,
`num_segments`, `num_crop`, `dropout_ratio`, `init_std` (the head's normal init), `partial_bn` (Inception: every
BatchNorm but the first keeps its running statistics in training; GluonCV's VGG and ResNet ignore it, and so do
these), `use_tsn` / `tsn` / `bn_frozen` (GluonCV's scripts pass them; its TSN nets ignore them). `feat_ext=True`
returns the averaged features (N, feat_dim) instead of the scores, as GluonCV's 3D nets do (GluonCV's TSN nets take
the option and ignore it, so its feat_extract.py saves their scores).
"""
import mxnet as mx
from mxnet.gluon import nn

from ....errors import BadInputError
from ....heads import reset_head
from ....registry import get_model, register_model
from .base import GLUONCV_TABLE, FeatureHead, action_weights, check_views, copy_all_but_head, motions_weights, \
    resolve_nclass


# -- model --------------------------------------------------------------------------------------------------------
def _partial_bn(block):
    """GluonCV's partial BN: every BatchNorm after the first (in layer order) keeps its running statistics."""
    def norms(b):
        for child in b._children.values():
            yield from ([child] if isinstance(child, nn.BatchNorm) else norms(child))
    for bn in list(norms(block))[1:]:
        bn._kwargs['use_global_stats'] = True


class TSN(FeatureHead, nn.HybridBlock):
    """Frames -> `frame_features` (one row of `feat_dim` a frame) -> mean over each video's num_segments x num_crop
    frames -> `output` (Dense(nclass), normal init of `init_std`). With `pretrained_base` the head is initialized at
    once, as GluonCV's (its scripts move the whole net with reset_ctx before anything else)."""
    feat_dim = 0
    fixed_input = None  # (H, W) when the net's pooling needs it; sizes equal after // input_stride are accepted
    input_stride = 1
    classes = None

    def __init__(self, nclass, pretrained_base, num_segments, num_crop, feat_ext, init_std):
        super().__init__()
        if not isinstance(nclass, int) or isinstance(nclass, bool) or nclass < 1:
            raise BadInputError(f'{type(self).__name__}: nclass={nclass!r} must be a positive number of classes')
        check_views(type(self).__name__, num_segments, num_crop)
        self.num_segments, self.num_crop, self.feat_ext, self.init_std = num_segments, num_crop, feat_ext, init_std
        self._pretrained_base = pretrained_base

    def _head(self, nclass):
        self.output = nn.Dense(nclass, in_units=self.feat_dim, weight_initializer=mx.init.Normal(self.init_std))
        if self._pretrained_base:
            self.output.initialize()

    def frame_features(self, F, x):
        raise NotImplementedError

    def hybrid_forward(self, F, x):
        x = self.frame_features(F, x).reshape((-1, self.num_segments * self.num_crop, self.feat_dim)).mean(axis=1)
        return x if self.feat_ext else self.output(x)

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray):
            self.check_input(x.shape)
        return super().forward(x, *args)

    def check_input(self, shape):
        """Raise BadInputError saying what the net takes when `shape` cannot run through it."""
        name, per_video = type(self).__name__, self.num_segments * self.num_crop
        if len(shape) == 5:
            raise BadInputError(f'{name} takes frames (N*num_segments*num_crop, 3, H, W), not clips '
                                f'{"x".join(map(str, shape))}: put each clip\'s frames along the batch axis')
        if len(shape) != 4 or shape[1] != 3:
            raise BadInputError(f'{name} takes frames (N*num_segments*num_crop, 3, H, W) (RGB, NCHW), got '
                                f'{"x".join(map(str, shape))}')
        if shape[0] % per_video:
            raise BadInputError(f'{name} averages num_segments x num_crop = {per_video} frames a video; a batch of '
                                f'{shape[0]} frames is not a multiple of {per_video}: give every video {per_video}')
        wrong = self.size_problem(*shape[2:])
        if wrong:
            raise BadInputError(f'{name} takes {wrong}, got {shape[2]}x{shape[3]}: resize/crop them (the weights '
                                'record\'s preprocess says how)')

    def size_problem(self, h, w):
        """'' when h x w frames run through the net, else what it takes."""
        want, k = self.fixed_input, self.input_stride
        return f'{want[0]}x{want[1]} frames' if want and (h // k, w // k) != (want[0] // k, want[1] // k) else ''

    def reset_class(self, classes, reuse_weights=None):
        """A fresh head for `classes` (a count or a list of names); `reuse_weights` keeps rows of old classes."""
        self.classes = reset_head(self, 'output', classes, reuse_weights, self.classes)

    def copy_body_from(self, net):
        """Every parameter but the head's from `net`, a loaded net of the same body (GluonCV's `_custom`
        use_kinetics_pretrain start), then the head initialized."""
        copy_all_but_head(self, net, 'output')
        self.output.initialize()


def _dropout(block, rate):
    """Every Dropout inside `block` at `rate` (GluonCV's dropout_ratio reaches into the base's classifier layers)."""
    for child in block._children.values():
        if isinstance(child, nn.Dropout):
            child._rate = rate
        _dropout(child, rate)


class ActionRecVGG16(TSN):
    """GluonCV's ActionRecVGG16: VGG-16's `features` (convs and the two 4096-wide Dense layers, their dropout at
    `dropout_ratio`) per frame. The first Dense fits the input size it first sees (512 x H/32 x W/32 features);
    GluonCV's checkpoints are 224x224."""
    feat_dim = 4096

    def __init__(self, nclass, pretrained_base=True, dropout_ratio=0.5, init_std=0.001, num_segments=1, num_crop=1,
                 feat_ext=False, **kwargs):
        super().__init__(nclass, pretrained_base, num_segments, num_crop, feat_ext, init_std)
        self.dropout_ratio = dropout_ratio
        with self.name_scope():
            self.features = get_model('vgg16', pretrained=pretrained_base, **kwargs).features
            _dropout(self.features, dropout_ratio)
            self._head(nclass)

    def size_problem(self, h, w):
        units = self.features[-4].weight.shape[1]  # the first Dense (the last 4 layers are Dense, Dropout x 2)
        if not units or units == 512 * (h // 32) * (w // 32):
            return ''
        side = int((units // 512) ** 0.5) * 32
        return f'frames whose 512 x H/32 x W/32 features are the {units} its first Dense layer fits ' \
               f'(e.g. {side}x{side})'

    def frame_features(self, F, x):
        return self.features(x)


_GOOGLENET_STAGES = ('conv1', 'maxpool1', 'conv2', 'conv3', 'maxpool2', 'inception3a', 'inception3b', 'maxpool3',
                     'inception4a', 'inception4b', 'inception4c', 'inception4d', 'inception4e', 'maxpool4',
                     'inception5a', 'inception5b')


class ActionRecInceptionV1(TSN):
    """GluonCV's ActionRecInceptionV1: GoogLeNet-BN's stages up to inception5b per frame, a 7x7 average pool,
    dropout at `dropout_ratio`; 224x224 frames (224-255 give the 7x7 map)."""
    feat_dim = 1024
    fixed_input, input_stride = (224, 224), 32

    def __init__(self, nclass, pretrained_base=True, partial_bn=True, dropout_ratio=0.5, init_std=0.001,
                 num_segments=1, num_crop=1, feat_ext=False, **kwargs):
        super().__init__(nclass, pretrained_base, num_segments, num_crop, feat_ext, init_std)
        self.dropout_ratio = dropout_ratio
        base = get_model('googlenet', pretrained=pretrained_base, **kwargs)
        with self.name_scope():
            for name in _GOOGLENET_STAGES:
                setattr(self, name, getattr(base, name))
            self.avgpool = nn.AvgPool2D(pool_size=7)
            self.dropout = nn.Dropout(dropout_ratio)
            self._head(nclass)
        if partial_bn:
            _partial_bn(self)

    def frame_features(self, F, x):
        for name in _GOOGLENET_STAGES:
            x = getattr(self, name)(x)
        return self.dropout(self.avgpool(x))


class ActionRecInceptionV3(TSN):
    """GluonCV's ActionRecInceptionV3: Inception-v3's `features` (to its 8x8 average pool and dropout, at
    `dropout_ratio`) per frame; 299x299 frames."""
    feat_dim = 2048
    fixed_input = (299, 299)

    def __init__(self, nclass, pretrained_base=True, partial_bn=True, dropout_ratio=0.5, init_std=0.001,
                 num_segments=1, num_crop=1, feat_ext=False, **kwargs):
        super().__init__(nclass, pretrained_base, num_segments, num_crop, feat_ext, init_std)
        self.dropout_ratio = dropout_ratio
        with self.name_scope():
            self.features = get_model('inceptionv3', pretrained=pretrained_base, **kwargs).features
            _dropout(self.features, dropout_ratio)
            self._head(nclass)
        if partial_bn:
            _partial_bn(self)

    def frame_features(self, F, x):
        return self.features(x)


_RESNET_STAGES = ('conv1', 'bn1', 'relu', 'maxpool', 'layer1', 'layer2', 'layer3', 'layer4', 'avgpool', 'flat')
DEPTHS = (18, 34, 50, 101, 152)


class ActionRecResNetV1b(TSN):
    """GluonCV's ActionRecResNetV1b: ResNet-`depth` V1b to its global pool per frame, dropout at `dropout_ratio`;
    any frame size. `partial_bn` is accepted and, as in GluonCV, changes nothing."""

    def __init__(self, depth, nclass, pretrained_base=True, dropout_ratio=0.5, init_std=0.01, num_segments=1,
                 num_crop=1, partial_bn=False, feat_ext=False, **kwargs):
        if depth not in DEPTHS:
            raise BadInputError(f'ActionRecResNetV1b: depth {depth!r} is not one of {list(DEPTHS)}')
        super().__init__(nclass, pretrained_base, num_segments, num_crop, feat_ext, init_std)
        self.depth, self.dropout_ratio = depth, dropout_ratio
        base = get_model(f'resnet{depth}_v1b', pretrained=pretrained_base, **kwargs)
        self.feat_dim = base.num_features
        with self.name_scope():
            for name in _RESNET_STAGES:
                setattr(self, name, getattr(base, name))
            self.drop = nn.Dropout(dropout_ratio)
            self._head(nclass)

    def frame_features(self, F, x):
        for name in _RESNET_STAGES:
            x = getattr(self, name)(x)
        return self.drop(x)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_PAPER = 'https://arxiv.org/abs/1608.00859'
#: trainable parameters of GluonCV's net (counted in the peers venv)
_PARAMS = {
    'vgg16_ucf101': 134674341, 'inceptionv1_kinetics400': 6009904, 'inceptionv3_ucf101': 21992517,
    'inceptionv3_kinetics400': 22605168, 'resnet18_v1b_kinetics400': 11381712, 'resnet34_v1b_kinetics400': 21489872,
    'resnet50_v1b_kinetics400': 24327632, 'resnet101_v1b_kinetics400': 43319760,
    'resnet152_v1b_kinetics400': 58963408, 'resnet50_v1b_sthsthv2': 23864558, 'resnet50_v1b_hmdb51': 23612531,
}
# A record's segments a video at test, one frame each, are its table row's (its training segments; the row of the
# checkpoint's hashtag), as GluonCV's CALIBRATION.md tests them (inceptionv3_ucf101 --num-segments 3,
# resnet18_v1b_kinetics400 7). The record builds GluonCV's pretrained net (num_segments=1, as its tutorials run it on
# single frames): it scores each of the `segments` frames, and their mean is the video's score (what
# num_segments=segments computes: the head is linear).
#: Inception-v3's frames: 340x450 resized, 299 cropped (CALIBRATION.md's test command)
_INCEPTIONV3 = {'resize': (340, 450), 'crop': 299}


def _weights(arch):
    segments = int(GLUONCV_TABLE[arch][2]) if arch in GLUONCV_TABLE else 1
    pre = dict(_INCEPTIONV3 if arch.startswith('inceptionv3') else {}, segments=segments)  # one frame each
    side = pre.get('crop', 224)
    return action_weights(arch, _PARAMS.get(arch), (segments, 3, side, side), _PAPER, preprocess=pre)


# -- registered builders ------------------------------------------------------------------------------------------
# Each builder hands its own arguments (`locals()`) to _build: they are GluonCV's options (its `ctx` / `root` /
# `pretrained` are get_model's). test_kwargs are options GluonCV's builders take too (the parity test runs both).
def _reg(frames, side, **kwargs):
    return dict(task='action-recognition', protected=('nclass',), test_input=(frames, 3, side, side),
                test_kwargs={'pretrained_base': False, **kwargs})


# the deeper ResNets take two frames (two one-segment videos), so the parity test (which runs a family variant's
# smallest input) picks ResNet-18
_VGG, _V1, _V3, _R18, _RESNET = _reg(1, 32), _reg(1, 224), _reg(1, 299), _reg(1, 32), _reg(2, 32)
_CUSTOM = _reg(1, 32, use_kinetics_pretrain=False)


def _build(cls, default, options, **fixed):
    """`cls` from a builder's options: `classes` (the registry's) and `nclass` (GluonCV's) name one count;
    `use_tsn` / `tsn` / `bn_frozen` (and VGG's `partial_bn`) are GluonCV's no-ops; `use_kinetics_pretrain` starts a
    `_custom` net from the Kinetics-400 checkpoint of its depth."""
    options = dict(options)
    nclass = resolve_nclass(options.pop('nclass'), options.pop('classes'), default)
    for ignored in ('use_tsn', 'tsn', 'bn_frozen') + (('partial_bn',) if cls is ActionRecVGG16 else ()):
        options.pop(ignored, None)
    kinetics = options.pop('use_kinetics_pretrain', False)
    if kinetics:
        options['pretrained_base'] = False  # the Kinetics checkpoint holds the body: no ImageNet fetch first
    net = cls(nclass=nclass, **options, **fixed)
    if kinetics:
        net.copy_body_from(get_model(f'resnet{net.depth}_v1b_kinetics400', pretrained=True))
    return net


@register_model(weights=_weights('vgg16_ucf101'), **_VGG)
def vgg16_ucf101(nclass=101, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False, feat_ext=False,
                 dropout_ratio=0.9, init_std=0.001, use_tsn=False, bn_frozen=False, classes=None):
    """VGG-16 on UCF101 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecVGG16, 101, locals())


@register_model(weights=_weights('vgg16_hmdb51'), **_VGG)
def vgg16_hmdb51(nclass=51, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False, feat_ext=False,
                 dropout_ratio=0.9, init_std=0.001, use_tsn=False, bn_frozen=False, classes=None):
    """VGG-16 on HMDB51 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecVGG16, 51, locals())


@register_model(weights=_weights('vgg16_kinetics400'), **_VGG)
def vgg16_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False, feat_ext=False,
                      dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False, classes=None):
    """VGG-16 on Kinetics-400 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecVGG16, 400, locals())


@register_model(weights=_weights('vgg16_sthsthv2'), **_VGG)
def vgg16_sthsthv2(nclass=174, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False, feat_ext=False,
                   dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False, classes=None):
    """VGG-16 on Something-Something-V2 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecVGG16, 174, locals())


@register_model(weights=_weights('inceptionv1_ucf101'), **_V1)
def inceptionv1_ucf101(nclass=101, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=True, feat_ext=False,
                       dropout_ratio=0.8, init_std=0.001, use_tsn=False, bn_frozen=False, classes=None):
    """Inception-v1 on UCF101 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecInceptionV1, 101, locals())


@register_model(weights=_weights('inceptionv1_hmdb51'), **_V1)
def inceptionv1_hmdb51(nclass=51, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=True, feat_ext=False,
                       dropout_ratio=0.8, init_std=0.001, use_tsn=False, bn_frozen=False, classes=None):
    """Inception-v1 on HMDB51 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecInceptionV1, 51, locals())


@register_model(weights=_weights('inceptionv1_kinetics400'), **_V1)
def inceptionv1_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=True,
                            feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, tsn=False, bn_frozen=False,
                            classes=None):
    """Inception-v1 on Kinetics-400 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecInceptionV1, 400, locals())


@register_model(weights=_weights('inceptionv1_sthsthv2'), **_V1)
def inceptionv1_sthsthv2(nclass=174, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=True, feat_ext=False,
                         dropout_ratio=0.5, init_std=0.01, use_tsn=False, tsn=False, bn_frozen=False, classes=None):
    """Inception-v1 on Something-Something-V2 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecInceptionV1, 174, locals())


@register_model(weights=_weights('inceptionv3_ucf101'), **_V3)
def inceptionv3_ucf101(nclass=101, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=True, feat_ext=False,
                       dropout_ratio=0.8, init_std=0.001, use_tsn=False, bn_frozen=False, classes=None):
    """Inception-v3 on UCF101 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecInceptionV3, 101, locals())


@register_model(weights=_weights('inceptionv3_hmdb51'), **_V3)
def inceptionv3_hmdb51(nclass=51, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=True, feat_ext=False,
                       dropout_ratio=0.8, init_std=0.001, use_tsn=False, bn_frozen=False, classes=None):
    """Inception-v3 on HMDB51 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecInceptionV3, 51, locals())


@register_model(weights=_weights('inceptionv3_kinetics400'), **_V3)
def inceptionv3_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=True,
                            feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, tsn=False, bn_frozen=False,
                            classes=None):
    """Inception-v3 on Kinetics-400 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecInceptionV3, 400, locals())


@register_model(weights=_weights('inceptionv3_sthsthv2'), **_V3)
def inceptionv3_sthsthv2(nclass=174, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=True, feat_ext=False,
                         dropout_ratio=0.5, init_std=0.01, use_tsn=False, tsn=False, bn_frozen=False, classes=None):
    """Inception-v3 on Something-Something-V2 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecInceptionV3, 174, locals())


@register_model(weights=_weights('resnet18_v1b_kinetics400'), **_R18)
def resnet18_v1b_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                             feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                             classes=None):
    """ResNet-18 V1b on Kinetics-400 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 400, locals(), depth=18)


@register_model(weights=_weights('resnet34_v1b_kinetics400'), **_RESNET)
def resnet34_v1b_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                             feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                             classes=None):
    """ResNet-34 V1b on Kinetics-400 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 400, locals(), depth=34)


@register_model(weights=_weights('resnet50_v1b_kinetics400'), **_RESNET)
def resnet50_v1b_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                             feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                             classes=None):
    """ResNet-50 V1b on Kinetics-400 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 400, locals(), depth=50)


@register_model(weights=_weights('resnet101_v1b_kinetics400'), **_RESNET)
def resnet101_v1b_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                              feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                              classes=None):
    """ResNet-101 V1b on Kinetics-400 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 400, locals(), depth=101)


@register_model(weights=_weights('resnet152_v1b_kinetics400'), **_RESNET)
def resnet152_v1b_kinetics400(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                              feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                              classes=None):
    """ResNet-152 V1b on Kinetics-400 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 400, locals(), depth=152)


@register_model(weights=_weights('resnet18_v1b_sthsthv2'), **_R18)
def resnet18_v1b_sthsthv2(nclass=174, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                          feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                          classes=None):
    """ResNet-18 V1b on Something-Something-V2 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 174, locals(), depth=18)


@register_model(weights=_weights('resnet34_v1b_sthsthv2'), **_RESNET)
def resnet34_v1b_sthsthv2(nclass=174, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                          feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                          classes=None):
    """ResNet-34 V1b on Something-Something-V2 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 174, locals(), depth=34)


@register_model(weights=_weights('resnet50_v1b_sthsthv2'), **_RESNET)
def resnet50_v1b_sthsthv2(nclass=174, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                          feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                          classes=None):
    """ResNet-50 V1b on Something-Something-V2 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 174, locals(), depth=50)


@register_model(weights=_weights('resnet101_v1b_sthsthv2'), **_RESNET)
def resnet101_v1b_sthsthv2(nclass=174, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                           feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                           classes=None):
    """ResNet-101 V1b on Something-Something-V2 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 174, locals(), depth=101)


@register_model(weights=_weights('resnet152_v1b_sthsthv2'), **_RESNET)
def resnet152_v1b_sthsthv2(nclass=174, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False,
                           feat_ext=False, dropout_ratio=0.5, init_std=0.01, use_tsn=False, bn_frozen=False,
                           classes=None):
    """ResNet-152 V1b on Something-Something-V2 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 174, locals(), depth=152)


@register_model(weights=_weights('resnet50_v1b_ucf101'), **_RESNET)
def resnet50_v1b_ucf101(nclass=101, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False, feat_ext=False,
                        dropout_ratio=0.9, init_std=0.001, use_tsn=False, bn_frozen=False, classes=None):
    """ResNet-50 V1b on UCF101 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 101, locals(), depth=50)


@register_model(weights=_weights('resnet50_v1b_hmdb51'), **_RESNET)
def resnet50_v1b_hmdb51(nclass=51, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False, feat_ext=False,
                        dropout_ratio=0.9, init_std=0.001, use_tsn=False, bn_frozen=False, classes=None):
    """ResNet-50 V1b on HMDB51 frames, TSN's segmental consensus (arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 51, locals(), depth=50)


# Trained by gluonzoo from scratch on the generated motion videos (docs/action_recognition.md): TSN's 4 segments, a
# frame model, so it cannot tell a motion from its reverse (the test's ceiling is about 37.5%, chance 12.5%)
_TSN_MOTIONS = motions_weights(
    'resnet18_v1b_custom', '5438166f96addb32e4ccf42fc198d4baf075c595', 11180616, 26.04, [], 'tsn_motions',
    {'num_segments': 4, 'dropout_ratio': 0.3, 'pretrained_base': False, 'use_kinetics_pretrain': False},
    {'crop': 40, 'segments': 4}, (4, 3, 40, 40), _PAPER)


@register_model(weights=_TSN_MOTIONS, **_CUSTOM)
def resnet18_v1b_custom(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False, feat_ext=False,
                        dropout_ratio=0.5, init_std=0.01, use_kinetics_pretrain=True, use_tsn=False, bn_frozen=False,
                        classes=None):
    """ResNet-18 V1b for your classes' video frames, started from resnet18_v1b_kinetics400 (TSN, arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 400, locals(), depth=18)


@register_model(**_CUSTOM)
def resnet50_v1b_custom(nclass=400, pretrained_base=True, num_segments=1, num_crop=1, partial_bn=False, feat_ext=False,
                        dropout_ratio=0.5, init_std=0.01, use_kinetics_pretrain=True, use_tsn=False, bn_frozen=False,
                        classes=None):
    """ResNet-50 V1b for your classes' video frames, started from resnet50_v1b_kinetics400 (TSN, arXiv:1608.00859)."""
    return _build(ActionRecResNetV1b, 400, locals(), depth=50)
