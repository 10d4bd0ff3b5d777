"""Training-target blocks of GluonCV's `gluoncv.nn` (coder, matcher, sampler): the pieces a detector's target
generator chains, anchor-to-truth IoU -> matches -> samples -> encoded box and class targets, and the decoders
that turn predictions back into boxes and class ids.

Conventions (GluonCV's): a match is the index of the ground-truth box an anchor is assigned to, -1 for none;
a sample is 1 (positive), -1 (negative) or 0 (ignored); class targets count the background as 0, so a truth of
class c is c + 1.

>>> import mxnet as mx
>>> ious = mx.nd.array([[[0.8, 0.1], [0.3, 0.45], [0.1, 0.2]]])  # 3 anchors x 2 truths
>>> CompositeMatcher([BipartiteMatcher(), MaximumMatcher(0.4)])(ious).asnumpy().tolist()
[[0.0, 1.0, -1.0]]
"""
import numpy as np
import mxnet as mx
from mxnet import gluon

from .box_blocks import NumPyBBoxCornerToCenter
from .boxes import corner_to_center, decode_center_offsets


def _four(values, what):
    if len(values) != 4:
        raise ValueError(f'{what} takes 4 values (x, y, w, h), got {len(values)}')
    return tuple(float(v) for v in values)


# -- matchers ------------------------------------------------------------------------------------------------------
class CompositeMatcher(gluon.HybridBlock):
    """The first matcher's matches, with each anchor it leaves unmatched (-1) taken from the next one, and so on."""

    def __init__(self, matchers):
        super().__init__()
        if not len(matchers):
            raise ValueError('CompositeMatcher needs at least one matcher')
        bad = [type(m).__name__ for m in matchers if not isinstance(m, gluon.Block)]
        if bad:
            raise TypeError(f'CompositeMatcher takes Gluon blocks, not {bad[0]}')
        self._matchers = gluon.nn.HybridSequential()
        for m in matchers:
            self._matchers.add(m)

    def hybrid_forward(self, F, x):
        out = None
        for matcher in self._matchers:
            match = matcher(x)
            out = match if out is None else F.where(out > -0.5, out, match)
        return out


class BipartiteMatcher(gluon.HybridBlock):
    """Each ground-truth box takes its best anchor, greedily best pair first (MXNet's bipartite_matching, IoUs
    over `threshold`); an anchor left out that is nonetheless some truth's best (within `eps`) takes its own best
    truth. `share_max`: an anchor equal to any truth's best counts, else only when it is its own best truth's
    best. Input IoUs (B, anchors, truths) -> matches (B, anchors)."""

    def __init__(self, threshold=1e-12, is_ascend=False, eps=1e-12, share_max=True):
        super().__init__()
        self._threshold, self._is_ascend, self._eps, self._share_max = threshold, is_ascend, eps, share_max

    def hybrid_forward(self, F, x):
        greedy = F.contrib.bipartite_matching(x, threshold=self._threshold, is_ascend=self._is_ascend)[0]
        own_best = x.argmax(axis=-1, keepdims=True)  # (B, A, 1): each anchor's best truth
        truth_best = x.max(axis=-2, keepdims=True)  # (B, 1, T): each truth's best IoU
        if self._share_max:
            ties = F.sum(F.broadcast_greater_equal(x + self._eps, truth_best), axis=-1, keepdims=True)
        else:
            mine = F.pick(x, own_best, axis=-1, keepdims=True)
            ties = F.pick(F.broadcast_greater_equal(mine + self._eps, truth_best), own_best, axis=-1, keepdims=True)
        extra = F.where(ties > 0, own_best, F.ones_like(own_best) * -1).squeeze(axis=-1)
        return F.where(greedy < 0, extra, greedy)


class MaximumMatcher(gluon.HybridBlock):
    """Each anchor matched to its best truth when that IoU is at least `threshold`, else -1."""

    def __init__(self, threshold):
        super().__init__()
        self._threshold = threshold

    def hybrid_forward(self, F, x):
        best = F.argmax(x, axis=-1)
        return F.where(F.pick(x, best, axis=-1) >= self._threshold, best, F.ones_like(best) * -1)


# -- samplers ------------------------------------------------------------------------------------------------------
class NaiveSampler(gluon.HybridBlock):
    """Every matched anchor positive (1), every other negative (-1)."""

    def hybrid_forward(self, F, x):
        return F.where(x >= 0, F.ones_like(x), F.ones_like(x) * -1)


