"""What GluonCV 0.10.5's semantic segmentation nets share (its segbase.py): a dilated classifier body from the
registry, the FCN head (also every net's auxiliary head), the ASPP branches, and the records of its checkpoints.

A net returns GluonCV's tuple: the class scores resized to `crop_size` (GluonCV's `_up_kwargs`: `height` x `width`,
by default the crop), then with `aux=True` the auxiliary head's scores on layer3, resized the same. `predict(x)`
gives the main scores at the input's own size. Structural names are GluonCV's (`conv1`, `layer4.2.conv2.weight`,
`head.block.0.weight`, `auxlayer.block.4.bias`), so its `.params` files load strictly.
"""
import mxnet as mx
from mxnet.gluon import nn

from ....heads import class_names, reset_head
from ....registry import get_backbone
from ....weights import GLUONCV_REPO, Source, Weights
from ...meta import ADE20K, CITYSCAPES, IMAGENET_MEAN, IMAGENET_STD, VOC_SEGMENTATION


# -- blocks -------------------------------------------------------------------------------------------------------
def norm(norm_layer, norm_kwargs, channels):
    """GluonCV's way of making a norm layer: norm_layer(in_channels=C, **norm_kwargs)."""
    return (norm_layer or nn.BatchNorm)(in_channels=channels, **(norm_kwargs or {}))


