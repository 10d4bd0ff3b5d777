"""gluoncv.model_zoo.center_net: the bodies its `deconv_resnet` and `duc_mobilenet` modules define and its
`target_generator`'s training targets; CenterNet and
the detectors are gluoncv.model_zoo's (zoo/aliases.children)."""
from gluonzoo import aliases
from gluonzoo.vision.models.detection.center_net_bodies import (DeconvResnet, DUCMobilenet,  # noqa: F401
                                                                get_deconv_resnet, get_duc_mobilenet,
                                                                mobilenetv3_large_duc, mobilenetv3_small_duc,
                                                                resnet18_v1b_deconv, resnet50_v1b_deconv,
                                                                resnet101_v1b_deconv)
from gluonzoo.vision.train.detection.families import CenterNetTargetGenerator  # noqa: F401

__getattr__ = aliases.children(__name__)
