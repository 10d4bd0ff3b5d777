"""gluoncv.model_zoo: the registry (gluonzoo.registry's get_model), one function per registered model as GluonCV
spells it (gluonzoo.vision.models.functions), GluonCV's family factories over the registry
(gluonzoo.vision.models.factories), the model classes, and model_store's files (gluonzoo.model_files)."""
from gluonzoo import aliases
from gluonzoo.model_files import get_model_file, purge
from gluonzoo.vision.models.classification.alexnet import AlexNet
from gluonzoo.vision.models.classification.darknet import DarknetV3
from gluonzoo.vision.models.classification.densenet import DenseNet
from gluonzoo.vision.models.classification.googlenet import GoogLeNet
from gluonzoo.vision.models.classification.inception import InceptionV3 as Inception3
from gluonzoo.vision.models.classification.mobilenet import MobileNetV2
from gluonzoo.vision.models.classification.mobilenetv1 import MobileNetV1 as MobileNet
from gluonzoo.vision.models.classification.resnet import (BasicBlockV1, BasicBlockV2, BottleneckV1,  # noqa: F401
                                                        BottleneckV2, ResNetV1, ResNetV2, SE_BasicBlockV1,
                                                        SE_BasicBlockV2, SE_BottleneckV1, SE_BottleneckV2,
                                                        SE_ResNetV1, SE_ResNetV2)
from gluonzoo.vision.models.classification.squeezenet import SqueezeNet
from gluonzoo.vision.models.classification.vgg import VGG
from gluonzoo.vision.models.classification.xception import Xception65, Xception71
from gluonzoo.vision.models.factories import *  # noqa: F401,F403
from gluonzoo.vision.models.factories import __all__ as _factories
from gluonzoo.vision.models.functions import *  # noqa: F401,F403
from gluonzoo.vision.models.functions import FUNCTIONS, get_model, get_model_list, pretrained_model_list

__all__ = ['AlexNet', 'BasicBlockV1', 'BasicBlockV2', 'BottleneckV1', 'BottleneckV2', 'DarknetV3', 'DenseNet',
           'GoogLeNet', 'Inception3', 'MobileNet', 'MobileNetV2', 'ResNetV1', 'ResNetV2', 'SE_BasicBlockV1',
           'SE_BasicBlockV2', 'SE_BottleneckV1', 'SE_BottleneckV2', 'SE_ResNetV1', 'SE_ResNetV2', 'SqueezeNet', 'VGG',
           'Xception65', 'Xception71', 'get_model', 'get_model_file', 'get_model_list', 'pretrained_model_list',
           'purge', *_factories, *sorted(FUNCTIONS)]

__getattr__ = aliases.children(__name__)
