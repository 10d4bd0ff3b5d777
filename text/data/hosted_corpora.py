"""GluonNLP 0.10's hosted language-model corpora (gluonnlp.data.corpora): WikiText-2/103 (word level and
raw), Text8, Enwik8, Fil9 (CorpusDatasets) and GBWStream (a SimpleDatasetStream of CorpusDatasets), over the
files GluonNLP downloads from $MXNET_GLUON_REPO/gluon/dataset/<namespace>/ into $MXNET_HOME/datasets/<name>
(text/data/hosted.py).

Samples are GluonNLP's: WikiText2('val')[0] == '=' (flattened tokens, '<eos>' ending each line),
WikiText2Raw(...)[0] an int (a utf-8 byte), Text8 the text cut into samples of max_sentence_length tokens.
"""
import glob
import hashlib
import os

from ...errors import ChecksumError
from . import hosted
from ..vocab import EOS_TOKEN
from .datasets import CorpusDataset, SimpleDatasetStream, register

__all__ = ['WikiText2', 'WikiText103', 'WikiText2Raw', 'WikiText103Raw', 'Text8', 'Fil9', 'Enwik8', 'GBWStream']


def _split_words(s):
    return s.split()


def _utf8_bytes(s):
    return s.encode('utf-8')


class _HostedCorpus(CorpusDataset):
    """A CorpusDataset over one segment's file of a hosted zip: `_archive_file` = (name, sha1), `_data_file` =
    {segment: (file name, sha1)}, in `_namespace`; `_flatten_archive` puts every member straight into root."""
    _namespace = None
    _archive_file = (None, None)
    _data_file = {}
    _flatten_archive = False

    def __init__(self, segment, root, **kwargs):
        self._root = os.path.expanduser(root)
        self._segment = segment
        super().__init__(self._get_data(), **kwargs)

    def _get_data(self):
        name, sha1 = hosted.pick(self._data_file, self._segment, type(self).__name__)
        hosted.fetch_hosted(self._namespace, self._root, self._archive_file, {name: sha1},
                            flatten=self._flatten_archive, what=type(self).__name__)
        return os.path.join(self._root, name)


class _WikiText(_HostedCorpus):
    _flatten_archive = True

    def __init__(self, segment, flatten, skip_empty, tokenizer, bos, eos, root, **kwargs):
        super().__init__(segment, root, flatten=flatten, skip_empty=skip_empty, tokenizer=tokenizer, bos=bos,
                         eos=eos, **kwargs)


@register(segment=['train', 'val', 'test'])
class WikiText2(_WikiText):
    """WikiText-2 word level (Salesforce research; CC BY-SA), a CorpusDataset flattened by default: each sample a
    token, '<eos>' ending each line. segment: 'train', 'val' or 'test'; root: default
    $MXNET_HOME/datasets/wikitext-2."""
    _namespace = 'wikitext-2'
    _archive_file = ('wikitext-2-v1.zip', '3c914d17d80b1459be871a5039ac23e752a53cbe')
    _data_file = {'train': ('wiki.train.tokens', '863f29c46ef9d167fff4940ec821195882fe29d1'),
                  'val': ('wiki.valid.tokens', '0418625c8b4da6e4b5c7a0b9e78d4ae8f7ee5422'),
                  'test': ('wiki.test.tokens', 'c7b8ce0aa086fb34dab808c5c49224211eb2b172')}

    def __init__(self, segment='train', flatten=True, skip_empty=True, tokenizer=_split_words, bos=None,
                 eos=EOS_TOKEN, root=hosted.default_root('wikitext-2'), **kwargs):
        super().__init__(segment, flatten, skip_empty, tokenizer, bos, eos, root, **kwargs)


@register(segment=['train', 'val', 'test'])
class WikiText103(_WikiText):
    """WikiText-103 word level, as WikiText2; root: default $MXNET_HOME/datasets/wikitext-103."""
    _namespace = 'wikitext-103'
    _archive_file = ('wikitext-103-v1.zip', '0aec09a7537b58d4bb65362fee27650eeaba625a')
    _data_file = {'train': ('wiki.train.tokens', 'b7497e2dfe77e72cfef5e3dbc61b7b53712ac211'),
                  'val': ('wiki.valid.tokens', 'c326ac59dc587676d58c422eb8a03e119582f92b'),
                  'test': ('wiki.test.tokens', '8a5befc548865cec54ed4273cf87dbbad60d1e47')}

    def __init__(self, segment='train', flatten=True, skip_empty=True, tokenizer=_split_words, bos=None,
                 eos=EOS_TOKEN, root=hosted.default_root('wikitext-103'), **kwargs):
        super().__init__(segment, flatten, skip_empty, tokenizer, bos, eos, root, **kwargs)


