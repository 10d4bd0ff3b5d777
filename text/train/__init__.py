"""What the training engine runs for the text tasks: the tasks (gluonzoo.train.protocol) and the dataset loaders
recipes name with --dataset (registered with gluonzoo.train.datasets)."""
from . import datasets, tsv  # noqa: F401
from .tasks import LanguageModel, TextClassification, Translation

__all__ = ['LanguageModel', 'TextClassification', 'Translation']
