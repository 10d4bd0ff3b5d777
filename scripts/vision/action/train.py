"""Train a video action recognizer (TSN frame nets, I3D, R(2+1)D, SlowFast, ...) with the gluonzoo engine, as
GluonCV's scripts/action-recognition/train_recognizer.py does; by default TSN on a ResNet-18 V1b body, from scratch,
on the generated motion videos (gluonzoo.vision.data.motions). The two checkpoints trained on them (their records'
recipes, docs/action_recognition.md):

    python scripts/vision/action/train.py --out out/tsn_motions
    python scripts/vision/action/train.py --model i3d_resnet50_v1_custom --model-kwargs \
        '{"pretrained_base": false, "use_kinetics_pretrain": false, "partial_bn": false, "dropout_ratio": 0.3}' \
        --data-shape 32 --epochs 15 --out out/i3d_motions

Every engine option is a flag (`--help`); `--resume` continues the latest checkpoint in --out.
"""
import os
import sys

# Deterministic kernels and no cuDNN autotuning: read when MXNet loads, so set before anything imports it
# (the same values as gluonzoo.train.engine.DETERMINISTIC_ENV; the log header records them).
os.environ.setdefault('MXNET_ENFORCE_DETERMINISM', '1')
os.environ.setdefault('MXNET_CUDNN_AUTOTUNE_DEFAULT', '0')

# From scratch (no ImageNet or Kinetics weights offline), not GluonCV's fine-tuning settings: its SGD at lr 0.01
# diverged for I3D and R(2+1)D in our pilots, and its head dropout (0.8 for I3D) kept I3D from fitting even 64 clips;
# Adam at 1e-3 with dropout 0.3 trains both. wd 1e-4 as GluonCV's; 4 TSN segments a video
DEFAULTS = {'model': 'resnet18_v1b_custom', 'dataset': 'motions', 'optimizer': 'adam', 'lr': 0.001, 'wd': 1e-4,
            'batch_size': 16, 'epochs': 12, 'lr_mode': 'cosine', 'augment': 'crop', 'data_shape': 40,
            'model_kwargs': {'pretrained_base': False, 'use_kinetics_pretrain': False, 'num_segments': 4,
                             'dropout_ratio': 0.3}}


def main(argv=None):
    from gluonzoo.train.recipe import run_recipe
    return run_recipe(argv, DEFAULTS, __doc__)


if __name__ == '__main__':
    sys.exit(main())
