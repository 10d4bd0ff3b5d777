"""gluonnlp.data.corpora (wikitext, large_text_compression_benchmark, google_billion_word): the hosted text
corpora (gluonzoo.text.data.hosted_corpora)."""
from gluonzoo import aliases
from gluonzoo.text.data.hosted_corpora import (GBWStream, Enwik8, Fil9, Text8, WikiText2, WikiText2Raw,  # noqa: F401
                                               WikiText103, WikiText103Raw)

__all__ = ['Enwik8', 'Fil9', 'GBWStream', 'Text8', 'WikiText103', 'WikiText103Raw', 'WikiText2', 'WikiText2Raw']

__getattr__ = aliases.children(__name__)
