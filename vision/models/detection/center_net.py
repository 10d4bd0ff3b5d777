"""CenterNet (Zhou et al., Objects as Points, arXiv:1904.07850): parameter-compatible with GluonCV 0.10.5's
`center_net_*` detectors with a ResNet V1b + deconvolution or a MobileNetV3 + DUC body (not DLA-34, not DCNv2).

A body turns the picture into stride-4 features; three heads predict, per cell, a heatmap of class centers
(sigmoid), the box width/height and the sub-cell center offset, all in heatmap cells. Inference keeps the cells that
are the maximum of their 3x3 neighbourhood (the peaks stand in for NMS), takes the `topk` best over all classes and
scales the boxes by `scale` back to input pixels: GluonCV's CenterNetDecoder.

Layout: blocks -> model -> weights records -> registered builders. Structural names follow GluonCV's
(`base_network.base_network.0.weight`, `base_network.deconv.0.weight`, `base_network.feature.0.weight`,
`base_network.upsampling.0.conv.weight`, `heads.0.0.weight`), so its `.params` files load strictly.
"""
from collections import OrderedDict

import mxnet as mx
from mxnet import autograd
from mxnet.gluon import nn

from ....errors import BadInputError
from ....heads import class_names, reuse_pairs
from ....registry import register_model
from ....weights import GLUONCV_REPO, Source, Weights
from ...meta import COCO, IMAGENET_MEAN, IMAGENET_STD, VOC
from ...ops.nms import nms, rows
from .center_net_bodies import DeconvResnet, mobilenetv3_large_duc, mobilenetv3_small_duc

#: -log((1 - 0.1) / 0.1): the heatmap starts at a 0.1 probability everywhere, so the focal loss does not blow up
HEATMAP_BIAS = -2.19


# -- blocks -------------------------------------------------------------------------------------------------------
def _head(name, outputs, channels, bias=0.0):
    """(with `channels` > 0, a 3x3 conv to them -> ReLU ->) 1x1 conv to `outputs`; a head with a bias prior gets
    Xavier weights, the regression heads N(0, 0.001) (GluonCV's initialization)."""
    init = mx.init.Xavier() if bias else mx.init.Normal(0.001)
    head = nn.HybridSequential(prefix=f'{name}_')
    with head.name_scope():
        if channels > 0:
            head.add(nn.Conv2D(channels, 3, padding=1, weight_initializer=init), nn.Activation('relu'))
        head.add(nn.Conv2D(outputs, 1, weight_initializer=init, bias_initializer=mx.init.Constant(bias)))
    return head


def gluoncv_heads(classes):
    """GluonCV's `heads` of a CenterNet detecting `classes`: the heatmap (one channel a class, its bias prior),
    the box size and the center offset."""
    return OrderedDict([('heatmap', {'num_output': len(class_names(classes)), 'bias': HEATMAP_BIAS}),
                        ('wh', {'num_output': 2}), ('reg', {'num_output': 2})])


def decode_centers(F, key, wh, reg, topk, scale, logits=False):
    """(ids, scores, boxes), (B, topk) / (B, topk) / (B, topk, 4) as GluonCV's, of the `topk` best cells of `key` (B, C, H, W) over all classes:
    a box is centred on its cell plus the `reg` offset, `wh` wide and high, times `scale` (GluonCV's
    CenterNetDecoder). `key` is the peak-masked heatmap, or with `logits` its logits (scores: their sigmoid).
    Cells are gathered by flat row (take) rather than gather_nd."""
    values, idx = F.topk(key.reshape((0, -1)), k=topk, ret_typ='both', dtype='int64')
    shape = F.shape_array(key)
    w = F.slice_axis(shape, axis=0, begin=3, end=4)
    area = F.slice_axis(shape, axis=0, begin=2, end=3) * w
    cls, cell = F.broadcast_div(idx, area), F.broadcast_mod(idx, area)
    ys, xs = F.broadcast_div(cell, w).astype('float32'), F.broadcast_mod(cell, w).astype('float32')
    first = F.broadcast_mul(F.contrib.arange_like(values, axis=0).astype('int64').reshape((-1, 1)), area)
    row = F.broadcast_add(cell, first)  # of the (B * H * W, 2) cell table of each regression map

    def gather(x):  # (B, 2, H, W) at `row` -> its two (B, topk) planes
        return F.split(F.take(x.transpose((0, 2, 3, 1)).reshape((-1, 2)), row), axis=-1, num_outputs=2,
                       squeeze_axis=True)
    (ox, oy), (bw, bh) = gather(reg), gather(wh)
    cx, cy = xs + ox, ys + oy
    hw, hh = bw / 2, bh / 2
    boxes = F.stack(cx - hw, cy - hh, cx + hw, cy + hh, axis=-1) * scale
    scores = F.sigmoid(values) if logits else values
    return cls.astype('float32'), scores, boxes


