"""GluonNLP 0.10's published checkpoints and vocabularies, as records beside the archs they fit.

Each CHECKPOINTS row is one entry of GluonNLP's model store (`_model_sha1` in gluonnlp/model/{bert,language_model,
transformer,elmo}.py), each VOCABS row one of its vocabulary table (`_vocab_sha1` in gluonnlp/data/utils.py);
tests/text/test_gluonnlp_records.py checks both against the installed gluonnlp. A checkpoint is `arch.tag`, the tag
its dataset name with '.' and '-' made '_' (`standard_lstm_lm_200.wikitext_2`: a tag holds no dot); its file is
GluonNLP's own `{arch}_{dataset}-{sha1[:8]}.params` (the record's `store_name`) in `{repo}gluon/models/`, fetched and
sha1-checked by the store like any mirror record, `$GLUONZOO_REPO` included.

A vocabulary is its own small record, Vocabulary, not a Weights: it belongs to a dataset rather than an arch, one
file serves several checkpoints (WMT2014's source and target, three uncased BERT datasets), it holds no parameters,
is no `.params` file and lives under `{repo}gluon/dataset/vocab/`. It names its file and mirror path as a Weights
does, so the store fetches it by the one path (cache, $GLUONZOO_PATH, lock, sha1, one retry, $GLUONZOO_OFFLINE).
"""
import dataclasses
import re
from types import MappingProxyType
from typing import Mapping

from ... import store
from ...errors import BadInputError
from ...weights import GLUONCV_REPO, Source, Weights

#: GluonNLP's public mirror (gluonnlp/base.py `_get_repo_url`): the same bucket as GluonCV's
GLUONNLP_REPO = GLUONCV_REPO

