"""gluonnlp.calibration: placeholder, filled in by the drop-in work."""
from gluonzoo import aliases

__getattr__ = aliases.children(__name__)
