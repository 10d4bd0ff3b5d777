"""gluonzoo.text: NLP models, vocabularies and tokenizers (arrive with the text issue)."""
