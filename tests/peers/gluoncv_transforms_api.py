"""(peers venv) GluonCV's transforms, batchify functions and presets called by their GluonCV names on the same
inputs: `cases(gcv, inputs)` is the one list of calls, which tests/compat/test_cv_transforms.py also runs against
gluonzoo.cv (it loads this file for it). For each job {inputs, out}: every case runs after seeding Python's `random`,
numpy's and MXNet's generators with the case's index; its outputs, flattened in order, go to OUT/<out>.npz as
`<case>/<i>`, and `<case>/kinds` lists each leaf's kind ('nd', 'np', 'py')."""
import json
import random
import sys

import numpy as np


def cases(gcv, inp):
    """{name: thunk} of the calls to compare; `inp` the arrays of the inputs file."""
    import mxnet as mx
    T, B = gcv.data.transforms, gcv.data.batchify
    P = T.presets
    img = mx.nd.array(inp['image'], dtype='uint8')
    small = mx.nd.array(inp['image'][:90, :70], dtype='uint8')
    fimg = img.astype('float32')
    boxes = inp['boxes'].copy()
    polys = [[p.copy() for p in inst] for inst in (inp['poly0'], inp['poly1'])]
    # a fresh label per call: GluonCV's SimplePose train transform writes the warped joints into the one it gets
    pose_label = {'bbox': inp['person'].tolist(), 'joints_3d': inp['joints'].copy()}
    pairs = [[1, 2], [3, 4]]
    anchors = mx.nd.array(inp['anchors'][None])
    c = {
        'image.imresize': lambda: T.image.imresize(img, 123, 77),
        'image.imresize_auto': lambda: T.image.imresize(img, 300, 400, interp=9),
        'image.resize_long': lambda: T.image.resize_long(img, 100),
        'image.resize_short_within': lambda: T.image.resize_short_within(img, 100, 130, mult_base=32),
        'image.random_pca_lighting': lambda: T.image.random_pca_lighting(fimg.copy(), 0.1),
        'image.random_expand': lambda: T.image.random_expand(img, 3, fill=[1, 2, 3]),
        'image.random_expand_free': lambda: T.image.random_expand(img, 2.5, fill=7, keep_ratio=False),
        'image.random_flip': lambda: [T.image.random_flip(img, 0.5, 0.5) for _ in range(4)],
        'image.resize_contain': lambda: T.image.resize_contain(img, (100, 60), fill=5),
        'image.resize_contain_big': lambda: T.image.resize_contain(small, (100, 200)),
        'image.ten_crop': lambda: T.image.ten_crop(img, (40, 30)),
        'bbox.crop': lambda: T.bbox.crop(boxes, (20, 30, 100, 80)),
        'bbox.crop_center': lambda: T.bbox.crop(boxes, (20, 30, 100, None), allow_outside_center=False),
        'bbox.flip': lambda: T.bbox.flip(boxes, (200, 150), flip_x=True, flip_y=True),
        'bbox.resize': lambda: T.bbox.resize(boxes, (200, 150), (333, 111)),
        'bbox.translate': lambda: T.bbox.translate(boxes, 7, -3),
        'bbox.affine': lambda: T.bbox.affine_transform([10, 20], T.bbox.get_affine_transform(
            np.array([100.0, 70.0], np.float32), 180.0, 30, [64, 48])),
        'bbox.get_affine_transform_inv': lambda: T.bbox.get_affine_transform(
            np.array([50.0, 40.0], np.float32), 120.0, 0, [128, 128], inv=1),
        'mask.flip': lambda: T.mask.flip(polys[0], (200, 150), flip_x=True, flip_y=True),
        'mask.resize': lambda: T.mask.resize(polys[1], (200, 150), (100, 300)),
        'mask.to_mask': lambda: T.mask.to_mask(polys[0], (200, 150)),
        'mask.fill': lambda: T.mask.fill(inp['probs'], boxes[:2, :4], (200, 150)),
        'experimental.random_color_distort': lambda: T.experimental.image.random_color_distort(img),
        'experimental.np_random_color_distort': lambda: T.experimental.image.np_random_color_distort(
            inp['image'].astype(np.float32) / 255, data_rng=np.random.RandomState(3)),
        'experimental.random_crop_with_constraints': lambda: [
            T.experimental.bbox.random_crop_with_constraints(boxes, (200, 150)) for _ in range(3)],
        'block.RandomCrop': lambda: T.block.RandomCrop((50, 40), pad=4)(img),
        'block.RandomErasing': lambda: T.block.RandomErasing(probability=1.0)(fimg.copy()),
        'presets.ssd.transform_test': lambda: P.ssd.transform_test([img, small], short=120),
        'presets.yolo.transform_test': lambda: P.yolo.transform_test(img, short=100, stride=32),
        'presets.rcnn.transform_test': lambda: P.rcnn.transform_test(img, short=100, max_size=120),
        'presets.center_net.transform_test': lambda: P.center_net.transform_test(img, short=90),
        'presets.ssd.train': lambda: [P.ssd.SSDDefaultTrainTransform(96, 96)(img, boxes) for _ in range(3)],
        'presets.ssd.train_targets': lambda: P.ssd.SSDDefaultTrainTransform(96, 96, anchors)(img, boxes),
        'presets.ssd.val': lambda: P.ssd.SSDDefaultValTransform(96, 80)(img, boxes),
        'presets.yolo.train': lambda: [P.yolo.YOLO3DefaultTrainTransform(96, 96)(img, boxes) for _ in range(3)],
        'presets.yolo.val': lambda: P.yolo.YOLO3DefaultValTransform(64, 96)(img, boxes),
        'presets.rcnn.faster_train': lambda: [
            P.rcnn.FasterRCNNDefaultTrainTransform((80, 120), 150)(img, boxes) for _ in range(3)],
        'presets.rcnn.faster_val': lambda: P.rcnn.FasterRCNNDefaultValTransform(100, 150)(img, boxes),
        'presets.rcnn.mask_train': lambda: P.rcnn.MaskRCNNDefaultTrainTransform(100, 150)(img, boxes[:2], polys),
        'presets.rcnn.mask_val': lambda: P.rcnn.MaskRCNNDefaultValTransform(100, 150)(img, boxes[:2], polys),
        'presets.center_net.val': lambda: P.center_net.CenterNetDefaultValTransform(64, 64)(img, boxes.copy()),
        'presets.center_net.train': lambda: P.center_net.CenterNetDefaultTrainTransform(
            128, 128, num_class=3)(img, boxes.copy()),
        'presets.center_net.get_post_transform': lambda: P.center_net.get_post_transform(200, 150, 128, 128),
        'presets.imagenet.transform_eval': lambda: P.imagenet.transform_eval([img, small], 64, 48),
        'presets.segmentation.test_transform': lambda: P.segmentation.test_transform(img, mx.cpu()),
        'presets.simple_pose.val': lambda: P.simple_pose.SimplePoseDefaultValTransform(
            5, pairs, image_size=(64, 48))(img, pose_label, 'a.jpg'),
        'presets.simple_pose.train': lambda: [P.simple_pose.SimplePoseDefaultTrainTransform(
            5, pairs, image_size=(64, 48), heatmap_size=(16, 12))(img, dict(pose_label, joints_3d=inp['joints'].copy()),
                                                                 'a.jpg') for _ in range(3)],
        'pose.flip_joints_3d': lambda: T.pose.flip_joints_3d(inp['joints'], 200, pairs),
        'pose.get_affine_transform': lambda: T.pose.get_affine_transform(
            np.array([90.0, 60.0]), np.array([80.0, 120.0]), 20, [48, 64]),
        'pose.crop': lambda: T.pose.crop(inp['image'], np.array([90.0, 60.0]), np.array([80.0, 120.0]), [48, 64]),
        'pose.transform_predictions': lambda: T.pose.transform_predictions(
            inp['coords'], np.array([90.0, 60.0]), np.array([80.0, 120.0]), [12, 16]),
        'pose.get_final_preds': lambda: T.pose.get_final_preds(
            mx.nd.array(inp['heatmaps']), np.array([[90.0, 60.0], [50, 50]]), np.array([[80.0, 120.0], [40, 40]])),
        'batchify.Stack': lambda: B.Stack()([boxes[:2], boxes[1:3]]),
        'batchify.Pad': lambda: B.Pad(pad_val=-1, ret_length=True)([boxes, boxes[:2], boxes[:1]]),
        'batchify.Pad_shards': lambda: B.Pad(axis=(0, 1), num_shards=2)(
            [mx.nd.ones((2, 3)), mx.nd.ones((3, 1)), mx.nd.ones((1, 4)), mx.nd.ones((1, 1))]),
        'batchify.Append': lambda: B.Append()([boxes, boxes[:1]]),
        'batchify.Tuple': lambda: B.Tuple(B.Stack(), B.Pad(pad_val=-1))([(img, boxes), (img, boxes[:2])]),
    }
    return c


