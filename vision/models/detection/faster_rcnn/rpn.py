"""The region proposal network (Ren et al., arXiv:1506.01497) as GluonCV 0.10.5 builds it, inference only: anchors
per feature map, a 3x3 conv + objectness and box-offset 1x1 convs, and the proposal step (decode, clip to the image,
drop boxes under `min_size`, class-agnostic NMS, keep the best `post_nms`).

Parameter names are GluonCV's: `rpn.conv1.0`, `rpn.score`, `rpn.loc` and `rpn.anchor_generator.anchors` on one
map; with several maps (FPN) one shared `rpn.rpn_head` and one `rpn.anchor_generator.<i>` a level.
"""
import mxnet as mx
from mxnet.gluon import nn

from ....ops import rpn_anchors
from ....ops.boxes import decode_center_offsets


class AnchorGenerator(nn.HybridBlock):
    """The anchors of one feature map: a precomputed grid kept as a constant (GluonCV's files hold it), cropped to
    the map."""

    def __init__(self, stride, sizes, ratios, alloc_size):
        super().__init__()
        self.num_depth = len(sizes) * len(ratios)
        self.anchors = self.params.get_constant('anchor_', rpn_anchors.anchor_grid(stride, sizes, ratios, alloc_size))

    def hybrid_forward(self, F, x, anchors):
        return rpn_anchors.crop(F, anchors, x)


def head_layers(channels, anchor_depth):
    """(3x3 conv + ReLU, objectness 1x1 conv, box-offset 1x1 conv) of an RPN head."""
    init = mx.init.Normal(0.01)  # GluonCV's (and the paper's) initialization, for training from scratch
    conv1 = nn.HybridSequential()
    conv1.add(nn.Conv2D(channels, 3, 1, 1, weight_initializer=init), nn.Activation('relu'))
    return conv1, nn.Conv2D(anchor_depth, 1, 1, 0, weight_initializer=init), \
        nn.Conv2D(anchor_depth * 4, 1, 1, 0, weight_initializer=init)


class RPNHead(nn.HybridBlock):
    """3x3 conv + ReLU, then per anchor an objectness logit and four box offsets, flattened to (B, HWA, 1/4)."""

    def __init__(self, channels, anchor_depth):
        super().__init__()
        with self.name_scope():
            self.conv1, self.score, self.loc = head_layers(channels, anchor_depth)

    def hybrid_forward(self, F, x):
        return head_outputs(self, x)


def head_outputs(head, x):
    """(objectness logits (B, HWA, 1), box offsets (B, HWA, 4)) of a block holding conv1, score and loc."""
    x = head.conv1(x)
    scores = head.score(x).transpose(axes=(0, 2, 3, 1)).reshape((0, -1, 1))
    offsets = head.loc(x).transpose(axes=(0, 2, 3, 1)).reshape((0, -1, 4))
    return scores, offsets


def clip_to_image(F, boxes, image):
    """Corner `boxes` (B, N, 4) clipped to [0, width] x [0, height] of `image` (B, C, H, W)."""
    hw = F.shape_array(image).slice_axis(axis=0, begin=2, end=None)
    whwh = F.tile(F.reverse(hw.expand_dims(0), axis=1), reps=(2,)).reshape((1, 1, 4))
    return F.broadcast_minimum(F.maximum(boxes, 0.0), F.cast(whwh, dtype='float32'))


def proposals(F, anchors, scores, offsets, image, clip, min_size):
    """Rows (score, x1, y1, x2, y2) of every anchor's decoded box (stds 1), clipped to the image; a box narrower
    or lower than `min_size` (+1 widths) becomes all -1, so NMS drops it."""
    boxes = clip_to_image(F, decode_center_offsets(F, offsets, anchors, (1.0, 1.0, 1.0, 1.0), clip, True), image)
    x1, y1, x2, y2 = F.split(boxes, axis=-1, num_outputs=4)
    small = (x2 - x1 + 1.0 < min_size) + (y2 - y1 + 1.0 < min_size)
    scores = F.where(small, F.ones_like(small) * -1, scores)
    boxes = F.where(F.broadcast_axes(small, axis=2, size=4), F.ones_like(boxes) * -1, boxes)
    return F.concat(scores, boxes, dim=-1)


class RPN(nn.HybridBlock):
    """(objectness (B, post_nms, 1), proposals (B, post_nms, 4)) of one or several feature maps, best first.

    One map: every scale of `scales` at every cell, `strides` one number. `multi_level` (FPN): `strides` and
    `scales` one a map, scale i on map i, each map's anchor grid half as large as the previous one's (at least 16),
    one head shared by the maps. Rows NMS removed or never filled are -1.
    """

    def __init__(self, channels, strides, base_size, scales, ratios, alloc_size, clip, nms_thresh, pre_nms,
                 post_nms, min_size, multi_level=False):
        super().__init__()
        self.multi_level = multi_level
        self._clip, self._min_size, self._nms_thresh = clip, min_size, nms_thresh
        self._pre_nms, self._post_nms = max(1, pre_nms), max(1, min(post_nms, pre_nms))
        with self.name_scope():
            if self.multi_level:
                self.anchor_generator = nn.HybridSequential()
                size = alloc_size
                for stride, scale in zip(strides, scales):
                    self.anchor_generator.add(AnchorGenerator(stride, (scale * base_size,), ratios, size))
                    size = (max(size[0] // 2, 16),) * 2
                self.rpn_head = RPNHead(channels, self.anchor_generator[0].num_depth)
            else:
                self.anchor_generator = AnchorGenerator(strides, tuple(s * base_size for s in scales), ratios,
                                                        alloc_size)
                # the layers sit on the RPN itself, not in an RPNHead: GluonCV's single-map files name them so
                self.conv1, self.score, self.loc = head_layers(channels, self.anchor_generator.num_depth)

    @property
    def post_nms(self):
        """How many proposals each image gets."""
        return self._post_nms

    def hybrid_forward(self, F, image, *features):
        if self.multi_level:
            rows = []
            for generator, feature in zip(self.anchor_generator, features):
                scores, offsets = self.rpn_head(feature)
                rows.append(proposals(F, generator(feature), F.sigmoid(scores), offsets, image, self._clip,
                                      self._min_size))
            rows = F.concat(*rows, dim=1)
        else:
            scores, offsets = head_outputs(self, features[0])
            rows = proposals(F, self.anchor_generator(features[0]), F.sigmoid(scores), offsets, image, self._clip,
                             self._min_size)
        rows = F.contrib.box_nms(rows, overlap_thresh=self._nms_thresh, topk=self._pre_nms, coord_start=1,
                                 score_index=0, id_index=-1, force_suppress=True)
        rows = F.slice_axis(rows, axis=1, begin=0, end=self._post_nms)
        return F.slice_axis(rows, axis=-1, begin=0, end=1), F.slice_axis(rows, axis=-1, begin=1, end=None)
