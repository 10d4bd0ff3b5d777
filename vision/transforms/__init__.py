"""Image transforms on OpenCV + numpy, driven by a weights record's `preprocess`."""
from . import functional
from .presets import cifar_eval, cifar_train, from_preprocess, image_eval, imagenet_eval, imagenet_train

__all__ = ['functional', 'image_eval', 'imagenet_eval', 'imagenet_train', 'cifar_eval', 'cifar_train',
           'from_preprocess']