@register(segment=['train', 'val', 'test'])
class WikiText2Raw(_WikiText):
    """WikiText-2 character level: the raw text, each sample by default a utf-8 byte (an int); tokenizer=None
    gives the lines as strings. root: default $MXNET_HOME/datasets/wikitext-2."""
    _namespace = 'wikitext-2'
    _archive_file = ('wikitext-2-raw-v1.zip', '3b6993c138fc61c95f7fffd900fef68f8411371d')
    _data_file = {'train': ('wiki.train.raw', 'd33faf256327882db0edc7c67cd098d1051a2112'),
                  'val': ('wiki.valid.raw', 'db78d4db83700cba1b1bf4a9381087043db2876d'),
                  'test': ('wiki.test.raw', '6f1fe2054a940eebfc76b284b09680763b37f5ea')}

    def __init__(self, segment='train', flatten=True, skip_empty=True, bos=None, eos=None, tokenizer=_utf8_bytes,
                 root=hosted.default_root('wikitext-2'), **kwargs):
        super().__init__(segment, flatten, skip_empty, tokenizer, bos, eos, root, **kwargs)


@register(segment=['train', 'val', 'test'])
class WikiText103Raw(_WikiText):
    """WikiText-103 character level, as WikiText2Raw; root: default $MXNET_HOME/datasets/wikitext-103."""
    _namespace = 'wikitext-103'
    _archive_file = ('wikitext-103-raw-v1.zip', '86f2375181b9247049d9c9205fad2b71b274b568')
    _data_file = {'train': ('wiki.train.raw', '3d06627c15e834408cfee91293f862c11c1cc9ef'),
                  'val': ('wiki.valid.raw', 'db78d4db83700cba1b1bf4a9381087043db2876d'),
                  'test': ('wiki.test.raw', '6f1fe2054a940eebfc76b284b09680763b37f5ea')}

    def __init__(self, segment='train', flatten=True, skip_empty=True, tokenizer=_utf8_bytes, bos=None, eos=None,
                 root=hosted.default_root('wikitext-103'), **kwargs):
        super().__init__(segment, flatten, skip_empty, tokenizer, bos, eos, root, **kwargs)


class _LargeTextCompressionBenchmark(_HostedCorpus):
    """Matt Mahoney's Large Text Compression Benchmark files (http://mattmahoney.net/dc/textdata.html), hosted
    in namespace large_text_compression_benchmark; the zip's members keep their paths."""
    _namespace = 'large_text_compression_benchmark'

    archive_file = (None, None)  # GluonNLP's public names of the tables, set by each corpus
    data_file = {}

    def __init__(self, root, segment, **kwargs):
        super().__init__(segment, root, **kwargs)

    @property
    def _archive_file(self):
        return self.archive_file

    @property
    def _data_file(self):
        return self.data_file

    def _cut(self, max_sentence_length):
        # GluonNLP's order: each line's tokens in windows of max_sentence_length
        self._data = [line[i:i + max_sentence_length] for line in self._data
                      for i in range(0, len(line), max_sentence_length)]


class Text8(_LargeTextCompressionBenchmark):
    """Text8: the first 10**8 bytes of the cleaned English Wikipedia dump of 2006-03-03, one line of words, cut
    into samples of `max_sentence_length` tokens (None or 0: the whole line). root: default
    $MXNET_HOME/datasets/text8."""
    archive_file = ('text8-6c70299b.zip', '6c70299b93b7e1f927b42cd8f6ac1a31547c7a2e')
    data_file = {'train': ('text8', '0dc3edebc970dcc96137e7deda4d9995af9d93de')}

    def __init__(self, root=hosted.default_root('text8'), segment='train', max_sentence_length=10000):
        self._max_sentence_length = max_sentence_length
        super().__init__(root=root, segment=segment)
        if max_sentence_length:
            self._cut(max_sentence_length)


class Fil9(_LargeTextCompressionBenchmark):
    """Fil9: the first 10**9 bytes of the English Wikipedia dump, cleaned, as Text8 but not cut unless
    `max_sentence_length` is given. root: default $MXNET_HOME/datasets/fil9."""
    archive_file = ('fil9-e2a6a602.zip', 'e2a6a602be8d3f9712c92423581aa47e7ffd5906')
    data_file = {'train': ('fil9', '08caf9b1d5600233aa19cb6b25d7b798558304d3')}

    def __init__(self, root=hosted.default_root('fil9'), segment='train', max_sentence_length=None):
        self._max_sentence_length = max_sentence_length
        super().__init__(root=root, segment=segment)
        if max_sentence_length is not None:
            self._cut(max_sentence_length)


