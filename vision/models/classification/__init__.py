"""Image classification families, one file a family (GluonCV 0.10.5's names and parameter names); base.py holds
what every classifier shares (input check, reset_class, named feature stages for backbones)."""
from . import mobilenet  # noqa: F401
from . import alexnet, darknet, densenet, efficientnet, inception, mobilenetv1, mobilenetv3  # noqa: F401
from . import resnet, resnetv1b, resnext, squeezenet, vgg  # noqa: F401
from . import cifar_resnet  # noqa: F401
from . import cifar_resnext, residual_attention, senet  # noqa: F401
from . import hrnet  # noqa: F401
from . import dla, googlenet, resnest  # noqa: F401
from . import nasnet, shufflenet, xception  # noqa: F401