# -- model --------------------------------------------------------------------------------------------------------
class CenterNet(nn.HybridBlock):
    """GluonCV's CenterNet over a stride-`scale` `base_network`: `heads` (GluonCV's OrderedDict, gluoncv_heads)
    `heads.0` heatmap (one channel a class), `heads.1` box size, `heads.2` center offset, each with
    `head_conv_channel` hidden channels (0: a 1x1 conv alone).

    In training it returns (clipped heatmap, wh, offset) for the losses; in inference `(ids, scores, bboxes)`, of
    GluonCV's shapes (B, topk), (B, topk), (B, topk, 4) (not the (B, K, 1) of the other detectors), best first. `flip_test` averages the heatmap and sizes of the mirrored picture in. GluonCV's
    NMS is off (nms_thresh 0) and its CenterNet ignores set_nms; here `set_nms(thresh in (0, 1))` does suppress,
    per class, keeping `post_nms` rows.
    """

    def __init__(self, base_network, heads, classes, head_conv_channel=0, scale=4.0, topk=100, flip_test=False,
                 nms_thresh=0, nms_topk=400, post_nms=100, **kwargs):
        for unused in ('norm_layer', 'norm_kwargs'):  # GluonCV's builders pass them; its CenterNet drops them too
            kwargs.pop(unused, None)
        super().__init__(**kwargs)
        self.classes = class_names(classes)
        want = gluoncv_heads(self.classes)
        got = [(name, dict(spec).get('num_output')) for name, spec in dict(heads).items()]
        if got != [(name, spec['num_output']) for name, spec in want.items()]:
            raise BadInputError(f'CenterNet decodes the heads heatmap ({len(self.classes)} classes), wh (2) and reg '
                                f'(2), in that order; got {got}: gluoncv_heads(classes) makes them')
        self.topk, self.scale, self.flip_test = topk, scale, flip_test
        self.nms_thresh, self.nms_topk, self.post_nms = nms_thresh, nms_topk, min(post_nms, topk)
        with self.name_scope():
            self.base_network = base_network
            self.heads = nn.HybridSequential(prefix='heads')
            with self.heads.name_scope():
                for name, spec in heads.items():
                    self.heads.add(_head(name, spec['num_output'], head_conv_channel, spec.get('bias', 0.0)))

    @property
    def num_classes(self):
        return len(self.classes)

    @property
    def flip_test(self):
        return self._flip_test

    @flip_test.setter
    def flip_test(self, value):  # GluonCV's scripts set it on a built net: a hybridized graph must be retraced
        self._flip_test = bool(value)
        self._clear_cached_op()

    def set_nms(self, nms_thresh=0, nms_topk=400, post_nms=100):
        """GluonCV's signature; a threshold in (0, 1) turns per-class NMS on after the peak decoding."""
        self._clear_cached_op()
        post_nms = min(post_nms, nms_topk)  # -1: all of them
        self.nms_thresh, self.nms_topk = nms_thresh, nms_topk
        self.post_nms = min(post_nms, self.topk) if post_nms > 0 else post_nms  # there are only topk rows

    def reset_class(self, classes, reuse_weights=None):
        """A fresh heatmap output for `classes` (names; a count gets placeholders), GluonCV's API: the rows of the
        classes in `reuse_weights` ({new: old} by name or index, or a list of names kept) are copied over."""
        names = class_names(classes)
        last = str(len(self.heads[0]) - 1)
        old = self.heads[0][int(last)]
        if old.weight._data is None:
            raise ValueError('reset_class needs the heatmap head\'s weights: initialize or load the net first')
        pairs = reuse_pairs(reuse_weights, names, len(names), self.classes, len(self.classes))
        new = nn.Conv2D(len(names), 1, in_channels=old.weight.shape[1], weight_initializer=mx.init.Xavier(),
                        bias_initializer=mx.init.Constant(HEATMAP_BIAS), prefix=old.prefix)
        new.initialize(ctx=old.weight.list_ctx())
        for p_new, p_old in ((new.weight, old.weight), (new.bias, old.bias)):
            value, saved = p_new.data().copy(), p_old.data()
            for i, j in pairs:
                value[i] = saved[j]
            p_new.set_data(value)
        self.heads[0].register_child(new, last)
        self.classes = names
        self._clear_cached_op()

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray) and (x.ndim != 4 or x.shape[1] != 3):
            raise BadInputError(f'{type(self).__name__} takes batches of shape Nx3xHxW (NCHW, RGB), got '
                                f'{"x".join(map(str, x.shape))}; the weights record\'s preprocess says how')
        return super().forward(x, *args)

    def _heads(self, F, x):
        y = self.base_network(x)
        return [head(y) for head in self.heads]

    def hybrid_forward(self, F, x):
        logits, wh, reg = self._heads(F, x)
        heat = F.sigmoid(logits)
        if autograd.is_training():
            return F.clip(heat, 1e-4, 1 - 1e-4), wh, reg  # the focal loss takes the log of p and of 1 - p
        if self.flip_test:  # the offsets are not averaged: mirrored, a cell's offset points the other way
            flogits, fwh, _ = self._heads(F, F.flip(x, axis=3))
            heat = (heat + F.flip(F.sigmoid(flogits), axis=3)) * 0.5
            wh = (wh + F.flip(fwh, axis=3)) * 0.5
        peaks = F.broadcast_equal(F.Pooling(heat, kernel=(3, 3), stride=(1, 1), pad=(1, 1), pool_type='max'), heat)
        if self.flip_test:
            key = heat * peaks
        else:  # ranked by logit: sigmoid rounds confident cells to 1.0, and topk orders ties differently in MXNet
            # and ONNX Runtime (GluonCV's order among them is arbitrary); non-peaks last, with score 0 as GluonCV's
            key = F.where(peaks, logits, F.ones_like(logits) * -1e30)
        ids, scores, boxes = decode_centers(F, key, wh, reg, self.topk, self.scale, logits=not self.flip_test)
        if 0 < self.nms_thresh < 1:
            ids, scores, boxes = nms(F, rows(F, ids.expand_dims(-1), scores.expand_dims(-1), boxes), self.nms_thresh,
                                     self.nms_topk, self.post_nms)
            ids, scores = ids.reshape((0, -1)), scores.reshape((0, -1))  # the same (B, K) layout without NMS
        return ids, scores, boxes