def conv_bn_relu(in_channels, channels, kernel, norm_layer, norm_kwargs, dilation=1):
    """conv (no bias, 'same' padding) -> norm -> ReLU, indices 0-2: GluonCV's PSP and ASPP branches."""
    block = nn.HybridSequential(prefix='')
    block.add(nn.Conv2D(channels, kernel, padding=dilation * (kernel // 2), dilation=dilation, use_bias=False,
                        in_channels=in_channels),
              norm(norm_layer, norm_kwargs, channels), nn.Activation('relu'))
    return block


def resize_like(F, x, like):
    """Bilinear (corners aligned, as GluonCV) to the spatial size of `like`: the size follows the input in the
    hybridized graph too, and the export has a converter for it."""
    return F.contrib.BilinearResize2D(x, like, mode='like')


def resize_to(F, x, size):
    """Bilinear (corners aligned) to `size`: a dict of height and width (GluonCV's `_up_kwargs`, fixed in a graph) or
    a tensor whose spatial size to take (the input picture: `AtInputSize`'s graph serves every size)."""
    return F.contrib.BilinearResize2D(x, **size) if isinstance(size, dict) else resize_like(F, x, size)


class FCNHead(nn.HybridBlock):
    """3x3 conv to in/4 channels -> norm -> ReLU -> dropout 0.1 -> 1x1 conv to the classes (GluonCV's _FCNHead)."""

    def __init__(self, in_channels, classes, norm_layer=nn.BatchNorm, norm_kwargs=None):
        super().__init__()
        inter = in_channels // 4
        with self.name_scope():
            self.block = nn.HybridSequential()
            self.block.add(nn.Conv2D(inter, 3, padding=1, use_bias=False, in_channels=in_channels),
                           norm(norm_layer, norm_kwargs, inter), nn.Activation('relu'), nn.Dropout(0.1),
                           nn.Conv2D(classes, 1, in_channels=inter))

    def hybrid_forward(self, F, x):
        return self.block(x)


class ASPPPooling(nn.HybridBlock):
    """Image-level ASPP branch: global average -> 1x1 conv -> norm -> ReLU, spread back over the map."""

    def __init__(self, in_channels, channels, norm_layer, norm_kwargs):
        super().__init__()
        self.gap = nn.HybridSequential()
        with self.gap.name_scope():
            self.gap.add(nn.GlobalAvgPool2D(), nn.Conv2D(channels, 1, use_bias=False, in_channels=in_channels),
                         norm(norm_layer, norm_kwargs, channels), nn.Activation('relu'))

    def hybrid_forward(self, F, x):
        return resize_like(F, self.gap(x), x)


# -- model --------------------------------------------------------------------------------------------------------
class Segmenter(nn.HybridBlock):
    """GluonCV's segmentation API over `_scores(F, x, size)` (the outputs resized to `size`, a dict of height and
    width): the call gives them at `height` x `width` (`_up_kwargs`), `evaluate` the main one, `predict` / `demo`
    the main one at the input's size; `reset_class` swaps the output convs of `head` (and `auxlayer`). `size` may
    also be a tensor whose height and width to take (`AtInputSize`)."""
    aux = False
    #: whether the graph holds for the crop's map size only (PSPNet's pooling bins): then only `predict` serves other
    #: sizes, imperatively
    fixed_size_graph = False

    def _scores(self, F, x, size):
        raise NotImplementedError

    def hybrid_forward(self, F, x):
        return self._scores(F, x, self._up_kwargs)

    def evaluate(self, x):
        """The main scores at the crop size (GluonCV's evaluate)."""
        return self.forward(x)[0]

    def predict(self, x):
        """The main scores (NDArray) at the input's own height and width, whatever it is. It runs imperatively:
        a hybridized net's graph has the crop's map size in it (PSPNet's pooling bins), so it is dropped here and
        rebuilt by the next call."""
        flags = dict(self._flags) if self._active else None
        if flags is not None:
            self.hybridize(False)
        try:
            return self._scores(mx.nd, x, {'height': x.shape[2], 'width': x.shape[3]})[0]
        finally:
            if flags is not None:
                self.hybridize(True, **flags)

    demo = predict

    def reset_class(self, classes, reuse_weights=None):
        """Fresh output convs (main and auxiliary heads) for `classes` (a count or names); `reuse_weights` keeps
        the rows of named classes (GluonCV's detection API)."""
        old = self.classes
        self.classes = reset_head(self.head, 'block', classes, reuse_weights, old)
        if self.aux:
            reset_head(self.auxlayer, 'block', classes, reuse_weights, old)
        self.nclass = len(class_names(classes))


class AtInputSize(nn.HybridBlock):
    """A segmenter's main scores at its input's own size as a HybridBlock of their own: `predict`'s answer from one
    graph for every picture size, which `gluonzoo.optimize` can fuse (`segment` runs it). The segmenter is its only
    child: the parameters are its own, names unchanged."""

    def __init__(self, net):
        super().__init__(prefix='')
        if net.fixed_size_graph:
            raise ValueError(f'{type(net).__name__}\'s graph holds its crop size only: use its predict()')
        self.net = net

    def hybrid_forward(self, F, x):
        return self.net._scores(F, x, x)[0]


#: GluonCV's backbone names (its segbase.get_backbone) -> the registered classifiers they are; registered names
#: (resnet50_v1s, resnest101, ...) are taken as they are
GLUONCV_BACKBONES = {'resnet18': 'resnet18_v1b', 'resnet34': 'resnet34_v1b', 'resnet50': 'resnet50_v1s',
                     'resnet101': 'resnet101_v1s', 'resnet152': 'resnet152_v1s'}


class SegBaseModel(Segmenter):
    """GluonCV's SegBaseModel: a dilated body (stride 8; layer3 and layer4 of classifier `backbone`, GluonCV's name
    or a registered one, built with `dilated=True`), whose `head` and, with `aux`, `auxlayer` a subclass sets.
    `nclass` is a count or the class names; `base_size` / `crop_size` are what GluonCV's multi-scale evaluation
    reads; outputs are resized to `height` x `width` (default the crop)."""

    def __init__(self, nclass, aux, backbone='resnet50', height=None, width=None, base_size=520, crop_size=480,
                 pretrained_base=True, norm_layer=nn.BatchNorm, norm_kwargs=None, **kwargs):
        super().__init__(**kwargs)
        names = class_names(nclass)
        self.classes = names if not isinstance(nclass, int) else None
        self.nclass, self.aux = len(names), aux
        self.base_size, self.crop_size = base_size, crop_size
        self._up_kwargs = {'height': height or crop_size, 'width': width or crop_size}
        body = get_backbone(GLUONCV_BACKBONES.get(backbone, backbone), pretrained=pretrained_base,
                            out_indices=('layer3', 'layer4'), dilated=True, norm_layer=norm_layer,
                            norm_kwargs=norm_kwargs)
        blocks = [block for stage in body.stages for block in stage]
        with self.name_scope():
            self.conv1, self.bn1, self.relu, self.maxpool, self.layer1, self.layer2, self.layer3, self.layer4 = blocks
        self.body_channels = body.channels  # (layer3, layer4)

    def initialize_heads(self, ctx=None):
        """What GluonCV's constructors do to the heads: initialize them (on `ctx`) with 10x the learning rate. The
        registered builders leave this to the user (`get_model` returns the net uninitialized, for the user's
        `initialize`)."""
        for head in (self.head, self.auxlayer) if self.aux else (self.head,):
            head.initialize(ctx=ctx)
            head.collect_params().setattr('lr_mult', 10)

    def base_forward(self, x):
        """(layer3, layer4) feature maps, both at stride 8."""
        for block in (self.conv1, self.bn1, self.relu, self.maxpool, self.layer1, self.layer2):
            x = block(x)
        c3 = self.layer3(x)
        return c3, self.layer4(c3)

    def _scores(self, F, x, size):
        c3, c4 = self.base_forward(x)
        outputs = [resize_to(F, self.head(c4), size)]
        if self.aux:
            outputs.append(resize_to(F, self.auxlayer(c3), size))
        return tuple(outputs)


def build(cls, backbone, options):
    """A registered builder's net: `cls` on `backbone` with the builder's own arguments (its `locals()`: `classes`
    is GluonCV's `nclass`), heads left uninitialized."""
    options = dict(options)
    return cls(options.pop('classes'), backbone, init_heads=False, **options)


# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
DATASETS = {'voc': VOC_SEGMENTATION, 'coco': VOC_SEGMENTATION, 'ade': ADE20K, 'citys': CITYSCAPES}

#: GluonCV's published figures, docs/model_zoo/csv_tables/Segmentations/SS_*.csv (pixAcc, mIoU in %; VOC: mIoU on
#: the VOC 2012 test server, no pixAcc). The tables have no hashtags; model_store.py lists one checkpoint a name.
PUBLISHED = {
    'fcn_resnet101_voc': (None, 83.6), 'psp_resnet101_voc': (None, 85.1), 'deeplab_resnet101_voc': (None, 86.2),
    'deeplab_resnet152_voc': (None, 86.7),
    'fcn_resnet101_coco': (92.2, 66.2), 'psp_resnet101_coco': (92.4, 70.4), 'deeplab_resnet101_coco': (92.5, 70.4),
    'fcn_resnet50_ade': (79.0, 39.5), 'fcn_resnet101_ade': (80.6, 41.6), 'psp_resnet50_ade': (80.1, 41.5),
    'psp_resnet101_ade': (80.8, 43.3), 'deeplab_resnet50_ade': (80.5, 42.5), 'deeplab_resnet101_ade': (81.1, 44.1),
    'deeplab_resnest50_ade': (81.2, 45.1), 'deeplab_resnest101_ade': (82.1, 46.9),
    'deeplab_resnest200_ade': (82.5, 48.4), 'deeplab_resnest269_ade': (82.6, 47.6),
    'psp_resnet101_citys': (96.4, 79.9), 'deeplab_resnet50_citys': (96.3, 78.7),
    'deeplab_resnet101_citys': (96.4, 79.4), 'deeplab_v3b_plus_wideresnet_citys': (None, 83.5),
}
#: GluonCV's segmentation demo and test.py: the picture as it is, to_tensor, ImageNet normalization
PREPROCESS = dict(mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, color='RGB', layout='NCHW')


def seg_weights(arch, sha1s, params, paper, config=None):
    """[the GluonCV record of `arch`] when its model_store lists one, else []: classes from the dataset suffix,
    `config` GluonCV's get_* defaults (an auxiliary head, crop 480 / base 520, which its test.py evaluates at)."""
    if arch not in sha1s:
        return []
    config = dict({'aux': True, 'base_size': 520, 'crop_size': 480}, **(config or {}))
    pix, miou = PUBLISHED.get(arch, (None, None))
    metrics = {k: v for k, v in (('pixAcc', pix), ('mIoU', miou)) if v is not None}
    if metrics:
        metrics['source'] = 'GluonCV model zoo table (published, not re-measured)'
    crop = config['crop_size']
    return [Weights(
        arch=arch, tag='gluoncv', default=True, task='semantic-segmentation', sha1=sha1s[arch],
        num_params=params[arch], classes=DATASETS[arch.rsplit('_', 1)[1]], preprocess=PREPROCESS,
        input_shape=(1, 3, crop, crop), config=config, source=Source(kind='mirror', url=GLUONCV_REPO),
        metrics=metrics, license='Apache-2.0 (GluonCV)', paper=paper,
        recipe=f'GluonCV 0.10.5 scripts/segmentation/train.py ({arch}.sh, linked from the table)')]


def tiny_input():
    """The registry tests' input: a 32x32 picture (stride-8 maps of 4x4) for nets built with crop_size=32."""
    return (mx.nd.random.uniform(shape=(1, 3, 32, 32)),)


#: what every segmentation builder registers with: `aux` changes which parameters a checkpoint holds
REG = dict(task='semantic-segmentation', protected=('aux',), test_input=tiny_input,
           test_kwargs={'pretrained_base': False, 'crop_size': 32})