# (arch, dataset name, sha1, trainable parameters as gluonzoo's builder counts them with the record's config)
CHECKPOINTS = [
    ('awd_lstm_lm_1150', 'wikitext-2', 'f9562ed05d9bcc7e1f5b7f3c81a1988019878038', 33_556_078),
    ('awd_lstm_lm_600', 'wikitext-2', 'e952becc7580a0b5a6030aab09d0644e9a13ce18', 12_140_078),
    ('bert_12_768_12', 'biobert_v1.0_pmc_cased', 'a07780385add682f609772e81ec64aca77c9fb05', 108_310_272),
    ('bert_12_768_12', 'biobert_v1.0_pubmed_cased', '280ad1cc487db90489f86189e045e915b35e7489', 108_310_272),
    ('bert_12_768_12', 'biobert_v1.0_pubmed_pmc_cased', '8a8c75441f028a6b928b11466f3d30f4360dfff5', 108_310_272),
    ('bert_12_768_12', 'biobert_v1.1_pubmed_cased', '55f15c5d23829f6ee87622b68711b15fef50e55b', 108_310_272),
    ('bert_12_768_12', 'book_corpus_wiki_en_cased', '5656dac6965b5054147b0375337d5a6a7a2ff832', 108_932_934),
    ('bert_12_768_12', 'book_corpus_wiki_en_uncased', '75cc780f085e8007b3bf6769c6348bb1ff9a3074', 110_106_428),
    ('bert_12_768_12', 'clinicalbert_uncased', '60281c98ba3572dfdaac75131fa96e2136d70d5c', 109_483_778),
    ('bert_12_768_12', 'kobert_news_wiki_ko_cased', 'ccf0593e03b91b73be90c191d885446df935eb64', 92_788_548),
    ('bert_12_768_12', 'openwebtext_book_corpus_wiki_en_uncased', 'a56e24015a777329c795eed4ed21c698af03c9ff',
     110_106_428),
    ('bert_12_768_12', 'scibert_basevocab_cased', '8e86e5de55d6dae99123312cd8cdd8183a75e057', 108_932_934),
    ('bert_12_768_12', 'scibert_basevocab_uncased', '75acea8e8386890120533d6c0032b0b3fcb2d536', 110_106_428),
    ('bert_12_768_12', 'scibert_scivocab_cased', 'adf9c81e72ac286a37b9002da8df9e50a753d98b', 110_563_214),
    ('bert_12_768_12', 'scibert_scivocab_uncased', '6c82d963fc8fa79c35dd6cb3e1725d1e5b6aa7d7', 110_543_220),
    ('bert_12_768_12', 'wiki_cn_cased', '885ebb9adc249a170c5576e90e88cfd1bbd98da6', 102_882_442),
    ('bert_12_768_12', 'wiki_multilingual_cased', 'b0f57a207f85a7d361bb79de80756a8c9a4276f7', 178_566_653),
    ('bert_12_768_12', 'wiki_multilingual_uncased', '237f39851b24f0b56d70aa20efd50095e3926e26', 168_055_961),
    ('bert_24_1024_16', 'book_corpus_wiki_en_cased', '4e685a966f8bf07d533bd6b0e06c04136f23f620', 334_661_958),
    ('bert_24_1024_16', 'book_corpus_wiki_en_uncased', '24551e1446180e045019a87fc4ffbf714d99c0b5', 336_226_108),
    ('big_rnn_lm_2048_512', 'gbw', '6bb3e991eb4439fabfe26c129da2fe15a324e918', 822_761_343),
    ('distilbert_6_768_12', 'distilbert_book_corpus_wiki_en_uncased', 'e0864cc40b3d00fcfb1a878a728650d9148c9a1d',
     66_362_880),
    ('elmo_2x1024_128_2048cnn_1xhighway', 'gbw', '8c9257d9153436e9eb692f9ec48d8ee07e2120f8', 13_609_696),
    ('elmo_2x2048_256_2048cnn_1xhighway', 'gbw', '85eab56a3c90c6866dd8d13b50449934be58a2e6', 28_060_512),
    ('elmo_2x4096_512_2048cnn_2xhighway', '5bw', '79af623840c13b10cb891d20c207afc483ab27b9', 93_666_400),
    ('elmo_2x4096_512_2048cnn_2xhighway', 'gbw', '5608a09f33c52e5ab3f043b1793481ab448a0347', 93_666_400),
    ('ernie_12_768_12', 'baidu_ernie_uncased', 'f869f3f89e4237a769f1b7edcbdfe8298b480052', 100_477_778),
    ('roberta_12_768_12', 'openwebtext_ccnews_stories_books_cased', '5cf21fcddb5ae1a4c21c61201643460c9d65d3b0',
     124_695_129),
    ('roberta_24_1024_16', 'openwebtext_ccnews_stories_books_cased', 'd1b7163e9628e2fd51c9a9f3a0dc519d4fc24add',
     355_408_985),
    ('standard_lstm_lm_1500', 'wikitext-2', 'a416351377d837ef12d17aae27739393f59f0b82', 85_974_278),
    ('standard_lstm_lm_200', 'wikitext-2', 'b233c700e80fb0846c17fe14846cb7e08db3fd51', 7_332_078),
    ('standard_lstm_lm_650', 'wikitext-2', '631f39040cd65b49f5c8828a0aba65606d73a9cb', 28_434_378),
    ('transformer_en_de_512', 'WMT2014', 'e25287c5a924b7025e08d626f02626d5fa3af2d1', 62_979_002),
]

