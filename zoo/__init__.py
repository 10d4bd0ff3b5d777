"""gluonzoo: a Gluon model zoo for vision and NLP on Apache MXNet 1.9.

    import gluonzoo as gz
    net = gz.get_model('mobilenetv2_1.0', pretrained=True)
"""
__version__ = '0.1.0'

from . import convert, model_zoo  # noqa: E402
from .errors import GluonzooError  # noqa: E402
from .exporting import export  # noqa: E402
from .optimizing import optimize  # noqa: E402
from .quantizing import quantize  # noqa: E402
from .registry import get_model, get_weights, list_models, register_model  # noqa: E402
from .weights import Source, Weights  # noqa: E402

__all__ = ['get_model', 'get_weights', 'list_models', 'register_model', 'export', 'optimize', 'quantize', 'Weights',
           'Source', 'GluonzooError', 'convert', 'model_zoo']
