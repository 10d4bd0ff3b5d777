"""The errors gluonzoo raises on purpose.

Each carries one line that says what was wrong and what to do; the CLI prints exactly that line. They subclass the
builtin a caller would already catch (ValueError, FileNotFoundError, OSError), so plain `except ValueError` works.
"""


class GluonzooError(Exception):
    """Base of every error gluonzoo raises on purpose."""


class UnknownModelError(GluonzooError, ValueError):
    """A model name or weights tag that is not in the registry."""


class ChecksumError(GluonzooError, ValueError):
    """A file whose sha1 (or sha256) is not the one its record names."""


class WeightsNotFoundError(GluonzooError, FileNotFoundError):
    """No source could supply a weights file."""


class UnsafeCheckpointError(GluonzooError, ValueError):
    """A pickled checkpoint that asks for code outside the allow-list."""


class CacheDirError(GluonzooError, OSError):
    """The cache folder cannot be created or written."""


class LockTimeoutError(GluonzooError, TimeoutError):
    """Another process held a file's lock for longer than GLUONZOO_LOCK_TIMEOUT."""


class BadInputError(GluonzooError, ValueError):
    """An input file (image, checkpoint, archive) that cannot be used as given."""


class ExportError(GluonzooError, ValueError):
    """A model, option or op that cannot be exported as asked."""


class ParityError(GluonzooError, AssertionError):
    """ONNX Runtime and MXNet disagree beyond the tolerance."""


class CheckpointError(GluonzooError, ValueError):
    """A training checkpoint that is corrupt, missing, or made by a different configuration."""


class NotReproducedError(GluonzooError):
    """A rerun of a recipe whose log departs from the committed one."""


class UnknownTaskError(GluonzooError, ValueError):
    """A task name no domain registered."""


class InputCountError(BadInputError, TypeError):
    """A net called with more (or fewer) inputs than its forward takes: a TypeError too, as Python's own arity
    error is, so callers that probe a forward's inputs (MXNet's quantize_net drops trailing ones) work."""


class AssertedInputError(BadInputError, AssertionError):
    """A bad argument where GluonNLP asserts (vocabulary and embedding checks, a model's predefined settings): an
    AssertionError too, so code written against GluonNLP, its own tests included, catches it as before."""
