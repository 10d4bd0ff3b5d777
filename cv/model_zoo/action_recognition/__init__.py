"""gluoncv.model_zoo.action_recognition: the video models and their classes are gluoncv.model_zoo's
(zoo/aliases.children); `non_local` is a real module here, since its names are not model_zoo's."""
from gluonzoo import aliases

from . import non_local  # noqa: F401

__getattr__ = aliases.children(__name__)
