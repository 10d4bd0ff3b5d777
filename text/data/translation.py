"""GluonNLP 0.10's machine translation datasets (gluonnlp.data.translation): IWSLT2015 (en-vi), WMT2014, WMT2014BPE,
WMT2016, WMT2016BPE (en-de), over the zips GluonNLP hosts at $MXNET_GLUON_REPO/gluon/dataset/<namespace>/,
extracted by base name into root (for WMT root/<'de_en'>) and checked against GluonNLP's sha1 tables by
text/data/hosted.py.

A sample is GluonNLP's: (source line, target line), both stripped, pairs where either line is empty left out;
`segment` is one segment or a list of them (concatenated). src_vocab / tgt_vocab are the hosted JSON vocabularies
(IWSLT2015 and the BPE sets) as gluonzoo Vocabs.
"""
import io
import os

from mxnet.gluon.data import ArrayDataset

from ...errors import BadInputError
from . import hosted
from .datasets import TextLineDataset, register

__all__ = ['IWSLT2015', 'WMT2014', 'WMT2014BPE', 'WMT2016', 'WMT2016BPE']


def _get_pair_key(src_lang, tgt_lang):
    return '_'.join(sorted([src_lang, tgt_lang]))


class _TranslationDataset(ArrayDataset):
    """Class tables: `_archives` {pair key: (zip, sha1)}, `_files` {pair key: {'<segment>_<lang>' or
    'vocab_<lang>': (file, sha1)}}, `_full_files` / `_de_src_files` (the newstest2014 files replacing those of
    `_files` when full=True / when src_lang='de'), `_segments`, `_dir` (the namespace under gluon/dataset/).
    The instance's `_archive_file` and `_data_file` are GluonNLP's tables for its arguments."""
    _dir = None
    _segments = []
    _archives = {}
    _files = {}
    _full_files = {}
    _de_src_files = {}

    def __init__(self, segment, src_lang, tgt_lang, root, full=False):
        name = type(self).__name__
        self._supported_segments = list(self._segments)
        self._archive_file = dict(self._archives)
        self._data_file = {k: dict(v) for k, v in self._files.items()}
        self._pair_key = _get_pair_key(src_lang, tgt_lang)
        if self._pair_key not in self._archive_file or src_lang == tgt_lang:
            pairs = ', '.join(f'{a}<->{b}' for a, b in (k.split('_') for k in sorted(self._archive_file)))
            raise BadInputError(f'{name}: src_lang={src_lang!r}, tgt_lang={tgt_lang!r} is not a supported pair: '
                                f'use {pairs}')
        overrides = self._full_files if full else (self._de_src_files if src_lang == 'de' else {})
        self._data_file[self._pair_key].update(overrides)
        segments = [segment] if isinstance(segment, str) else list(segment)
        for s in segments:
            hosted.pick(dict.fromkeys(self._supported_segments), s, name)
        self._namespace = f'gluon/dataset/{self._dir}'
        self._segment = segment
        self._src_lang, self._tgt_lang = src_lang, tgt_lang
        self._src_vocab = self._tgt_vocab = None
        self._root = os.path.expanduser(root)
        src, tgt = [], []
        for s in segments:
            src_path, tgt_path = self._get_data(s)
            src.extend(TextLineDataset(src_path))
            tgt.extend(TextLineDataset(tgt_path))
        pairs = [(a, b) for a, b in zip(src, tgt) if a and b]
        super().__init__([a for a, _ in pairs], [b for _, b in pairs])

    def _fetch_data_path(self, file_name_hashs):
        """The paths of files [(name, sha1)] in root, the archive fetched and extracted when any is missing."""
        archive = tuple(self._archive_file[self._pair_key])
        hosted.fetch(hosted.repo_file_url(self._namespace, archive[0]), self._root, archive,
                     dict(file_name_hashs), flatten=True, what=type(self).__name__)
        return [os.path.join(self._root, n) for n, _ in file_name_hashs]

    def _entry(self, key):
        table = self._data_file[self._pair_key]
        if key not in table:
            raise BadInputError(f'{type(self).__name__} has no {key.split("_")[0]} file for {key.split("_")[1]!r} '
                                f'(GluonNLP hosts none): it has {sorted(table)}')
        return table[key]

    def _get_data(self, segment):
        return self._fetch_data_path([self._entry(f'{segment}_{self._src_lang}'),
                                      self._entry(f'{segment}_{self._tgt_lang}')])

    def _vocab(self, lang):
        from ..vocab import Vocab
        [path] = self._fetch_data_path([self._entry(f'vocab_{lang}')])
        with io.open(path, 'r', encoding='utf-8') as f:
            return Vocab.from_json(f.read())

    @property
    def src_vocab(self):
        """The source language's Vocab (hosted JSON)."""
        if self._src_vocab is None:
            self._src_vocab = self._vocab(self._src_lang)
        return self._src_vocab

    @property
    def tgt_vocab(self):
        """The target language's Vocab (hosted JSON)."""
        if self._tgt_vocab is None:
            self._tgt_vocab = self._vocab(self._tgt_lang)
        return self._tgt_vocab


