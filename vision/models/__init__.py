"""Vision model families, one file a family; importing this package registers them all."""
from . import mobilenet  # noqa: F401
from . import alexnet, darknet, densenet, efficientnet, inception, mobilenetv1, mobilenetv3  # noqa: F401
from . import resnet, resnetv1b, resnext, squeezenet, vgg  # noqa: F401
from . import cifar_resnet  # noqa: F401
