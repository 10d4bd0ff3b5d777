"""The Mask R-CNN network (He et al., arXiv:1703.06870), inference, as GluonCV 0.10.5's `MaskRCNN`: Faster R-CNN's
detections, the best `rcnn_max_dets` of them pooled again from the same feature maps, and a small FCN predicting an
M x M mask a class, of which each detection keeps its own class's, as a probability.

Parameter names are GluonCV's: Faster R-CNN's, plus `mask.deconv` (a Conv2DTranspose, or with `num_fcn_convs` a
HybridSequential of 3x3 convs + ReLU ending in it) and `mask.mask` (a 1x1 conv, one channel a class).
"""
import mxnet as mx
from mxnet.gluon import nn
from mxnet.gluon.contrib.nn import SyncBatchNorm

from .....heads import reset_head
from ....ops.nms import rows, split_rows
from ....ops.roi import batch_rois
from ...detection.faster_rcnn.rcnn import FasterRCNN


# -- blocks -------------------------------------------------------------------------------------------------------
class MaskHead(nn.HybridBlock):
    """`num_fcn_convs` 3x3 convs with ReLU, a stride-2 2x2 deconv (with ReLU), then a 1x1 conv of one logit map a
    class: (R, C, h, w) -> (R, classes, 2h, 2w). A norm layer follows each conv only when `norm_layer` is
    SyncBatchNorm: GluonCV's Mask head ignores any other (its files hold no such parameters)."""

    def __init__(self, classes, channels=256, num_fcn_convs=0, norm_layer=None, norm_kwargs=None):
        super().__init__()
        # GluonCV's initialization, for training from scratch
        init = mx.init.Xavier(rnd_type='gaussian', factor_type='out', magnitude=2)
        norm = isinstance(norm_layer, type) and issubclass(norm_layer, SyncBatchNorm)
        with self.name_scope():
            deconv = nn.Conv2DTranspose(channels, 2, 2, 0, weight_initializer=init)
            if num_fcn_convs > 0:
                self.deconv = nn.HybridSequential()
                for _ in range(num_fcn_convs):
                    self.deconv.add(nn.Conv2D(channels, 3, 1, 1, weight_initializer=init))
                    if norm:
                        self.deconv.add(norm_layer(**(norm_kwargs or {})))
                    self.deconv.add(nn.Activation('relu'))
                self.deconv.add(deconv)
                if norm:
                    self.deconv.add(norm_layer(**(norm_kwargs or {})))
            else:
                self.deconv = deconv  # GluonCV's non-FPN nets: no convs, the deconv itself is `mask.deconv`
            self.mask = nn.Conv2D(classes, 1, 1, 0, weight_initializer=init)

    def hybrid_forward(self, F, x):
        return self.mask(F.relu(self.deconv(x)))


# -- model --------------------------------------------------------------------------------------------------------
class MaskRCNN(FasterRCNN):
    """Mask R-CNN: a FasterRCNN (every option of it, GluonCV's names) and a `mask` head. Returns (ids (B, K, 1),
    scores (B, K, 1), boxes (B, K, 4), masks (B, K, M, M)): Faster R-CNN's detections sorted by score, the best
    K = min(`rcnn_max_dets`, proposals an image) of them (rows without a detection, -1, last), each with the
    sigmoid of its class's mask logits over its box (`paste_masks` puts them on the picture). M is twice the
    pooled size the mask head gets (`roi_size`, halved by `top_features` on one map).
    """

    def __init__(self, features, top_features, classes, box_features=None, mask_channels=256, rcnn_max_dets=1000,
                 num_fcn_convs=0, norm_layer=None, norm_kwargs=None, **kwargs):
        super().__init__(features, top_features, classes, box_features=box_features, **kwargs)
        self.rcnn_max_dets = max(1, min(rcnn_max_dets, self.rpn.post_nms))
        with self.name_scope():
            self.mask = MaskHead(self.num_class, mask_channels, num_fcn_convs, norm_layer, norm_kwargs)

    def reset_class(self, classes, reuse_weights=None):
        """FasterRCNN's, and a mask predictor for the new classes with the reused classes' maps copied over."""
        old = list(self.classes)
        super().reset_class(classes, reuse_weights)
        reset_head(self.mask, 'mask', self.classes, reuse_weights, old)

    def hybrid_forward(self, F, x):
        ids, scores, boxes, features = self.detect(F, x)
        k, total = self.rcnn_max_dets, self.num_class * self.rpn.post_nms  # detections an image: kept, all
        # GluonCV's argsort, so that rows of equal scores come in its order too
        order = F.argsort(scores.reshape((0, -1)), axis=1, is_ascend=False).slice_axis(axis=1, begin=0, end=k)
        flat = F.broadcast_add(order, F.contrib.arange_like(order, axis=0).reshape((-1, 1)) * total).reshape((-1,))
        picked = F.take(rows(F, ids, scores, boxes).reshape((-3, 0)), flat)  # (B * K, 6)
        ids, scores, boxes = split_rows(F, picked.reshape((-4, -1, k, 0)))
        logits = self.mask(self.pool(F, features, batch_rois(F, boxes)))  # (B * K, classes, M, M)
        # each detection's own class map (the -1 rows take class 0's): row i * classes + id of the flat maps
        cls = F.clip(ids.reshape((-1,)), 0, self.num_class - 1)
        index = F.contrib.arange_like(cls) * self.num_class + cls
        masks = F.take(logits.reshape((-3, 0, 0)), index)  # (B * K, M, M)
        return ids, scores, boxes, F.sigmoid(masks).reshape((-4, -1, k, 0, 0))