# name: (sha1, file extension, special tokens GluonNLP passes when it reads the file, number of tokens). The sizes
# are the word-embedding rows of the checkpoints that use them (not re-read here: the files are not fetched offline);
# a vocabulary whose size differs from its checkpoint's is refused when loaded (gluonzoo.text.get_model).
VOCABS = {
    'wikitext-2': ('be36dc5238c2e7d69720881647ab72eb506d0131', '.vocab', {}, 33278),
    'gbw': ('ebb1a287ca14d8fa6f167c3a779e5e7ed63ac69f', '.vocab', {}, 793471),
    'WMT2014_src': ('230ebb817b1d86950d71e2e765f192a4e4f34415', '.vocab', {}, 36794),
    'WMT2014_tgt': ('230ebb817b1d86950d71e2e765f192a4e4f34415', '.vocab', {}, 36794),
    'book_corpus_wiki_en_cased': ('2d62af22535ed51f35cc8e2abb607723c89c2636', '.vocab', {}, 28996),
    'book_corpus_wiki_en_uncased': ('a66073971aa0b1a262453fe51342e57166a8abcf', '.vocab', {}, 30522),
    'openwebtext_book_corpus_wiki_en_uncased': ('a66073971aa0b1a262453fe51342e57166a8abcf', '.vocab', {}, 30522),
    'openwebtext_ccnews_stories_books_cased': ('2b804f8f90f9f93c07994b703ce508725061cf43', '.vocab', {}, 50265),
    'wiki_multilingual_cased': ('0247cb442074237c38c62021f36b7a4dbd2e55f7', '.vocab', {}, 119547),
    'distilbert_book_corpus_wiki_en_uncased': ('80ef760a6bdafec68c99b691c94ebbb918c90d02', '.vocab', {}, 30522),
    'wiki_cn_cased': ('ddebd8f3867bca5a61023f73326fb125cf12b4f5', '.vocab', {}, 21128),
    'wiki_multilingual_uncased': ('2b2514cc539047b9179e9d98a4e68c36db05c97a', '.vocab', {}, 105879),
    'scibert_scivocab_uncased': ('2d2566bfc416790ab2646ab0ada36ba628628d60', '.vocab', {}, 31090),
    'scibert_scivocab_cased': ('2c714475b521ab8542cb65e46259f6bfeed8041b', '.vocab', {}, 31116),
    'scibert_basevocab_uncased': ('80ef760a6bdafec68c99b691c94ebbb918c90d02', '.vocab', {}, 30522),
    'scibert_basevocab_cased': ('a4ff6fe1f85ba95f3010742b9abc3a818976bb2c', '.vocab', {}, 28996),
    'biobert_v1.0_pmc_cased': ('a4ff6fe1f85ba95f3010742b9abc3a818976bb2c', '.vocab', {}, 28996),
    'biobert_v1.0_pubmed_cased': ('a4ff6fe1f85ba95f3010742b9abc3a818976bb2c', '.vocab', {}, 28996),
    'biobert_v1.0_pubmed_pmc_cased': ('a4ff6fe1f85ba95f3010742b9abc3a818976bb2c', '.vocab', {}, 28996),
    'biobert_v1.1_pubmed_cased': ('a4ff6fe1f85ba95f3010742b9abc3a818976bb2c', '.vocab', {}, 28996),
    'clinicalbert_uncased': ('80ef760a6bdafec68c99b691c94ebbb918c90d02', '.vocab', {}, 30522),
    'baidu_ernie_uncased': ('223553643220255e2a0d4c60e946f4ad7c719080', '.vocab', {}, 18000),
    'openai_webtext': ('f917dc7887ce996068b0a248c8d89a7ec27b95a1', '.vocab', {}, 50257),
    'xlnet_126gb': ('0d74490383bbc5c62b8bcea74d8b74a1bb1280b3', '.vocab', {}, 32000),
    'kobert_news_wiki_ko_cased': ('f86b1a8355819ba5ab55e7ea4a4ec30fdb5b084f', '.spiece', {'padding_token': '[PAD]'},
                                  8002),
}

# GluonNLP's published figures, read from its docs (dmlc/gluon-nlp scripts/language_model/index.rst @01149949:
# test perplexity; scripts/machine_translation/index.rst @7b9799fd: mteval-v13a BLEU, on the page that names the
# file e25287c5), not re-measured here. Its docs give none for the BERT-family and ELMo files.
_LM_DOCS = 'GluonNLP docs, scripts/language_model/index.rst (published, not re-measured)'
PUBLISHED = {
    'awd_lstm_lm_1150_wikitext-2': {'ppl': 65.62, 'split': 'WikiText-2 test', 'source': _LM_DOCS},
    'awd_lstm_lm_600_wikitext-2': {'ppl': 80.67, 'split': 'WikiText-2 test', 'source': _LM_DOCS},
    'standard_lstm_lm_1500_wikitext-2': {'ppl': 82.29, 'split': 'WikiText-2 test', 'source': _LM_DOCS},
    'standard_lstm_lm_650_wikitext-2': {'ppl': 86.91, 'split': 'WikiText-2 test', 'source': _LM_DOCS},
    'standard_lstm_lm_200_wikitext-2': {'ppl': 101.64, 'split': 'WikiText-2 test', 'source': _LM_DOCS},
    'big_rnn_lm_2048_512_gbw': {'ppl': 43.62, 'split': 'One Billion Word test', 'source': _LM_DOCS},
    'transformer_en_de_512_WMT2014': {
        'bleu': 27.09, 'split': 'WMT14 newstest2014 (filtered), mteval-v13a',
        'source': 'GluonNLP docs, scripts/machine_translation/index.rst (published, not re-measured)'},
}

