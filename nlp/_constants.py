"""GluonNLP's `gluonnlp._constants`, the special tokens its tests and scripts read (`nlp._constants.EOS_TOKEN`).

The dataset and embedding checksums GluonNLP keeps here are gluonzoo's weights and data records instead.
"""
import numpy as np

from gluonzoo.text.sequence_sampler import NEVER as LARGE_NEGATIVE_FLOAT
from gluonzoo.text.vocab import BOS_TOKEN, EOS_TOKEN, PAD_TOKEN, UNK_TOKEN  # noqa: F401

INT_TYPES = (int, np.int32, np.int64)
LARGE_POSITIVE_FLOAT = -LARGE_NEGATIVE_FLOAT
