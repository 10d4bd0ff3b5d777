"""GluonCV's `utils.viz` with its signatures and return values, over gluonzoo's drawing code (vision/viz.py):
`plot_*` draw on a matplotlib Axes and return it, `cv_plot_*` draw into a copy of the picture with OpenCV and
return the array, `expand_mask` pastes Mask R-CNN's masks onto the picture, `get_color_pallete` gives a palette
('P' mode) PIL image of a class-id map.

Colors: a class keeps one color (viz's golden-ratio hues, the same from run to run; GluonCV draws random ones
when `class_names` is not given, and matplotlib's 'hsv' map when it is); pass `colors={id: (r, g, b)}` (0-1 floats
for plot_bbox, as GluonCV takes them) to choose.

>>> import numpy as np
>>> cv_plot_bbox(np.zeros((20, 30, 3), np.uint8), np.array([[2., 2, 10, 10]]), labels=np.array([0])).shape
(20, 30, 3)
"""
import numpy as np
from mxnet.gluon import HybridBlock

from . import viz as _viz
from .models.segmentation.mask_rcnn.masks import paste_masks


def _np(a):
    return None if a is None else np.array(a.asnumpy() if hasattr(a, 'asnumpy') else a)


def _rgb01(class_id, colors, class_names):
    """The 0-1 RGB(A) color of a class: `colors[id]` when given, else viz's color of the id (-1: grey)."""
    if colors is not None and class_id in colors:
        return colors[class_id]
    if class_id < 0:
        return (0.6, 0.6, 0.6)
    return tuple(c / 255.0 for c in _viz._color(class_id))


def _boxes(img, bboxes, scores, labels, absolute_coordinates, scale=1.0):
    """(boxes (N, 4) float in pixels, scores (N,) or None, labels (N,) or None), lengths checked as GluonCV's."""
    bboxes, scores, labels = _np(bboxes), _np(scores), _np(labels)
    if labels is not None and len(labels) != len(bboxes):
        raise ValueError(f'The length of labels and bboxes mismatch, {len(labels)} vs {len(bboxes)}')
    if scores is not None and len(scores) != len(bboxes):
        raise ValueError(f'The length of scores and bboxes mismatch, {len(scores)} vs {len(bboxes)}')
    boxes = bboxes.astype(np.float64).reshape(-1, 4) if bboxes.size else np.zeros((0, 4))
    if not absolute_coordinates:
        h, w = np.shape(img)[:2]
        boxes = boxes * [w, h, w, h]
    else:
        boxes = boxes * scale
    flat = lambda a: None if a is None else a.reshape(-1)  # noqa: E731
    return boxes, flat(scores), flat(labels)


def _shown(boxes, scores, labels, thresh):
    """(index, class id) of the boxes drawn: scoring at least `thresh`, not padding (label < 0)."""
    for i in range(len(boxes)):
        if scores is not None and scores[i] < thresh:
            continue
        if labels is not None and labels[i] < 0:
            continue
        yield i, int(labels[i]) if labels is not None else -1


def _name(class_id, class_names):
    if class_names is not None and 0 <= class_id < len(class_names):
        return str(class_names[class_id])
    return str(class_id) if class_id >= 0 else ''


def plot_image(img, ax=None, reverse_rgb=False):
    """Show an (H, W, 3) picture (numpy or NDArray) on `ax` (a new figure's when None); `reverse_rgb` swaps RGB
    and BGR first. Returns the Axes."""
    from matplotlib import pyplot as plt
    if ax is None:
        ax = plt.figure().add_subplot(1, 1, 1)
    pic = _np(img)
    if pic.ndim != 3 or pic.shape[2] != 3:
        raise ValueError(f'plot_image takes an (H, W, 3) picture, got shape {pic.shape}')
    if reverse_rgb:
        pic = pic[:, :, ::-1]
    ax.imshow(pic.astype(np.uint8))
    return ax


