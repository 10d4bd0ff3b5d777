"""The training engine shared by every recipe in scripts/: config, checkpoints, the loop (engine.fit), the Task
protocol it trains and the dataset registry the domains fill (vision/train, text/train).

    from gluonzoo.train import TrainConfig, fit, load_task
"""
from ..errors import CheckpointError
from .config import TrainConfig, parse_args
from .datasets import list_datasets, load_task, register_dataset
from .engine import deterministic_env, fit, lr_at, precheck
from .protocol import Task

__all__ = ['TrainConfig', 'parse_args', 'fit', 'precheck', 'lr_at', 'deterministic_env', 'CheckpointError',
           'Task', 'register_dataset', 'load_task', 'list_datasets']
