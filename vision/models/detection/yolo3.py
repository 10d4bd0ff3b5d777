"""YOLOv3 (Redmon & Farhadi, arXiv:1804.02767): parameter-compatible with GluonCV 0.10.5's `yolo3_*` detectors.

Layout: blocks -> model -> weights records -> registered builders. The backbone comes from the registry, cut into
three stages (strides 8, 16, 32) where GluonCV cuts darknet53 and MobileNet. From the deepest map up, a detection
block feeds one output layer and, through a 1x1 transition and 2x nearest upsampling, the next shallower map.
Each output predicts, per position and anchor, (x, y, w, h, objectness, classes), decoded as YOLOv3 does into one
row per class; one per-class NMS over all rows gives GluonCV's (ids, scores, bboxes). In autograd's training mode
the net returns its raw predictions instead, as GluonCV's does for its target generator and losses (which
gluonzoo.vision.train.detection has): boxes, center and scale logits, objectness and class logits, and each level's
grid size.
"""
import mxnet as mx
import numpy as np
from mxnet import autograd
from mxnet.gluon import nn

from ....errors import BadInputError, InputCountError
from ....heads import class_names, reuse_pairs
from ....registry import get_backbone, get_model, get_weights, load_weights, register_model
from ....weights import GLUONCV_REPO, Source, Weights
from ...layers import conv_bn_seq
from ...meta import COCO, IMAGENET_MEAN, IMAGENET_STD, VOC
from ...ops.boxes import center_to_corner
from ...ops.nms import nms, rows


