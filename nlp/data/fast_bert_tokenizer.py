"""gluonnlp.data.fast_bert_tokenizer: BERT's basic and WordPiece tokenizers and character predicates
(gluonzoo.text.data.fast_bert_tokenizer)."""
from gluonzoo.text.data.fast_bert_tokenizer import (BasicTokenizer, WordpieceTokenizer, is_chinese_char,  # noqa: F401
                                                    is_control, is_punctuation, is_whitespace, whitespace_tokenize)

__all__ = ['BasicTokenizer', 'WordpieceTokenizer', 'is_chinese_char', 'is_control', 'is_punctuation', 'is_whitespace',
           'whitespace_tokenize']
