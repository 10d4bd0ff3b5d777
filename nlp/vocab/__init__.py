"""gluonnlp.vocab: placeholder, filled in by the drop-in work."""
from gluonzoo import aliases

__getattr__ = aliases.children(__name__)
from gluonzoo.text.vocab import Vocab  # noqa: F401
