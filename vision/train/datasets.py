"""The image datasets recipes train on (gluonzoo.train.datasets registry, by config name): each loader reads its
data through gluonzoo.vision.data and returns the ImageClassification task the engine runs.
"""
from ...train.data import checksum
from ...train.datasets import register_dataset
from ..data import ArrayData, load_fashion_mnist, load_opencv_digits
from ..meta import FASHION_MNIST_MEAN, FASHION_MNIST_STD, IMAGENET_MEAN, IMAGENET_STD
from .classification import ImageClassification


def _image_task(cfg, name, source, xtr, ytr, xte, yte, norm):
    """A 10-class train -> test image task; the checksum covers the whole data set, before any --*-limit cut."""
    info = {'name': name, 'source': source, 'train_split': 'train', 'checksum': checksum(xtr, ytr, xte, yte)}
    if cfg.train_limit:
        xtr, ytr = xtr[:cfg.train_limit], ytr[:cfg.train_limit]
    if cfg.val_limit:
        xte, yte = xte[:cfg.val_limit], yte[:cfg.val_limit]
    return ImageClassification(ArrayData(xtr, ytr, augment=cfg.augment, **norm), ArrayData(xte, yte, **norm), 10,
                               info, eval_split='test')


@register_dataset()
def fashion_mnist(cfg):
    """Fashion-MNIST (Debian dataset-fashion-mnist): train 60k -> test 10k, 10 classes, 28x28 grey, normalized with
    the training images' mean/std."""
    (xtr, ytr), (xte, yte) = load_fashion_mnist('train'), load_fashion_mnist('test')
    return _image_task(cfg, 'fashion_mnist', 'Debian dataset-fashion-mnist', xtr, ytr, xte, yte,
                       dict(mean=FASHION_MNIST_MEAN, std=FASHION_MNIST_STD, size=28))


@register_dataset()
def opencv_digits(cfg):
    """OpenCV's 5000 digits (Debian opencv-doc): per digit the first 400 train, the last 100 test; the 20x20 grey
    cells are upsampled 3x (nearest) and repeated to RGB, padded to 64x64, ImageNet-normalized (for fine-tuning
    ImageNet models)."""
    def rgb60(cells):  # (N, 20, 20) -> (N, 3, 60, 60): every pixel a 3x3 block, grey in all three channels
        return cells.repeat(3, axis=1).repeat(3, axis=2)[:, None].repeat(3, axis=1)
    (ctr, ytr), (cte, yte) = load_opencv_digits('train'), load_opencv_digits('test')
    return _image_task(cfg, 'opencv_digits', 'Debian opencv-doc examples/data/digits.png', rgb60(ctr), ytr,
                       rgb60(cte), yte, dict(mean=IMAGENET_MEAN, std=IMAGENET_STD, size=64))


