"""What the training engine runs for the vision tasks: the tasks (gluonzoo.train.protocol) and the dataset loaders
recipes name with --dataset (registered with gluonzoo.train.datasets)."""
from . import datasets  # noqa: F401
from .classification import ImageClassification

__all__ = ['ImageClassification']
