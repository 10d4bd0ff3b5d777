"""gluonnlp.loss: the losses of gluonzoo.text.losses."""
from gluonzoo import aliases
from gluonzoo.text.losses import (ActivationRegularizationLoss, LabelSmoothing, MaskedSoftmaxCELoss,
                                  MaskedSoftmaxCrossEntropyLoss, TemporalActivationRegularizationLoss)

__all__ = ['ActivationRegularizationLoss', 'LabelSmoothing', 'MaskedSoftmaxCELoss', 'MaskedSoftmaxCrossEntropyLoss',
           'TemporalActivationRegularizationLoss']
__getattr__ = aliases.children(__name__)
