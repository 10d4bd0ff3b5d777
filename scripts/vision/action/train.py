"""Train a video action recognizer (TSN frame nets, I3D, R(2+1)D, SlowFast, ...) with the gluonzoo engine, as
GluonCV's scripts/action-recognition/train_recognizer.py does; by default TSN on a ResNet-18 V1b body, from scratch,
on the generated motion videos (gluonzoo.vision.data.motions).

    python scripts/vision/action/train.py --out out/tsn_motions
    python scripts/vision/action/train.py --model r2plus1d_resnet18_kinetics400 --dataset video_list:PATH --out out/x

Every engine option is a flag (`--help`); `--resume` continues the latest checkpoint in --out.
"""
import os
import sys

# Deterministic kernels and no cuDNN autotuning: read when MXNet loads, so set before anything imports it
# (the same values as gluonzoo.train.engine.DETERMINISTIC_ENV; the log header records them).
os.environ.setdefault('MXNET_ENFORCE_DETERMINISM', '1')
os.environ.setdefault('MXNET_CUDNN_AUTOTUNE_DEFAULT', '0')

# GluonCV's TSN optimizer (SGD momentum 0.9, wd 1e-4) with a cosine schedule over a short run; 4 segments a video
DEFAULTS = {'model': 'resnet18_v1b_custom', 'dataset': 'motions', 'optimizer': 'sgd', 'lr': 0.01, 'momentum': 0.9,
            'wd': 1e-4, 'batch_size': 16, 'epochs': 10, 'lr_mode': 'cosine', 'augment': 'crop', 'data_shape': 40,
            'model_kwargs': {'pretrained_base': False, 'use_kinetics_pretrain': False, 'num_segments': 4}}


def main(argv=None):
    from gluonzoo.train.recipe import run_recipe
    return run_recipe(argv, DEFAULTS, __doc__)


if __name__ == '__main__':
    sys.exit(main())
