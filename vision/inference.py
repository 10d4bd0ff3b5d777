"""Inference with zoo models on images and videos: `classify` (the path behind `gluonzoo predict`, the demo and
`verify`), `detect` (behind `gluonzoo detect`), `segment` (behind `gluonzoo segment`) and `recognize` (behind
`gluonzoo recognize`: a video's actions).

`classify` and `detect` hand the net to `gluonzoo.optimize` (oneDNN fused graphs, checked against the plain net on
the first batch) unless `optimize=False`: classify for its fixed batch shape, detect with `static_shape` only when
the record resizes to an exact (h, w), since a short-side resize gives each picture its own size. `segment` scores
every picture at its own size through one graph whose output follows its input (`AtInputSize`), optimized without
static shapes; PSPNet, whose graph holds one map size, keeps `predict`'s imperative path.
"""
import warnings

import numpy as np

from ..errors import BadInputError
from ..optimizing import optimize as _optimize
from .image import read_image
from .transforms import from_preprocess


def _preprocess(net, preprocess):
    """The preprocess dict of `net.weights`, or an explicit `preprocess` dict."""
    if preprocess is not None:
        return dict(preprocess)
    w = getattr(net, 'weights', None)
    if w is not None:
        return dict(w.preprocess)
    raise BadInputError(f'{type(net).__name__} carries no weights record to say how to preprocess images: pass '
                        "preprocess= (e.g. gz.get_weights('mobilenetv2_1.0').preprocess)")


def _transform(net, preprocess):
    """(the eval transform, the preprocess dict) of `net.weights`, or of an explicit `preprocess` dict."""
    pre = _preprocess(net, preprocess)
    return from_preprocess(pre), pre


def _ctx(net):
    return next(iter(net.collect_params().values())).list_ctx()[0]


def classify(net, images, topk=5, batch_size=8, preprocess=None, optimize=True):
    """Top-k (label, probability) lists for image paths or RGB arrays, preprocessed as `net.weights` says (its
    record's eval transform: size, color, crop, mean/std), or as an explicit `preprocess` dict says; `optimize`
    runs `net` through `gluonzoo.optimize` (in place) from the first batch on."""
    import mxnet as mx
    transform, _ = _transform(net, preprocess)
    labels = getattr(net, 'classes', None)
    ctx = _ctx(net)
    results = []
    for i in range(0, len(images), batch_size):
        batch = [read_image(x) if not isinstance(x, np.ndarray) else x for x in images[i:i + batch_size]]
        x = mx.nd.array(np.stack([transform(b) for b in batch]), ctx=ctx)
        if optimize:
            _optimize(net, x)
        prob = mx.nd.softmax(net(x)).asnumpy()
        results += [_topk(p, topk, labels) for p in prob]
    return results


def _topk(p, k, labels):
    """[(label, probability)] of the k most likely classes of probabilities `p`."""
    idx = np.argsort(-p)[:k]
    return [(labels[j] if labels else str(j), float(p[j])) for j in idx]


def detect(net, images, threshold=0.5, preprocess=None, optimize=True):
    """Per image (a path or an RGB array), its objects scoring at least `threshold`, best first: (class name, score,
    [x1, y1, x2, y2]) in the original image's pixels. The image goes through `net.weights`' eval transform (or an
    explicit `preprocess`); the boxes come back through its resize undone (x and y scaled apart, for the exact
    (h, w) resizes that do not keep the aspect). `optimize`: run `net` through `gluonzoo.optimize` (in place)."""
    import mxnet as mx
    transform, pre = _transform(net, preprocess)
    if pre.get('crop') is not None:
        raise BadInputError(f'preprocess crop={pre["crop"]} cuts the image: detect() can only undo a resize')
    labels = getattr(net, 'classes', None)
    ctx = _ctx(net)
    fixed = isinstance(pre.get('resize'), (list, tuple))  # (h, w): every picture comes out the same size
    results = []
    for image in images:  # one at a time: GluonCV's short-side resizes give each picture its own size
        img = read_image(image) if not isinstance(image, np.ndarray) else image
        x = transform(img)
        h, w = x.shape[:2] if pre.get('layout') == 'NHWC' else x.shape[1:]
        x = mx.nd.array(x[None], ctx=ctx)
        if optimize:
            _optimize(net, x, static_shape=fixed)
        ids, scores, boxes = (o[0].asnumpy() for o in net(x))
        scale = np.array([img.shape[1] / w, img.shape[0] / h] * 2)
        results.append([(labels[int(i)] if labels else str(int(i)), float(s), [float(v) for v in b * scale])
                        for i, s, b in zip(ids.ravel(), scores.ravel(), boxes) if i >= 0 and s >= threshold])
    return results


