"""Image datasets: Fashion-MNIST (Debian idx files), ImageFolder / ImageNet layout, RecordIO (.rec + .idx)."""
from .fashion_mnist import CLASSES as FASHION_MNIST_CLASSES, FashionMNIST, load_fashion_mnist, read_idx
from .folder import ImageFolder, ImageNet, looks_like_image
from .recordio import ImageRecordDataset, pack

__all__ = ['load_fashion_mnist', 'read_idx', 'FASHION_MNIST_CLASSES', 'FashionMNIST', 'ImageFolder', 'ImageNet',
           'looks_like_image', 'ImageRecordDataset', 'pack']