@register(segment=['train', 'val', 'test'])
class IWSLT2015(_TranslationDataset):
    """IWSLT'15 English-Vietnamese, as preprocessed by https://nlp.stanford.edu/projects/nmt/. segment: 'train',
    'val' (tst2012), 'test' (tst2013) or a list; src_lang / tgt_lang: 'en' <-> 'vi'; root: default
    $MXNET_HOME/datasets/iwslt2015 (no pair folder)."""
    _dir = 'iwslt2015'
    _segments = ['train', 'val', 'test']
    _archives = {'en_vi': ('iwslt15.zip', '15a05df23caccb1db458fb3f9d156308b97a217b')}
    _files = {'en_vi': {'train_en': ('train.en', '675d16d057f2b6268fb294124b1646d311477325'),
                        'train_vi': ('train.vi', 'bb6e21d4b02b286f2a570374b0bf22fb070589fd'),
                        'val_en': ('tst2012.en', 'e381f782d637b8db827d7b4d8bb3494822ec935e'),
                        'val_vi': ('tst2012.vi', '4511988ce67591dc8bcdbb999314715f21e5a1e1'),
                        'test_en': ('tst2013.en', 'd320db4c8127a85de81802f239a6e6b1af473c3d'),
                        'test_vi': ('tst2013.vi', 'af212c48a68465ceada9263a049f2331f8af6290'),
                        'vocab_en': ('vocab.en.json', 'b6f8e77a45f6dce648327409acd5d52b37a45d94'),
                        'vocab_vi': ('vocab.vi.json', '9be11a9edd8219647754d04e0793d2d8c19dc852')}}

    def __init__(self, segment='train', src_lang='en', tgt_lang='vi', root=hosted.default_root('iwslt2015')):
        super().__init__(segment, src_lang, tgt_lang, root)


_WMT14_SEGMENTS = ['train'] + [f'newstest{y}' for y in range(2009, 2015)]
_WMT16_SEGMENTS = ['train'] + [f'newstest{y}' for y in range(2012, 2017)]


