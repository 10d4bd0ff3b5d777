"""gluonnlp.data.xlnet (squad): XLNet fine-tuning preprocessing (gluonzoo.text.data.bert_squad)."""
from gluonzoo import aliases
from gluonzoo.text.data.bert_squad import convert_index, lcs_match  # noqa: F401

__all__ = ['convert_index', 'lcs_match']

__getattr__ = aliases.children(__name__)
