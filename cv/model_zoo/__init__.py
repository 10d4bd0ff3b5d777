"""gluoncv.model_zoo: the registry (gluonzoo.registry's get_model), one function per registered model as GluonCV
spells it (gluonzoo.vision.models.functions), GluonCV's family factories over the registry
(gluonzoo.vision.models.factories), the model classes, and model_store's files (gluonzoo.model_files)."""
from gluonzoo import aliases
from gluonzoo.model_files import get_model_file, purge
from gluonzoo.vision.bbox_utils import bbox_iou
from gluonzoo.vision.data.ndarray import COCODetection  # GluonCV's model_zoo has it too (its CenterNet imports it)
from gluonzoo.vision.models.action.c3d import C3D
from gluonzoo.vision.models.action.i3d_inceptionv1 import I3D_InceptionV1
from gluonzoo.vision.models.action.i3d_inceptionv3 import I3D_InceptionV3
from gluonzoo.vision.models.action.i3d_resnet import I3D_ResNetV1
from gluonzoo.vision.models.action.i3d_slow import ResNet_SlowFast
from gluonzoo.vision.models.action.p3d import P3D
from gluonzoo.vision.models.action.r2plus1d import R2Plus1D
from gluonzoo.vision.models.action.slowfast import SlowFast
from gluonzoo.vision.models.classification.alexnet import AlexNet
from gluonzoo.vision.models.classification.darknet import DarknetV3
from gluonzoo.vision.models.classification.densenet import DenseNet
from gluonzoo.vision.models.classification.googlenet import GoogLeNet
from gluonzoo.vision.models.classification.inception import InceptionV3 as Inception3
from gluonzoo.vision.models.classification.mobilenet import MobileNetV2
from gluonzoo.vision.models.classification.mobilenetv1 import MobileNetV1 as MobileNet
from gluonzoo.vision.models.classification.residual_attention import (ResidualAttentionModel,
                                                                    cifar_ResidualAttentionModel)
from gluonzoo.vision.models.classification.resnet import (BasicBlockV1, BasicBlockV2, BottleneckV1,  # noqa: F401
                                                        BottleneckV2, ResNetV1, ResNetV2, SE_BasicBlockV1,
                                                        SE_BasicBlockV2, SE_BottleneckV1, SE_BottleneckV2,
                                                        SE_ResNetV1, SE_ResNetV2)
from gluonzoo.vision.models.classification.resnetv1b import BasicBlockV1b, BottleneckV1b, ResNetV1b
from gluonzoo.vision.models.classification.resnext import Block, ResNext
from gluonzoo.vision.models.classification.squeezenet import SqueezeNet
from gluonzoo.vision.models.classification.vgg import VGG
from gluonzoo.vision.models.classification.xception import Xception65, Xception71
from gluonzoo.vision.models.detection.center_net import CenterNet
from gluonzoo.vision.models.detection.center_net_bodies import get_base_network
from gluonzoo.vision.models.detection.ssd.custom import custom_ssd
from gluonzoo.vision.models.detection.ssd.vgg_atrous import (VGGAtrousExtractor, get_vgg_atrous_extractor,
                                                             vgg16_atrous_300, vgg16_atrous_512)
from gluonzoo.vision.models.detection.yolo3 import YOLOV3, custom_yolov3
from gluonzoo.vision.layers import DUC
from gluonzoo.vision.models.factories import *  # noqa: F401,F403
from gluonzoo.vision.models.factories import __all__ as _factories
from gluonzoo.vision.models.functions import *  # noqa: F401,F403
from gluonzoo.vision.models.functions import FUNCTIONS, get_model, get_model_list, pretrained_model_list
from gluonzoo.vision.models.pose.mobile_pose import MobilePose
from gluonzoo.vision.models.pose.simple_pose import SimplePoseResNet
from gluonzoo.vision.models.segmentation.deeplab import DeepLabV3
from gluonzoo.vision.models.segmentation.deeplab_plus import DeepLabWV3Plus
from gluonzoo.vision.models.segmentation.fcn import FCN
from gluonzoo.vision.models.segmentation.pspnet import PSPNet

__all__ = ['AlexNet', 'BasicBlockV1', 'BasicBlockV1b', 'BasicBlockV2', 'Block', 'BottleneckV1', 'BottleneckV1b',
           'BottleneckV2', 'C3D', 'COCODetection', 'CenterNet', 'DUC', 'DarknetV3', 'DeepLabV3', 'DeepLabWV3Plus',
           'DenseNet', 'FCN', 'GoogLeNet', 'I3D_InceptionV1', 'I3D_InceptionV3', 'I3D_ResNetV1', 'Inception3',
           'MobileNet', 'MobileNetV2', 'MobilePose', 'P3D', 'PSPNet', 'R2Plus1D', 'ResNet_SlowFast', 'ResNetV1',
           'ResidualAttentionModel', 'ResNetV1b', 'ResNetV2', 'ResNext', 'SE_BasicBlockV1', 'SE_BasicBlockV2',
           'SE_BottleneckV1', 'SE_BottleneckV2', 'SE_ResNetV1', 'SE_ResNetV2', 'SimplePoseResNet', 'SlowFast',
           'SqueezeNet', 'VGG',
           'VGGAtrousExtractor', 'YOLOV3', 'Xception65', 'Xception71', 'bbox_iou', 'cifar_ResidualAttentionModel',
           'custom_ssd', 'custom_yolov3', 'get_base_network', 'get_model', 'get_model_file', 'get_model_list',
           'get_vgg_atrous_extractor', 'pretrained_model_list', 'purge', 'vgg16_atrous_300', 'vgg16_atrous_512',
           *_factories, *sorted(FUNCTIONS)]

#: GluonCV's module-valued names that are a deeper module (what its chain of `from .x import *` leaves here)
_MOVED = {'actionrec_inceptionv1': 'action_recognition.actionrec_inceptionv1',
          'actionrec_inceptionv3': 'action_recognition.actionrec_inceptionv3',
          'actionrec_resnetv1b': 'action_recognition.actionrec_resnetv1b',
          'actionrec_vgg16': 'action_recognition.actionrec_vgg16', 'c3d': 'action_recognition.c3d',
          'i3d_inceptionv1': 'action_recognition.i3d_inceptionv1', 'i3d_inceptionv3': 'action_recognition.i3d_inceptionv3',
          'i3d_resnet': 'action_recognition.i3d_resnet', 'i3d_slow': 'action_recognition.i3d_slow',
          'non_local': 'action_recognition.non_local', 'p3d': 'action_recognition.p3d',
          'r2plus1d': 'action_recognition.r2plus1d', 'slowfast': 'action_recognition.slowfast',
          'anchor': 'ssd.anchor', 'darknet': 'yolo.darknet', 'data_parallel': 'rcnn.mask_rcnn.data_parallel',
          'faster_rcnn': 'rcnn.faster_rcnn.faster_rcnn', 'layers': 'monodepthv2.layers',
          'mask_rcnn': 'rcnn.mask_rcnn.mask_rcnn', 'predefined_models': 'rcnn.mask_rcnn.predefined_models',
          'presets': 'smot.presets', 'rcnn_target': 'rcnn.mask_rcnn.rcnn_target', 'utils': 'smot.utils',
          'vgg_atrous': 'ssd.vgg_atrous', 'yolo3': 'yolo.yolo3', 'yolo_target': 'yolo.yolo_target'}

__getattr__ = aliases.children(__name__, moved=_MOVED)
