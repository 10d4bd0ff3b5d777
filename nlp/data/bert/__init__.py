"""gluonnlp.data.bert (glue, squad): BERT fine-tuning preprocessing (gluonzoo.text.data.bert_squad)."""
from gluonzoo import aliases
from gluonzoo.text.data.bert_squad import (align_position2doc_spans, check_is_max_context,  # noqa: F401
                                           concat_sequences, convert_squad_examples, get_doc_spans,
                                           improve_answer_span, tokenize_and_align_positions, truncate_seqs_equal)

__all__ = ['align_position2doc_spans', 'check_is_max_context', 'concat_sequences', 'convert_squad_examples',
           'get_doc_spans', 'improve_answer_span', 'tokenize_and_align_positions', 'truncate_seqs_equal']

__getattr__ = aliases.children(__name__)