class OHEMSampler(gluon.Block):
    """Online hard negative mining: matched anchors positive; of the unmatched ones whose best IoU is under
    `thresh`, the `ratio` x positives (at least `min_samples`, at most what is left) hardest negatives, those
    whose background log-probability of `logits` (B, A, 1 + classes) is lowest, -1; the rest 0."""

    def __init__(self, ratio, min_samples=0, thresh=0.5):
        super().__init__()
        if not ratio > 0:
            raise ValueError(f'OHEMSampler ratio must be > 0, got {ratio}')
        self._ratio, self._min_samples, self._thresh = ratio, min_samples, thresh

    def forward(self, x, logits, ious):
        nd = mx.nd
        positives = nd.sum(x > -1, axis=1)
        wanted = nd.minimum(nd.maximum(self._min_samples, self._ratio * positives), x.shape[1] - positives)
        fg = logits.slice_axis(axis=2, begin=1, end=None).max(axis=2)  # GluonCV's shift: the best foreground
        loss = nd.log(nd.exp(nd.broadcast_sub(logits, fg.expand_dims(2))).sum(axis=2)) - \
            (logits.slice_axis(axis=2, begin=0, end=1).reshape((0, -1)) - fg)  # -log softmax(background)
        if len(ious.shape) == 3:
            ious = ious.max(axis=2)
        loss = nd.where((x < 0) * (ious < self._thresh), loss, nd.ones_like(loss) * -1)
        order = nd.argsort(loss, axis=1, is_ascend=False).asnumpy().astype(np.int64)
        out = (x.asnumpy() >= 0).astype(np.float64)
        for i, n in enumerate(wanted.asnumpy().astype(np.int32)):
            out[i, order[i, :n]] = -1
        return nd.array(out, ctx=x.context)


class QuotaSampler(gluon.Block):
    """Faster R-CNN's sampling of `num_sample` anchors a picture: positives are the matched ones and those with
    best IoU >= `pos_thresh` (at most round(pos_ratio * num_sample), a random subset kept), negatives those with
    best IoU in [neg_thresh_low, neg_thresh_high) (at most neg_ratio * num_sample, or with `fill_negative` what the
    positives leave of num_sample, never less than an earlier picture's quota, as GluonCV's); numpy's global generator
    picks. Inputs matches (B, A), ious (B, A, truths)."""

    def __init__(self, num_sample, pos_thresh, neg_thresh_high, neg_thresh_low=-np.inf, pos_ratio=0.5,
                 neg_ratio=None, fill_negative=True):
        super().__init__()
        self._neg_ratio = 1.0 - pos_ratio if neg_ratio is None else neg_ratio
        if self._neg_ratio + pos_ratio > 1.0:
            raise ValueError(f'pos_ratio + neg_ratio = {self._neg_ratio + pos_ratio} exceeds 1')
        self._num_sample, self._pos_ratio, self._fill = num_sample, pos_ratio, fill_negative
        self._pos_thresh = min(1.0, max(0.0, pos_thresh))
        self._neg_high, self._neg_low = min(1.0, max(0.0, neg_thresh_high)), neg_thresh_low

    def forward(self, matches, ious):
        rows = _quota_rows(matches.asnumpy(), ious.max(axis=-1).asnumpy(), self._num_sample, self._pos_thresh,
                           self._neg_high, self._neg_low, self._pos_ratio, self._neg_ratio, self._fill,
                           positives_win=False)
        return mx.nd.array(rows, ctx=matches.context)


def _quota_rows(matched, best, num_sample, pos_thresh, neg_high, neg_low, pos_ratio, neg_ratio, fill,
                positives_win):
    """QuotaSampler's samples (B, A) float32 of matches and best IoUs (numpy). `positives_win`: an anchor both
    positive and in the negative band is positive (QuotaSamplerOp's order) rather than negative (QuotaSampler's)."""
    max_pos = int(round(pos_ratio * num_sample))
    max_neg = int(neg_ratio * num_sample)
    rows = []
    for m, b in zip(matched, best):
        r = np.zeros(m.shape, np.float32)
        positive, negative = (m >= 0) | (b >= pos_thresh), (b < neg_high) & (b >= neg_low)
        if positives_win:
            r[negative], r[positive] = -1, 1
        else:
            r[positive], r[negative] = 1, -1
        pos = np.flatnonzero(r > 0)
        if len(pos) > max_pos:
            r[np.random.choice(pos, size=len(pos) - max_pos, replace=False)] = 0
        if fill:  # GluonCV's quota carries over from picture to picture (it only grows)
            max_neg = max(num_sample - min(len(pos), max_pos), max_neg)
        neg = np.flatnonzero(r < 0)
        if len(neg) > max_neg:
            r[np.random.choice(neg, size=len(neg) - max_neg, replace=False)] = 0
        rows.append(r)
    return np.stack(rows) if rows else np.zeros(matched.shape, np.float32)


