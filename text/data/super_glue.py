"""GluonNLP 0.10's SuperGLUE benchmark datasets (gluonnlp.data.super_glue): each segment's '<segment>.jsonl'
from the zip '<segment>-<sha1[:8]>.zip' hosted at $MXNET_GLUON_REPO/gluon/dataset/SUPERGLUE/<task>/, extracted
flat into root (default $MXNET_HOME/datasets/superglue_<task>) through text/data/hosted.py.

Samples are GluonNLP's: each line's json object as an OrderedDict (keys in the file's order), MultiRC's a dict
{'text': the paragraph's sentences, 'questions': [...]}. SuperGlueAXb / SuperGlueAXg (the diagnostic sets) have
one segment and are not registered, as in GluonNLP.
"""
import collections
import io
import json
import os
import re

from mxnet.gluon.data import SimpleDataset

from . import hosted
from .datasets import register

__all__ = ['SuperGlueRTE', 'SuperGlueCB', 'SuperGlueWSC', 'SuperGlueWiC', 'SuperGlueCOPA', 'SuperGlueMultiRC',
           'SuperGlueBoolQ', 'SuperGlueReCoRD', 'SuperGlueAXb', 'SuperGlueAXg']


class _JsonlDataset(SimpleDataset):
    """The json objects (OrderedDicts) of the lines of .jsonl files, passed through `_read_samples`."""

    def __init__(self, filename, encoding='utf8'):
        names = filename if isinstance(filename, (tuple, list)) else (filename,)
        self._filenames = [os.path.expanduser(f) for f in names]
        self._encoding = encoding
        samples = []
        for name in self._filenames:
            with io.open(name, 'r', encoding=encoding) as f:
                samples += self._read_samples([json.loads(line, object_pairs_hook=collections.OrderedDict)
                                               for line in f])
        super().__init__(samples)

    def _read_samples(self, samples):
        return samples


class _SuperGlueDataset(_JsonlDataset):
    """`_data_file` = {segment: (segment, zip sha1, jsonl sha1)}, hosted in gluon/dataset/`_namespace`."""
    _namespace = None
    _data_file = {}

    def __init__(self, segment, root):
        name = type(self).__name__
        seg, zip_sha1, data_sha1 = hosted.pick(self._data_file, segment, name)
        self._root = os.path.expanduser(root)
        self._segment = segment
        jsonl = f'{seg}.jsonl'
        hosted.fetch_hosted(self._namespace, self._root, (f'{seg}-{data_sha1[:8]}.zip', zip_sha1),
                            {jsonl: data_sha1}, flatten=True, what=name)
        super().__init__(os.path.join(self._root, jsonl))

    def _repo_dir(self):
        return f'gluon/dataset/{self._namespace}'


def _table(train, val, test):
    return {'train': ('train',) + train, 'val': ('val',) + val, 'test': ('test',) + test}


@register(segment=['train', 'val', 'test'])
class SuperGlueRTE(_SuperGlueDataset):
    """Recognizing Textual Entailment (SuperGLUE's copy): {'premise', 'hypothesis', 'label', 'idx'}.
    segment: 'train', 'val' or 'test'; root: default $MXNET_HOME/datasets/superglue_rte."""
    _namespace = 'SUPERGLUE/RTE'
    _data_file = _table(('a4471b47b23f6d8bc2e89b2ccdcf9a3a987c69a1', '01ebec38ff3d2fdd849d3b33c2a83154d1476690'),
                        ('17f23360f77f04d03aee6c42a27a61a6378f1fd9', '410f8607d9fc46572c03f5488387327b33589069'),
                        ('ef2de5f8351ef80036c4aeff9f3b46106b4f2835', '69f9d9b4089d0db5f0605eeaebc1c7abc044336b'))

    def __init__(self, segment='train', root=hosted.default_root('superglue_rte')):
        super().__init__(segment, root)


