"""GluonNLP 0.10's GLUE benchmark datasets (gluonnlp.data.glue) and Baidu ERNIE's Chinese task data
(gluonnlp.data.baidu_ernie_data), TSVDatasets over the files GluonNLP downloads (text/data/hosted.py).

GLUE: each segment is its own zip '<segment>-<sha1[:8]>.zip' hosted at $MXNET_GLUON_REPO/gluon/dataset/GLUE/<task>/,
extracted flat into root (default $MXNET_HOME/datasets/glue_<task>) as '<segment>.tsv'. Samples are GluonNLP's
lists of strings: GlueCoLA('dev')[0] == [sentence, label], test segments without the label; return_all_fields=True
gives every field of the row. GlueMRPC downloads the raw SentEval files and the GLUE dev ids and writes
train.tsv / dev.tsv / test.tsv as GluonNLP does. Baidu ERNIE: task_data.tgz (no sha1 published) extracted into
root as task_data/<task>/<segment>.tsv.
"""
import io
import os

from ..training import save_atomically
from . import hosted
from .datasets import TSVDataset, register

__all__ = ['GlueCoLA', 'GlueSST2', 'GlueSTSB', 'GlueQQP', 'GlueRTE', 'GlueMNLI', 'GlueQNLI', 'GlueWNLI',
           'GlueMRPC', 'BaiduErnieXNLI', 'BaiduErnieLCQMC', 'BaiduErnieChnSentiCorp']


def _layout(train_dev, test, discard_train=1, segments=('train', 'dev'), tests=('test',)):
    """{segment: (field_indices, num_discard_samples)}: `train_dev` fields for the labelled segments, `test`
    for the unlabelled ones (whose header is always skipped)."""
    out = {s: (train_dev, discard_train) for s in segments}
    out.update({s: (test, 1) for s in tests})
    return out


class _GlueDataset(TSVDataset):
    """One segment's '<segment>.tsv' of a GLUE task: `_data_file` = {segment: (segment, zip sha1, tsv sha1)},
    `_fields` = {segment: (field_indices, num_discard_samples)}, hosted in gluon/dataset/`_namespace`."""
    _namespace = None
    _data_file = {}
    _fields = {}
    _allow_missing = False

    def __init__(self, segment, root, return_all_fields):
        name = type(self).__name__
        seg, zip_sha1, data_sha1 = hosted.pick(self._data_file, segment, name)
        self._root = os.path.expanduser(root)
        self._segment = segment
        indices, discard = self._fields[segment]
        tsv = f'{seg}.tsv'
        # GluonNLP's zip name carries the tsv's sha1; its members go flat into root
        hosted.fetch_hosted(self._namespace, self._root, (f'{seg}-{data_sha1[:8]}.zip', zip_sha1),
                            {tsv: data_sha1}, flatten=True, what=name)
        extra = {'allow_missing': True} if self._allow_missing else {}
        super().__init__(os.path.join(self._root, tsv), num_discard_samples=discard,
                         field_indices=None if return_all_fields else indices, **extra)

    def _repo_dir(self):
        return f'gluon/dataset/{self._namespace}'


@register(segment=['train', 'dev', 'test'])
class GlueCoLA(_GlueDataset):
    """The Corpus of Linguistic Acceptability (Warstadt et al., 2018): [sentence, label] ('1' acceptable),
    test [sentence]. segment: 'train', 'dev' or 'test'; root: default $MXNET_HOME/datasets/glue_cola."""
    _namespace = 'GLUE/CoLA'
    _data_file = {'train': ('train', '662227ed4d98bb96b3495234b650e37826a5ef72',
                            '7760a9c4b1fb05f6d003475cc7bb0d0118875190'),
                  'dev': ('dev', '6f3f5252b004eab187bf22ab5b0af31e739d3a3f',
                          '30ece4de38e1929545c4154d4c71ad297c7f54b4'),
                  'test': ('test', 'b88180515ad041935793e74e3a76470b0c1b2c50',
                           'f38b43d31bb06accf82a3d5b2fe434a752a74c9f')}
    _fields = _layout([3, 1], [1], discard_train=0)  # train/dev have no header

    def __init__(self, segment='train', root=hosted.default_root('glue_cola'), return_all_fields=False):
        super().__init__(segment, root, return_all_fields)


