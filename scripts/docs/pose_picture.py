"""docs/img/pose_figures.jpg: mobile_pose_mobilenetv2_1.0.figures on three test scenes of the generated figures,
each person cut out by its ground-truth box (as the recipe evaluates), the predicted joints drawn by
viz.plot_keypoints over the predictions (top) and the ground truth (bottom), 2x.

    python scripts/docs/pose_picture.py [--out docs/img/pose_figures.jpg] [--scenes 3,7,12]
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=os.path.join(ROOT, 'docs', 'img', 'pose_figures.jpg'))
    ap.add_argument('--scenes', default='3,7,12', help='test scene numbers')
    args = ap.parse_args()
    import cv2
    import mxnet as mx
    import numpy as np
    import gluonzoo as gz
    from gluonzoo.vision import viz
    from gluonzoo.vision.data import COCOKeyPoints, FigureSpec, figures_folder
    from gluonzoo.vision.pose import heatmap_to_coord
    from gluonzoo.vision.transforms.pose import crop_box, simple_pose_eval
    net = gz.get_model('mobile_pose_mobilenetv2_1.0.figures', pretrained=True)
    size = tuple(net.weights.input_shape[2:])
    root = figures_folder(FigureSpec())
    people = COCOKeyPoints(os.path.join(root, 'JPEGImages'), os.path.join(root, 'annotations',
                                                                          'person_keypoints_test.json'))
    wanted = [f'test_{int(i):06d}.jpg' for i in args.scenes.split(',')]
    columns = []
    for fname in wanted:
        image_id = next(i for i in people.coco.getImgIds() if people.coco.imgs[i]['file_name'] == fname)
        mine = [k for k in range(len(people)) if people.image_ids[k] == image_id]
        samples = [people.sample(k) for k in mine]
        img = samples[0][0]
        boxes = np.array([s[1]['bbox'] for s in samples], np.float32)
        crops = [simple_pose_eval(img, b, size) for b in boxes]
        heatmaps = net(mx.nd.array(np.stack([c[0] for c in crops]))).asnumpy()
        coords, conf = heatmap_to_coord(heatmaps, crop_box([c[1] for c in crops], [c[2] for c in crops]),
                                        shift=True)
        truth = np.stack([s[1]['joints_3d'][:, :2, 0] for s in samples])
        seen = np.stack([s[1]['joints_3d'][:, :1, 1] for s in samples])
        ids, scores = np.zeros((1, len(boxes), 1)), np.ones((1, len(boxes), 1))
        big = cv2.resize(img, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
        rows = [viz.plot_keypoints(big, pts * 2, c, ids, boxes[None] * 2, scores, keypoint_thresh=0.2)
                for pts, c in ((coords, conf), (truth, seen))]
        columns.append(np.concatenate(rows, axis=0))
    picture = np.concatenate(columns, axis=1)
    cv2.imwrite(args.out, cv2.cvtColor(picture, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    print(f'wrote {args.out} ({picture.shape[1]}x{picture.shape[0]})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
