"""Image datasets: Fashion-MNIST (Debian idx files), ImageFolder, RecordIO."""
from .fashion_mnist import CLASSES as FASHION_MNIST_CLASSES, load_fashion_mnist, read_idx

__all__ = ['load_fashion_mnist', 'read_idx', 'FASHION_MNIST_CLASSES']
