"""Train a top-down pose net (MobilePose, SimplePose) with the gluonzoo engine, as GluonCV's
scripts/pose/simple_pose/train_simple_pose.py does; by default MobilePose on the ImageNet MobileNetV2, on the
generated stick figures (gluonzoo.vision.data.figures), 128x96 crops.

    python scripts/vision/pose/train.py --out out/pose_figures                # MobilePose MobileNetV2, figures
    python scripts/vision/pose/train.py --model simple_pose_resnet18_v1b --dataset coco_keypoints:path/to/folder \
        --data-shape 256 --out out/mine

Every engine option is a flag (`--help`); `--resume` continues the latest checkpoint in --out. See README.md.
"""
import os
import sys

# Deterministic kernels and no cuDNN autotuning: read when MXNet loads, so set before anything imports it
# (the same values as gluonzoo.train.engine.DETERMINISTIC_ENV; the log header records them).
os.environ.setdefault('MXNET_ENFORCE_DETERMINISM', '1')
os.environ.setdefault('MXNET_CUDNN_AUTOTUNE_DEFAULT', '0')

# GluonCV's optimizer (Adam, LR 0.001, no weight decay) and augmentation; a cosine schedule over a short run: README
DEFAULTS = {'model': 'mobile_pose_mobilenetv2_1.0', 'dataset': 'figures', 'data_shape': 128, 'optimizer': 'adam',
            'lr': 0.001, 'wd': 0.0, 'batch_size': 32, 'epochs': 5, 'lr_mode': 'cosine', 'augment': 'crop_flip'}


def main(argv=None):
    from gluonzoo.train.recipe import run_recipe
    from gluonzoo.vision.train import build_pose_net
    return run_recipe(argv, DEFAULTS, __doc__, build=build_pose_net)


if __name__ == '__main__':
    sys.exit(main())