class QuotaSamplerOp(mx.operator.CustomOp):
    """QuotaSampler as MXNet's custom operator 'quota_sampler' (usable in a hybridized graph:
    `F.Custom(matches, ious, op_type='quota_sampler', num_sample=..., pos_thresh=...)`); positives win over the
    negative band here, as in GluonCV's operator. No gradient flows back."""

    def __init__(self, num_sample, pos_thresh, neg_thresh_high=0.5, neg_thresh_low=-np.inf, pos_ratio=0.5,
                 neg_ratio=None, fill_negative=True):
        super().__init__()
        self._args = (num_sample, min(1.0, max(0.0, pos_thresh)), min(1.0, max(0.0, neg_thresh_high)),
                      neg_thresh_low, pos_ratio, 1.0 - pos_ratio if neg_ratio is None else neg_ratio, fill_negative)
        if self._args[4] + self._args[5] > 1.0:
            raise ValueError(f'pos_ratio + neg_ratio = {self._args[4] + self._args[5]} exceeds 1')

    def forward(self, is_train, req, in_data, out_data, aux):
        rows = _quota_rows(in_data[0].asnumpy(), in_data[1].max(axis=-1).asnumpy(), *self._args, positives_win=True)
        self.assign(out_data[0], req[0], mx.nd.array(rows, ctx=in_data[0].context, dtype=out_data[0].dtype))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], 0)
        self.assign(in_grad[1], req[1], 0)


@mx.operator.register('quota_sampler')
class QuotaSamplerProp(mx.operator.CustomOpProp):
    """The properties of the 'quota_sampler' operator: inputs matches (B, A) and ious (B, A, T), output (B, A);
    keyword values arrive as strings and are parsed here."""

    def __init__(self, num_sample, pos_thresh, neg_thresh_high=0.5, neg_thresh_low=0.0, pos_ratio=0.5,
                 neg_ratio=None, fill_negative=True):
        super().__init__(need_top_grad=False)
        self.num_sample, self.pos_thresh = int(num_sample), float(pos_thresh)
        self.neg_thresh_high, self.neg_thresh_low = float(neg_thresh_high), float(neg_thresh_low)
        self.pos_ratio = float(pos_ratio)
        self.neg_ratio = None if neg_ratio in (None, 'None') else float(neg_ratio)
        self.fill_negative = fill_negative not in (False, 'False', 'false', '0', 0)

    def list_arguments(self):
        return ['matches', 'ious']

    def list_outputs(self):
        return ['output']

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], []

    def infer_type(self, in_type):
        return [in_type[0], in_type[0]], [in_type[0]], []

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return QuotaSamplerOp(self.num_sample, self.pos_thresh, self.neg_thresh_high, self.neg_thresh_low,
                              self.pos_ratio, self.neg_ratio, self.fill_negative)


# -- coders --------------------------------------------------------------------------------------------------------
def _matched_boxes(F, matches, refs):
    """The truth box each anchor is matched to: refs (B, T, 4) picked by matches (B, A) -> (B, A, 4) (a -1 match
    picks the last truth, as F.pick wraps; the sample mask drops it)."""
    refs = F.broadcast_like(refs.reshape((0, 1, -1, 4)), matches, lhs_axes=1, rhs_axes=1)  # (B, A, T, 4)
    parts = F.split(refs, axis=-1, num_outputs=4, squeeze_axis=True)
    return F.concat(*[F.pick(p, matches, axis=2).reshape((0, -1, 1)) for p in parts], dim=2)


