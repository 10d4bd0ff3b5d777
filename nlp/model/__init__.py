"""gluonnlp.model: GluonNLP's get_model and builder functions (gluonzoo.text.gluonnlp_api) and the model classes of
gluonzoo.text.models, whose constructors docs/from_gluonnlp.md compares with GluonNLP's."""
from gluonzoo import aliases
from gluonzoo.text.gluonnlp_api import (BUILDERS, awd_lstm_lm_600, awd_lstm_lm_1150, bert_12_768_12,  # noqa: F401
                                        bert_24_1024_16, big_rnn_lm_2048_512, distilbert_6_768_12,
                                        elmo_2x1024_128_2048cnn_1xhighway, elmo_2x2048_256_2048cnn_1xhighway,
                                        elmo_2x4096_512_2048cnn_2xhighway, ernie_12_768_12, get_model, list_models,
                                        roberta_12_768_12, roberta_24_1024_16, standard_lstm_lm_200,
                                        standard_lstm_lm_650, standard_lstm_lm_1500, transformer_en_de_512)
from gluonzoo.text.layers import GELU, L2Normalization
from gluonzoo.text.models.attention import (AttentionCell, DotProductAttentionCell, MLPAttentionCell,  # noqa: F401
                                            MultiHeadAttentionCell, PositionwiseFFN)
from gluonzoo.text.models.bert import (BERTClassifier, BERTEncoder, BERTModel, DistilBERTModel,  # noqa: F401
                                       RoBERTaClassifier, RoBERTaModel)
from gluonzoo.text.models.elmo import (BiLMEncoder, ConvolutionalEncoder, ELMoBiLM, ELMoCharacterEncoder,  # noqa: F401
                                       Highway)
from gluonzoo.text.models.lstm_lm import AWDRNN, BigRNN, StandardRNN
from gluonzoo.text.models.rnn_cells import LSTMPCellWithClip, RNNCellLayer
from gluonzoo.text.models.sampled_block import ISDense, NCEDense, SparseISDense, SparseNCEDense
from gluonzoo.text.models.transformer import TransformerEncoder, TransformerEncoderCell
from gluonzoo.text.models.weight_drop import WeightDropParameter, apply_weight_drop
from gluonzoo.text.sequence_sampler import (BeamSearchSampler, BeamSearchScorer, HybridBeamSearchSampler,
                                            SequenceSampler)

__all__ = ['AWDRNN', 'AttentionCell', 'BERTClassifier', 'BERTEncoder', 'BERTModel', 'BeamSearchSampler',
           'HybridBeamSearchSampler', 'BeamSearchScorer', 'BiLMEncoder', 'BigRNN', 'ConvolutionalEncoder',
           'DistilBERTModel', 'DotProductAttentionCell', 'ELMoBiLM', 'ELMoCharacterEncoder', 'GELU', 'Highway',
           'ISDense', 'L2Normalization', 'LSTMPCellWithClip', 'MLPAttentionCell', 'MultiHeadAttentionCell', 'NCEDense',
           'PositionwiseFFN', 'RNNCellLayer', 'RoBERTaClassifier', 'RoBERTaModel', 'SequenceSampler', 'SparseISDense',
           'SparseNCEDense', 'StandardRNN', 'TransformerEncoder', 'TransformerEncoderCell', 'WeightDropParameter',
           'apply_weight_drop', 'get_model', 'list_models', *BUILDERS]

__getattr__ = aliases.children(__name__)
