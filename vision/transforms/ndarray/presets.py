"""GluonCV's presets (gluoncv.data.transforms.presets.*) with its signatures: images in are HxWx3 uint8 RGB
NDArrays, labels numpy (N, 5+) rows of corners and class id; tensors out are normalized float32 CxHxW NDArrays.

    load_test / transform_test   (1xCxHxW tensor, the resized image as uint8 numpy), lists for several images
    *DefaultTrainTransform       GluonCV's augmentation with its global-generator draws, then the training targets
                                 when given what they need (SSD's anchors, a YOLOv3 net, CenterNet always)
    *DefaultValTransform         deterministic resize + normalize
"""
import random

import numpy as np

from ....errors import BadInputError
from ...meta import IMAGENET_MEAN, IMAGENET_STD
from . import boxes as tbbox
from . import distort
from . import image as timage
from . import polygons as tmask

MEAN, STD = tuple(IMAGENET_MEAN), tuple(IMAGENET_STD)


def _normalized(img, mean, std):
    import mxnet as mx
    return mx.nd.image.normalize(mx.nd.image.to_tensor(img), mean=mean, std=std)


def _test(imgs, mean, std, resize):
    import mxnet as mx
    imgs = [imgs] if isinstance(imgs, mx.nd.NDArray) else list(imgs)
    for im in imgs:
        if not isinstance(im, mx.nd.NDArray):
            raise BadInputError(f'transform_test takes HxWx3 NDArrays (mx.image.imread), got {type(im).__name__}')
    tensors, origs = [], []
    for img in imgs:
        img = resize(img)
        origs.append(img.asnumpy().astype('uint8'))
        tensors.append(_normalized(img, mean, std).expand_dims(0))
    return (tensors[0], origs[0]) if len(tensors) == 1 else (tensors, origs)


def _read(filenames):
    import mxnet as mx
    return [mx.image.imread(f) for f in ([filenames] if isinstance(filenames, str) else filenames)]


def ssd_transform_test(imgs, short, max_size=1024, mean=MEAN, std=STD):
    """Short side to `short` within `max_size` (bicubic), normalize: (tensor, resized uint8 image)."""
    return _test(imgs, mean, std, lambda im: timage.resize_short_within(im, short, max_size))


def ssd_load_test(filenames, short, max_size=1024, mean=MEAN, std=STD):
    """ssd_transform_test of the image file(s)."""
    return ssd_transform_test(_read(filenames), short, max_size, mean, std)


def yolo_transform_test(imgs, short=416, max_size=1024, stride=1, mean=MEAN, std=STD):
    """Short side to `short` within `max_size`, sides rounded to multiples of `stride`, normalize."""
    return _test(imgs, mean, std, lambda im: timage.resize_short_within(im, short, max_size, mult_base=stride))


def yolo_load_test(filenames, short=416, max_size=1024, stride=1, mean=MEAN, std=STD):
    """yolo_transform_test of the image file(s)."""
    return yolo_transform_test(_read(filenames), short, max_size, stride, mean, std)


def rcnn_transform_test(imgs, short=600, max_size=1000, mean=MEAN, std=STD):
    """Short side to `short` within `max_size` (bicubic), normalize."""
    return _test(imgs, mean, std, lambda im: timage.resize_short_within(im, short, max_size))


def rcnn_load_test(filenames, short=600, max_size=1000, mean=MEAN, std=STD):
    """rcnn_transform_test of the image file(s)."""
    return rcnn_transform_test(_read(filenames), short, max_size, mean, std)


center_net_transform_test, center_net_load_test = ssd_transform_test, ssd_load_test


def _ssd_augment(src, label, width, height, mean):
    """SSD's (and YOLOv3's) augmentation with GluonCV's draws: (resized, flipped uint8-valued image, boxes)."""
    import mxnet as mx
    img = distort.random_color_distort(src)
    if np.random.uniform(0, 1) > 0.5:
        img, expand = timage.random_expand(img, fill=[m * 255 for m in mean])
        bbox = tbbox.translate(label, x_offset=expand[0], y_offset=expand[1])
    else:
        bbox = label
    h, w, _ = img.shape
    bbox, (x0, y0, cw, ch) = distort.random_crop_with_constraints(bbox, (w, h))
    img = mx.image.fixed_crop(img, x0, y0, cw, ch)
    h, w, _ = img.shape
    img = timage.imresize(img, width, height, interp=np.random.randint(0, 5))
    bbox = tbbox.resize(bbox, (w, h), (width, height))
    img, flips = timage.random_flip(img, px=0.5)
    return img, tbbox.flip(bbox, (width, height), flip_x=flips[0])


