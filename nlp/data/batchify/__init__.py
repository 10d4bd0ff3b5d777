"""gluonnlp.data.batchify: batchify functions (gluonzoo.text.data.batchify)."""
from gluonzoo import aliases
from gluonzoo.text.data.batchify import (CorpusBatchify, CorpusBPTTBatchify, Dict, List, NamedTuple, Pad,  # noqa: F401
                                         Stack, StreamBPTTBatchify, Tuple)
from gluonzoo.text.data.embedding_batchify import EmbeddingCenterContextBatchify  # noqa: F401

__all__ = ['CorpusBPTTBatchify', 'CorpusBatchify', 'Dict', 'EmbeddingCenterContextBatchify', 'List', 'NamedTuple',
           'Pad', 'Stack', 'StreamBPTTBatchify', 'Tuple']

__getattr__ = aliases.children(__name__)
