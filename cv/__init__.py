"""GluonCV 0.10's module layout over gluonzoo: a GluonCV script changes one import line and nothing else.

    import gluonzoo.cv as gcv                 # was: import gluoncv as gcv
    from gluonzoo.cv import model_zoo, data, utils
    net = gcv.model_zoo.get_model('ResNet50_v1b', pretrained=True)

Every name here is gluonzoo's own implementation (gluonzoo.vision, gluonzoo.registry), re-exported where GluonCV
puts it; GluonCV's leaf modules come from its API snapshot (zoo/aliases.py). docs/from_gluoncv.md lists what is
provided, what differs and why, and what is not.
"""
import os

from gluonzoo import aliases

aliases.install(__name__, 'gluoncv', os.path.join(os.path.dirname(__file__), 'gluoncv_api.json'))

from gluonzoo import __version__  # noqa: E402
from . import data, loss, model_zoo, nn, utils  # noqa: E402,F401

__all__ = ['data', 'loss', 'model_zoo', 'nn', 'utils']