class SSDDefaultTrainTransform:
    """SSD's training transform: -> (image, boxes) without `anchors`; with the net's (1, N, 4) center-form anchors
    -> (image, class targets (N,), box targets (N, 4)) (IoU matching at `iou_thresh`, offsets over `box_norm`)."""

    def __init__(self, width, height, anchors=None, mean=MEAN, std=STD, iou_thresh=0.5,
                 box_norm=(0.1, 0.1, 0.2, 0.2), **kwargs):
        self._width, self._height, self._mean, self._std = width, height, mean, std
        self._iou_thresh, self._box_norm, self._kwargs = iou_thresh, box_norm, kwargs
        self._anchors = None
        if anchors is not None:
            a = anchors.reshape((-1, 4)).asnumpy() if hasattr(anchors, 'asnumpy') else np.reshape(anchors, (-1, 4))
            self._anchors = np.concatenate([a[:, :2] - a[:, 2:] / 2, a[:, :2] + a[:, 2:] / 2], 1).astype(np.float32)

    def __call__(self, src, label):
        import mxnet as mx
        from ...train.detection.families import ssd_targets
        img, bbox = _ssd_augment(src, label, self._width, self._height, self._mean)
        img = _normalized(img, self._mean, self._std)
        if self._anchors is None:
            return img, bbox.astype(img.dtype)
        cls, box = ssd_targets(self._anchors, bbox, self._iou_thresh, self._box_norm)
        return img, mx.nd.array(cls), mx.nd.array(box)


class _ResizeVal:
    def __init__(self, width, height, mean=MEAN, std=STD):
        self._width, self._height, self._mean, self._std = width, height, mean, std

    def __call__(self, src, label):
        h, w, _ = src.shape
        img = timage.imresize(src, self._width, self._height, interp=9)
        bbox = tbbox.resize(label, in_size=(w, h), out_size=(self._width, self._height))
        img = _normalized(img, self._mean, self._std)
        return img, bbox.astype(img.dtype)


class SSDDefaultValTransform(_ResizeVal):
    """Resize to width x height (auto interpolation) and normalize: (image, boxes)."""


class YOLO3DefaultTrainTransform:
    """YOLOv3's training transform (SSD's augmentation): -> (image, boxes) without `net`; with a YOLOv3 net ->
    (image, objectness, center, scale, weight, class targets, gt boxes), as GluonCV's prefetched targets.
    `mixup=True` reads the last label column as the mixup weight of each box (GluonCV's), which the targets here
    do not weigh."""

    def __init__(self, width, height, net=None, mean=MEAN, std=STD, mixup=False, **kwargs):
        self._width, self._height, self._mean, self._std, self._mixup = width, height, mean, std, mixup
        self._targets = None
        if net is not None:
            from ...train.detection.families import _YOLOv3
            self._targets = _YOLOv3()
            self._prepare(net)

    def _prepare(self, net):
        import mxnet as mx
        from mxnet import autograd
        t = self._targets
        with autograd.train_mode():
            outs = net(mx.nd.zeros((1, 3, self._height, self._width)))
        t.grids = [tuple(g.shape[2:]) for g in outs[5:]]
        t.anchors = [o.anchors.data().asnumpy().reshape(-1, 2) for o in net.yolo_outputs]
        t.num_class = len(net.classes)

    def __call__(self, src, label):
        import mxnet as mx
        from ...train.detection.families import yolo3_targets
        img, bbox = _ssd_augment(src, label, self._width, self._height, self._mean)
        img = _normalized(img, self._mean, self._std)
        if self._targets is None:
            return img, bbox.astype(img.dtype)
        t = self._targets
        parts = yolo3_targets(bbox, t.anchors, t.grids, (self._height, self._width), t.num_class)
        return (img,) + tuple(mx.nd.array(p) for p in parts) + (mx.nd.array(bbox[:, :4]),)


class YOLO3DefaultValTransform(_ResizeVal):
    """Resize to width x height (auto interpolation) and normalize: (image, boxes)."""


def _short_size(short):
    return randint_inclusive(*short) if isinstance(short, (tuple, list)) else short


def randint_inclusive(lo, hi):
    """Python's random.randint: GluonCV's draw of a random short side."""
    return random.randint(lo, hi)


def _no_rpn_targets(net, what):
    if net is not None:
        raise NotImplementedError(f'{what}(net=...): the RPN training targets are not provided by gluonzoo; pass '
                                  'net=None for the augmented (image, boxes) and build the targets in the model')