def segment(net, images, preprocess=None, optimize=True):
    """Per image (a path or an RGB array), its class-id map (H, W) int32 at the image's own size: the argmax of a
    semantic segmentation net's scores for the picture preprocessed as `net.weights` says (GluonCV's: the picture
    as it is, normalized) or as an explicit `preprocess` says. Segmenters (FCN, DeepLab, ...) score at the input's
    size, as their `predict`; the others' first output (HRNet `_s`: stride 4), and any map a record's resize made
    smaller or larger, is resized to the image bilinearly before the argmax. `optimize`: score through
    `gluonzoo.optimize` (the graph kept with the net for later calls)."""
    import mxnet as mx
    transform, pre = _transform(net, preprocess)
    if pre.get('crop') is not None:
        raise BadInputError(f'preprocess crop={pre["crop"]} cuts the image: segment() labels every pixel of it')
    if pre.get('layout') == 'NHWC':
        raise BadInputError('segment() feeds NCHW pictures: a record with layout NHWC is not a segmentation net\'s')
    ctx = _ctx(net)
    scorer = _scorer(net, optimize)
    results = []
    for image in images:  # one at a time: each picture is scored at its own size, as GluonCV's demo does
        img = read_image(image) if not isinstance(image, np.ndarray) else image
        x = mx.nd.array(transform(img)[None], ctx=ctx)
        if optimize and isinstance(scorer, mx.gluon.HybridBlock):
            with warnings.catch_warnings():  # AtInputSize leaves the auxiliary head out of its graph, as it should
                warnings.filterwarnings('ignore', message=r'Parameter .* is not used by any computation')
                _optimize(scorer, x, static_shape=False)
        scores = scorer(x)
        scores = scores[0] if isinstance(scores, (tuple, list)) else scores
        if scores.shape[2:] != img.shape[:2]:
            scores = mx.nd.contrib.BilinearResize2D(scores, height=img.shape[0], width=img.shape[1])
        results.append(scores[0].argmax(axis=0).asnumpy().astype(np.int32))
    return results


def _scorer(net, optimize):
    """What scores one picture of `net` at its own size: `AtInputSize(net)` for segmenters whose graph serves any
    size (kept per net when optimized), `net.predict` for the others with `predict` (PSPNet), else `net` itself."""
    from .models.segmentation.base import AtInputSize, Segmenter
    if isinstance(net, Segmenter) and not net.fixed_size_graph:
        if not optimize:
            return AtInputSize(net)
        if '_gz_at_input_size' not in net.__dict__:  # set past Block.__setattr__: not a child of its own child
            net.__dict__['_gz_at_input_size'] = AtInputSize(net)
        return net.__dict__['_gz_at_input_size']
    return net.predict if callable(getattr(net, 'predict', None)) else net