class NormalizedBoxCenterEncoder(gluon.HybridBlock):
    """Box regression targets: for each positive anchor (samples > 0.5), its matched truth as normalized center
    offsets ((gx - ax) / aw - mean) / std, ..., (log(gw / aw) - mean) / std; zeros elsewhere. Returns (targets,
    masks), both (B, A, 4), the mask 1 on positives. Inputs samples (B, A), matches (B, A), corner anchors
    (B or 1, A, 4), corner truths refs (B, T, 4)."""

    def __init__(self, stds=(0.1, 0.1, 0.2, 0.2), means=(0.0, 0.0, 0.0, 0.0), **kwargs):
        super().__init__(**kwargs)
        self._stds, self._means = _four(stds, 'stds'), _four(means, 'means')

    def hybrid_forward(self, F, samples, matches, anchors, refs):
        g = corner_to_center(F, _matched_boxes(F, matches, refs), split=True)
        a = corner_to_center(F, anchors, split=True)
        (m0, m1, m2, m3), (s0, s1, s2, s3) = self._means, self._stds
        sub, div = F.broadcast_sub, F.broadcast_div  # anchors may be one set (1, A, 4) for the batch
        codes = F.concat((div(sub(g[0], a[0]), a[2]) - m0) / s0, (div(sub(g[1], a[1]), a[3]) - m1) / s1,
                         (F.log(div(g[2], a[2])) - m2) / s2, (F.log(div(g[3], a[3])) - m3) / s3, dim=2)
        positive = F.tile(samples.reshape((0, -1, 1)), reps=(1, 1, 4)) > 0.5
        return F.where(positive, codes, F.zeros_like(codes)), F.where(positive, F.ones_like(positive),
                                                                     F.zeros_like(positive))


class NumPyNormalizedBoxCenterEncoder:
    """NormalizedBoxCenterEncoder on numpy arrays (the CPU target generators' form)."""

    def __init__(self, stds=(0.1, 0.1, 0.2, 0.2), means=(0.0, 0.0, 0.0, 0.0)):
        self._stds, self._means = _four(stds, 'stds'), _four(means, 'means')
        self._split = NumPyBBoxCornerToCenter(split=True)

    def __call__(self, samples, matches, anchors, refs):
        b, a = matches.shape
        picked = refs[np.arange(b)[:, None], np.asarray(matches, np.int64) % refs.shape[1]]  # (B, A, 4)
        g, an = self._split(picked), self._split(anchors)
        (m0, m1, m2, m3), (s0, s1, s2, s3) = self._means, self._stds
        codes = np.concatenate((((g[0] - an[0]) / an[2] - m0) / s0, ((g[1] - an[1]) / an[3] - m1) / s1,
                                (np.log(g[2] / an[2]) - m2) / s2, (np.log(g[3] / an[3]) - m3) / s3), axis=2)
        positive = np.tile(samples.reshape((b, -1, 1)), (1, 1, 4)) > 0.5
        return np.where(positive, codes, 0.0), np.where(positive, 1.0, 0.0)


class NormalizedBoxCenterDecoder(gluon.HybridBlock):
    """Corner boxes from normalized center offsets x (..., 4) of anchors (center form, or corner with
    `convert_anchor`); `clip` caps the log-scale of w and h. `minimal_opset` is accepted (this is always the
    plain-operator form)."""

    def __init__(self, stds=(0.1, 0.1, 0.2, 0.2), convert_anchor=False, clip=None, minimal_opset=False):
        super().__init__()
        self._stds, self._convert, self._clip = _four(stds, 'stds'), convert_anchor, clip

    def hybrid_forward(self, F, x, anchors):
        return decode_center_offsets(F, x, anchors, stds=self._stds, clip=self._clip,
                                     corner_anchors=self._convert)


class MultiClassEncoder(gluon.HybridBlock):
    """Class targets (B, A): matched class + 1 on positives, 0 (background) on negatives, `ignore_label` on the
    rest. Inputs samples (B, A), matches (B, A), truth classes refs (B, T)."""

    def __init__(self, ignore_label=-1):
        super().__init__()
        self._ignore = ignore_label

    def hybrid_forward(self, F, samples, matches, refs):
        refs = F.broadcast_like(refs.reshape((0, 1, -1)), matches, lhs_axes=1, rhs_axes=1)
        ids = F.pick(refs, matches, axis=2) + 1
        out = F.where(samples > 0.5, ids, F.ones_like(ids) * self._ignore)
        return F.where(samples < -0.5, F.zeros_like(out), out)


class MultiClassDecoder(gluon.HybridBlock):
    """(class ids, scores) of the best foreground class of softmax scores x (..., 1 + classes): ids from 0, -1
    (score 0) where the best does not pass `thresh`."""

    def __init__(self, axis=-1, thresh=0.01):
        super().__init__()
        self._axis, self._thresh = axis, thresh

    def hybrid_forward(self, F, x):
        fg = x.slice_axis(axis=self._axis, begin=1, end=None)
        ids = F.argmax(fg, self._axis)
        scores = F.pick(fg, ids, axis=-1)
        keep = scores > self._thresh
        return F.where(keep, ids, F.ones_like(ids) * -1), F.where(keep, scores, F.zeros_like(scores))