class FasterRCNNDefaultTrainTransform:
    """Faster R-CNN's training transform: short side to `short` (a (lo, hi) pair: random, both included) within
    `max_size` (bilinear), flip with probability `flip_p`, normalize -> (image, boxes). The RPN targets GluonCV adds
    when given `net` are not provided (NotImplementedError)."""

    def __init__(self, short=600, max_size=1000, net=None, mean=MEAN, std=STD, box_norm=(1.0, 1.0, 1.0, 1.0),
                 num_sample=256, pos_iou_thresh=0.7, neg_iou_thresh=0.3, pos_ratio=0.5, flip_p=0.5, ashape=128,
                 multi_stage=False, **kwargs):
        _no_rpn_targets(net, 'FasterRCNNDefaultTrainTransform')
        self._short, self._max_size, self._mean, self._std, self._flip_p = short, max_size, mean, std, flip_p

    def __call__(self, src, label):
        h, w, _ = src.shape
        img = timage.resize_short_within(src, _short_size(self._short), self._max_size, interp=1)
        bbox = tbbox.resize(label, (w, h), (img.shape[1], img.shape[0]))
        h, w, _ = img.shape
        img, flips = timage.random_flip(img, px=self._flip_p)
        bbox = tbbox.flip(bbox, (w, h), flip_x=flips[0])
        img = _normalized(img, self._mean, self._std)
        return img, bbox.astype(img.dtype)


class FasterRCNNDefaultValTransform:
    """Short side to `short` within `max_size` (bilinear), normalize -> (image, boxes, [input height / output])."""

    def __init__(self, short=600, max_size=1000, mean=MEAN, std=STD):
        self._short, self._max_size, self._mean, self._std = short, max_size, mean, std

    def __call__(self, src, label):
        import mxnet as mx
        h, w, _ = src.shape
        img = timage.resize_short_within(src, self._short, self._max_size, interp=1)
        bbox = tbbox.resize(label, (w, h), (img.shape[1], img.shape[0]))
        scale = h / float(img.shape[0])
        return _normalized(img, self._mean, self._std), bbox.astype('float32'), mx.nd.array([scale])


class MaskRCNNDefaultTrainTransform:
    """Mask R-CNN's training transform on (image, boxes, polygons per instance): resize as Faster R-CNN's, flip
    half the time -> (image, boxes, (N, H, W) masks). The RPN targets of `net` are not provided."""

    def __init__(self, short=600, max_size=1000, net=None, mean=MEAN, std=STD, box_norm=(1.0, 1.0, 1.0, 1.0),
                 num_sample=256, pos_iou_thresh=0.7, neg_iou_thresh=0.3, pos_ratio=0.5, ashape=128,
                 multi_stage=False, **kwargs):
        _no_rpn_targets(net, 'MaskRCNNDefaultTrainTransform')
        self._short, self._max_size, self._mean, self._std = short, max_size, mean, std

    def __call__(self, src, label, segm):
        import mxnet as mx
        h, w, _ = src.shape
        img = timage.resize_short_within(src, _short_size(self._short), self._max_size, interp=1)
        size = (img.shape[1], img.shape[0])
        bbox = tbbox.resize(label, (w, h), size)
        segm = [tmask.resize(polys, (w, h), size) for polys in segm]
        img, flips = timage.random_flip(img, px=0.5)
        bbox = tbbox.flip(bbox, size, flip_x=flips[0])
        segm = [tmask.flip(polys, size, flip_x=flips[0]) for polys in segm]
        masks = mx.nd.stack(*[mx.nd.array(tmask.to_mask(polys, size)) for polys in segm], axis=0)
        img = _normalized(img, self._mean, self._std)
        return img, bbox.astype(img.dtype), masks


class MaskRCNNDefaultValTransform:
    """Short side to `short` within `max_size` (bilinear), normalize -> (image, [height, width, output / input])."""

    def __init__(self, short=600, max_size=1000, mean=MEAN, std=STD):
        self._short, self._max_size, self._mean, self._std = short, max_size, mean, std

    def __call__(self, src, label, mask):
        import mxnet as mx
        h = src.shape[0]
        img = timage.resize_short_within(src, self._short, self._max_size, interp=1)
        scale = float(img.shape[0]) / h
        img = _normalized(img, self._mean, self._std)
        return img, mx.nd.array([img.shape[-2], img.shape[-1], scale])


def _border(border, size):
    i = 1
    while size - border // i <= border // i:
        i *= 2
    return border // i


def _warp_boxes(bbox, trans, out_w, out_h):
    for i in range(bbox.shape[0]):
        bbox[i, :2] = tbbox.affine_transform(bbox[i, :2], trans)
        bbox[i, 2:4] = tbbox.affine_transform(bbox[i, 2:4], trans)
    # GluonCV's clip: x1, y1 to the width, x2, y2 to the height
    bbox[:, :2] = np.clip(bbox[:, :2], 0, out_w - 1)
    bbox[:, 2:4] = np.clip(bbox[:, 2:4], 0, out_h - 1)
    return bbox


def _center_net_tensor(img, mean, std):
    import mxnet as mx
    img = (img - np.asarray(mean, np.float32).reshape(1, 1, 3)) / np.asarray(std, np.float32).reshape(1, 1, 3)
    return mx.nd.array(img.transpose(2, 0, 1).astype(np.float32))