def plot_bbox(img, bboxes, scores=None, labels=None, thresh=0.5, class_names=None, colors=None, ax=None,
              reverse_rgb=False, absolute_coordinates=True, linewidth=3.5, fontsize=12):
    """The picture on a matplotlib Axes with each box (N, 4 corners; 0-1 fractions of the picture when not
    `absolute_coordinates`) scoring at least `thresh` outlined, labelled with its class name and score. Boxes
    labelled < 0 (a detector's padding) are left out. Returns the Axes."""
    from matplotlib import pyplot as plt
    boxes, scores, labels = _boxes(img, bboxes, scores, labels, absolute_coordinates)
    ax = plot_image(img, ax=ax, reverse_rgb=reverse_rgb)
    for i, cid in _shown(boxes, scores, labels, thresh):
        color = _rgb01(cid, colors, class_names)
        x1, y1, x2, y2 = (int(v) for v in boxes[i])
        ax.add_patch(plt.Rectangle((x1, y1), x2 - x1, y2 - y1, fill=False, edgecolor=color, linewidth=linewidth))
        text = ' '.join(t for t in (_name(cid, class_names), f'{scores[i]:.3f}' if scores is not None else '') if t)
        if text:
            ax.text(x1, y1 - 2, text, bbox=dict(facecolor=color, alpha=0.5), fontsize=fontsize, color='white')
    return ax


def cv_plot_bbox(img, bboxes, scores=None, labels=None, thresh=0.5, class_names=None, colors=None,
                 absolute_coordinates=True, scale=1.0, linewidth=2):
    """plot_bbox drawn with OpenCV into a copy of the picture (boxes times `scale`, the picture's size when the
    net saw it resized): returns the (H, W, 3) uint8 array. A negative `linewidth` fills the boxes."""
    import cv2
    pic = np.ascontiguousarray(_np(img).astype(np.uint8))
    boxes, scores, labels = _boxes(pic, bboxes, scores, labels, absolute_coordinates, scale)
    for i, cid in _shown(boxes, scores, labels, thresh):
        color = tuple(float(c) * 255 for c in _rgb01(cid, colors, class_names)[:3])
        x1, y1, x2, y2 = (int(v) for v in boxes[i])
        cv2.rectangle(pic, (x1, y1), (x2, y2), color, int(linewidth))
        text = ' '.join(t for t in (_name(cid, class_names), f'{int(scores[i] * 100):d}%' if scores is not None
                                    else '') if t)
        if text:
            y = y1 - 15 if y1 - 15 > 15 else y1 + 15
            cv2.putText(pic, text, (x1, y), cv2.FONT_HERSHEY_SIMPLEX, min(scale / 2, 2), color,
                        max(1, min(int(scale), 5)), lineType=cv2.LINE_AA)
    return pic


def cv_plot_image(img, scale=1, upperleft_txt=None, upperleft_txt_corner=(10, 100), left_txt_list=None,
                  left_txt_corner=(10, 150), title_txt_list=None, title_txt_corner=(500, 50), canvas_name='demo'):
    """Show the picture (RGB, resized by `scale`, with the texts written in white) in an OpenCV window named
    `canvas_name` (needs a display); returns the BGR canvas shown."""
    import cv2
    pic = _np(img).astype(np.uint8)
    h, w = pic.shape[:2]
    pic = np.ascontiguousarray(cv2.resize(pic, (int(w * scale), int(h * scale))))
    font, white = cv2.FONT_HERSHEY_SIMPLEX, (255, 255, 255)
    if upperleft_txt is not None:
        cv2.putText(pic, upperleft_txt, tuple(upperleft_txt_corner), font, 1, white, 3)
    for k, txt in enumerate(left_txt_list or ()):
        cv2.putText(pic, txt, (left_txt_corner[0], left_txt_corner[1] + 30 * k), font, 1, white, 1)
    for k, txt in enumerate(title_txt_list or ()):
        cv2.putText(pic, txt, (title_txt_corner[0] + 100 * k, title_txt_corner[1] + 50 * k), font, 1, white, 3)
    canvas = cv2.cvtColor(pic, cv2.COLOR_RGB2BGR)
    cv2.imshow(canvas_name, canvas)
    return canvas


