"""GluonNLP 0.10's sentiment analysis and text classification datasets (gluonnlp.data.sentiment): IMDB, MR, SST_1,
SST_2, SUBJ, TREC, CR, MPQA, over the JSON files GluonNLP hosts at $MXNET_GLUON_REPO/gluon/dataset/<name>/ (IMDB
the .json itself, the others a zip holding it), downloaded into $MXNET_HOME/datasets/<name> and checked against
GluonNLP's sha1 tables by text/data/hosted.py.

Each sample is GluonNLP's: a list [text (str), label (int)], as json.load gives it; IMDB labels are the review
scores (1-4 negative, 7-10 positive, 0 in 'unsup'), TREC's the six coarse classes, SST_1's 0-4, the others 0/1.
"""
import io
import json
import os

from mxnet.gluon.data import SimpleDataset

from . import hosted
from .datasets import register

__all__ = ['IMDB', 'MR', 'TREC', 'SUBJ', 'SST_1', 'SST_2', 'CR', 'MPQA']


def _load_json(path):
    with io.open(path, 'r', encoding='utf-8') as f:
        return json.load(f)


class SentimentDataset(SimpleDataset):
    """A hosted sentiment set: segment -> ((zip name, sha1), (json name, sha1)) in `_files`, hosted in
    gluon/dataset/`_namespace`; the zip's members are extracted by base name into root, as GluonNLP does."""
    _namespace = None
    _files = {}

    def __init__(self, segment, root):
        self._root = os.path.expanduser(root)
        self._segment = segment
        super().__init__(self._read_data(self._get_data()))

    def _data_file(self):
        """GluonNLP's table: {segment: ((archive, sha1), (data file, sha1))}."""
        return self._files

    def _repo_dir(self):
        return f'gluon/dataset/{self._namespace}'

    def _get_data(self):
        archive, (name, sha1) = hosted.pick(self._data_file(), self._segment, type(self).__name__)
        hosted.fetch_hosted(self._namespace, self._root, tuple(archive), {name: sha1}, flatten=True,
                            what=type(self).__name__)
        return os.path.join(self._root, name)

    def _read_data(self, path):
        return _load_json(path)


@register(segment=['train', 'test', 'unsup'])
class IMDB(SimpleDataset):
    """IMDB movie reviews (http://ai.stanford.edu/~amaas/data/sentiment/): samples [review, score], score in 1-4
    (negative) or 7-10 (positive), 0 in 'unsup'. segment: 'train', 'test' or 'unsup'; root: default
    $MXNET_HOME/datasets/imdb. The .json files are hosted as they are (no archive)."""
    _namespace = 'imdb'
    _data_file = {'train': ('train.json', '516a0ba06bca4e32ee11da2e129f4f871dff85dc'),
                  'test': ('test.json', '7d59bd8899841afdc1c75242815260467495b64a'),
                  'unsup': ('unsup.json', 'f908a632b7e7d7ecf113f74c968ef03fadfc3c6c')}

    def __init__(self, segment='train', root=hosted.default_root('imdb')):
        self._root = os.path.expanduser(root)
        self._segment = segment
        super().__init__(_load_json(self._get_data()))

    def _get_data(self):
        name, sha1 = hosted.pick(self._data_file, self._segment, 'IMDB')
        hosted.fetch_hosted(self._namespace, self._root, (name, sha1), {name: sha1}, what='IMDB')
        return os.path.join(self._root, name)


@register()
class MR(SentimentDataset):
    """Movie review sentences (https://www.cs.cornell.edu/people/pabo/movie-review-data/), label 1 positive, 0
    negative; one segment. root: default $MXNET_HOME/datasets/mr."""
    _namespace = 'mr'
    # GluonNLP's table, the json's sha1 with its trailing space (a sha1 prefix check ignores it)
    _files = {'all': (('all-7606efec.zip', '0fcbaffe0bac94733e6497f700196585f03fa89e'),
                      ('all-7606efec.json', '7606efec578d9613f5c38bf2cef8d3e4e6575b2c '))}

    def __init__(self, root=hosted.default_root('mr')):
        super().__init__('all', root)


@register(segment=['train', 'test'])
class TREC(SentimentDataset):
    """TREC question classification (http://cogcomp.cs.illinois.edu/Data/QA/QC/): labels DESCRIPTION 0, ENTITY 1,
    ABBREVIATION 2, HUMAN 3, LOCATION 4, NUMERIC 5. segment: 'train' or 'test'; root: default
    $MXNET_HOME/datasets/trec."""
    _namespace = 'trec'
    _files = {'train': (('train-1776132f.zip', '337d3f43a56ec26f5773c6fc406ef19fb4cd3c92'),
                        ('train-1776132f.json', '1776132fb2fc0ed2dc91b62f7817a4e071a3c7de')),
              'test': (('test-ff9ad0ce.zip', '57f03aaee2651ca05f1f9fc5731ba7e9ad98e38a'),
                       ('test-ff9ad0ce.json', 'ff9ad0ceb44d8904663fee561804a8dd0edc1b15'))}

    def __init__(self, segment='train', root=hosted.default_root('trec')):
        super().__init__(segment, root)


