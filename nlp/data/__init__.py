"""gluonnlp.data: datasets, transforms, tokenizers, samplers, streams and batchify (gluonzoo.text.data)."""
from gluonzoo import aliases
from gluonzoo.text.data.bert_squad import (align_position2doc_spans, check_is_max_context,  # noqa: F401
                                           concat_sequences, convert_index, convert_squad_examples, get_doc_spans,
                                           improve_answer_span, lcs_match, tokenize_and_align_positions,
                                           truncate_seqs_equal)
from gluonzoo.text.data.datasets import (ConcatDataset, CorpusDataset, Counter, DatasetStream, DataStream,  # noqa: F401
                                         NumpyDataset, PrefetchingStream, SimpleDataStream, SimpleDatasetStream,
                                         Splitter, TextLineDataset, TSVDataset, concat_sequence, count_tokens,
                                         create, line_splitter, list_datasets, register, slice_sequence,
                                         train_valid_split, whitespace_splitter)
from gluonzoo.text.data.sampler import (ConstWidthBucket, ExpWidthBucket, FixedBucketSampler,  # noqa: F401
                                        LinearWidthBucket, SortedBucketSampler, SortedSampler, SplitSampler)
from gluonzoo.text.data.transforms import (BERTBasicTokenizer, BERTSentenceTransform, BERTSPTokenizer,  # noqa: F401
                                           ClipSequence, PadSequence, SacreMosesDetokenizer, SacreMosesTokenizer,
                                           SentencepieceDetokenizer, SentencepieceTokenizer)
from gluonzoo.text.data.nlp_extras import DatasetLoader, ShardedDataLoader, UnigramCandidateSampler  # noqa: F401
from gluonzoo.text.gluonnlp_api import BERTTokenizer, get_tokenizer  # noqa: F401

from . import batchify, bert, fast_bert_tokenizer, xlnet  # noqa: F401

__all__ = ['BERTBasicTokenizer', 'BERTSPTokenizer', 'BERTSentenceTransform', 'BERTTokenizer', 'ClipSequence',
           'ConcatDataset', 'ConstWidthBucket', 'CorpusDataset', 'Counter', 'DataStream', 'DatasetLoader',
           'DatasetStream', 'ExpWidthBucket', 'FixedBucketSampler', 'LinearWidthBucket', 'NumpyDataset',
           'PadSequence', 'PrefetchingStream', 'SacreMosesDetokenizer', 'SacreMosesTokenizer',
           'SentencepieceDetokenizer', 'SentencepieceTokenizer', 'ShardedDataLoader', 'SimpleDataStream',
           'SimpleDatasetStream', 'SortedBucketSampler', 'SortedSampler', 'SplitSampler', 'Splitter', 'TSVDataset',
           'TextLineDataset', 'UnigramCandidateSampler', 'align_position2doc_spans', 'batchify', 'bert',
           'check_is_max_context', 'concat_sequence', 'concat_sequences', 'convert_index', 'convert_squad_examples',
           'count_tokens', 'create', 'fast_bert_tokenizer', 'get_doc_spans', 'get_tokenizer', 'improve_answer_span',
           'lcs_match', 'line_splitter', 'list_datasets', 'register', 'slice_sequence',
           'tokenize_and_align_positions', 'train_valid_split', 'truncate_seqs_equal', 'whitespace_splitter', 'xlnet']

__getattr__ = aliases.children(__name__)
