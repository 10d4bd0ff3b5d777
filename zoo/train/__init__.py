"""The training engine shared by every recipe in scripts/: config, tasks, checkpoints, the loop (engine.fit).

    from gluonzoo.train import TrainConfig, fit
"""
from ..errors import CheckpointError
from .config import TrainConfig, parse_args
from .engine import deterministic_env, fit, lr_at, precheck
from .tasks import ImageClassification

__all__ = ['TrainConfig', 'parse_args', 'fit', 'precheck', 'lr_at', 'deterministic_env', 'CheckpointError',
           'ImageClassification']
