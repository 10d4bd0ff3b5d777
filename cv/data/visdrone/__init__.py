"""gluoncv.data.visdrone: the dataset base its `detection` module imports; its other names are gluoncv.data's
(zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.data.ndarray import VisionDataset  # noqa: F401

__getattr__ = aliases.children(__name__)