class MultiPerClassDecoder(gluon.HybridBlock):
    """(class ids, scores), both (B, N, num_class - 1), of every foreground class at every box of softmax scores
    x (B, N, num_class), background first; scores not above `thresh` become 0 and their id -1."""

    def __init__(self, num_class, axis=-1, thresh=0.01):
        super().__init__()
        if axis not in (-1, 2):
            raise ValueError(f'MultiPerClassDecoder decodes classes on the last axis, not axis={axis}')
        self._classes, self._thresh = num_class - 1, thresh

    def hybrid_forward(self, F, x):
        from .boxes import per_class_scores
        return per_class_scores(F, x, self._classes, self._thresh)


class SigmoidClassEncoder:
    """Per-anchor targets for a sigmoid classifier from samples (1 / -1 / 0): (target 1 / 0, -1 where ignored;
    mask 1 where not ignored), numpy."""

    def __call__(self, samples):
        samples = np.asarray(samples)
        ignored = np.abs(samples) < 1e-5
        return np.where(ignored, -1, (samples + 1) / 2.0), np.where(ignored, 0.0, 1.0)


class NormalizedPerClassBoxCenterEncoder(gluon.HybridBlock):
    """Faster R-CNN's per-class box targets: the class-agnostic targets of the `max_pos` positive-first anchors of
    each of the `per_device_batch_size` pictures, repeated for every class with a mask that is on only for the
    anchor's matched class. forward(samples, matches, anchors, labels (B, T), refs) -> (targets (B, max_pos,
    num_class, 4), masks (B, max_pos, num_class, 4), indices (B, max_pos) of the anchors taken)."""

    def __init__(self, num_class, max_pos=128, per_device_batch_size=1, stds=(0.1, 0.1, 0.2, 0.2),
                 means=(0.0, 0.0, 0.0, 0.0)):
        super().__init__()
        if num_class <= 0:
            raise ValueError(f'num_class must be positive, got {num_class}')
        self._num_class, self._max_pos, self._batch = num_class, max_pos, per_device_batch_size
        with self.name_scope():
            self.class_agnostic_encoder = NormalizedBoxCenterEncoder(stds=stds, means=means)

    def hybrid_forward(self, F, samples, matches, anchors, labels, refs):
        targets, masks = self.class_agnostic_encoder(samples, matches, anchors, refs)
        picked = F.pick(F.broadcast_like(labels.reshape((0, 1, -1)), matches, lhs_axes=1, rhs_axes=1), matches,
                        axis=2).reshape((0, -1, 1))
        same = F.broadcast_equal(picked, F.arange(self._num_class).reshape((1, 1, -1)))  # (B, A, classes)
        order = F.argsort(F.slice_axis(masks, axis=-1, begin=0, end=1), axis=1, is_ascend=False)
        indices = F.slice_axis(order.reshape((self._batch, -1)), axis=1, begin=0, end=self._max_pos)

        def take(a):  # the `indices` rows of each picture of `a`
            rows = [F.take(F.slice_axis(a, axis=0, begin=i, end=i + 1).squeeze(axis=0),
                           F.slice_axis(indices, axis=0, begin=i, end=i + 1).squeeze(axis=0)).expand_dims(axis=0)
                    for i in range(self._batch)]
            return F.concat(*rows, dim=0)
        targets, masks, same = take(targets), take(masks), take(same).expand_dims(3)
        all_targets = F.broadcast_axes(targets.expand_dims(2), axis=2, size=self._num_class)
        all_masks = F.broadcast_mul(masks.expand_dims(2), F.broadcast_axes(same, axis=3, size=4))
        return all_targets, all_masks, indices


class CenterNetDecoder(gluon.HybridBlock):
    """CenterNet's decoding: (class ids (B, topk), scores (B, topk), boxes (B, topk, 4)) of the `topk` best cells
    of the peak heatmap x (B, classes, H, W) over all classes, each box centred on its cell plus `reg`, `wh` wide
    and high, times `scale` (the net's stride): the CenterNet model's own decoding."""

    def __init__(self, topk=100, scale=4.0):
        super().__init__()
        self._topk, self._scale = topk, scale

    def hybrid_forward(self, F, x, wh, reg):
        from ..models.detection.center_net import decode_centers
        return decode_centers(F, x, wh, reg, self._topk, self._scale)