@register(segment=['train', 'dev', 'test'])
class GlueSST2(_GlueDataset):
    """The Stanford Sentiment Treebank (Socher et al., 2013), binary: [sentence, label], test [sentence].
    root: default $MXNET_HOME/datasets/glue_sst."""
    _namespace = 'GLUE/SST-2'
    _data_file = {'train': ('train', 'bcde781bed5caa30d5e9a9d24e5c826965ed02a2',
                            'ffbb67a55e27525e925b79fee110ca19585d70ca'),
                  'dev': ('dev', '85698e465ff6573fb80d0b34229c76df84cd766b',
                          'e166f986cec68fd4cca0ae5ce5869b917f88a2fa'),
                  'test': ('test', 'efac1c275553ed78500e9b8d8629408f5f867b20',
                           '3ce8041182bf82dbbbbfe13738b39d3c69722744')}
    _fields = _layout([0, 1], [1])

    def __init__(self, segment='train', root=hosted.default_root('glue_sst'), return_all_fields=False):
        super().__init__(segment, root, return_all_fields)


@register(segment=['train', 'dev', 'test'])
class GlueSTSB(_GlueDataset):
    """The Semantic Textual Similarity Benchmark (Cer et al., 2017): [sentence1, sentence2, score as a string],
    test [sentence1, sentence2]. root: default $MXNET_HOME/datasets/glue_stsb."""
    _namespace = 'GLUE/STS-B'
    _data_file = {'train': ('train', '9378bd341576810730a5c666ed03122e4c5ecc9f',
                            '501e55248c6db2a3f416c75932a63693000a82bc'),
                  'dev': ('dev', '529c3e7c36d0807d88d0b2a5d4b954809ddd4228',
                          'f8bcc33b01dfa2e9ba85601d0140020735b8eff3'),
                  'test': ('test', '6284872d6992d8ec6d96320af89c2f46ac076d18',
                           '36553e5e2107b817257232350e95ff0f3271d844')}
    _fields = _layout([7, 8, 9], [7, 8])

    def __init__(self, segment='train', root=hosted.default_root('glue_stsb'), return_all_fields=False):
        super().__init__(segment, root, return_all_fields)


@register(segment=['train', 'dev', 'test'])
class GlueQQP(_GlueDataset):
    """The Quora Question Pairs: [question1, question2, label], test [question1, question2]; broken rows are
    skipped with one warning, as GluonNLP does. root: default $MXNET_HOME/datasets/glue_qqp."""
    _namespace = 'GLUE/QQP'
    _data_file = {'train': ('train', '494f280d651f168ad96d6cd05f8d4ddc6be73ce9',
                            '95c01e711ac8dbbda8f67f3a4291e583a72b6988'),
                  'dev': ('dev', '9957b60c4c62f9b98ec91b26a9d43529d2ee285d',
                          '755e0bf2899b8ad315d4bd7d4c85ec51beee5ad0'),
                  'test': ('test', '1e325cc5dbeeb358f9429c619ebe974fc2d1a8ca',
                           '0f50d1a62dd51fe932ba91be08238e47c3e2504a')}
    _fields = _layout([3, 4, 5], [1, 2])
    _allow_missing = True

    def __init__(self, segment='train', root=hosted.default_root('glue_qqp'), return_all_fields=False):
        super().__init__(segment, root, return_all_fields)


