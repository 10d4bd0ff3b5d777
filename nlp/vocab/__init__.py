"""gluonnlp.vocab: vocabularies and subword functions (gluonzoo.text.vocab)."""
from gluonzoo import aliases
from gluonzoo.text.vocab import (BERTVocab, ByteSubwords, ELMoCharVocab, NGramHashes, SubwordFunction,  # noqa: F401
                                 Vocab, create_subword_function, list_subword_functions,
                                 register_subword_function)

__all__ = ['BERTVocab', 'ByteSubwords', 'ELMoCharVocab', 'NGramHashes', 'SubwordFunction', 'Vocab',
           'create_subword_function', 'list_subword_functions', 'register_subword_function']

__getattr__ = aliases.children(__name__)