class Enwik8(_LargeTextCompressionBenchmark):
    """Enwik8: the first 10**8 bytes of the English Wikipedia dump, split and preprocessed as awd-lstm-lm's
    prep_enwik8.py (each sample a line of byte values as tokens). segment: 'train', 'val', 'test' and their
    'raw' forms 'trainraw', 'valraw', 'testraw'. root: default $MXNET_HOME/datasets/enwik8."""
    archive_file = ('enwik8-d25f6043.zip', 'd25f60433af3c02ec6d2dec2435e1732f42a1a68')
    data_file = {
        'test': ('test.txt', '1389fdf312b253350a959d4fd63e5e9ae7fe74d4'),
        'train': ('train.txt', 'eff044567358678cd81b9eda516cb146fdba7360'),
        'val': ('valid.txt', '2076ad59caee0099b6c68e66f92d7ef7d0975113'),
        'testraw': ('test.txt.raw', 'c30edaac372090c10a562b8777a6703fa3dd9f7e'),
        'trainraw': ('train.txt.raw', 'd8a8d0ca2a95f20c9d243cb60a579a59d12b0f48'),
        'valraw': ('valid.txt.raw', '2e6218a15c1d5c3c2d23f8092bf07bc24da0d922')}

    def __init__(self, root=hosted.default_root('enwik8'), segment: str = 'train'):
        super().__init__(root=root, segment=segment)


class GBWStream(SimpleDatasetStream):
    """The One Billion Word benchmark (http://www.statmt.org/lm-benchmark, Apache), word level: a stream of
    CorpusDatasets (flatten=False), one per shard file, 'train' shards in random order, 'test' in order. The
    shards' concatenated sha1 is checked; the archive (about 1.7 GB) is hosted in namespace gbw. root: default
    $MXNET_HOME/datasets/gbw."""
    _archive_data = ('1-billion-word-language-modeling-benchmark-r13output.tar.gz',
                     '4df859766482e12264a5a9d9fb7f0e276020447d')
    _archive_vocab = ('gbw-ebb1a287.zip', '63b335dcc27b6804d0a14acb88332d2602fe0f59')
    _data_file = {'train': ('training-monolingual.tokenized.shuffled', 'news.en-00*-of-00100',
                            '5e0d7050b37a99fd50ce7e07dc52468b2a9cd9e8'),
                  'test': ('heldout-monolingual.tokenized.shuffled', 'news.en.heldout-00000-of-00050',
                           '0a8e2b7496ba0b5c05158f282b9b351356875445')}
    _vocab_file = ('gbw-ebb1a287.vocab', 'ebb1a287ca14d8fa6f167c3a779e5e7ed63ac69f')
    _top = '1-billion-word-language-modeling-benchmark-r13output'

    def __init__(self, segment='train', skip_empty=True, bos=None, eos=EOS_TOKEN,
                 root=hosted.default_root('gbw')):
        self._root = os.path.expanduser(root)
        self._dir = os.path.join(self._root, self._top)
        subdir, pattern, self._data_hash = hosted.pick(self._data_file, segment, 'GBWStream')
        self._subdir = os.path.join(self._dir, subdir)
        self._file_pattern = os.path.join(self._subdir, pattern)
        self._get_data()
        super().__init__(dataset=CorpusDataset, file_pattern=self._file_pattern, skip_empty=skip_empty, bos=bos,
                         eos=eos, file_sampler='random' if segment == 'train' else 'sequential')

    def _shards_sha1(self):
        digest = hashlib.sha1()
        for name in sorted(glob.glob(self._file_pattern)):
            with open(name, 'rb') as f:
                for chunk in iter(lambda: f.read(1 << 20), b''):
                    digest.update(chunk)
        return digest.hexdigest()

    def _get_data(self):
        if os.path.isdir(self._subdir) and self._shards_sha1() == self._data_hash:
            return
        # the shards are checked together (below), not one by one
        hosted.fetch_hosted('gbw', self._root, self._archive_data, {}, what='GBWStream')
        got = self._shards_sha1()
        if got != self._data_hash:
            raise ChecksumError(f'GBWStream: the shards {self._file_pattern} have sha1 {got}, not '
                                       f'{self._data_hash}: remove {self._dir} and download again')

    def _get_vocab(self):
        name, sha1 = self._vocab_file
        hosted.fetch_hosted('vocab', self._root, self._archive_vocab, {name: sha1}, what='GBWStream vocab')
        return os.path.join(self._root, name)

    @property
    def vocab(self):
        """The benchmark's vocabulary (a Vocab), from the hosted gluon/dataset/vocab/gbw-ebb1a287.zip."""
        from ..vocab import Vocab
        with open(self._get_vocab(), encoding='utf-8') as f:
            return Vocab.from_json(f.read())