# GluonNLP's notes on its BERT files (bert.py docstrings): these were converted without the masked-LM decoder
# and / or the next-sentence classifier, so the net that fits them is built without
_HEADLESS = {'biobert_v1.0_pmc_cased': ('use_decoder', 'use_classifier'),
             'biobert_v1.0_pubmed_cased': ('use_decoder', 'use_classifier'),
             'biobert_v1.0_pubmed_pmc_cased': ('use_decoder', 'use_classifier'),
             'biobert_v1.1_pubmed_cased': ('use_decoder', 'use_classifier'),
             'clinicalbert_uncased': ('use_decoder',)}

# the record get_model(arch, pretrained=True) loads: GluonNLP's docs' first dataset of each arch
_DEFAULT = {'bert_12_768_12': 'book_corpus_wiki_en_uncased', 'bert_24_1024_16': 'book_corpus_wiki_en_uncased',
            'elmo_2x4096_512_2048cnn_2xhighway': 'gbw'}

# (name prefix, task, paper), first match wins
_FAMILIES = [
    ('bert_', 'text-embedding', 'https://arxiv.org/abs/1810.04805'),
    ('ernie_', 'text-embedding', 'https://arxiv.org/abs/1904.09223'),
    ('roberta_', 'text-embedding', 'https://arxiv.org/abs/1907.11692'),
    ('distilbert_', 'text-embedding', 'https://arxiv.org/abs/1910.01108'),
    ('standard_lstm_lm_', 'language-model', 'https://arxiv.org/abs/1409.2329'),
    ('awd_lstm_lm_', 'language-model', 'https://arxiv.org/abs/1708.02182'),
    ('big_rnn_lm_', 'language-model', 'https://arxiv.org/abs/1602.02410'),
    ('elmo_', 'text-embedding', 'https://arxiv.org/abs/1802.05365'),
    ('transformer_', 'translation', 'https://arxiv.org/abs/1706.03762'),
]
_BERT_LIKE = ('bert_', 'ernie_', 'roberta_', 'distilbert_')


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """One GluonNLP vocabulary file: `{name}-{sha1[:8]}{ext}` inside `{repo}gluon/dataset/vocab/{same}.zip`."""
    name: str
    sha1: str
    ext: str
    size: int
    special_tokens: Mapping = dataclasses.field(default_factory=dict)
    url: str = GLUONNLP_REPO

    def __post_init__(self):
        object.__setattr__(self, 'special_tokens', MappingProxyType(dict(self.special_tokens)))
        if not re.match(r'^[0-9a-f]{40}$', self.sha1) or self.ext not in ('.vocab', '.spiece') or self.size <= 0:
            raise ValueError(f'bad vocabulary record {self.name}: sha1 {self.sha1!r}, ext {self.ext!r}, '
                             f'size {self.size!r}')

    @property
    def file_stem(self):
        return f'{self.name}-{self.sha1[:8]}'

    @property
    def file_name(self):
        return self.file_stem + self.ext

    @property
    def mirror_path(self):
        return f'gluon/dataset/vocab/{self.file_stem}.zip'

    @property
    def source(self):
        """A mirror source, as the store reads one: `url`, or $GLUONZOO_REPO when set."""
        return Source(kind='mirror', url=self.url)


VOCABULARIES = {name: Vocabulary(name, sha1, ext, size, special)
                for name, (sha1, ext, special, size) in VOCABS.items()}


def tag_of(dataset):
    """The record tag of a GluonNLP dataset name: '.' and '-' become '_' (`wikitext-2` -> `wikitext_2`)."""
    return re.sub(r'[.-]', '_', dataset)


def dataset_of(w):
    """The GluonNLP dataset name of a GluonNLP checkpoint record (its file is `{arch}_{dataset}-...`)."""
    return w.store_name[len(w.arch) + 1:] if w.store_name and w.store_name.startswith(w.arch + '_') else None


def vocab_names(arch, dataset):
    """The vocabularies GluonNLP's builder of `arch` loads for `dataset`, in the order it returns them."""
    if arch.startswith('elmo_'):
        return []  # characters: GluonNLP's ELMoCharVocab, no file
    if arch.startswith('transformer_'):
        return [dataset + '_src', dataset + '_tgt']
    return [dataset]


def _family(arch):
    return next(((task, paper) for prefix, task, paper in _FAMILIES if arch.startswith(prefix)),
                ('text-embedding', None))


