"""(peers venv) GluonCV's COCO keypoint dataset and its COCO keypoint / instance metrics on files the test wrote. Jobs:

{kind: 'keypoints', root, split, out[, kwargs]}: COCOKeyPoints(root, splits=[split], **kwargs) (GluonCV's layout:
    root/annotations/<split>.json, images at root/<coco_url's folder>/<id>.jpg), every item to OUT/<out>.npz as
    `image_ids`,
    `bboxes` (N, 4), `joints` (N, 17, 3, 2) and `image_<i>` (RGB uint8).
{kind: 'keypoint_metric', ann_file, data, in_vis_thresh, out}: COCOKeyPointsMetric fed DATA (an .npz of coords
    (N, 17, 2), maxvals (N, 17, 1), scores (N,), image_ids (N,)) in one update; get()'s names and values to
    OUT/<out>.json as {name: value}.
{kind: 'instance_metric', ann_file, data, out}: COCOInstanceMetric fed, image by image in image-id order, DATA's
    boxes_<k> (N, 4), ids_<k>, scores_<k>, masks_<k> (N, H, W); get()'s summaries parsed to OUT/<out>.json as
    {'bbox': [12 COCOeval stats], 'segm': [...], 'bbox_mean': 'x.y', 'segm_mean': 'x.y'}.
"""
import contextlib
import io
import json
import os
import re
import sys

import mxnet as mx
import numpy as np


class _Data:
    """What GluonCV's metrics read of a dataset: coco and contiguous_id_to_json."""

    def __init__(self, ann_file):
        from pycocotools.coco import COCO
        with contextlib.redirect_stdout(io.StringIO()):
            self.coco = COCO(ann_file)
        self.contiguous_id_to_json = dict(enumerate(sorted(self.coco.getCatIds())))


def keypoints(out, job):
    from gluoncv.data import COCOKeyPoints
    ds = COCOKeyPoints(job['root'], splits=[job['split']], **job.get('kwargs', {}))
    arrays, ids, boxes, joints = {}, [], [], []
    for i in range(len(ds)):
        img, label, image_id = ds[i]
        arrays[f'image_{i}'] = img.asnumpy()
        ids.append(image_id)
        boxes.append(np.asarray(label['bbox'], np.float64))
        joints.append(label['joints_3d'])
    np.savez(os.path.join(out, job['out'] + '.npz'), image_ids=np.array(ids), bboxes=np.array(boxes),
             joints=np.array(joints), **arrays)


def keypoint_metric(out, job):
    from gluoncv.utils.metrics.coco_keypoints import COCOKeyPointsMetric
    d = np.load(job['data'])
    metric = COCOKeyPointsMetric(_Data(job['ann_file']), os.path.join(out, job['out'] + '_results'),
                                 use_time=False, in_vis_thresh=job['in_vis_thresh'])
    metric.update(*[mx.nd.array(d[k]) for k in ('coords', 'maxvals', 'scores')], mx.nd.array(d['image_ids']))
    with contextlib.redirect_stdout(io.StringIO()):
        names_values, _ = metric.get()
    with open(os.path.join(out, job['out'] + '.json'), 'w') as f:
        json.dump({k: float(v) for k, v in names_values.items()}, f)


def instance_metric(out, job):
    from gluoncv.utils.metrics.coco_instance import COCOInstanceMetric
    d = np.load(job['data'])
    metric = COCOInstanceMetric(_Data(job['ann_file']), os.path.join(out, job['out'] + '_results'),
                                use_time=False, cleanup=True)
    k = 0
    while f'boxes_{k}' in d:
        metric.update(*[d[f'{name}_{k}'] for name in ('boxes', 'ids', 'scores', 'masks')])
        k += 1
    with contextlib.redirect_stdout(io.StringIO()):
        names, values = metric.get()
    result = {}
    for iou, summary, mean in (('bbox', values[0], values[1]), ('segm', values[2], values[3])):
        result[iou] = [float(v) for v in re.findall(r'= (-?\d+\.\d+)', summary)]
        result[iou + '_mean'] = mean
    with open(os.path.join(out, job['out'] + '.json'), 'w') as f:
        json.dump(result, f)


def main(out, jobs):
    for job in jobs:
        {'keypoints': keypoints, 'keypoint_metric': keypoint_metric, 'instance_metric': instance_metric}[
            job['kind']](out, job)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