class CenterNetDefaultTrainTransform:
    """CenterNet's training transform: flip, an affine crop around a random center (numpy's global generator), color
    jitter and PCA lighting (its own RandomState(123)), normalize -> (image, heatmap, wh target, wh mask, center
    offset, offset mask) on the width / scale_factor x height / scale_factor heatmap."""

    def __init__(self, width, height, num_class, scale_factor=4, mean=MEAN, std=STD, **kwargs):
        self._width, self._height, self._num_class, self._scale_factor = width, height, num_class, scale_factor
        self._mean, self._std, self._kwargs = mean, std, kwargs
        self._data_rng = np.random.RandomState(123)

    def __call__(self, src, label):
        import cv2
        import mxnet as mx
        from ...train.detection.families import center_net_targets
        h, w, _ = src.shape
        img, flips = timage.random_flip(src, px=0.5)
        bbox = tbbox.flip(label, (w, h), flip_x=flips[0])
        center = np.array([w / 2.0, h / 2.0], dtype=np.float32)
        center[0] = np.random.randint(low=_border(128, w), high=w - _border(128, w))
        center[1] = np.random.randint(low=_border(128, h), high=h - _border(128, h))
        side = max(h, w) * 1.0 * np.clip(np.random.randn() * 0.4 + 1, 0.6, 1.4)
        trans = tbbox.get_affine_transform(center, side, 0, [self._width, self._height])
        inp = cv2.warpAffine(img.asnumpy(), trans, (self._width, self._height), flags=cv2.INTER_LINEAR)
        out_w, out_h = self._width // self._scale_factor, self._height // self._scale_factor
        bbox = _warp_boxes(bbox, tbbox.get_affine_transform(center, side, 0, [out_w, out_h]), out_w, out_h)
        inp = inp.astype(np.float32) / 255.0
        distort.np_random_color_distort(inp, data_rng=self._data_rng)
        targets = center_net_targets(bbox, self._num_class, out_w, out_h)
        return (_center_net_tensor(inp, self._mean, self._std),) + tuple(mx.nd.array(t) for t in targets)


class CenterNetDefaultValTransform:
    """The whole image, long side fitted, centered on a black width x height canvas by an affine warp (bilinear),
    normalize -> (image, boxes moved along and clipped)."""

    def __init__(self, width, height, mean=MEAN, std=STD):
        self._width, self._height, self._mean, self._std = width, height, mean, std

    def __call__(self, src, label):
        import cv2
        h, w, _ = src.shape
        center = np.array([w / 2.0, h / 2.0], dtype=np.float32)
        trans = tbbox.get_affine_transform(center, max(h, w) * 1.0, 0, [self._width, self._height])
        inp = cv2.warpAffine(src.asnumpy(), trans, (self._width, self._height), flags=cv2.INTER_LINEAR)
        bbox = _warp_boxes(label, trans, self._width, self._height)
        img = _center_net_tensor(inp.astype(np.float32) / 255.0, self._mean, self._std)
        return img, bbox.astype(img.dtype)


def get_post_transform(orig_w, orig_h, out_w, out_h):
    """The 2x3 matrix taking CenterNet's out_w x out_h output back to the orig_w x orig_h image."""
    center = np.array([orig_w / 2.0, orig_h / 2.0], dtype=np.float32)
    return tbbox.get_affine_transform(center, max(orig_w, orig_h) * 1.0, 0, [out_w, out_h], inv=True)


def imagenet_transform_eval(imgs, resize_short=256, crop_size=224, mean=MEAN, std=STD):
    """ImageNet's evaluation: short side to `resize_short`, center `crop_size`, normalize -> a 1x3xHxW NDArray
    (a list for several images), as Gluon's Resize(keep_ratio=True) + CenterCrop + ToTensor + Normalize."""
    import mxnet as mx
    from mxnet.gluon.data.vision import transforms
    imgs = [imgs] if isinstance(imgs, mx.nd.NDArray) else list(imgs)
    for im in imgs:
        if not isinstance(im, mx.nd.NDArray):
            raise BadInputError(f'transform_eval takes HxWx3 NDArrays, got {type(im).__name__}')
    fn = transforms.Compose([transforms.Resize(resize_short, keep_ratio=True), transforms.CenterCrop(crop_size),
                             transforms.ToTensor(), transforms.Normalize(mean, std)])
    out = [fn(img).expand_dims(0) for img in imgs]
    return out[0] if len(out) == 1 else out


def segmentation_test_transform(img, ctx):
    """An HxWx3 image as the 1x3xHxW normalized batch a segmentation net takes, on `ctx`."""
    return _normalized(img, MEAN, STD).expand_dims(0).as_in_context(ctx)