def _record(arch, dataset, sha1, num_params, default, task):
    family_task, paper = _family(arch)
    vocabs = [VOCABULARIES[v] for v in vocab_names(arch, dataset)]
    config = {'vocab_size': vocabs[0].size} if vocabs else {}
    config.update({flag: False for flag in _HEADLESS.get(dataset, ())})
    preprocess = {'vocab': ', '.join(v.file_name for v in vocabs)} if vocabs else {}
    if vocabs and vocabs[0].ext == '.spiece':
        preprocess['tokenizer'] = 'SentencePiece: the vocab record is the model (GluonNLP SentencepieceTokenizer)'
    elif arch.startswith(_BERT_LIKE) and not arch.startswith('roberta_'):
        preprocess.update(tokenizer='GluonNLP BERTTokenizer (WordPiece over the vocab record)',
                          lowercase='uncased' in dataset)
    lm = arch.startswith(('standard_', 'awd_', 'big_'))
    return Weights(
        arch=arch, tag=tag_of(dataset), default=default, task=task or family_task, sha1=sha1,
        num_params=num_params, config=config, preprocess=preprocess, store_name=f'{arch}_{dataset}',
        source=Source(kind='mirror', url=GLUONNLP_REPO), recipe=f'GluonNLP 0.10 (dataset {dataset})',
        metrics=PUBLISHED.get(f'{arch}_{dataset}', {}),
        license='Apache-2.0 (GluonNLP); see the dataset\'s own terms', paper=paper,
        input_shape=(35, 1) if lm else (1, 128))


def gluonnlp_records(arch, default=True, task=None):
    """The Weights records of every GluonNLP 0.10 checkpoint of `arch` (none for an arch GluonNLP never published).
    One is default=True (GluonNLP's first dataset for the arch) unless `default=False`, for an arch that already
    has a default checkpoint; `task` overrides the family's task."""
    rows = [r for r in CHECKPOINTS if r[0] == arch]
    first = _DEFAULT.get(arch, rows[0][1] if rows else None)
    return [_record(arch, dataset, sha1, n, default and dataset == first, task) for _, dataset, sha1, n in rows]


# -- loading a vocabulary ------------------------------------------------------------------------------------------
def vocab_url(v, repo=None):
    """Where the mirror `repo` (default: the record's) keeps Vocabulary `v`, in GluonNLP's layout."""
    return f'{(repo or v.url).rstrip("/")}/{v.mirror_path}'


def load_vocab(name, root=None, cls=None):
    """The gluonzoo Vocab (or `cls`, e.g. BERTVocab) of the GluonNLP vocabulary `name`, fetched and sha1-checked;
    a `.spiece` file (KoBERT's SentencePiece model) gives a BERTVocab, as GluonNLP reads it."""
    from ..vocab import Vocab
    if name not in VOCABULARIES:
        raise BadInputError(f'GluonNLP has no vocabulary {name!r}; its vocabularies are {", ".join(VOCABULARIES)}')
    v = VOCABULARIES[name]
    path = store.fetch(v, root)
    if v.ext == '.spiece':
        return sentencepiece_vocab(path, **v.special_tokens)
    with open(path, encoding='utf-8') as f:
        return (cls or Vocab).from_json(f.read())


def sentencepiece_vocab(path, padding_token=None, mask_token='[MASK]', sep_token='[SEP]', cls_token='[CLS]'):
    """GluonNLP's `BERTVocab.from_sentencepiece`: the model's pieces at their ids; its unknown, padding, bos and
    eos tokens are the model's own pieces where it has them (a given padding_token must then agree)."""
    import sentencepiece as spm
    from ..vocab import BERTVocab, count_tokens
    sp = spm.SentencePieceProcessor(model_file=str(path))
    tokens = [sp.id_to_piece(i) for i in range(sp.get_piece_size())]

    def own(idx, given, what):
        if idx < 0:
            return given
        if given is not None and given != sp.id_to_piece(idx):
            raise BadInputError(f'{path}: its {what} piece is {sp.id_to_piece(idx)!r}, not {given!r}')
        return sp.id_to_piece(idx)
    return BERTVocab(count_tokens(tokens), unknown_token=own(sp.unk_id(), None, 'unknown'),
                     padding_token=own(sp.pad_id(), padding_token, 'padding'), bos_token=own(sp.bos_id(), None, 'bos'),
                     eos_token=own(sp.eos_id(), None, 'eos'), mask_token=mask_token, sep_token=sep_token,
                     cls_token=cls_token, token_to_idx={t: i for i, t in enumerate(tokens)})