@register(segment=['train', 'dev', 'test'])
class GlueRTE(_GlueDataset):
    """Recognizing Textual Entailment (RTE1-3, RTE5): [sentence1, sentence2, label], test [sentence1, sentence2].
    root: default $MXNET_HOME/datasets/glue_rte."""
    _namespace = 'GLUE/RTE'
    _data_file = {'train': ('train', 'a23b0633f4f4dfa866c672af2e94f7e07344888f',
                            'ec2b246745bb5c9d92aee0800684c08902742730'),
                  'dev': ('dev', 'a6cde090d12a10744716304008cf33dd3f0dbfcb',
                          'ade75e0673862dcac9c653efb9f59f51be2749aa'),
                  'test': ('test', '7e4e58a6fa80b1f05e603b4e220524be7976b488',
                           'ddda5c967fb5a4934b429bb52aaa144e70900000')}
    _fields = _layout([1, 2, 3], [1, 2])

    def __init__(self, segment='train', root=hosted.default_root('glue_rte'), return_all_fields=False):
        super().__init__(segment, root, return_all_fields)


@register(segment=['train', 'dev_matched', 'dev_mismatched', 'test_matched', 'test_mismatched'])
class GlueMNLI(_GlueDataset):
    """The Multi-Genre NLI Corpus (Williams et al., 2018): [sentence1, sentence2, label], test [sentence1,
    sentence2]. segment: 'train', 'dev_matched', 'dev_mismatched', 'test_matched' or 'test_mismatched';
    root: default $MXNET_HOME/datasets/glue_mnli."""
    _namespace = 'GLUE/MNLI'
    _data_file = {'train': ('train', 'aa235064ab3ce47d48caa17c553561d84fdf5bf2',
                            '1e74055bc91e260323574bfe63186acb9420fa13'),
                  'dev_matched': ('dev_matched', '328cf527add50ee7bc20a862f97913800ba8a4b1',
                                  '7a38c5fb5ecc875f259e1d57662d58a984753b70'),
                  'dev_mismatched': ('dev_mismatched', '9c5d6c6d2e3a676bfa19d929b32e2f9f233585c5',
                                     '47470d91b594e767d80e5de2ef0be6a453c17be5'),
                  'test_matched': ('test_matched', '53877d9d554b6a6d402cc0e5f7e38366cd4f8e60',
                                   '00106769e11a43eac119975ad25c2de2c8d2dbe7'),
                  'test_mismatched': ('test_mismatched', '82b03d3cc9f4a59c74beab06c141bc0c5bf74a55',
                                      '5a31abf92f045f127dbb2e3d2e0ef8ddea04c237')}
    # train's gold label is field 11, the dev sets' field 15 (after the five annotators' labels)
    _fields = {**_layout([8, 9, 11], [8, 9], segments=('train',), tests=('test_matched', 'test_mismatched')),
               **_layout([8, 9, 15], [], segments=('dev_matched', 'dev_mismatched'), tests=())}

    def __init__(self, segment='train', root=hosted.default_root('glue_mnli'), return_all_fields=False):
        super().__init__(segment, root, return_all_fields)


@register(segment=['train', 'dev', 'test'])
class GlueQNLI(_GlueDataset):
    """Question-answering NLI from SQuAD (Rajpurkar et al., 2016): [question, sentence, label], test
    [question, sentence]. root: default $MXNET_HOME/datasets/glue_qnli."""
    _namespace = 'GLUE/QNLI'
    _data_file = {'train': ('train', '95fae96fb1ffa6a2804192c9036d3435e63b48e8',
                            'd90a84eb40c6ba32bc2b34284ceaa962c46f8753'),
                  'dev': ('dev', '5652b9d4d5c8d115c080bcf64101927ea2b3a1e0',
                          'd14a61290301c2a9d26459c4cd036742e8591428'),
                  'test': ('test', '23dfb2f38adb14d3e792dbaecb7f5fd5dfa8db7e',
                           'f3da1a2e471ebfee81d91574b42e0f5d39153c59')}
    _fields = _layout([1, 2, 3], [1, 2])

    def __init__(self, segment='train', root=hosted.default_root('glue_qnli'), return_all_fields=False):
        super().__init__(segment, root, return_all_fields)


