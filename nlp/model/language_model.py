"""gluonnlp.model.language_model: its language models and builders are gluonnlp.model's (zoo/aliases.children);
`train` is gluonnlp.model.train, which the peer's module binds by `from . import train`, so code written for GluonNLP
(its own tests included) reaches the training BigRNN as `nlp.model.language_model.train.BigRNN`."""
from gluonzoo import aliases

from . import train  # noqa: F401

__all__ = ['AWDRNN', 'StandardRNN', 'BigRNN', 'awd_lstm_lm_1150', 'awd_lstm_lm_600', 'standard_lstm_lm_200',
           'standard_lstm_lm_650', 'standard_lstm_lm_1500', 'big_rnn_lm_2048_512']

__getattr__ = aliases.children(__name__)