@register()
class SUBJ(SentimentDataset):
    """Subjectivity sentences, label 1 subjective, 0 objective; one segment. root: default
    $MXNET_HOME/datasets/subj."""
    _namespace = 'subj'
    _files = {'all': (('all-9e7bd1da.zip', '8b0d95c2fc885cc38e4ad776d7429183f3ef632b'),
                      ('all-9e7bd1da.json', '9e7bd1daa359c24abe1fac767d0e0af7bc114045'))}

    def __init__(self, root=hosted.default_root('subj')):
        super().__init__('all', root)


@register(segment=['train', 'dev', 'test'])
class SST_1(SentimentDataset):  # noqa: N801  GluonNLP's name
    """Stanford Sentiment Treebank, fine grained (http://nlp.stanford.edu/sentiment/): labels very negative 0 ...
    very positive 4. segment: 'train', 'dev' or 'test'; root: default $MXNET_HOME/datasets/sst-1."""
    _namespace = 'sst-1'
    _files = {'train': (('train-638f9352.zip', '0a039010449772700c0e270c7095362403dc486a'),
                        ('train-638f9352.json', '638f935251c0474e93d4aa50fda0c900faf02bba')),
              'dev': (('dev-820ac954.zip', 'e4b7899ef5d37a6bf01d8ec1115ba20b8419b96f'),
                      ('dev-820ac954.json', '820ac954b14b4f7d947e25f7a99249618d7962ee')),
              'test': (('test-ab593ae9.zip', 'd3736db56cdc7293c38435557697c2407652525d'),
                       ('test-ab593ae9.json', 'ab593ae9628f94af4f698654158ded1488b1de3b'))}

    def __init__(self, segment='train', root=hosted.default_root('sst-1')):
        super().__init__(segment, root)


@register(segment=['train', 'dev', 'test'])
class SST_2(SentimentDataset):  # noqa: N801  GluonNLP's name
    """Stanford Sentiment Treebank, binary (neutral sentences removed): label 1 positive, 0 negative. segment:
    'train', 'dev' or 'test'; root: default $MXNET_HOME/datasets/sst-2."""
    _namespace = 'sst-2'
    _files = {'train': (('train-61f1f238.zip', 'f27a9ac6a7c9208fb7f024b45554da95639786b3'),
                        ('train-61f1f238.json', '61f1f23888652e11fb683ac548ed0be8a87dddb1')),
              'dev': (('dev-65511587.zip', '8c74911f0246bd88dc0ced2619f95f10db09dc98'),
                      ('dev-65511587.json', '655115875d83387b61f9701498143724147a1fc9')),
              'test': (('test-a39c1db6.zip', '4b7f1648207ec5dffb4e4783cf1f48d6f36ba4db'),
                       ('test-a39c1db6.json', 'a39c1db6ecc3be20bf2563bf2440c3c06887a2df'))}

    def __init__(self, segment='train', root=hosted.default_root('sst-2')):
        super().__init__(segment, root)


@register()
class CR(SentimentDataset):
    """Customer reviews of products (cameras, MP3 players...), label 1 positive, 0 negative; one segment. root:
    default $MXNET_HOME/datasets/cr."""
    _namespace = 'cr'
    _files = {'all': (('all-0c9633c6.zip', 'c662e2f9115d74e1fcc7c896fa3e2dc5ee7688e7'),
                      ('all-0c9633c6.json', '0c9633c695d29b18730eddff965c850425996edf'))}

    def __init__(self, root=hosted.default_root('cr')):
        super().__init__('all', root)


@register()
class MPQA(SentimentDataset):
    """Opinion polarity of MPQA phrases (http://www.cs.pitt.edu/mpqa/), label 1 positive, 0 negative; one segment.
    root: default $MXNET_HOME/datasets/mpqa."""
    _namespace = 'mpqa'
    _files = {'all': (('all-bcbfeed8.zip', 'e07ae226cfe4713328eeb9660b261b9852ff5865'),
                      ('all-bcbfeed8.json', 'bcbfeed8b8767a564bdc428486ef18c1ba4dc536'))}

    def __init__(self, root=hosted.default_root('mpqa')):
        super().__init__('all', root)