@register(segment=['train', 'dev', 'test'])
class GlueWNLI(_GlueDataset):
    """Winograd NLI from the Winograd Schema Challenge (Levesque et al., 2011): [sentence1, sentence2, label],
    test [sentence1, sentence2]. root: default $MXNET_HOME/datasets/glue_wnli."""
    _namespace = 'GLUE/WNLI'
    _data_file = {'train': ('train', '8db0004d0e58640751a9f2875dd66c8000504ddb',
                            'b497281c1d848b619ea8fe427b3a6e4dc8e7fa92'),
                  'dev': ('dev', 'd54834960555073fb497cf2766edb77fb62c3646',
                          '6bbdb866d0cccaac57c3a2505cf53103789b69a9'),
                  'test': ('test', '431e596a1c6627fb168e7741b3e32ef681da3c7b',
                           '6ba8fcf3e5b451c101a3902fb4ba3fc1dea42e50')}
    _fields = _layout([1, 2, 3], [1, 2])

    def __init__(self, segment='train', root=hosted.default_root('glue_wnli'), return_all_fields=False):
        super().__init__(segment, root, return_all_fields)


def _write(path, lines):
    """Write `lines` to path through a temp file renamed into place (no partial file, on failure either)."""
    def save(tmp):
        with io.open(tmp, 'w', encoding='utf8') as f:
            f.writelines(lines)
    save_atomically(save, path, 'GlueMRPC')


@register(segment=['train', 'dev', 'test'])
class GlueMRPC(TSVDataset):
    """The Microsoft Research Paraphrase Corpus: [sentence1, sentence2, label], test [sentence1, sentence2].
    The raw SentEval files (msr_paraphrase_train.txt / _test.txt) are downloaded from `_raw_url` and split into
    train.tsv / dev.tsv by GLUE's dev ids (`_dev_ids`), as GluonNLP does. root: default
    $MXNET_HOME/datasets/glue_mrpc."""
    _raw_url = 'https://dl.fbaipublicfiles.com/senteval/senteval_data/'
    _dev_ids = ('https://firebasestorage.googleapis.com/v0/b/mtl-sentence-representations.appspot.com/o/'
                'data%2Fmrpc_dev_ids.tsv?alt=media&token=ec5c0836-31d5-48f4-b431-7480817f1adc',
                '506c7a1a5e0dd551ceec2f84070fa1a8c2bc4b41')
    _data_file = {'train': ('msr_paraphrase_train.txt', '716e0f67af962f08220b7e97d229b293077ef41f',
                            '131675ffd3d2f04f286049d31cca506c8acba69e'),
                  'dev': ('msr_paraphrase_train.txt', '716e0f67af962f08220b7e97d229b293077ef41f',
                          'e4486577c4cb2e5c2a3fd961eb24f03c623ea02d'),
                  'test': ('msr_paraphrase_test.txt', '4265196c15cf75620b0b592b8b921f543bda7e6c',
                           '3602b2ca26cf574e84183c14d6c0901669ee2d0a')}

    def __init__(self, segment='train', root=hosted.default_root('glue_mrpc')):
        hosted.pick(self._data_file, segment, 'GlueMRPC')
        self._root = os.path.expanduser(root)
        self._segment = segment
        self._generate(segment)
        fields = [3, 4] if segment == 'test' else [3, 4, 0]
        super().__init__(os.path.join(self._root, f'{segment}.tsv'), num_discard_samples=1, field_indices=fields)

    def _repo_dir(self):
        return self._raw_url

    def _generate(self, segment):
        """Download the raw file (kept in root) and write <segment>.tsv unless one with the table's sha1 is there
        (train and dev are written together)."""
        from ... import filesystem
        raw_name, raw_sha1, data_sha1 = self._data_file[segment]
        root = hosted.fetch(self._raw_url + raw_name, self._root, (raw_name, raw_sha1), {raw_name: raw_sha1},
                            what='GlueMRPC')
        raw_path = os.path.join(root, raw_name)
        data_path = os.path.join(root, f'{segment}.tsv')
        if os.path.isfile(data_path) and filesystem.check_sha1(data_path, data_sha1):
            return
        with io.open(raw_path, encoding='utf8') as f:
            header, rows = f.readline(), [row.strip().split('\t') for row in f]
        if segment == 'test':
            _write(data_path, ['index\t#1 ID\t#2 ID\t#1 String\t#2 String\n'] +
                   [f'{i}\t' + '\t'.join(r[1:5]) + '\n' for i, r in enumerate(rows)])
            return
        url, ids_sha1 = self._dev_ids
        hosted.fetch(url, root, ('dev_ids.tsv', ids_sha1), {'dev_ids.tsv': ids_sha1}, what='GlueMRPC dev ids')
        with io.open(os.path.join(root, 'dev_ids.tsv'), encoding='utf8') as f:
            dev_ids = {tuple(line.strip().split('\t')) for line in f}
        train, dev = [header], [header]
        for r in rows:
            (dev if (r[1], r[2]) in dev_ids else train).append('\t'.join(r[:5]) + '\n')
        _write(os.path.join(root, 'train.tsv'), train)
        _write(os.path.join(root, 'dev.tsv'), dev)