# -- weights records (GluonCV 0.10.5 model_store.py) -------------------------------------------------------------
_SHA1 = {
    'center_net_resnet18_v1b_voc': '38c509d456a6e14e4c54e961ed43bffe8cf62840',
    'center_net_resnet18_v1b_coco': 'dccae71d1f069343326750bc9b0508a2a760dd80',
    'center_net_resnet50_v1b_voc': 'f108427bc62c85f7bcbdba45db4c94a31fd4d4f6',
    'center_net_resnet50_v1b_coco': '28c64aaeaf9d5e4404afd2b96bf8812973d79eb9',
    'center_net_resnet101_v1b_voc': '5bf8b91f8813e82a2f2660c83560ffdfebf835a0',
    'center_net_resnet101_v1b_coco': '6f9cd4a945cb554c38539009eede20f45786519e',
    'center_net_mobilenetv3_small_duc_voc': '8a8e9cbcbac3a496f0904dc22e148b1978ea672f',
    'center_net_mobilenetv3_small_duc_coco': 'f782057569a768faa03940d8106f944ffe3c9733',
    'center_net_mobilenetv3_large_duc_voc': '2cab979937586d3f8532d86130030c611ae38d2d',
    'center_net_mobilenetv3_large_duc_coco': 'bfc55dfd13ef8e9fd052141a3c42338179f5949d',
}
_PARAMS = {
    'center_net_resnet18_v1b_voc': 14215640, 'center_net_resnet18_v1b_coco': 14219540,
    'center_net_resnet50_v1b_voc': 30086104, 'center_net_resnet50_v1b_coco': 30090004,
    'center_net_resnet101_v1b_voc': 49078232, 'center_net_resnet101_v1b_coco': 49082132,
    'center_net_mobilenetv3_small_duc_voc': 4008696, 'center_net_mobilenetv3_small_duc_coco': 4012596,
    'center_net_mobilenetv3_large_duc_voc': 7952392, 'center_net_mobilenetv3_large_duc_coco': 7956292,
}
#: mAP without flip test, GluonCV's docs/model_zoo/csv_tables/Detections/Pascal_CenterNet.csv (VOC07 test, VOC07
#: metric) and MSCOCO_CenterNet.csv (COCO val2017 AP@[.5:.95]), column "mAP(Orig/F)", Orig; the tables have no
#: MobileNetV3 rows and no hashtags (model_store.py lists one checkpoint per name)
_MAP = {'center_net_resnet18_v1b_voc': 66.8, 'center_net_resnet50_v1b_voc': 71.8,
        'center_net_resnet101_v1b_voc': 75.5, 'center_net_resnet18_v1b_coco': 26.6,
        'center_net_resnet50_v1b_coco': 32.1, 'center_net_resnet101_v1b_coco': 34.5}