@register(segment=_WMT14_SEGMENTS)
class WMT2014(_TranslationDataset):
    """WMT'14 English-German (http://www.statmt.org/wmt14/translation-task.html). segment: 'train',
    'newstest2009' ... 'newstest2014' or a list; src_lang / tgt_lang: 'en' <-> 'de'; full: newstest2014's
    "cleaned" (full) test set instead of the filtered one; root: default $MXNET_HOME/datasets/wmt2014, the files in
    root/de_en."""
    _dir = 'wmt2014'
    _segments = _WMT14_SEGMENTS
    _archives = {'de_en': ('wmt2014_de_en-b0e0e703.zip', 'b0e0e7036217ffa94f4b35a5b5d2a96a27f680a4')}
    _files = {'de_en': {
        'train_en': ('train.en', 'cec2d4c5035df2a54094076348eaf37e8b588a9b'),
        'train_de': ('train.de', '6348764640ffc40992e7de89a8c48d32a8bcf458'),
        'newstest2009_en': ('newstest2009.en', 'f8623af2de682924f9841488427e81c430e3ce60'),
        'newstest2009_de': ('newstest2009.de', 'dec03f14cb47e726ccb19bec80c645d4a996f8a9'),
        'newstest2010_en': ('newstest2010.en', '5966eb13bd7cc8855cc6b40f9797607e36e9cc80'),
        'newstest2010_de': ('newstest2010.de', 'b9af0cb004fa6996eda246d0173c191693b26025'),
        'newstest2011_en': ('newstest2011.en', '2c1d9d077fdbfe9d0e052a6e08a85ee7959479ab'),
        'newstest2011_de': ('newstest2011.de', 'efbded3d175a9d472aa5938fe22afcc55c6055ff'),
        'newstest2012_en': ('newstest2012.en', '52f05ae725be45ee4012c6e208cef13614abacf1'),
        'newstest2012_de': ('newstest2012.de', 'd9fe32143b88e6fe770843e15ee442a69ff6752d'),
        'newstest2013_en': ('newstest2013.en', '5dca5d02cf40278d8586ee7d58d58215253156a9'),
        'newstest2013_de': ('newstest2013.de', 'ddda1e7b3270cb68108858640bfb619c37ede2ab'),
        'newstest2014_en': ('newstest2014.src.en', '610c5bb4cc866ad04ab1f6f80d740e1f4435027c'),
        'newstest2014_de': ('newstest2014.ref.de', '03b02c7f60c8509ba9bb4c85295358f7c9f00d2d')}}
    _full_files = {'newstest2014_en': ('newstest2014.full.en', '528742a3a9690995d031f49d1dbb704844684976'),
                   'newstest2014_de': ('newstest2014.full.de', '2374b6a28cecbd965b73a9acc35a425e1ed81963')}
    _de_src_files = {'newstest2014_en': ('newstest2014.ref.en', 'cf23229ec6db8b85f240618d2a245f69afebed1f'),
                     'newstest2014_de': ('newstest2014.src.de', '791d644b1a031268ca19600b2734a63c7bfcecc4')}

    def __init__(self, segment='train', src_lang='en', tgt_lang='de', full=False,
                 root=hosted.default_root('wmt2014')):
        super().__init__(segment, src_lang, tgt_lang, os.path.join(root, _get_pair_key(src_lang, tgt_lang)), full)


