"""(peers venv) For each job {data, out, iou_thresh, class_names}: GluonCV's VOCMApMetric and VOC07MApMetric fed the
batches of DATA (an .npz of pred_bboxes_<i>, pred_labels_<i>, pred_scores_<i>, gt_bboxes_<i>, gt_labels_<i>,
gt_difficults_<i> for i = 0, 1, ...), their get() saved to OUT/<out>.json as {'voc': [names, values], 'voc07': ...}."""
import json
import os
import sys

import numpy as np
from gluoncv.utils.metrics.voc_detection import VOC07MApMetric, VOCMApMetric


def main(out, jobs):
    for job in jobs:
        data = np.load(job['data'])
        result = {}
        for key, cls in (('voc', VOCMApMetric), ('voc07', VOC07MApMetric)):
            metric = cls(iou_thresh=job['iou_thresh'], class_names=job['class_names'])
            i = 0
            while f'pred_bboxes_{i}' in data:
                metric.update(*[data[f'{k}_{i}'] for k in ('pred_bboxes', 'pred_labels', 'pred_scores', 'gt_bboxes',
                                                           'gt_labels', 'gt_difficults')])
                i += 1
            names, values = metric.get()
            result[key] = [names, [float(v) for v in values]]
        with open(os.path.join(out, job['out'] + '.json'), 'w') as f:
            json.dump(result, f)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
