"""Exporting a zoo model (the package behind `gz.export`; named apart from the function): hybridize, run once, write the symbol graph, its parameters and an ONNX file.

    gz.export('mobilenetv2_1.0', 'out/mbv2')            # -> {'symbol': ..., 'params': ..., 'meta': ..., 'onnx': ...}

core.py drives it (what is written, where, atomically); onnx_export.py wraps MXNet 1.9.1's exporter with the fixes
DESIGN.md lists (opset cap, weights as initializers); converters.py replaces the stock converters that are wrong
for the zoo's ops; passes.py rewrites a finished graph for a target runtime (OpenCV 4.6 DNN); verify.py compares
MXNet with ONNX Runtime.
"""
from ..errors import ExportError
from .core import FORMATS, OPSETS, TARGETS, export
from .verify import compare, verify_export

__all__ = ['export', 'verify_export', 'compare', 'ExportError', 'FORMATS', 'OPSETS', 'TARGETS']