@register(segment=['train', 'val', 'test'])
class SuperGlueCB(_SuperGlueDataset):
    """CommitmentBank (de Marneffe et al., 2019): {'premise', 'hypothesis', 'label', 'idx'}.
    root: default $MXNET_HOME/datasets/superglue_cb."""
    _namespace = 'SUPERGLUE/CB'
    _data_file = _table(('0b27cbdbbcdf2ba82da2f760e3ab40ed694bd2b9', '193bdb772d2fe77244e5a56b4d7ac298879ec529'),
                        ('e1f9dc77327eba953eb41d5f9b402127d6954ae0', 'd286ac7c9f722c2b660e764ec3be11bc1e1895f8'),
                        ('008f9afdc868b38fdd9f989babe034a3ac35dd06', 'cca70739162d54f3cd671829d009a1ab4fd8ec6a'))

    def __init__(self, segment='train', root=hosted.default_root('superglue_cb')):
        super().__init__(segment, root)


@register(segment=['train', 'val', 'test'])
class SuperGlueWSC(_SuperGlueDataset):
    """The Winograd Schema Challenge (Levesque et al., 2011): {'text', 'target', 'idx', 'label'}.
    root: default $MXNET_HOME/datasets/superglue_wsc."""
    _namespace = 'SUPERGLUE/WSC'
    _data_file = _table(('ed0fe96914cfe1ae8eb9978877273f6baed621cf', 'fa978f6ad4b014b5f5282dee4b6fdfdaeeb0d0df'),
                        ('cebec2f5f00baa686573ae901bb4d919ca5d3483', 'ea2413e4e6f628f2bb011c44e1d8bae301375211'),
                        ('3313896f315e0cb2bb1f24f3baecec7fc93124de', 'a47024aa81a5e7c9bc6e957b36c97f1d1b5da2fd'))

    def __init__(self, segment='train', root=hosted.default_root('superglue_wsc')):
        super().__init__(segment, root)


@register(segment=['train', 'val', 'test'])
class SuperGlueWiC(_SuperGlueDataset):
    """Word-in-Context (Pilehvar and Camacho-Collados, 2019): {'word', 'sentence1', 'sentence2', 'idx',
    'label', 'start1', ...}. root: default $MXNET_HOME/datasets/superglue_wic."""
    _namespace = 'SUPERGLUE/WiC'
    _data_file = _table(('ec1e265bbdcde1d8da0b56948ed30d86874b1f12', '831a58c553def448e1b1d0a8a36e2b987c81bc9c'),
                        ('2046c43e614d98d538a03924335daae7881f77cf', '73b71136a2dc2eeb3be7ab455a08f20b8dbe7526'),
                        ('77af78a49aac602b7bbf080a03b644167b781ba9', '1be93932d46c8f8dc665eb7af6703c56ca1b1e08'))

    def __init__(self, segment='train', root=hosted.default_root('superglue_wic')):
        super().__init__(segment, root)


@register(segment=['train', 'val', 'test'])
class SuperGlueCOPA(_SuperGlueDataset):
    """Choice of Plausible Alternatives (Roemmele et al., 2011): {'premise', 'choice1', 'choice2', 'question',
    'label', 'idx'}. root: default $MXNET_HOME/datasets/superglue_copa."""
    _namespace = 'SUPERGLUE/COPA'
    _data_file = _table(('96d20163fa8371e2676a50469d186643a07c4e7b', '5bb9c8df7b165e831613c8606a20cbe5c9622cc3'),
                        ('acc13ad855a1d2750a3b746fb0cfe3ca6e8b6615', 'c8b908d880ffaf69bd897d6f2a1f23b8c3a732d4'),
                        ('89347d7884e71b49dd73c6bcc317aef64bb1bac8', '735f39f3d31409d83b16e56ad8aed7725ef5ddd5'))

    def __init__(self, segment='train', root=hosted.default_root('superglue_copa')):
        super().__init__(segment, root)