def clip_indices(num_frames, preprocess, clips=None):
    """The frame ids of GluonCV's test clips of a video of `num_frames` frames, as the record's preprocess samples them
    (vision.data.video's sample_offsets in 'test' mode): `clips` (default: the preprocess's `segments`, 1) clips of
    `frames` frames `step` apart, each from the middle of its stretch (TSN: one frame a segment); SlowFast's
    `slowfast` (fast, slow) frames of each `frames`-long clip, the fast ones then the slow ones. Frames past a short
    video's end repeat, as GluonCV's."""
    from .data.video import clip_frame_ids, sample_offsets, slowfast_frame_ids
    frames, step = preprocess.get('frames', 1), preprocess.get('step', 1)
    offsets, jitter = sample_offsets(num_frames, clips or preprocess.get('segments', 1), frames, step, mode='test')
    if 'slowfast' in preprocess:
        fast, slow = preprocess['slowfast']
        return slowfast_frame_ids(offsets, jitter, num_frames, frames, frames // fast, frames // slow)
    return clip_frame_ids(offsets, jitter, num_frames, frames, step)


def read_clip(path, preprocess, backend=None, clips=None):
    """The test clips (clips * T, H, W, 3) uint8 RGB that `preprocess` samples from the video at `path`
    (clip_indices)."""
    from .data.video_reader import VideoReader
    with VideoReader(path, backend) as vr:
        return vr.get_batch(clip_indices(len(vr), preprocess, clips))


def views_of(preprocess, views=None):
    """(clips, crops) a video is scored over: `views`, else the record's `test_views` (GluonCV's published protocol:
    25 frames x 10 crops for its 2D nets, 10 clips x 3 crops for its 3D ones), else the record's own sampling
    (frames, step, segments: clips None) and the centre crop."""
    from .tasks import TEST_CROPS
    clips, crops = views or preprocess.get('test_views') or (None, 1)  # clips None: the record's own sampling
    if clips is not None and (isinstance(clips, bool) or not isinstance(clips, int) or clips < 1):
        raise BadInputError(f'views: {clips!r} clips a video; it takes a positive number')
    if crops not in TEST_CROPS:
        raise BadInputError(f'views: {crops!r} crops a frame; GluonCV tests with 1, 3 (three-crop) or 10 (ten-crop)')
    return clips, crops


def _view_cutter(pre, crops):
    """frame -> (crops, 3, h, w) float32: the views of one RGB frame vision.tasks.TEST_CROPS says (normalized once,
    cut after: the same numbers as cutting first, per pixel)."""
    if crops == 1:
        transform = from_preprocess(pre)
        return lambda frame: transform(frame)[None]
    from .transforms.video import VideoTenCrop, VideoThreeCrop

    def cut(frame):
        side = pre.get('crop') or min(frame.shape[:2])
        side = side if isinstance(side, int) else side[0]
        whole = from_preprocess(dict(pre, resize=side if crops == 3 else pre.get('resize'), crop=None))(frame)
        views = (VideoThreeCrop if crops == 3 else VideoTenCrop)(side)([whole.transpose(1, 2, 0)])
        return np.stack([np.ascontiguousarray(v) for v in views]).transpose(0, 3, 1, 2)
    return cut


def recognize(net, videos, topk=5, preprocess=None, backend=None, views=None):
    """Top-k (label, probability) lists of each video: a file (its test clips, read_clip) or the clips read_clip gave,
    every frame through the record's eval transform (GluonCV's 256x340 resize and 224 centre crop) or cut into
    `views`' crops (views_of: (clips, crops), default the record's). A clip model gets (clips * crops, 3, T, H, W),
    a frame model (TSN) its frames' crops (frames * crops, 3, H, W); the video's score is the softmax of the mean of
    their scores, as GluonCV's net built with num_segments and num_crop averages them."""
    import mxnet as mx
    from .tasks import frame_preprocess
    pre = _preprocess(net, preprocess)
    clips, crops = views_of(pre, views)
    cut = _view_cutter(frame_preprocess(pre), crops)
    clip_model = 'frames' in pre or 'slowfast' in pre
    labels = getattr(net, 'classes', None)
    ctx = _ctx(net)
    results = []
    for video in videos:
        frames = video if isinstance(video, np.ndarray) else read_clip(video, pre, backend, clips)
        x = np.stack([cut(f) for f in frames])  # (frames, crops, 3, h, w)
        if clip_model:  # clip by clip, crop by crop: (clips * crops, 3, T, h, w)
            n = clips or pre.get('segments', 1)
            x = x.reshape((n, -1) + x.shape[1:]).transpose(0, 2, 3, 1, 4, 5)
        x = x.reshape((-1,) + x.shape[2:])
        # a net built for one view (GluonCV's default) scores each: the video's score is their mean, what
        # num_segments=S, num_crop=C would average inside the net; one built for S x C takes a multiple of S x C
        group = getattr(net, 'num_segments', 1) * getattr(net, 'num_crop', 1)
        if len(x) % group:
            raise BadInputError(f'{type(net).__name__} averages num_segments x num_crop = {group} views; the '
                                f'{len(x)} views of the video ({len(frames)} frames, {crops} crop(s) each) are not a '
                                'multiple of it')
        p = mx.nd.softmax(net(mx.nd.array(x, ctx=ctx)).mean(axis=0, keepdims=True)).asnumpy()[0]
        results.append(_topk(p, topk, labels))
    return results