# -- Baidu ERNIE ---------------------------------------------------------------------------------------------------
_baidu_ernie_data_url = 'https://ernie.bj.bcebos.com/task_data_zh.tgz'


class _BaiduErnieDataset(TSVDataset):
    """task_data/<dataset_name>/<segment>.tsv of ERNIE's task_data.tgz (kept in root), or `filename`."""

    def __init__(self, root=None, dataset_name=None, segment=None, filename=None, **kwargs):
        if not filename:
            self._root = os.path.expanduser(root)
            rel = f'task_data/{dataset_name}/{segment}.tsv'
            # Baidu publishes no sha1 of the archive: it is checked only for having the file
            hosted.fetch(_baidu_ernie_data_url, self._root, ('task_data.tgz', None), {rel: None},
                         what=type(self).__name__)
            filename = os.path.join(self._root, *rel.split('/'))
        super().__init__(filename, **kwargs)


def _ernie_fields(segment, what, labelled, unlabelled, return_all_fields):
    indices = hosted.pick({'train': labelled, 'dev': labelled, 'test': unlabelled}, segment, what)
    return {'num_discard_samples': 1, 'field_indices': None if return_all_fields else indices}


@register(segment=['train', 'dev', 'test'])
class BaiduErnieXNLI(_BaiduErnieDataset):
    """XNLI's Chinese part as ERNIE ships it: [premise, hypothesis, label], test [premise, hypothesis].
    root: default $MXNET_HOME/datasets/baidu_ernie_data."""

    def __init__(self, segment='train', root=hosted.default_root('baidu_ernie_data'), return_all_fields=False):
        kwargs = _ernie_fields(segment, 'BaiduErnieXNLI', [0, 1, 2], [0, 1], return_all_fields)
        super().__init__(root, 'xnli', segment, **kwargs)


@register(segment=['train', 'dev', 'test'])
class BaiduErnieLCQMC(_BaiduErnieDataset):
    """LCQMC (question matching), read from `file_path` (it is not in ERNIE's archive): [text_a, text_b,
    label], test [text_a, text_b]."""

    def __init__(self, file_path, segment='train', return_all_fields=False):
        kwargs = _ernie_fields(segment, 'BaiduErnieLCQMC', [0, 1, 2], [0, 1], return_all_fields)
        super().__init__(filename=file_path, **kwargs)


@register(segment=['train', 'dev', 'test'])
class BaiduErnieChnSentiCorp(_BaiduErnieDataset):
    """ChnSentiCorp (sentiment) as ERNIE ships it: [text, label], test [text]. root: default
    $MXNET_HOME/datasets/baidu_ernie_data."""

    def __init__(self, segment='train', root=hosted.default_root('baidu_ernie_data'), return_all_fields=False):
        kwargs = _ernie_fields(segment, 'BaiduErnieChnSentiCorp', [1, 0], [1], return_all_fields)
        super().__init__(root, 'chnsenticorp', segment, **kwargs)
