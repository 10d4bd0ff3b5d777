"""What the engine trains: a task knows its data, its loss and its evaluation; the engine (engine.fit) knows the
rest. The domains write theirs (in their own train subpackages) and register the dataset loaders that make
them (datasets.register_dataset).
"""
from typing import Iterator, Protocol, Tuple


class Task(Protocol):
    """The interface engine.fit calls; a task may also have `model_kwargs()`: builder options the data decides
    (a language model's vocab_size)."""
    train: object  # the training data; len() is its size
    eval_split: str  # the name of the split `evaluate` measures (the log's final record names it)

    def dataset_info(self) -> dict:
        """Name, splits, sizes, checksum: goes into the log header."""

    def settle(self, net, ctx) -> None:
        """One forward pass, so deferred parameter shapes are known before checkpoints or a kvstore see them."""

    def num_batches(self, batch_size: int, workers: int) -> int:
        """Full batches per worker per epoch."""

    def batches(self, epoch: int, cfg, rank: int, workers: int) -> Iterator[Tuple[int, object]]:
        """(batch index, batch) of worker `rank`, in an order decided by (seed, epoch) alone, so a resumed run sees
        the batches an uninterrupted one saw."""

    def train_step(self, net, batch, cfg, epoch: int, ctx) -> dict:
        """Forward and backward of one batch -> {'loss': sum, 'n': count, ...}."""

    def evaluate(self, net, ctx) -> dict:
        """{metric: value} on the evaluation split."""