@register(segment=_WMT14_SEGMENTS)
class WMT2014BPE(_TranslationDataset):
    """WMT'14 English-German tokenized and BPE-encoded (32000 merges, after tensorflow/nmt's wmt16_en_de.sh), with
    one shared vocabulary; arguments as WMT2014 (full: the test-full newstest2014)."""
    _dir = 'wmt2014'
    _segments = _WMT14_SEGMENTS
    _archives = {'de_en': ('wmt2014bpe_de_en-ace8f41c.zip', 'ace8f41c22c0da8729ff15f40d416ebd16738979')}
    _files = {'de_en': {
        'train_en': ('train.tok.clean.bpe.32000.en', 'e3f093b64468db7084035c9650d9eecb86a3db5f'),
        'train_de': ('train.tok.clean.bpe.32000.de', '60703ad088706a3d9d1f3328889c6f4725a36cfb'),
        'newstest2009_en': ('newstest2009.tok.bpe.32000.en', '5678547f579528a8716298e895f886e3976085e1'),
        'newstest2009_de': ('newstest2009.tok.bpe.32000.de', '32caa69023eac1750a0036780f9d511d979aed2c'),
        'newstest2010_en': ('newstest2010.tok.bpe.32000.en', '813103f7b4b472cf213fe3b2c3439e267dbc4afb'),
        'newstest2010_de': ('newstest2010.tok.bpe.32000.de', '972076a897ecbc7a3acb639961241b33fd58a374'),
        'newstest2011_en': ('newstest2011.tok.bpe.32000.en', 'c3de2d72d5e7bdbe848839c55c284fece90464ce'),
        'newstest2011_de': ('newstest2011.tok.bpe.32000.de', '7a8722aeedacd99f1aa8dffb6d8d072430048011'),
        'newstest2012_en': ('newstest2012.tok.bpe.32000.en', '876ad3c72e33d8e1ed14f5362f97c771ce6a9c7f'),
        'newstest2012_de': ('newstest2012.tok.bpe.32000.de', '57467fcba8442164d058a05eaf642a1da1d92c13'),
        'newstest2013_en': ('newstest2013.tok.bpe.32000.en', 'de06a155c3224674b2434f3ff3b2c4a4a293d238'),
        'newstest2013_de': ('newstest2013.tok.bpe.32000.de', '094084989128dd091a2fe2a5818a86bc99ecc0e7'),
        'newstest2014_en': ('newstest2014.tok.bpe.32000.src.en', '347cf4d3d5c3c46ca1220247d22c07aa90092bd9'),
        'newstest2014_de': ('newstest2014.tok.bpe.32000.ref.de', 'f66b80a0c460c524ec42731e527c54aab5507a66'),
        'vocab_en': ('vocab.bpe.32000.json', '71413f497ce3a0fa691c55277f367e5d672b27ee'),
        'vocab_de': ('vocab.bpe.32000.json', '71413f497ce3a0fa691c55277f367e5d672b27ee')}}
    _full_files = {
        'newstest2014_en': ('newstest2014.tok.bpe.32000.full.en', '6c398b61641cd39f186b417c54b171876563193f'),
        'newstest2014_de': ('newstest2014.tok.bpe.32000.full.de', 'b890a8dfc2146dde570fcbcb42e4157292e95251')}
    _de_src_files = {
        'newstest2014_en': ('newstest2014.tok.bpe.32000.ref.en', 'cd416085db722bf07cbba4ff29942fe94e966023'),
        'newstest2014_de': ('newstest2014.tok.bpe.32000.src.de', '9274d31f92141933f29a405753d5fae051fa5725')}

    def __init__(self, segment='train', src_lang='en', tgt_lang='de', full=False,
                 root=hosted.default_root('wmt2014')):
        super().__init__(segment, src_lang, tgt_lang, os.path.join(root, _get_pair_key(src_lang, tgt_lang)), full)


@register(segment=_WMT16_SEGMENTS)
class WMT2016(_TranslationDataset):
    """WMT'16 English-German. segment: 'train', 'newstest2012' ... 'newstest2016' or a list; src_lang / tgt_lang:
    'en' <-> 'de'; root: default $MXNET_HOME/datasets/wmt2016, the files in root/de_en."""
    _dir = 'wmt2016'
    _segments = _WMT16_SEGMENTS
    _archives = {'de_en': ('wmt2016_de_en-88767407.zip', '887674077b951ce949fe3e597086b826bd7574d8')}
    _files = {'de_en': {
        'train_en': ('train.en', '1be6d00c255c57183305276c5de60771e201d3b0'),
        'train_de': ('train.de', '4eec608b8486bfb65b61bda237b0c9b3c0f66f17'),
        'newstest2012_en': ('newstest2012.en', '52f05ae725be45ee4012c6e208cef13614abacf1'),
        'newstest2012_de': ('newstest2012.de', 'd9fe32143b88e6fe770843e15ee442a69ff6752d'),
        'newstest2013_en': ('newstest2013.en', '5dca5d02cf40278d8586ee7d58d58215253156a9'),
        'newstest2013_de': ('newstest2013.de', 'ddda1e7b3270cb68108858640bfb619c37ede2ab'),
        'newstest2014_en': ('newstest2014.en', '528742a3a9690995d031f49d1dbb704844684976'),
        'newstest2014_de': ('newstest2014.de', '2374b6a28cecbd965b73a9acc35a425e1ed81963'),
        'newstest2015_en': ('newstest2015.en', 'bf90439b209a496128995c4b948ad757979d0756'),
        'newstest2015_de': ('newstest2015.de', 'd69ac825fe3d5796b4990b969ad71903a38a0cd1'),
        'newstest2016_en': ('newstest2016.en', 'a99c145d5214eb1645b56d21b02a541fbe7eb3c2'),
        'newstest2016_de': ('newstest2016.de', 'fcdd3104f21eb4b9c49ba8ddef46d9b2d472b3fe')}}

    def __init__(self, segment='train', src_lang='en', tgt_lang='de', root=hosted.default_root('wmt2016')):
        super().__init__(segment, src_lang, tgt_lang, os.path.join(root, _get_pair_key(src_lang, tgt_lang)))


