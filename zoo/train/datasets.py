"""The datasets recipes train on, by config name: each loader returns the task the engine runs.

`gluonzoo verify` rebuilds the evaluation split of a logged run through the same function, so a checkpoint is
re-measured on exactly the data its log names.
"""
from .data import ArrayData, checksum
from .tasks import ImageClassification

# mean/std of the training images (pixel / 255)
_FASHION_MNIST = dict(mean=(0.2860,), std=(0.3530,), size=28)


def fashion_mnist(cfg):
    """Fashion-MNIST (Debian dataset-fashion-mnist): train 60k -> test 10k, 10 classes, 28x28 grey."""
    from ..vision.data import load_fashion_mnist
    (xtr, ytr), (xte, yte) = load_fashion_mnist('train'), load_fashion_mnist('test')
    info = {'name': 'fashion_mnist', 'source': 'Debian dataset-fashion-mnist', 'train_split': 'train',
            'checksum': checksum(xtr, ytr, xte, yte)}
    if cfg.train_limit:
        xtr, ytr = xtr[:cfg.train_limit], ytr[:cfg.train_limit]
    if cfg.val_limit:
        xte, yte = xte[:cfg.val_limit], yte[:cfg.val_limit]
    return ImageClassification(ArrayData(xtr, ytr, augment=cfg.augment, **_FASHION_MNIST),
                               ArrayData(xte, yte, **_FASHION_MNIST), 10, info, eval_split='test')


DATASETS = {'fashion_mnist': fashion_mnist}


def load_task(cfg):
    """The task of cfg.dataset; an unknown name is an error listing the known ones."""
    import difflib
    from ..errors import BadInputError
    if cfg.dataset not in DATASETS:
        close = difflib.get_close_matches(cfg.dataset, list(DATASETS), n=1, cutoff=0.0)
        raise BadInputError(f'unknown dataset {cfg.dataset!r}; did you mean {close[0]!r}? (known: '
                            f'{", ".join(sorted(DATASETS))})')
    return DATASETS[cfg.dataset](cfg)