def _people(coords, confidence, class_ids, bboxes, scores, keypoint_thresh):
    """(coords (N, J, 2), visible (N, J), person boxes, their scores) of a pose net's output and the detector's
    batch of one."""
    coords, conf = _np(coords).astype(np.float64), _np(confidence)
    ids, bboxes, scores = _np(class_ids), _np(bboxes), _np(scores)
    if coords.ndim != 3 or coords.shape[2] != 2 or conf.size != coords.shape[0] * coords.shape[1]:
        raise ValueError(f'coords must be (N, joints, 2) and confidence (N, joints, 1); got {coords.shape} and '
                         f'{conf.shape}')
    person = ids[0].reshape(-1) == 0
    return (coords, conf.reshape(coords.shape[:2]) > keypoint_thresh, bboxes[0].reshape(-1, 4)[person],
            scores[0].reshape(-1)[person])


def plot_keypoints(img, coords, confidence, class_ids, bboxes, scores, box_thresh=0.5, keypoint_thresh=0.2,
                   **kwargs):
    """The person boxes (class 0 of the detector's batch of one) as plot_bbox draws them (`kwargs` go to it) and
    each person's COCO skeleton: the segments whose two joints have confidence above `keypoint_thresh`, cyan to
    magenta along the pairs. Returns the Axes."""
    import matplotlib.pyplot as plt
    coords, visible, boxes, box_scores = _people(coords, confidence, class_ids, bboxes, scores, keypoint_thresh)
    ax = plot_bbox(img, boxes, box_scores, thresh=box_thresh, **kwargs)
    shades = np.linspace(0, 1, len(_viz.COCO_SKELETON))
    for pts, seen in zip(coords, visible):
        for shade, (a, b) in zip(shades, _viz.COCO_SKELETON):
            if a < len(seen) and b < len(seen) and seen[a] and seen[b]:
                ax.plot(pts[[a, b], 0], pts[[a, b], 1], linewidth=3.0, alpha=0.7, color=plt.cm.cool(shade))
                ax.scatter(pts[[a, b], 0], pts[[a, b], 1], s=20)
    return ax


def cv_plot_keypoints(img, coords, confidence, class_ids, bboxes, scores, box_thresh=0.5, keypoint_thresh=0.2,
                      scale=1.0, **kwargs):
    """plot_keypoints drawn with OpenCV into a copy of the picture (coordinates times `scale`): returns the
    array."""
    import cv2
    coords, visible, boxes, box_scores = _people(coords, confidence, class_ids, bboxes, scores, keypoint_thresh)
    pic = cv_plot_bbox(img, boxes, box_scores, thresh=box_thresh, scale=scale, **kwargs)
    coords = coords * scale
    n = len(_viz.COCO_SKELETON)
    for pts, seen in zip(coords, visible):
        for k, (a, b) in enumerate(_viz.COCO_SKELETON):
            if a < len(seen) and b < len(seen) and seen[a] and seen[b]:
                color = _viz._cool(k / (n - 1))
                ends = [tuple(int(v) for v in pts[j]) for j in (a, b)]
                cv2.line(pic, ends[0], ends[1], color, 3)
                for e in ends:
                    cv2.circle(pic, e, 3, color, -1)
    return pic


_SORTS = {'area': lambda b: (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]), 'xmin': lambda b: b[:, 0],
          'ymin': lambda b: b[:, 1], 'xmax': lambda b: b[:, 2], 'ymax': lambda b: b[:, 3]}


def expand_mask(masks, bboxes, im_shape, scores=None, thresh=0.5, scale=1.0, sortby=None):
    """(full masks (N', height, width) uint8, order) of Mask R-CNN's (N, M, M) mask probabilities on their boxes
    (N, 4) for a picture of `im_shape` (width, height), keeping the detections scoring at least `thresh` (all
    when `scores` is None). `order` indexes the kept detections, by `sortby` ('area', 'xmin', 'ymin', 'xmax',
    'ymax', largest first) or in their own order."""
    masks, boxes = _np(masks), _np(bboxes)
    if len(masks) != len(boxes):
        raise ValueError(f'The length of bboxes and masks mismatch, {len(boxes)} vs {len(masks)}')
    if scores is not None and len(scores) != len(masks):
        raise ValueError(f'The length of scores and masks mismatch, {len(scores)} vs {len(masks)}')
    boxes = boxes.reshape(-1, 4).astype(np.float64)
    if sortby is None:
        order = np.arange(len(masks))
    elif sortby in _SORTS:
        order = np.argsort(-_SORTS[sortby](boxes))
    else:
        raise ValueError(f'argument sortby cannot take value {sortby!r}: use one of {", ".join(_SORTS)} or None')
    keep = np.ones(len(masks), bool) if scores is None else _np(scores).reshape(-1) >= thresh
    full = paste_masks(masks[keep], boxes[keep], tuple(im_shape), scale=scale)
    return full, order[keep]