@register(segment=_WMT16_SEGMENTS)
class WMT2016BPE(_TranslationDataset):
    """WMT'16 English-German tokenized and BPE-encoded (tensorflow/nmt's wmt16_en_de.sh, 32000 merges), with one
    shared vocabulary; arguments as WMT2016."""
    _dir = 'wmt2016'
    _segments = _WMT16_SEGMENTS
    _archives = {'de_en': ('wmt2016bpe_de_en-8cf0dbf6.zip', '8cf0dbf6a102381443a472bcf9f181299231b496')}
    _files = {'de_en': {
        'train_en': ('train.tok.clean.bpe.32000.en', '56f37cb4d68c2f83efd6a0c555275d1fe09f36b5'),
        'train_de': ('train.tok.clean.bpe.32000.de', '58f30a0ba7f80a8840a5cf3deff3c147de7d3f68'),
        'newstest2012_en': ('newstest2012.tok.bpe.32000.en', '25ed9ad228a236f57f97bf81db1bb004bedb7f33'),
        'newstest2012_de': ('newstest2012.tok.bpe.32000.de', 'bb5622831ceea1894966fa993ebcd882cc461943'),
        'newstest2013_en': ('newstest2013.tok.bpe.32000.en', 'fa03fe189fe68cb25014c5e64096ac8daf2919fa'),
        'newstest2013_de': ('newstest2013.tok.bpe.32000.de', '7d10a884499d352c2fea6f1badafb40473737640'),
        'newstest2014_en': ('newstest2014.tok.bpe.32000.en', '7b8ea824021cc5291e6a54bb32a1fc27c2955588'),
        'newstest2014_de': ('newstest2014.tok.bpe.32000.de', 'd84497d4c425fa4e9b2b6be4b62c763086410aad'),
        'newstest2015_en': ('newstest2015.tok.bpe.32000.en', 'ca335076f67b2f9b98848f8abc2cd424386f2309'),
        'newstest2015_de': ('newstest2015.tok.bpe.32000.de', 'e633a3fb74506eb498fcad654d82c9b1a0a347b3'),
        'newstest2016_en': ('newstest2016.tok.bpe.32000.en', '5a5e36a6285823035b642aef7c1a9ec218da59f7'),
        'newstest2016_de': ('newstest2016.tok.bpe.32000.de', '135a79acb6a4f8fad0cbf5f74a15d9c0b5bf8c73'),
        'vocab_en': ('vocab.bpe.32000.json', '1c5aea0a77cad592c4e9c1136ec3b70ceeff4e8c'),
        'vocab_de': ('vocab.bpe.32000.json', '1c5aea0a77cad592c4e9c1136ec3b70ceeff4e8c')}}

    def __init__(self, segment='train', src_lang='en', tgt_lang='de', root=hosted.default_root('wmt2016')):
        super().__init__(segment, src_lang, tgt_lang, os.path.join(root, _get_pair_key(src_lang, tgt_lang)))
