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

# Fashion-MNIST mean/std of the training images (pixel / 255)
DATASETS = {'fashion_mnist': dict(classes=10, mean=(0.2860,), std=(0.3530,), size=28)}
DEFAULTS = {'model': 'cifar_resnet20_v1', 'model_kwargs': {'in_channels': 1}, 'classes': 10}


def load(cfg):
    """The train/eval ArrayData and log info of cfg.dataset."""
    from gluonzoo.train.data import ArrayData, checksum
    if cfg.dataset not in DATASETS:
        raise ValueError(f'unknown dataset {cfg.dataset!r}; this recipe knows {sorted(DATASETS)}')
    spec = DATASETS[cfg.dataset]
    from gluonzoo.vision.data import load_fashion_mnist
    (xtr, ytr), (xte, yte) = load_fashion_mnist('train'), load_fashion_mnist('test')
    info = {'name': cfg.dataset, 'source': 'Debian dataset-fashion-mnist', 'train_split': 'train',
            'checksum': checksum(xtr, ytr, xte, yte)}
    if cfg.train_limit:
        xtr, ytr = xtr[:cfg.train_limit], ytr[:cfg.train_limit]
    if cfg.val_limit:
        xte, yte = xte[:cfg.val_limit], yte[:cfg.val_limit]
    norm = dict(mean=spec['mean'], std=spec['std'], size=spec['size'])
    return ArrayData(xtr, ytr, augment=cfg.augment, **norm), ArrayData(xte, yte, **norm), spec['classes'], info


def main(argv=None):
    from gluonzoo.errors import GluonzooError
    from gluonzoo.train import ImageClassification, fit, parse_args
    try:
        cfg = parse_args(argv, DEFAULTS, description=__doc__.splitlines()[0])
        train, val, classes, info = load(cfg)
        result = fit(cfg, ImageClassification(train, val, classes, info), argv=argv)
    except (GluonzooError, ValueError, FileNotFoundError) as e:
        print(f'train.py: error: {e}', file=sys.stderr)
        return 2
    print(f'{result["split"]} ' + ' '.join(f'{k} {v:.4f}' for k, v in result['metrics'].items()))
    print(f'weights {result["weights_path"]} sha1 {result["weights_sha1"]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
