"""GluonNLP 0.10's sentence (pair) classification tasks (gluonnlp.data.classification): each GlueTask names its
class labels, its mxnet.metric metric(s), whether samples are sentence pairs, an optional label alias, and reads
its dataset (text/data/glue.py) by segment; get_task('mrpc') etc. returns a fresh copy.

>>> t = get_task('MNLI')
>>> t.class_labels, t.is_pair
(['neutral', 'entailment', 'contradiction'], True)
"""
from copy import copy

from mxnet.metric import F1, MCC, Accuracy, CompositeEvalMetric, PearsonCorrelation

from . import hosted
from .glue import (BaiduErnieChnSentiCorp, BaiduErnieLCQMC, BaiduErnieXNLI, GlueCoLA, GlueMNLI, GlueMRPC,
                   GlueQNLI, GlueQQP, GlueRTE, GlueSST2, GlueSTSB, GlueWNLI)

__all__ = ['MRPCTask', 'QQPTask', 'QNLITask', 'RTETask', 'STSBTask', 'CoLATask', 'MNLITask', 'WNLITask', 'SSTTask',
           'XNLITask', 'get_task']


def _accuracy_f1():
    metric = CompositeEvalMetric()
    metric.add(Accuracy())
    metric.add(F1(average='micro'))
    return metric


class GlueTask:
    """A classification task: `class_labels` (None for regression), `metrics` (an EvalMetric), `is_pair`,
    `label_alias` ({label in the data: label in class_labels} or None)."""
    _dataset = None  # the dataset class, called with segment=

    def __init__(self, class_labels, metrics, is_pair, label_alias=None):
        self.class_labels = class_labels
        self.metrics = metrics
        self.is_pair = is_pair
        self.label_alias = label_alias

    def get_dataset(self, segment='train'):
        """The task's dataset of `segment` (downloaded into its default root)."""
        if self._dataset is None:
            raise NotImplementedError(f'{type(self).__name__} names no dataset')
        return self._dataset(segment=segment)

    def dataset_train(self):
        """('train', the train dataset)."""
        return 'train', self.get_dataset(segment='train')

    def dataset_dev(self):
        """('dev', the dev dataset)."""
        return 'dev', self.get_dataset(segment='dev')

    def dataset_test(self):
        """('test', the test dataset)."""
        return 'test', self.get_dataset(segment='test')


class MRPCTask(GlueTask):
    """MRPC: sentence pairs, labels '0'/'1', accuracy and micro F1."""
    _dataset = GlueMRPC

    def __init__(self):
        super().__init__(['0', '1'], _accuracy_f1(), True)


class QQPTask(GlueTask):
    """QQP: question pairs, labels '0'/'1', accuracy and micro F1."""
    _dataset = GlueQQP

    def __init__(self):
        super().__init__(['0', '1'], _accuracy_f1(), True)


class RTETask(GlueTask):
    """RTE: sentence pairs, 'not_entailment'/'entailment', accuracy."""
    _dataset = GlueRTE

    def __init__(self):
        super().__init__(['not_entailment', 'entailment'], Accuracy(), True)


class QNLITask(GlueTask):
    """QNLI: question-sentence pairs, 'not_entailment'/'entailment', accuracy."""
    _dataset = GlueQNLI

    def __init__(self):
        super().__init__(['not_entailment', 'entailment'], Accuracy(), True)


class STSBTask(GlueTask):
    """STS-B: sentence pairs, a similarity score (regression: no class labels), Pearson correlation."""
    _dataset = GlueSTSB

    def __init__(self):
        super().__init__(None, PearsonCorrelation(average='micro'), True)


class CoLATask(GlueTask):
    """CoLA: single sentences, '0'/'1', Matthews correlation."""
    _dataset = GlueCoLA

    def __init__(self):
        super().__init__(['0', '1'], MCC(average='micro'), False)


class SSTTask(GlueTask):
    """SST-2: single sentences, '0'/'1', accuracy."""
    _dataset = GlueSST2

    def __init__(self):
        super().__init__(['0', '1'], Accuracy(), False)


class WNLITask(GlueTask):
    """WNLI: sentence pairs, '0'/'1', accuracy."""
    _dataset = GlueWNLI

    def __init__(self):
        super().__init__(['0', '1'], Accuracy(), True)


class MNLITask(GlueTask):
    """MNLI: sentence pairs, 'neutral'/'entailment'/'contradiction', accuracy; dev and test are the matched and
    mismatched segments, each a (name, dataset) pair in a list."""
    _dataset = GlueMNLI

    def __init__(self):
        super().__init__(['neutral', 'entailment', 'contradiction'], Accuracy(), True)

    def dataset_dev(self):
        return [(s, self.get_dataset(segment=s)) for s in ('dev_matched', 'dev_mismatched')]

    def dataset_test(self):
        return [(s, self.get_dataset(segment=s)) for s in ('test_matched', 'test_mismatched')]


class XNLITask(GlueTask):
    """XNLI (Chinese, ERNIE's copy): sentence pairs, 'neutral'/'entailment'/'contradiction' ('contradictory'
    in the data), accuracy."""
    _dataset = BaiduErnieXNLI

    def __init__(self):
        super().__init__(['neutral', 'entailment', 'contradiction'], Accuracy(), True,
                         label_alias={'contradictory': 'contradiction'})


class LCQMCTask(GlueTask):
    """LCQMC: question pairs, '0'/'1', accuracy; get_dataset(file_path, segment) reads a local file."""

    def __init__(self):
        super().__init__(['0', '1'], Accuracy(), True)

    def get_dataset(self, file_path, segment='train'):  # pylint: disable=arguments-differ
        return BaiduErnieLCQMC(file_path, segment)


class ChnSentiCorpTask(GlueTask):
    """ChnSentiCorp: single sentences, '0'/'1', accuracy."""
    _dataset = BaiduErnieChnSentiCorp

    def __init__(self):
        super().__init__(['0', '1'], Accuracy(), False)


_TASKS = {'mrpc': MRPCTask, 'qqp': QQPTask, 'qnli': QNLITask, 'rte': RTETask, 'sts-b': STSBTask,
          'cola': CoLATask, 'mnli': MNLITask, 'wnli': WNLITask, 'sst': SSTTask, 'xnli': XNLITask,
          'lcqmc': LCQMCTask, 'chnsenticorp': ChnSentiCorpTask}


def get_task(task):
    """The task named `task` (any case): 'mrpc', 'qqp', 'qnli', 'rte', 'sts-b', 'cola', 'mnli', 'wnli', 'sst',
    'xnli', 'lcqmc' or 'chnsenticorp'. An unknown name is one BadInputError line (a ValueError, as GluonNLP's)."""
    cls = hosted.pick(_TASKS, str(task).lower(), 'get_task', arg='task')
    return copy(cls())

