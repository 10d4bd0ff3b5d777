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
    from gluonzoo.errors import GluonzooError
    from gluonzoo.train import fit, parse_args, precheck
    from gluonzoo.train.datasets import load_task
    try:
        cfg = parse_args(argv, DEFAULTS, description=__doc__.splitlines()[0])
        precheck(cfg)  # a bad --out / --resume fails before any data is read
        result = fit(cfg, load_task(cfg), argv=argv)
    except (GluonzooError, ValueError, FileNotFoundError) as e:
        print(f'train.py: error: {e}', file=sys.stderr)
        return 2
    print(f'{result["split"]} ' + ' '.join(f'{k} {v:.4f}' for k, v in result['metrics'].items()))
    print(f'weights {result["weights_path"]} sha1 {result["weights_sha1"]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