@register(segment=['train', 'val', 'test'])
class SuperGlueMultiRC(_SuperGlueDataset):
    """Multi-Sentence Reading Comprehension (Khashabi et al., 2018): each sample a dict {'text': the paragraph's
    sentences ('<b>Sent N: </b>' markers removed, split at '<br>'), 'questions': its questions}.
    root: default $MXNET_HOME/datasets/superglue_multirc."""
    _namespace = 'SUPERGLUE/MultiRC'
    _data_file = _table(('28d908566004fb84ff81828db8955f86fb771929', '2ef471a038f0b8116bf056da6440f290be7ab96e'),
                        ('af93161bb987fbafe68111bce87dece4472b4ca0', '2364ed153f4f4e8cadde78680229a8544ba427db'),
                        ('eabf1e8b426a8370cd3755a99412c7871a47ffa4', 'd6d1107520d535332969ffe5f5b9bd7af2a33072'))

    def __init__(self, segment='train', root=hosted.default_root('superglue_multirc')):
        super().__init__(segment, root)

    def _read_samples(self, samples):
        return [{'text': self._split_text(s['paragraph']['text']), 'questions': s['paragraph']['questions']}
                for s in samples]

    def _split_text(self, text):
        return [s for s in re.sub(r'<b>Sent .{1,2}: </b>', '', text).split('<br>') if s]


@register(segment=['train', 'val', 'test'])
class SuperGlueBoolQ(_SuperGlueDataset):
    """Boolean Questions (Clark et al., 2019): {'question', 'passage', 'idx', 'label'}.
    root: default $MXNET_HOME/datasets/superglue_boolq."""
    _namespace = 'SUPERGLUE/BoolQ'
    _data_file = _table(('89507ff3015c3212b72318fb932cfb6d4e8417ef', 'd5be523290f49fc0f21f4375900451fb803817c0'),
                        ('fd39562fc2c9d0b2b8289d02a8cf82aa151d0ad4', '9b09ece2b1974e4da20f0173454ba82ff8ee1710'),
                        ('a805d4bd03112366d548473a6848601c042667d3', '98c308620c6d6c0768ba093858c92e5a5550ce9b'))

    def __init__(self, segment='train', root=hosted.default_root('superglue_boolq')):
        super().__init__(segment, root)


@register(segment=['train', 'val', 'test'])
class SuperGlueReCoRD(_SuperGlueDataset):
    """Reading Comprehension with Commonsense Reasoning (Zhang et al., 2018): {'source', 'passage', 'qas',
    'idx'}. root: default $MXNET_HOME/datasets/superglue_record."""
    _namespace = 'SUPERGLUE/ReCoRD'
    _data_file = _table(('047282c912535c9a3bcea519935fde882feb619d', '65592074cefde2ecd1b27ce7b35eb8beb86c691a'),
                        ('442d8470bff2c9295231cd10262a7abf401edc64', '9d1850e4dfe2eca3b71bfea191d5f4b412c65309'),
                        ('fc639a18fa87befdc52f14c1092fb40475bf50d0', 'b79b22f54b5a49f98fecd05751b122ccc6947c81'))

    def __init__(self, segment='train', root=hosted.default_root('superglue_record')):
        super().__init__(segment, root)


class SuperGlueAXb(_SuperGlueDataset):
    """The broad-coverage diagnostic set (one segment, 'AX-b'): {'sentence1', 'sentence2', 'idx', 'label'}.
    root: default $MXNET_HOME/datasets/superglue_ax_b."""
    _namespace = 'SUPERGLUE/AX-b'
    _data_file = {'AX-b': ('AX-b', '398c5a376eb436f790723cd217ac040334140000',
                           '50fd8ac409897b652daa4b246917097c3c394bc8')}

    def __init__(self, root=hosted.default_root('superglue_ax_b')):
        super().__init__('AX-b', root)


class SuperGlueAXg(_SuperGlueDataset):
    """The Winogender diagnostic set (one segment, 'AX-g'): {'hypothesis', 'idx', 'label', 'premise', ...}.
    root: default $MXNET_HOME/datasets/superglue_ax_g."""
    _namespace = 'SUPERGLUE/AX-g'
    _data_file = {'AX-g': ('AX-g', 'd8c92498496854807dfeacd344eddf466d7f468a',
                           '8a8cbfe00fd88776a2a2f20b477e5b0c6cc8ebae')}

    def __init__(self, root=hosted.default_root('superglue_ax_g')):
        super().__init__('AX-g', root)