#: presets.center_net.load_test(short=512) as GluonCV's demo calls it: resize_short_within(512, max_size=1024) with
#: MXNet's interp 2 (OpenCV bicubic), to_tensor, ImageNet normalization
_PRE = dict(resize=512, max_size=1024, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, color='RGB',
            layout='NCHW', interp='cubic')
_PAPER = 'https://arxiv.org/abs/1904.07850'


def _weights(arch):
    metric = {'map': _MAP[arch], 'source': 'GluonCV model zoo table (published, not re-measured)'} \
        if arch in _MAP else {}
    return [Weights(
        arch=arch, tag='gluoncv', default=True, task='object-detection', sha1=_SHA1[arch], num_params=_PARAMS[arch],
        classes=VOC if arch.endswith('_voc') else COCO, preprocess=_PRE, input_shape=(1, 3, 512, 512),
        source=Source(kind='mirror', url=GLUONCV_REPO), metrics=metric, license='Apache-2.0 (GluonCV)', paper=_PAPER,
        recipe='GluonCV 0.10.5 scripts/detection/center_net/train_center_net.py'
               + (f' ({arch}.sh, linked from the table)' if arch in _MAP else ''))]


# -- registered builders ------------------------------------------------------------------------------------------
_REG = dict(task='object-detection', test_input=(1, 3, 64, 64), test_kwargs={'pretrained_base': False})


def _resnet(depth, classes, pretrained_base, **kwargs):
    body = DeconvResnet(f'resnet{depth}_v1b', pretrained_base=pretrained_base)
    return CenterNet(body, gluoncv_heads(classes), classes, head_conv_channel=64, **kwargs)


def _mobilenet(mode, classes, pretrained_base, **kwargs):
    body = (mobilenetv3_large_duc if mode == 'large' else mobilenetv3_small_duc)(pretrained=pretrained_base)
    return CenterNet(body, gluoncv_heads(classes), classes, head_conv_channel=64, **kwargs)


@register_model(weights=_weights('center_net_resnet18_v1b_voc'), **_REG)
def center_net_resnet18_v1b_voc(classes=VOC, pretrained_base=True, topk=40, flip_test=False):
    """CenterNet, ResNet-18 V1b + deconv, Pascal VOC (Objects as Points, arXiv:1904.07850)."""
    return _resnet(18, classes, pretrained_base, topk=topk, flip_test=flip_test)


