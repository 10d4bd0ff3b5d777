"""Train a semantic segmentation net (FCN, PSPNet, DeepLabV3) with the gluonzoo engine, as GluonCV's
scripts/segmentation/train.py does; by default FCN on the ImageNet MobileNetV2, on the generated digit scenes.

    python scripts/vision/segmentation/train.py --out out/seg_digits          # FCN MobileNetV2, digit scenes
    python scripts/vision/segmentation/train.py --model fcn_resnet50_voc --dataset voc:path/to/VOC \
        --model-kwargs '{"crop_size": 480, "base_size": 520}' --lr 0.001 --out out/mine

Every engine option is a flag (`--help`); `--resume` continues the latest checkpoint in --out. See README.md.
"""
import os
import sys

# Deterministic kernels and no cuDNN autotuning: read when MXNet loads, so set before anything imports it
# (the same values as gluonzoo.train.engine.DETERMINISTIC_ENV; the log header records them).
os.environ.setdefault('MXNET_ENFORCE_DETERMINISM', '1')
os.environ.setdefault('MXNET_CUDNN_AUTOTUNE_DEFAULT', '0')

# GluonCV's poly schedule, weight decay and batch; Adam, not its SGD, and no augmentation: see README.md
DEFAULTS = {'model': 'fcn_mobilenetv2_1.0', 'dataset': 'scenes_digits',
            'model_kwargs': {'crop_size': 128, 'base_size': 128}, 'optimizer': 'adam', 'lr': 0.001, 'wd': 1e-4,
            'batch_size': 16, 'epochs': 5, 'lr_mode': 'poly', 'augment': 'none'}


def main(argv=None):
    from gluonzoo.train.recipe import run_recipe
    from gluonzoo.vision.train import build_segmenter
    return run_recipe(argv, DEFAULTS, __doc__, build=build_segmenter)


if __name__ == '__main__':
    sys.exit(main())
