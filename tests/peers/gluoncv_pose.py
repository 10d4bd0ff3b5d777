"""(peers venv) GluonCV 0.10.5's pose helpers on the inputs in OUT/pose_in.npz, their results to OUT/pose_out.npz:
get_max_pred and heatmap_to_coord (hm, boxes), get_final_preds (hm, center, scale), flip_heatmap (hm, pairs),
upscale_bbox_fn and detector_to_simple_pose (img, ids, scores, bboxes), HeatmapAccuracy over the batches labels_i / preds_i."""
import json
import os
import sys

import mxnet as mx
import numpy as np
from gluoncv.data.transforms import pose
from gluoncv.utils.metrics.heatmap_accuracy import HeatmapAccuracy


def main(out, jobs):
    a = dict(np.load(os.path.join(out, 'pose_in.npz')))
    hm, boxes = mx.nd.array(a['hm']), a['boxes'].tolist()
    r = {}
    r['max_coords'], r['max_vals'] = (x.asnumpy() for x in pose.get_max_pred(hm))
    r['coords'], r['conf'] = (x.asnumpy() for x in pose.heatmap_to_coord(hm, boxes))
    r['final'], _ = pose.get_final_preds(hm, a['center'], a['scale'])
    r['final'] = r['final'].asnumpy()
    pairs = a['pairs'].tolist()
    r['flipped'] = pose.flip_heatmap(a['hm'].copy(), pairs)
    r['flipped_shift'] = pose.flip_heatmap(a['hm'].copy(), pairs, shift=True)
    img = a['img']
    r['upscaled'] = np.array([pose.upscale_bbox_fn(b, img, scale=1.25) for b in a['bboxes'][0].tolist()])
    x, kept = pose.detector_to_simple_pose(img, mx.nd.array(a['ids']), mx.nd.array(a['scores']),
                                           mx.nd.array(a['bboxes']), output_shape=tuple(a['output_shape']))
    r['pose_input'], r['kept'] = x.asnumpy(), np.array(kept)
    batches = sorted(k[len('labels'):] for k in a if k.startswith('labels'))
    for thr in (0.5, 0.1):
        m = HeatmapAccuracy(threshold=thr)
        m.update([mx.nd.array(a['labels' + b]) for b in batches], [mx.nd.array(a['preds' + b]) for b in batches])
        r[f'acc_{thr}'] = np.array(m.get()[1])
    np.savez(os.path.join(out, 'pose_out.npz'), **r)


if __name__ == '__main__':
    main(sys.argv[1], json.loads(sys.argv[2]))
