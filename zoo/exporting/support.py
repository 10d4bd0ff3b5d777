"""What cannot be exported yet, as data: {model name: reason}. The registry parity test expects every model NOT
listed here to export and match MXNet in ONNX Runtime, and every model listed to still fail (so an entry that
starts working is noticed and removed). Keep reasons one line, naming the op and what would fix it."""

KNOWN_FAILURES = {
}

#: runtimes of the docs support table (docs/export_support.md, scripts/export/support_table.py)
RUNTIMES = ('ORT Python', 'ORT C++', 'OpenCV C++', 'OpenCV Java')
