"""GluonCV's published classification checkpoints: the one factory of their weights records, and GluonCV's table
of published accuracies."""
from ....weights import GLUONCV_REPO, Source, Weights
from ...meta import IMAGENET, IMAGENET1K


#: GluonCV's published ImageNet val top-1/top-5 with the table's hashtag, from its docs/model_zoo/csv_tables/
#: Classifications/*.csv. A figure is attached only where the hashtag is the checkpoint's sha1[:8]
#: (mobilenetv3_small's row names 33c100a7, model_store.py 10430433: left out). No rows for resnet*_v1s.
GLUONCV_TABLE = {
    'resnet18_v1': (70.93, 89.92, 'a0666292'), 'resnet34_v1': (74.37, 91.87, '48216ba9'),
    'resnet50_v1': (77.36, 93.57, 'cc729d95'), 'resnet101_v1': (78.34, 94.01, 'd988c13d'),
    'resnet152_v1': (79.22, 94.64, 'acfd0970'), 'resnet18_v2': (71.00, 89.92, 'a81db45f'),
    'resnet34_v2': (74.40, 92.08, '9d6b80bb'), 'resnet50_v2': (77.11, 93.43, 'ecdde353'),
    'resnet101_v2': (78.53, 94.17, '18e93e4f'), 'resnet152_v2': (79.21, 94.31, 'f2695542'),
    'resnet18_v1b': (70.94, 89.83, '2d9d980c'), 'resnet34_v1b': (74.65, 92.08, '8e16b848'),
    'resnet50_v1b': (77.67, 93.82, '0ecdba34'), 'resnet101_v1b': (79.20, 94.61, 'a455932a'),
    'resnet152_v1b': (79.69, 94.74, 'a5a61ee1'), 'resnet50_v1c': (78.03, 94.09, '2a4e0708'),
    'resnet101_v1c': (79.60, 94.75, '064858f2'), 'resnet152_v1c': (80.01, 94.96, '75babab6'),
    'resnet50_v1d': (79.15, 94.58, '117a384e'), 'resnet101_v1d': (80.51, 95.12, '1b2b825f'),
    'resnet152_v1d': (80.61, 95.34, 'cddbc86f'),
    'resnext50_32x4d': (79.32, 94.53, '4ecf62e2'), 'resnext101_32x4d': (80.37, 95.06, '8654ca5d'),
    'resnext101_64x4d': (80.69, 95.17, '2f0d1c9d'), 'se_resnext50_32x4d': (79.95, 94.93, '7906e0e1'),
    'se_resnext101_32x4d': (80.91, 95.39, '688e2389'), 'se_resnext101_64x4d': (81.01, 95.32, '11c50114'),
    'mobilenet1.0': (73.28, 91.30, 'efbb2ca3'), 'mobilenet0.75': (70.25, 89.49, '84c801e2'),
    'mobilenet0.5': (65.20, 86.34, '0130d2aa'), 'mobilenet0.25': (52.91, 76.94, 'f0046a3d'),
    'mobilenetv2_1.0': (72.04, 90.57, 'f9952bcd'), 'mobilenetv2_0.75': (69.36, 88.50, 'b56e3d1c'),
    'mobilenetv2_0.5': (64.43, 85.31, '08038185'), 'mobilenetv2_0.25': (51.76, 74.89, '9b1d2cc3'),
    'mobilenetv3_large': (75.32, 92.30, 'eaa44578'), 'mobilenetv3_small': (67.72, 87.51, '33c100a7'),
    'vgg11': (66.62, 87.34, 'dd221b16'), 'vgg13': (67.74, 88.11, '6bc5de58'), 'vgg16': (73.23, 91.31, 'e660d456'),
    'vgg19': (74.11, 91.35, 'ad2f660d'), 'vgg11_bn': (68.59, 88.72, 'ee79a809'), 'vgg13_bn': (68.84, 88.82, '7d97a06c'),
    'vgg16_bn': (73.10, 91.76, '7f01cf05'), 'vgg19_bn': (74.33, 91.85, 'f360b758'),
    'densenet121': (74.97, 92.25, 'f27dbf2d'), 'densenet161': (77.70, 93.80, 'b6c8a957'),
    'densenet169': (76.17, 93.17, '2603f878'), 'densenet201': (77.32, 93.62, '1cdbc116'),
    'squeezenet1.0': (56.11, 79.09, '264ba497'), 'squeezenet1.1': (54.96, 78.17, '33ba0f93'),
    'alexnet': (54.92, 78.03, '44335d1f'), 'darknet53': (78.56, 94.43, '2189ea49'),
    'inceptionv3': (78.77, 94.39, 'a5050dbc'),
    'resnest14': (75.75, 92.70, '7e0b0cae'), 'resnest26': (78.68, 94.38, '36459074'),
    'resnest50': (81.04, 95.42, 'bcfefe1d'), 'resnest101': (82.83, 96.42, '5da943b3'),
    'resnest200': (83.86, 96.86, '0c5d117d'), 'resnest269': (84.53, 96.98, '11ae7f5d'),
    'googlenet': (72.87, 91.17, 'c7c89366'),
    'resnet18_v1b_0.89': (67.2, 87.45, '54f7742b'), 'resnet50_v1d_0.86': (78.02, 93.82, 'a230c33f'),
    'resnet50_v1d_0.48': (74.66, 92.34, '0d3e69bb'), 'resnet50_v1d_0.37': (70.71, 89.74, '9982ae49'),
    'resnet50_v1d_0.11': (63.22, 84.79, '6a25eece'), 'resnet101_v1d_0.76': (79.46, 94.69, 'a872796b'),
    'resnet101_v1d_0.73': (78.89, 94.48, '712fccb1'),
    'xception': (79.56, 94.77, '37c1c90b'),
    'senet_154': (81.26, 95.51, 'b5538ef1'),
}


def _published(arch, sha1):
    row = GLUONCV_TABLE.get(arch)
    if row is None or row[2] != sha1[:8]:
        return {}
    return {'top1': row[0], 'top5': row[1], 'source': 'GluonCV model zoo table (published, not re-measured)'}


def gluoncv(arch, sha1, num_params, paper, default=True, preprocess=IMAGENET, classes=IMAGENET1K,
            recipe='GluonCV 0.10.5 scripts/classification/imagenet/train_imagenet.py', **kwargs):
    """The record of a checkpoint GluonCV 0.10.5 publishes (sha1 from its model_store.py), fetched from its mirror,
    with GluonCV's published top-1/top-5 when its table lists this very checkpoint. ImageNet by default."""
    crop = preprocess['crop']
    return Weights(
        arch=arch, tag='gluoncv', default=default, task='image-classification', sha1=sha1, num_params=num_params,
        classes=classes, preprocess=preprocess, source=Source(kind='mirror', url=GLUONCV_REPO), recipe=recipe,
        license='Apache-2.0 (GluonCV)', paper=paper, metrics=_published(arch, sha1), input_shape=(1, 3, crop, crop),
        **kwargs)


def gluoncv_weights(arch, sha1s, params, paper, **kwargs):
    """[the GluonCV record of `arch`] when GluonCV publishes one (its sha1 in `sha1s`), else []."""
    return [gluoncv(arch, sha1s[arch], params[arch], paper, **kwargs)] if arch in sha1s else []
