"""The Faster R-CNN network (Ren et al., arXiv:1506.01497), inference, as GluonCV 0.10.5's `FasterRCNN`: backbone
features, RPN proposals, RoIAlign (one map, or each RoI on its own FPN level), the RoI head, then per class box
decoding and NMS into GluonCV's `(ids, scores, bboxes)`.
"""
import mxnet as mx
from mxnet.gluon import nn

from .....heads import class_names, reuse_pairs
from ....ops.boxes import decode_center_offsets, per_class_scores
from ....ops.nms import nms, rows
from ....ops.roi import batch_rois, pyramid_roi_features, roi_features
from .rpn import RPN



class FasterRCNN(nn.HybridBlock):
    """Faster R-CNN: `features` (one map, or the FPN levels), `top_features` on the pooled RoIs (or None),
    `box_features` before the predictors (None: global average pooling), `class_predictor` (background + classes)
    and `box_predictor` (4 offsets a class). Options and defaults are GluonCV's.

    With one feature map (`strides` an int) every anchor scale sits on it and RoIs are pooled from it; with FPN
    (`min_stage`..`max_stage`, `strides` and `scales` one a level) the RPN runs on every level and each RoI is
    pooled from its own level (P6 only proposes). The output has classes x `rpn_test_post_nms` rows an image, class
    by class (each class's best first) or, with `force_nms`, all classes together; rows without a detection are -1.
    `post_nms` is kept for GluonCV's API only: its Faster R-CNN does not cut the output to it.
    """

    def __init__(self, features, top_features, classes, box_features=None, short=600, max_size=1000, min_stage=4,
                 max_stage=4, nms_thresh=0.3, nms_topk=400, post_nms=100, roi_mode='align', roi_size=(14, 14),
                 strides=16, clip=None, rpn_channel=1024, base_size=16, scales=(8, 16, 32), ratios=(0.5, 1, 2),
                 alloc_size=(128, 128), rpn_nms_thresh=0.7, rpn_test_pre_nms=6000, rpn_test_post_nms=300,
                 rpn_min_size=16, force_nms=False):
        super().__init__()
        self.classes = class_names(classes)
        if roi_mode not in ('align', 'pool'):
            raise ValueError(f"roi_mode must be 'align' or 'pool', not {roi_mode!r}")
        if len(roi_size) != 2:
            raise ValueError(f'roi_size must be (height, width), not {roi_size!r}')
        self.num_stages = max_stage - min_stage + 1
        if self.num_stages > 1 and not (isinstance(strides, (list, tuple)) and
                                        len(strides) == len(scales) == self.num_stages):
            raise ValueError(f'{self.num_stages} FPN levels need as many strides and scales, got strides='
                             f'{strides!r}, scales={scales!r}')
        self.short, self.max_size = short, max_size
        self.nms_thresh, self.nms_topk, self.post_nms, self.force_nms = nms_thresh, nms_topk, post_nms, force_nms
        self._min_stage, self._max_stage = min_stage, max_stage
        self._roi_mode, self._roi_size, self._strides, self._clip = roi_mode, tuple(roi_size), strides, clip
        with self.name_scope():
            self.features = features
            self.top_features = top_features
            self.box_features = box_features
            self.class_predictor, self.box_predictor = _predictors(len(self.classes))
            self.rpn = RPN(rpn_channel, strides, base_size, scales, ratios, alloc_size, clip, rpn_nms_thresh,
                           rpn_test_pre_nms, rpn_test_post_nms, rpn_min_size, multi_level=self.num_stages > 1)

    @property
    def num_class(self):
        """How many (foreground) classes the net predicts."""
        return len(self.classes)

    def set_nms(self, nms_thresh=0.3, nms_topk=400, force_nms=False, post_nms=100):
        """GluonCV's: the detection NMS IoU threshold, the boxes a class keeps before it (-1: all), whether to
        suppress across classes; `post_nms` is stored only (see the class)."""
        self._clear_cached_op()
        self.nms_thresh, self.nms_topk, self.force_nms, self.post_nms = nms_thresh, nms_topk, force_nms, post_nms

    def reset_class(self, classes, reuse_weights=None):
        """New predictors for `classes` (names, or a count), GluonCV's semantics: `reuse_weights` ({new: old} by
        name or index, or a list of names kept) copies those classes' rows, and then the background row too."""
        names = class_names(classes)
        pairs = reuse_pairs(reuse_weights, names, len(names), self.classes, self.num_class)
        old = (self.class_predictor, self.box_predictor)
        if pairs and old[0].weight._data is None:
            raise ValueError('reuse_weights needs the old predictors\' weights: load them or run the net once first')
        try:  # a net initialized but not run yet has its context in the deferred init
            ctx = old[0].weight.list_ctx()
        except RuntimeError:
            ctx = None
        in_units = old[0].weight.shape[1] if old[0].weight.shape else 0
        new = _predictors(len(names), in_units, prefixes=(old[0].prefix, old[1].prefix))
        if ctx is not None:
            for layer in new:
                layer.initialize(ctx=ctx)
        # class rows: background at 0, then one a class; box rows: four a class
        for src, dst, offset, width in (zip(old, new, (1, 0), (1, 4)) if pairs else ()):
            for attr in ('weight', 'bias'):
                data, value = getattr(src, attr).data(), getattr(dst, attr).data().copy()
                for n, o in pairs:
                    value[(n + offset) * width:(n + offset + 1) * width] = \
                        data[(o + offset) * width:(o + offset + 1) * width]
                if offset:
                    value[:width] = data[:width]
                getattr(dst, attr).set_data(value)
        self.class_predictor, self.box_predictor = new
        self.classes = names
        self._clear_cached_op()

    def hybrid_forward(self, F, x):
        return self.detect(F, x)[:3]

    def pool(self, F, features, rois):
        """(R, C, h, w) features of `rois` (R, 5): RoIAlign/RoIPooling on the one map, or each RoI on its own FPN
        level; then `top_features` when there are some."""
        if self.num_stages > 1:
            top = self._max_stage - 1 if self._max_stage > 5 else self._max_stage  # P6 only proposes
            pooled = pyramid_roi_features(F, features, rois, self._roi_size, self._strides, self._min_stage, top,
                                          self._roi_mode)
        else:
            pooled = roi_features(F, features[0], rois, self._roi_size, self._strides, self._roi_mode)
        return self.top_features(pooled) if self.top_features is not None else pooled

    def detect(self, F, x):
        """(ids, scores, bboxes, the feature maps): the maps too, for Mask R-CNN to pool its detections from."""
        features = self.features(x)
        features = features if isinstance(features, (list, tuple)) else [features]
        _, boxes = self.rpn(x, *features)  # (B, R, 4)
        pooled = self.pool(F, features, batch_rois(F, boxes))
        if self.box_features is not None:
            box_features = self.box_features(pooled)
        else:
            box_features = F.Pooling(pooled, kernel=(1, 1), global_pool=True, pool_type='avg')
        n, r = self.num_class, self.rpn.post_nms
        probs = F.softmax(self.class_predictor(box_features).reshape((-1, r, n + 1)), axis=-1)
        ids, scores = (a.transpose((0, 2, 1)).expand_dims(-1) for a in per_class_scores(F, probs, n))  # (B, C, R, 1)
        offsets = self.box_predictor(box_features).reshape((-1, r, n, 4)).transpose((0, 2, 1, 3))
        bboxes = decode_center_offsets(F, offsets, boxes.expand_dims(1), clip=self._clip, corner_anchors=True)
        result = rows(F, ids, scores, bboxes)  # (B, C, R, 6)
        if self.force_nms:
            return nms(F, result.reshape((0, -3, 0)), self.nms_thresh, self.nms_topk, -1, 0.0001, True) + \
                (features,)
        # each class of each image is one NMS batch row; then back to (B, C * R, .), class by class
        out = nms(F, result.reshape((-3, 0, 0)), self.nms_thresh, self.nms_topk, -1, 0.0001)
        return tuple(a.reshape((-4, -1, n, 0, 0)).reshape((0, -3, 0)) for a in out) + (features,)


def _predictors(classes, in_units=0, prefixes=(None, None)):
    """(class predictor: background + `classes` logits, box predictor: 4 offsets a class), GluonCV's init."""
    return (nn.Dense(classes + 1, in_units=in_units, weight_initializer=mx.init.Normal(0.01), prefix=prefixes[0]),
            nn.Dense(classes * 4, in_units=in_units, weight_initializer=mx.init.Normal(0.001), prefix=prefixes[1]))
