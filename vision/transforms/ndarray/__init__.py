"""GluonCV 0.10's transforms with its signatures and outputs: images are HxWxC MXNet NDArrays, boxes numpy (N, 4+)
corner arrays, polygons lists of (K, 2) numpy arrays; random ones draw from Python's `random` and numpy's global
generator in GluonCV's order, so under the same seeds they give GluonCV's samples. `gluonzoo.cv.data.transforms`
re-exports them under GluonCV's module names (image, bbox, mask, experimental, block, presets.*).

    image      imresize, resize_long, resize_short_within, random_pca_lighting, random_expand, random_flip,
               resize_contain, ten_crop
    boxes      crop, flip, resize, translate, affine_transform, get_affine_transform (GluonCV's bbox)
    polygons   flip, resize, to_mask, fill (GluonCV's mask)
    distort    random_color_distort, np_random_color_distort, random_crop_with_constraints (experimental)
    blocks     RandomCrop, RandomErasing
    presets    the detection presets (ssd, yolo, rcnn, center_net) and imagenet / segmentation eval
"""
