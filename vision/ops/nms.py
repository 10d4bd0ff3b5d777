"""Per-class non-maximum suppression and the GluonCV output every detector returns: `(ids, scores, bboxes)`, each
(B, K, 1/1/4), best first, padded with -1 where there is no detection.

Detections are rows (class id, score, x1, y1, x2, y2); suppression is per class unless `force_suppress`. This is
GluonCV 0.10.5's `contrib.box_nms` call with its thresholds and top-k; the export module gives it its ONNX form.

>>> import mxnet as mx
>>> rows = mx.nd.array([[[0, 0.9, 0, 0, 10, 10], [0, 0.8, 1, 1, 10, 10], [1, 0.7, 1, 1, 10, 10]]])
>>> ids, scores, boxes = nms(mx.nd, rows, thresh=0.45, topk=-1, post_nms=3)
>>> ids.reshape(-1).asnumpy().tolist(), [round(float(s), 2) for s in scores.reshape(-1).asnumpy()]
([0.0, 1.0, -1.0], [0.9, 0.7, -1.0])
"""


def rows(F, ids, scores, boxes):
    """Detection rows (..., 6) from per-box class ids and scores (..., 1) and corner boxes (..., 4)."""
    return F.concat(ids, scores, boxes, dim=-1)


def split_rows(F, result):
    """(ids, scores, bboxes) of detection rows (B, K, 6)."""
    return (F.slice_axis(result, axis=-1, begin=0, end=1), F.slice_axis(result, axis=-1, begin=1, end=2),
            F.slice_axis(result, axis=-1, begin=2, end=6))


def nms(F, result, thresh=0.45, topk=400, post_nms=100, valid_thresh=0.01, force_suppress=False):
    """Suppress overlapping rows of `result` (B, N, 6) per class (IoU > `thresh`), keep the `topk` best before and
    `post_nms` after (<= 0: all), drop scores under `valid_thresh`; return (ids, scores, bboxes). With `thresh`
    outside (0, 1) nothing is suppressed (GluonCV's convention)."""
    if 0 < thresh < 1:
        result = F.contrib.box_nms(result, overlap_thresh=thresh, valid_thresh=valid_thresh, topk=topk,
                                   id_index=0, score_index=1, coord_start=2, force_suppress=force_suppress)
        if post_nms > 0:
            result = result.slice_axis(axis=1, begin=0, end=post_nms)
    return split_rows(F, result)
