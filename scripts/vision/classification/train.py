"""Train an image classifier with the gluonzoo engine; the recipe of the `*.fmnist` checkpoints.

    python scripts/vision/classification/train.py --model cifar_resnet20_v1 --epochs 8 --out out/fmnist \
        --log logs/cifar_resnet20_v1.fmnist.jsonl

Every engine option is a flag (`--help`); `--resume` continues the latest checkpoint in --out. See README.md.
"""
import os
import sys

# Deterministic kernels and no cuDNN autotuning: read when MXNet loads, so set before anything imports it
# (the same values as gluonzoo.train.engine.DETERMINISTIC_ENV; the log header records them).
os.environ.setdefault('MXNET_ENFORCE_DETERMINISM', '1')
os.environ.setdefault('MXNET_CUDNN_AUTOTUNE_DEFAULT', '0')

DEFAULTS = {'model': 'cifar_resnet20_v1', 'model_kwargs': {'in_channels': 1}, 'classes': 10}


def main(argv=None):
    from gluonzoo.train.recipe import run_recipe
    return run_recipe(argv, DEFAULTS, __doc__)


if __name__ == '__main__':
    sys.exit(main())
