"""AlexNet (Krizhevsky et al., 2012; the one-GPU variant of arXiv:1404.5997): parameter-compatible with GluonCV
0.10.5 `alexnet`.

Layout: model -> weights records -> registered builder. Its first Dense layer takes 256x6x6 features, so the
ImageNet checkpoint needs 224x224 inputs.
"""
from mxnet.gluon import nn

from ....registry import register_model
from ._gluoncv import gluoncv
from .base import Classifier, Stage


class AlexNet(Classifier):
    """Five convs (ReLU inside the conv layers, GluonCV's structure), three max pools, two 4096 Dense layers."""

    def __init__(self, classes=1000, in_channels=3, **kwargs):
        super().__init__(**kwargs)
        self.in_channels = in_channels
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            with self.features.name_scope():
                self.features.add(
                    nn.Conv2D(64, 11, 4, 2, activation='relu', in_channels=in_channels), nn.MaxPool2D(3, 2),
                    nn.Conv2D(192, 5, padding=2, activation='relu'), nn.MaxPool2D(3, 2),
                    nn.Conv2D(384, 3, padding=1, activation='relu'), nn.Conv2D(256, 3, padding=1, activation='relu'),
                    nn.Conv2D(256, 3, padding=1, activation='relu'), nn.MaxPool2D(3, 2), nn.Flatten(),
                    nn.Dense(4096, activation='relu'), nn.Dropout(0.5), nn.Dense(4096, activation='relu'),
                    nn.Dropout(0.5))
            self.output = nn.Dense(classes)
        self.feature_info = [Stage('features.0', 64, 4), Stage('features.2', 192, 8), Stage('features.6', 256, 16)]

    @property
    def fixed_input(self):
        """224x224 once the first Dense layer holds the checkpoint's 256x6x6 inputs (None before its size is known)."""
        units = self.features[9].weight.shape[1]
        return (224, 224) if units == 256 * 6 * 6 else None

    input_stride = 4  # 224-227 give the same 6x6 map


_PAPER = 'https://arxiv.org/abs/1404.5997'
ALEXNET_GLUONCV = gluoncv('alexnet', '44335d1f0046b328243b32a26a4fbd62d9057b45', 61100840, _PAPER)


@register_model('alexnet', task='image-classification', weights=[ALEXNET_GLUONCV],
                protected=('in_channels',), test_input=(1, 3, 64, 64))
def alexnet(classes=1000, in_channels=3):
    """AlexNet (arXiv:1404.5997)."""
    return AlexNet(classes, in_channels)