def flatten(value, out):
    """Append each leaf of nested outputs to `out` as (kind, numpy array)."""
    import mxnet as mx
    if isinstance(value, mx.nd.NDArray):
        out.append(('nd', value.asnumpy()))
    elif isinstance(value, np.ndarray):
        out.append(('np', value))
    elif isinstance(value, dict):
        for k in sorted(value):
            flatten(value[k], out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            flatten(v, out)
    else:
        out.append(('py', np.asarray(value if not isinstance(value, str) else 0)))
    return out


def run(gcv, inp):
    """{case: [(kind, array)]} of every case, each after seeding the generators with its index."""
    import mxnet as mx
    results = {}
    for i, (name, thunk) in enumerate(sorted(cases(gcv, inp).items())):
        random.seed(i)
        np.random.seed(i)
        mx.random.seed(i)
        results[name] = flatten(thunk(), [])
    return results


def main():
    import gluoncv
    out_dir, jobs = sys.argv[1], json.loads(sys.argv[2])
    for job in jobs:
        inp = dict(np.load(job['inputs'], allow_pickle=True))
        saved = {}
        for name, leaves in run(gluoncv, inp).items():
            saved[f'{name}/kinds'] = np.array([k for k, _ in leaves])
            for j, (_, arr) in enumerate(leaves):
                saved[f'{name}/{j}'] = arr
        np.savez(job['out'] + '.npz', **saved)
    print(json.dumps({'ok': True, 'dir': out_dir}))


if __name__ == '__main__':
    main()