def plot_mask(img, masks, alpha=0.5):
    """The picture (H, W, 3) with each instance mask (N, H, W; > 0 inside) blended in at `alpha` in its own
    color, later masks over earlier ones: a uint8 array."""
    pic, m = _np(img), _np(masks)
    if len(m) == 0:
        return pic.astype(np.uint8)
    return _viz.plot_mask(pic.astype(np.uint8), (m > 0).astype(np.uint8).reshape((-1,) + pic.shape[:2]),
                          alpha=alpha)


def cv_merge_two_images(img1, img2, alpha=0.5, size=None):
    """img1 * (1 - alpha) + img2 * alpha (OpenCV's addWeighted), resized to `size` (height, width) when given."""
    import cv2
    out = cv2.addWeighted(_np(img1), 1 - alpha, _np(img2), alpha, 0)
    return out if size is None else cv2.resize(out, (int(size[1]), int(size[0])))


def get_color_pallete(npimg, dataset='pascal_voc'):
    """A PIL image in 'P' mode of the class-id map `npimg` (H, W) with the dataset's palette: 'pascal_voc' /
    'pascal_aug' (VOC's colormap; id -1 becomes 255, 'void'), 'ade20k' (ids shifted by one: 0 is 'other'),
    'citys' or 'mhpv1'; any other name gets VOC's colors."""
    from PIL import Image

    from .palettes import ADE20K, CITYSCAPES, MHPV1
    ids = _np(npimg)
    if dataset in ('pascal_voc', 'pascal_aug'):
        ids = np.where(ids == -1, 255, ids)
    if dataset == 'ade20k':
        ids = ids + 1
    palette = {'ade20k': ADE20K, 'citys': CITYSCAPES, 'mhpv1': MHPV1}.get(dataset)
    out = Image.fromarray(ids.astype('uint8'))
    out.putpalette(palette if palette is not None else _viz.VOC_PALETTE.reshape(-1).tolist())
    return out


class DeNormalize(HybridBlock):
    """x * std + mean over the channels of a (3, H, W) image (the inverse of the normalization of the input)."""

    def __init__(self, mean, std):
        import mxnet as mx
        super().__init__()
        self.mean = mx.nd.array(mean).reshape((3, 1, 1))
        self.std = mx.nd.array(std).reshape((3, 1, 1))

    def hybrid_forward(self, F, x):
        return F.broadcast_add(F.broadcast_mul(x, self.std), self.mean)


def plot_network(block, shape=(1, 3, 224, 224), save_prefix=None):
    """The graph of HybridBlock `block` on input `shape` as graphviz (MXNet's plot_network; needs the graphviz
    package); with `save_prefix`, rendered there. Returns the graphviz Digraph."""
    import mxnet as mx
    try:
        import graphviz  # noqa: F401
    except ImportError:
        raise ImportError('plot_network needs graphviz: pip install graphviz (and the graphviz binaries)') from None
    sym = block(mx.sym.var('data'))
    if isinstance(sym, tuple):
        sym = mx.sym.Group(list(sym))
    dot = mx.viz.plot_network(sym, shape={'data': tuple(shape)},
                              node_attrs={'shape': 'oval', 'fixedsize': 'false'})
    if save_prefix is not None:
        dot.render(save_prefix)
    return dot


def plot_mxboard(block, logdir='./logs'):
    """Write `block`'s graph for TensorBoard with mxboard (needs the mxboard package)."""
    try:
        from mxboard import SummaryWriter
    except ImportError:
        raise ImportError('plot_mxboard needs mxboard: pip install mxboard') from None
    with SummaryWriter(logdir=logdir) as sw:
        sw.add_graph(block)