# -- blocks -------------------------------------------------------------------------------------------------------
def _conv(channels, kernel):
    """conv (no bias) -> BN -> LeakyReLU(0.1), 'same' padding: the unit of darknet and of every YOLOv3 block."""
    return conv_bn_seq(channels, kernel, 1, kernel // 2, act='leaky0.1')


class DetectionBlock(nn.HybridBlock):
    """Five convs alternating 1x1 (`channels`) and 3x3 (twice that) -> the route passed up to the next level; a
    3x3 `tip` on the route -> what the level's output layer reads. Returns (route, tip)."""

    def __init__(self, channels, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.body = nn.HybridSequential(prefix='')
            for kernel in (1, 3, 1, 3, 1):
                self.body.add(_conv(channels * 2 if kernel == 3 else channels, kernel))
            self.tip = _conv(channels * 2, 3)

    def hybrid_forward(self, F, x):
        route = self.body(x)
        return route, self.tip(route)


class YOLOOutput(nn.HybridBlock):
    """One level's 1x1 `prediction` conv, decoded into detection rows (B, classes * H * W * anchors, 6).

    `anchors` (w, h in input pixels) and the grid `offsets` are constants saved with the parameters, as GluonCV
    saves them; the offsets cover grids up to `alloc_size` and are cut to the map, so any input size up to
    stride * alloc_size runs (and exports) without rebuilding anything.
    """

    def __init__(self, classes, anchors, stride, alloc_size=(128, 128), **kwargs):
        super().__init__(**kwargs)
        self._classes, self._anchors, self._stride = classes, len(anchors) // 2, stride
        ys, xs = np.meshgrid(np.arange(alloc_size[0]), np.arange(alloc_size[1]), indexing='ij')
        with self.name_scope():
            self.prediction = nn.Conv2D(self._anchors * (5 + classes), 1)
            self.anchors = self.params.get_constant('anchors', np.array(anchors, 'float32').reshape(1, 1, -1, 2))
            self.offsets = self.params.get_constant('offsets', np.stack([xs, ys], -1)[None, None].astype('float32'))

    def hybrid_forward(self, F, x, anchors, offsets):
        a, n, c = self._anchors, 5 + self._classes, self._classes
        # (B, A * n, H, W) -> (B, H * W, A, n): one prediction per position, then per anchor (GluonCV's row order)
        pred = self.prediction(x).reshape((0, a * n, -1)).transpose((0, 2, 1)).reshape((0, -1, a, n))
        grid = F.slice_like(offsets, x, axes=(2, 3)).reshape((1, -1, 1, 2))
        xy = F.broadcast_add(F.sigmoid(pred.slice_axis(axis=-1, begin=0, end=2)), grid) * self._stride
        wh = F.broadcast_mul(F.exp(pred.slice_axis(axis=-1, begin=2, end=4)), anchors)
        boxes = center_to_corner(F, F.concat(xy, wh, dim=-1))
        if autograd.is_training():
            return self._raw(F, pred, boxes, x)
        scores = F.broadcast_mul(F.sigmoid(pred.slice_axis(axis=-1, begin=5, end=None)),
                                 F.sigmoid(pred.slice_axis(axis=-1, begin=4, end=5)))
        # one row per (class, position, anchor), class outermost: GluonCV's order, on which NMS breaks score ties
        scores = scores.transpose((0, 3, 1, 2)).reshape((0, c, -1))
        ids = F.broadcast_add(F.zeros_like(scores), F.arange(c).reshape((1, c, 1)))
        boxes = F.broadcast_axis(boxes.reshape((0, 1, -1, 4)), axis=1, size=c)
        return rows(F, ids.reshape((0, -1, 1)), scores.reshape((0, -1, 1)), boxes.reshape((0, -1, 4)))

    @staticmethod
    def _raw(F, pred, boxes, x):
        """Training mode: the raw predictions GluonCV's losses take, one row per (position, anchor): decoded
        corner boxes (B, N, 4), center logits (B, N, 2), log-scales (B, N, 2), objectness logits (B, N, 1), class
        logits (B, N, classes), and an empty (1, 1, H, W) map that gives the grid's size."""
        def part(begin, end):
            return pred.slice_axis(axis=-1, begin=begin, end=end).reshape((0, -3, -1))
        grid = F.zeros_like(x.slice_axis(axis=0, begin=0, end=1).slice_axis(axis=1, begin=0, end=1))
        return boxes.reshape((0, -1, 4)), part(0, 2), part(2, 4), part(4, 5), part(5, None), grid

    def reset_class(self, classes, pairs=()):
        """A fresh prediction conv for `classes` (a count); for each (new, old) class index in `pairs` the class
        rows are copied from the old conv, and then the box and objectness rows too (GluonCV keeps those only when
        some class is reused)."""
        old, a = self.prediction, self._anchors
        n_old, n_new = 5 + self._classes, 5 + classes
        new = nn.Conv2D(a * n_new, 1, in_channels=old.weight.shape[1], prefix=old.prefix,
                        weight_initializer=old.weight.init)
        try:
            ctx = old.weight.list_ctx()
        except RuntimeError:  # never initialized: the net's own initialize() will do the new conv too
            ctx = None
        if pairs and old.weight._data is None:
            raise ValueError('reuse_weights needs the old prediction weights: load them or run the net once first')
        if ctx is not None:
            new.initialize(ctx=ctx)
        for name in ('weight', 'bias') if pairs else ():
            src, dst = getattr(old, name).data(), getattr(new, name).data().copy()
            for i in range(a):
                dst[i * n_new:i * n_new + 5] = src[i * n_old:i * n_old + 5]
                for k, v in pairs:
                    dst[i * n_new + 5 + k] = src[i * n_old + 5 + v]
            getattr(new, name).set_data(dst)
        self.prediction, self._classes = new, classes
        self._clear_cached_op()


# -- model --------------------------------------------------------------------------------------------------------

class YOLOV3(nn.HybridBlock):
    """YOLOv3 on backbone `stages` (one HybridSequential per tapped map, shallow to deep, as get_backbone returns
    them): per level from the deepest, a DetectionBlock with `channels[i]` (deep to shallow) and a YOLOOutput with
    that level's `anchors` / `strides` (both given shallow to deep, as GluonCV gives them); `transitions` are the
    1x1 convs before each upsampling. Returns GluonCV's (ids, scores, bboxes) after per-class NMS (`set_nms`).
    `classes` holds the class names; `reset_class(classes, reuse_weights)` changes them (GluonCV's API).
    """

    def __init__(self, stages, channels, anchors, strides, classes, alloc_size=(128, 128), nms_thresh=0.45,
                 nms_topk=400, post_nms=100, pos_iou_thresh=1.0, ignore_iou_thresh=0.7, norm_layer=nn.BatchNorm,
                 norm_kwargs=None, **kwargs):
        super().__init__(**kwargs)
        if norm_layer is not nn.BatchNorm or norm_kwargs:
            raise BadInputError('YOLOV3 builds its heads with the standard BatchNorm only (norm_layer, norm_kwargs '
                                'are GluonCV\'s SyncBatchNorm options, for several GPUs)')
        # GluonCV's training-target thresholds, kept for the training code that reads them off the net
        self._pos_iou_thresh, self._ignore_iou_thresh = pos_iou_thresh, ignore_iou_thresh
        self.classes = class_names(classes)
        self.nms_thresh, self.nms_topk, self.post_nms = nms_thresh, nms_topk, post_nms
        self._min_stride, self._alloc_size = min(strides), tuple(alloc_size)
        with self.name_scope():
            self.stages = stages
            self.transitions = nn.HybridSequential()
            self.yolo_blocks = nn.HybridSequential()
            self.yolo_outputs = nn.HybridSequential()
            for i, (c, anchor, stride) in enumerate(zip(channels, anchors[::-1], strides[::-1])):
                self.yolo_blocks.add(DetectionBlock(c))
                self.yolo_outputs.add(YOLOOutput(len(self.classes), anchor, stride, alloc_size))
                if i > 0:
                    self.transitions.add(_conv(c, 1))
        # Gluon's default Uniform(0.07) makes darknet's maps grow through the head's 3x3 convs until exp(w, h)
        # overflows (inf boxes from a fresh net); Xavier keeps them finite. Loaded weights replace it anyway.
        for block in (self.transitions, self.yolo_blocks, self.yolo_outputs):
            for p in block.collect_params().values():
                if p.name.endswith('weight'):
                    p.init = mx.init.Xavier()

    @property
    def num_class(self):
        return len(self.classes)

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray):
            self._check_input(x.shape, args)
        return super().forward(x, *args)

    def _check_input(self, shape, args):
        if args:
            raise InputCountError(f'{type(self).__name__} takes one input, the image batch; got {1 + len(args)}')
        if len(shape) != 4 or shape[1] != 3:
            raise BadInputError(f'{type(self).__name__} takes batches of shape Nx3xHxW (NCHW), got '
                                f'{"x".join(map(str, shape))}')
        grid = [-(-d // self._min_stride) for d in shape[2:]]
        if grid[0] > self._alloc_size[0] or grid[1] > self._alloc_size[1]:
            most = 'x'.join(str(d * self._min_stride) for d in self._alloc_size)
            raise BadInputError(f'{type(self).__name__} takes images up to {most} (its grid offsets are allocated '
                                f'for alloc_size={self._alloc_size}), got {shape[2]}x{shape[3]}: resize them '
                                f'(the weights record\'s preprocess caps the long side)')

    def hybrid_forward(self, F, x):
        routes = []
        for stage in self.stages:
            x = stage(x)
            routes.append(x)
        detections = []
        for i, (block, output) in enumerate(zip(self.yolo_blocks, self.yolo_outputs)):
            x, tip = block(x)
            detections.append(output(tip))
            if i + 1 < len(routes):
                shallower = routes[-2 - i]
                # nearest 2x; an odd-sized shallower map is one smaller than twice this one: cut to fit
                up = self.transitions[i](x).repeat(axis=-1, repeats=2).repeat(axis=-2, repeats=2)
                x = F.concat(F.slice_like(up, shallower, axes=(2, 3)), shallower, dim=1)
        if autograd.is_training():
            # the levels' raw outputs joined level by level (deepest first, GluonCV's order), then the grid maps
            return tuple(F.concat(*parts, dim=1) for parts in zip(*[d[:5] for d in detections])) + \
                tuple(d[5] for d in detections)
        return nms(F, F.concat(*detections, dim=1), self.nms_thresh, self.nms_topk, self.post_nms)

    def set_nms(self, nms_thresh=0.45, nms_topk=400, post_nms=100):
        """GluonCV's NMS settings: IoU threshold (outside (0, 1): no NMS, every row returned), rows kept before
        (`nms_topk`) and after (`post_nms`) it (-1: all)."""
        self._clear_cached_op()
        self.nms_thresh, self.nms_topk, self.post_nms = nms_thresh, nms_topk, post_nms

    def reset_class(self, classes, reuse_weights=None):
        """New class names (or a count); `reuse_weights` ({new: old} by name or index, or a list of names kept)
        copies those classes' prediction rows from the current ones; every other class row is freshly initialized."""
        names = class_names(classes)
        pairs = reuse_pairs(reuse_weights, names, len(names), self.classes, len(self.classes))
        for output in self.yolo_outputs:
            output.reset_class(len(names), pairs)
        self.classes = names
        self._clear_cached_op()


# -- weights records (GluonCV 0.10.5 model_store.py) ------------------------------------------------------------
_PAPER = 'https://arxiv.org/abs/1804.02767'
#: GluonCV's presets.yolo.transform_test / load_test: resize_short_within(416, max_size=1024, mult_base=1,
#: interp=2 = area), RGB, to_tensor (/255), ImageNet mean/std
_PREPROCESS = dict(resize=416, max_size=1024, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, color='RGB',
                   layout='NCHW', interp='area')


def _gluoncv(arch, sha1, num_params, classes, map_):
    """The record of a GluonCV YOLOv3 checkpoint. `map_` is the published figure at 416x416 from GluonCV's
    docs/model_zoo/csv_tables/Detections/{Pascal,MSCOCO}_YOLO-v3.csv (VOC07 test mAP; COCO val box AP .5:.95),
    measured by its eval_yolo.py on a square 416 resize, not on this preprocess."""
    backbone, dataset = arch.split('_')[1:]
    return Weights(
        arch=arch, tag='gluoncv', default=True, task='object-detection', sha1=sha1, num_params=num_params,
        classes=classes, preprocess=_PREPROCESS, input_shape=(1, 3, 416, 416),
        source=Source(kind='mirror', url=GLUONCV_REPO),
        recipe=f'GluonCV 0.10.5 scripts/detection/yolo/train_yolo3.py --network {backbone} --dataset {dataset}',
        license='Apache-2.0 (GluonCV)', paper=_PAPER,
        metrics={'map': map_, 'source': 'GluonCV model zoo table (published, not re-measured)'})


YOLO3_DARKNET53_VOC = _gluoncv('yolo3_darknet53_voc', 'f5ece5ce1422eeca3ce2908004e469ffdf91fd41', 61626049,
                               VOC, 81.5)
YOLO3_DARKNET53_COCO = _gluoncv('yolo3_darknet53_coco', '09767802230b45af1c27697a2dad6d1ebaacc1e2', 61949149,
                                COCO, 36.0)
YOLO3_MOBILENET1_0_VOC = _gluoncv('yolo3_mobilenet1.0_voc', '3b47835ac3dd80f29576633949aa58aee3094353', 24248097,
                                  VOC, 75.8)
YOLO3_MOBILENET1_0_COCO = _gluoncv('yolo3_mobilenet1.0_coco', '66dbbae67be8f1e3cd3c995ce626a2bdc89769c6',
                                   24571197, COCO, 28.6)


# -- registered builders ------------------------------------------------------------------------------------------
_ANCHORS = ((10, 13, 16, 30, 33, 23), (30, 61, 62, 45, 59, 119), (116, 90, 156, 198, 373, 326))  # strides 8, 16, 32
_STRIDES = (8, 16, 32)
#: backbone -> (the stage taps where GluonCV cuts it, the detection blocks' channels from the deepest level):
#: darknet53 features[:15], [15:24], [24:]; MobileNet features[:33], [33:69], [69:-2] (the pool and flatten left out)
_BACKBONES = {'darknet53': (('features.14', 'features.23', 'features.28'), (512, 256, 128)),
              'mobilenet1.0': (('features.32', 'features.68', 'features.80'), (512, 256, 128)),
              'mobilenet0.25': (('features.32', 'features.68', 'features.80'), (256, 128, 128))}
_REG = dict(task='object-detection', protected=('alloc_size',), test_input=(1, 3, 64, 96),
            test_kwargs={'pretrained_base': False})


def _stages(backbone, pretrained_base, **kwargs):
    """The backbone's stages, cut where GluonCV cuts it for YOLOv3."""
    return get_backbone(backbone, pretrained=pretrained_base, out_indices=_BACKBONES[backbone][0], **kwargs).stages


def _yolo3(backbone, classes, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size):
    return YOLOV3(_stages(backbone, pretrained_base), _BACKBONES[backbone][1], _ANCHORS, _STRIDES, classes,
                  alloc_size, nms_thresh, nms_topk, post_nms)


def _custom(backbone, classes, transfer, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size):
    """GluonCV's `yolo3_<backbone>_custom`: the classes on a fresh head, or with `transfer` ('voc' / 'coco') the
    pretrained detector of that dataset, the rows of the classes it shares with `classes` kept."""
    if isinstance(classes, (list, tuple)) and not classes:
        raise ValueError(f'yolo3_{backbone}_custom needs classes=[class names] (a custom detector has no default '
                         f'classes)')
    if transfer is None:
        return _yolo3(backbone, classes, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)
    if transfer not in ('voc', 'coco'):
        raise ValueError(f"transfer={transfer!r}: the pretrained YOLOv3 detectors to start from are 'voc' and 'coco'")
    net = get_model(f'yolo3_{backbone}_{transfer}', pretrained=True, nms_thresh=nms_thresh, nms_topk=nms_topk,
                    post_nms=post_nms, alloc_size=alloc_size)
    names = class_names(classes)
    net.reset_class(names, reuse_weights=[c for c in names if c in net.classes])
    return net


@register_model('yolo3_darknet53_voc', weights=[YOLO3_DARKNET53_VOC], **_REG)
def yolo3_darknet53_voc(classes=VOC, pretrained_base=True, nms_thresh=0.45, nms_topk=400, post_nms=100,
                        alloc_size=(128, 128)):
    """YOLOv3 DarkNet-53, Pascal VOC (arXiv:1804.02767)."""
    return _yolo3('darknet53', classes, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)


@register_model('yolo3_darknet53_coco', weights=[YOLO3_DARKNET53_COCO], **_REG)
def yolo3_darknet53_coco(classes=COCO, pretrained_base=True, nms_thresh=0.45, nms_topk=400, post_nms=100,
                         alloc_size=(128, 128)):
    """YOLOv3 DarkNet-53, COCO (arXiv:1804.02767)."""
    return _yolo3('darknet53', classes, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)


@register_model('yolo3_darknet53_custom', weights=[], **_REG)
def yolo3_darknet53_custom(classes=(), transfer=None, pretrained_base=True, nms_thresh=0.45, nms_topk=400,
                           post_nms=100, alloc_size=(128, 128)):
    """YOLOv3 DarkNet-53, custom classes (arXiv:1804.02767)."""
    return _custom('darknet53', classes, transfer, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)


@register_model('yolo3_mobilenet1.0_voc', weights=[YOLO3_MOBILENET1_0_VOC], **_REG)
def yolo3_mobilenet1_0_voc(classes=VOC, pretrained_base=True, nms_thresh=0.45, nms_topk=400, post_nms=100,
                           alloc_size=(128, 128)):
    """YOLOv3 MobileNet 1.0, Pascal VOC (arXiv:1804.02767)."""
    return _yolo3('mobilenet1.0', classes, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)


@register_model('yolo3_mobilenet1.0_coco', weights=[YOLO3_MOBILENET1_0_COCO], **_REG)
def yolo3_mobilenet1_0_coco(classes=COCO, pretrained_base=True, nms_thresh=0.45, nms_topk=400, post_nms=100,
                            alloc_size=(128, 128)):
    """YOLOv3 MobileNet 1.0, COCO (arXiv:1804.02767)."""
    return _yolo3('mobilenet1.0', classes, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)


@register_model('yolo3_mobilenet1.0_custom', weights=[], **_REG)
def yolo3_mobilenet1_0_custom(classes=(), transfer=None, pretrained_base=True, nms_thresh=0.45, nms_topk=400,
                              post_nms=100, alloc_size=(128, 128)):
    """YOLOv3 MobileNet 1.0, custom classes (arXiv:1804.02767)."""
    return _custom('mobilenet1.0', classes, transfer, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)


@register_model('yolo3_mobilenet0.25_voc', weights=[], **_REG)
def yolo3_mobilenet0_25_voc(classes=VOC, pretrained_base=True, nms_thresh=0.45, nms_topk=400, post_nms=100,
                            alloc_size=(128, 128)):
    """YOLOv3 MobileNet 0.25, Pascal VOC (arXiv:1804.02767)."""
    return _yolo3('mobilenet0.25', classes, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)


@register_model('yolo3_mobilenet0.25_coco', weights=[], **_REG)
def yolo3_mobilenet0_25_coco(classes=COCO, pretrained_base=True, nms_thresh=0.45, nms_topk=400, post_nms=100,
                             alloc_size=(128, 128)):
    """YOLOv3 MobileNet 0.25, COCO (arXiv:1804.02767)."""
    return _yolo3('mobilenet0.25', classes, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)


@register_model('yolo3_mobilenet0.25_custom', weights=[], **_REG)
def yolo3_mobilenet0_25_custom(classes=(), transfer=None, pretrained_base=True, nms_thresh=0.45, nms_topk=400,
                               post_nms=100, alloc_size=(128, 128)):
    """YOLOv3 MobileNet 0.25, custom classes (arXiv:1804.02767)."""
    return _custom('mobilenet0.25', classes, transfer, pretrained_base, nms_thresh, nms_topk, post_nms, alloc_size)


def custom_yolov3(base_network_name, filters, anchors, strides, classes, dataset, pretrained_base=True,
                  pretrained=False, norm_layer=nn.BatchNorm, norm_kwargs=None, **kwargs):
    """GluonCV's custom_yolov3: YOLOV3 with the detection blocks' `filters` (deep to shallow), `anchors` and
    `strides` on `base_network_name` (darknet53, mobilenet1.0, mobilenet0.25, cut where GluonCV cuts them; other
    keyword arguments are the body's, as GluonCV hands them to its builder); `pretrained` loads GluonCV's
    yolo3_{base_network_name}_{dataset} in place of the ImageNet body."""
    if base_network_name not in _BACKBONES:
        raise BadInputError(f'custom_yolov3 has no body {base_network_name!r}: one of {sorted(_BACKBONES)}')
    net = YOLOV3(_stages(base_network_name, pretrained_base and not pretrained, **kwargs), filters, anchors, strides,
                 classes, norm_layer=norm_layer, norm_kwargs=norm_kwargs)
    if pretrained:
        load_weights(net, get_weights(f'yolo3_{base_network_name}_{dataset}'))
    return net
