"""Vision model families, one file a family; importing this package registers them all."""
from . import mobilenet  # noqa: F401
from . import cifar_resnet  # noqa: F401
