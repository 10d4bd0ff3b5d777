"""Train an object detector (SSD, YOLOv3, CenterNet) with the gluonzoo engine; the recipe of the `*_scenes`
checkpoints, and fine-tuning of any zoo detector on your own VOC or COCO folder.

    python scripts/vision/detection/train.py --out out/scenes_digits                # SSD-128 MobileNetV2, digit scenes
    python scripts/vision/detection/train.py --model ssd_512_mobilenet1.0_voc --pretrained 1 \
        --dataset voc:path/to/VOC --out out/mine                                     # fine-tune on your data

Every engine option is a flag (`--help`); `--resume` continues the latest checkpoint in --out. See README.md.
"""
import os
import sys

# Deterministic kernels and no cuDNN autotuning: read when MXNet loads, so set before anything imports it
# (the same values as gluonzoo.train.engine.DETERMINISTIC_ENV; the log header records them).
os.environ.setdefault('MXNET_ENFORCE_DETERMINISM', '1')
os.environ.setdefault('MXNET_CUDNN_AUTOTUNE_DEFAULT', '0')

DEFAULTS = {'model': 'ssd_128_mobilenetv2_1.0_scenes', 'dataset': 'scenes_digits', 'optimizer': 'sgd', 'lr': 0.01,
            'momentum': 0.9, 'wd': 4e-5, 'batch_size': 16, 'epochs': 8, 'lr_mode': 'cosine', 'warmup_epochs': 0.5}


def main(argv=None):
    from gluonzoo.train.recipe import run_recipe
    from gluonzoo.vision.train import build_detector
    return run_recipe(argv, DEFAULTS, __doc__, build=build_detector)


if __name__ == '__main__':
    sys.exit(main())
