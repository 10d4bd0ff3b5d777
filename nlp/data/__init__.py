"""gluonnlp.data: datasets, transforms, tokenizers, samplers, streams and batchify (gluonzoo.text.data)."""
from gluonzoo import aliases
from gluonzoo.text.data.bert_squad import (align_position2doc_spans, check_is_max_context,  # noqa: F401
                                           concat_sequences, convert_index, convert_squad_examples, get_doc_spans,
                                           improve_answer_span, lcs_match, tokenize_and_align_positions,
                                           truncate_seqs_equal)
from gluonzoo.text.data.classification import (CoLATask, MNLITask, MRPCTask, QNLITask, QQPTask,  # noqa: F401
                                               RTETask, SSTTask, STSBTask, WNLITask, XNLITask, get_task)
from gluonzoo.text.data.datasets import (ConcatDataset, CorpusDataset, Counter, DatasetStream, DataStream,  # noqa: F401
                                         NumpyDataset, PrefetchingStream, SimpleDataStream, SimpleDatasetStream,
                                         Splitter, TextLineDataset, TSVDataset, concat_sequence, count_tokens,
                                         create, line_splitter, list_datasets, register, slice_sequence,
                                         train_valid_split, whitespace_splitter)
from gluonzoo.text.data.glue import (BaiduErnieChnSentiCorp, BaiduErnieLCQMC, BaiduErnieXNLI, GlueCoLA,  # noqa: F401
                                     GlueMNLI, GlueMRPC, GlueQNLI, GlueQQP, GlueRTE, GlueSST2, GlueSTSB, GlueWNLI)
from gluonzoo.text.data.gpt2_bpe import GPT2BPEDetokenizer, GPT2BPETokenizer  # noqa: F401
from gluonzoo.text.data.hosted_corpora import (GBWStream, Enwik8, Fil9, Text8, WikiText2, WikiText2Raw,  # noqa: F401
                                                WikiText103, WikiText103Raw)
from gluonzoo.text.data.word_embedding_evaluation_data import (BakerVerb143, BiggerAnalogyTestSet,  # noqa: F401
                                                               GoogleAnalogyTestSet, MEN, RadinskyMTurk, RareWords,
                                                               SemEval17Task2, SimLex999, SimVerb3500,
                                                               WordAnalogyEvaluationDataset,
                                                               WordSimilarityEvaluationDataset, WordSim353,
                                                               YangPowersVerb130)
from gluonzoo.text.data.sampler import (ConstWidthBucket, ExpWidthBucket, FixedBucketSampler,  # noqa: F401
                                        LinearWidthBucket, SortedBucketSampler, SortedSampler, SplitSampler)
from gluonzoo.text.data.sentiment import CR, IMDB, MPQA, MR, SST_1, SST_2, SUBJ, TREC  # noqa: F401
from gluonzoo.text.data.super_glue import (SuperGlueAXb, SuperGlueAXg, SuperGlueBoolQ, SuperGlueCB,  # noqa: F401
                                           SuperGlueCOPA, SuperGlueMultiRC, SuperGlueReCoRD, SuperGlueRTE,
                                           SuperGlueWiC, SuperGlueWSC)
from gluonzoo.text.data.transforms import (BERTBasicTokenizer, BERTSentenceTransform, BERTSPTokenizer,  # noqa: F401
                                           ClipSequence, PadSequence, SacreMosesDetokenizer, SacreMosesTokenizer,
                                           SentencepieceDetokenizer, SentencepieceTokenizer)
from gluonzoo.text.data.nlp_extras import DatasetLoader, ShardedDataLoader, UnigramCandidateSampler  # noqa: F401
from gluonzoo.text.data.translation import IWSLT2015, WMT2014, WMT2014BPE, WMT2016, WMT2016BPE  # noqa: F401
from gluonzoo.text.gluonnlp_api import BERTTokenizer, get_tokenizer  # noqa: F401

from . import batchify, bert, corpora, fast_bert_tokenizer, xlnet  # noqa: F401

__all__ = ['BERTBasicTokenizer', 'BERTSPTokenizer', 'BERTSentenceTransform', 'BERTTokenizer', 'BaiduErnieChnSentiCorp',
           'BaiduErnieLCQMC', 'BaiduErnieXNLI', 'BakerVerb143', 'BiggerAnalogyTestSet', 'CR', 'ClipSequence',
           'CoLATask', 'ConcatDataset', 'ConstWidthBucket', 'CorpusDataset', 'Counter', 'DataStream', 'DatasetLoader',
           'DatasetStream', 'Enwik8', 'ExpWidthBucket', 'Fil9', 'FixedBucketSampler', 'GBWStream',
           'GPT2BPEDetokenizer', 'GPT2BPETokenizer', 'GlueCoLA', 'GlueMNLI', 'GlueMRPC', 'GlueQNLI', 'GlueQQP',
           'GlueRTE', 'GlueSST2', 'GlueSTSB', 'GlueWNLI', 'GoogleAnalogyTestSet', 'IMDB', 'IWSLT2015',
           'LinearWidthBucket', 'MEN', 'MNLITask', 'MPQA', 'MR', 'MRPCTask', 'NumpyDataset', 'PadSequence',
           'PrefetchingStream', 'QNLITask', 'QQPTask', 'RTETask', 'RadinskyMTurk', 'RareWords', 'SSTTask', 'SST_1',
           'SST_2', 'STSBTask', 'SUBJ', 'SacreMosesDetokenizer', 'SacreMosesTokenizer', 'SemEval17Task2',
           'SentencepieceDetokenizer', 'SentencepieceTokenizer', 'ShardedDataLoader', 'SimLex999', 'SimVerb3500',
           'SimpleDataStream', 'SimpleDatasetStream', 'SortedBucketSampler', 'SortedSampler', 'SplitSampler',
           'Splitter', 'SuperGlueAXb', 'SuperGlueAXg', 'SuperGlueBoolQ', 'SuperGlueCB', 'SuperGlueCOPA',
           'SuperGlueMultiRC', 'SuperGlueRTE', 'SuperGlueReCoRD', 'SuperGlueWSC', 'SuperGlueWiC', 'TREC', 'TSVDataset',
           'Text8', 'TextLineDataset', 'UnigramCandidateSampler', 'WMT2014', 'WMT2014BPE', 'WMT2016', 'WMT2016BPE',
           'WNLITask', 'WikiText103', 'WikiText103Raw', 'WikiText2', 'WikiText2Raw', 'WordAnalogyEvaluationDataset',
           'WordSim353', 'WordSimilarityEvaluationDataset', 'XNLITask', 'YangPowersVerb130',
           'align_position2doc_spans', 'batchify', 'bert', 'check_is_max_context', 'concat_sequence',
           'concat_sequences', 'convert_index', 'convert_squad_examples', 'corpora', 'count_tokens', 'create',
           'fast_bert_tokenizer', 'get_doc_spans', 'get_task', 'get_tokenizer', 'improve_answer_span', 'lcs_match',
           'line_splitter', 'list_datasets', 'register', 'slice_sequence', 'tokenize_and_align_positions',
           'train_valid_split', 'truncate_seqs_equal', 'whitespace_splitter', 'xlnet']

__getattr__ = aliases.children(__name__)