@register_model(weights=_weights('center_net_resnet18_v1b_coco'), **_REG)
def center_net_resnet18_v1b_coco(classes=COCO, pretrained_base=True, topk=100, flip_test=False):
    """CenterNet, ResNet-18 V1b + deconv, COCO (Objects as Points, arXiv:1904.07850)."""
    return _resnet(18, classes, pretrained_base, topk=topk, flip_test=flip_test)


@register_model(weights=_weights('center_net_resnet50_v1b_voc'), **_REG)
def center_net_resnet50_v1b_voc(classes=VOC, pretrained_base=True, topk=40, flip_test=False):
    """CenterNet, ResNet-50 V1b + deconv, Pascal VOC (Objects as Points, arXiv:1904.07850)."""
    return _resnet(50, classes, pretrained_base, topk=topk, flip_test=flip_test)


@register_model(weights=_weights('center_net_resnet50_v1b_coco'), **_REG)
def center_net_resnet50_v1b_coco(classes=COCO, pretrained_base=True, topk=100, flip_test=False):
    """CenterNet, ResNet-50 V1b + deconv, COCO (Objects as Points, arXiv:1904.07850)."""
    return _resnet(50, classes, pretrained_base, topk=topk, flip_test=flip_test)


@register_model(weights=_weights('center_net_resnet101_v1b_voc'), **_REG)
def center_net_resnet101_v1b_voc(classes=VOC, pretrained_base=True, topk=40, flip_test=False):
    """CenterNet, ResNet-101 V1b + deconv, Pascal VOC (Objects as Points, arXiv:1904.07850)."""
    return _resnet(101, classes, pretrained_base, topk=topk, flip_test=flip_test)


@register_model(weights=_weights('center_net_resnet101_v1b_coco'), **_REG)
def center_net_resnet101_v1b_coco(classes=COCO, pretrained_base=True, topk=100, flip_test=False):
    """CenterNet, ResNet-101 V1b + deconv, COCO (Objects as Points, arXiv:1904.07850)."""
    return _resnet(101, classes, pretrained_base, topk=topk, flip_test=flip_test)


@register_model(weights=_weights('center_net_mobilenetv3_small_duc_voc'), **_REG)
def center_net_mobilenetv3_small_duc_voc(classes=VOC, pretrained_base=True, topk=40, flip_test=False):
    """CenterNet, MobileNetV3-Small + DUC, Pascal VOC (Objects as Points, arXiv:1904.07850)."""
    return _mobilenet('small', classes, pretrained_base, topk=topk, flip_test=flip_test)


@register_model(weights=_weights('center_net_mobilenetv3_small_duc_coco'), **_REG)
def center_net_mobilenetv3_small_duc_coco(classes=COCO, pretrained_base=True, topk=100, flip_test=False):
    """CenterNet, MobileNetV3-Small + DUC, COCO (Objects as Points, arXiv:1904.07850)."""
    return _mobilenet('small', classes, pretrained_base, topk=topk, flip_test=flip_test)


@register_model(weights=_weights('center_net_mobilenetv3_large_duc_voc'), **_REG)
def center_net_mobilenetv3_large_duc_voc(classes=VOC, pretrained_base=True, topk=40, flip_test=False):
    """CenterNet, MobileNetV3-Large + DUC, Pascal VOC (Objects as Points, arXiv:1904.07850)."""
    return _mobilenet('large', classes, pretrained_base, topk=topk, flip_test=flip_test)


@register_model(weights=_weights('center_net_mobilenetv3_large_duc_coco'), **_REG)
def center_net_mobilenetv3_large_duc_coco(classes=COCO, pretrained_base=True, topk=100, flip_test=False):
    """CenterNet, MobileNetV3-Large + DUC, COCO (Objects as Points, arXiv:1904.07850)."""
    return _mobilenet('large', classes, pretrained_base, topk=topk, flip_test=flip_test)
