"""gluonzoo's GluonNLP hosted datasets (text/data/hosted_corpora.py, word_embedding_evaluation_data.py over
text/data/hosted.py) against GluonNLP 0.10's (the peers venv, one run): small archives in the real layouts are
served on 127.0.0.1 (MXNET_GLUON_REPO for the mirrored ones, `_url` for the others), both sides' sha1 tables
patched to them, and the samples, the files left in root, the requested URLs, GluonNLP's real tables and
signatures compared; then bad inputs: a wrong segment, a sha1 mismatch (nothing partial left), offline."""
import json

import pytest

from gluonzoo.errors import BadInputError, ChecksumError
from gluonzoo.text.data import hosted
from gluonzoo.text.data import hosted_corpora as corpora
from gluonzoo.text.data import word_embedding_evaluation_data as wee
from gluonzoo.text.data.datasets import list_datasets
from gluonzoo.text.vocab import Counter, Vocab
from tests.conftest import serving
from tests.peers.hosted_cases import peer_reference, sample, sha1, signature, tarred, tree, tsv, zipped

CORPORA = ['WikiText2', 'WikiText103', 'WikiText2Raw', 'WikiText103Raw', 'Text8', 'Fil9', 'Enwik8', 'GBWStream']
EVAL = ['WordSim353', 'MEN', 'RadinskyMTurk', 'RareWords', 'SimLex999', 'SimVerb3500', 'SemEval17Task2',
        'BakerVerb143', 'YangPowersVerb130', 'GoogleAnalogyTestSet', 'BiggerAnalogyTestSet']

WT_TOKENS = {
    'train': ' \n = Valkyria Chronicles III = \n \n Senjō no Valkyria 3 : <unk> Chronicles ( 戦場のヴァルキュリア3 ) \n'
             ' \n = = Gameplay = = \n \n As with previous <unk> Chronicles games , it is a tactical role @-@ game \n',
    'valid': ' \n = Homarus gammarus = \n \n Homarus gammarus , known as the European lobster \n \n',
    'test': ' \n = Robert <unk> = \n \n Robert <unk> is an English film , television and theatre actor . \n'}
WT_RAW = {'train': ' \n = Valkyria Chronicles III = \n \n Senjō no Valkyria 3 : Unrecorded Chronicles \n',
          'valid': ' \n = Homarus gammarus = \n \n Homarus gammarus, known as the European lobster — ü \n',
          'test': ' \n = Robert Boulter = \n \n Robert Boulter is an English film actor . \n'}
TEXT8 = ' anarchism originated as a term of abuse first used against early working class radicals including the ' \
        'diggers of the english revolution and the sans culottes of the french revolution'
ENWIK8 = {'train.txt': '60 109 101 100\n105 97 119\n\n', 'valid.txt': '60 47 62\n', 'test.txt': '32 32\n104 105\n',
          'train.txt.raw': '<mediawiki\nxmlns\n', 'valid.txt.raw': '</page>\n', 'test.txt.raw': 'hi\n there\n'}
GBW_TOP = '1-billion-word-language-modeling-benchmark-r13output'
GBW = {'training-monolingual.tokenized.shuffled/news.en-00001-of-00100': 'The cat sat .\n\nA dog ran away .\n',
       'training-monolingual.tokenized.shuffled/news.en-00002-of-00100': 'Stocks fell on Monday .\n',
       'heldout-monolingual.tokenized.shuffled/news.en.heldout-00000-of-00050': 'It rained .\nThey left .\n'}
SIM_PAIRS = [('tiger', 'cat', '7.35'), ('book', 'paper', '7.46'), ('computer', 'keyboard', '7.62'),
             ('plane', 'car', '5.77'), ('drink', 'eat', '6.87')]


def build(base):
    """({url path: bytes}, {class: {attr: value}}): every dataset's archive in GluonNLP's layout, and the tables
    (archive and file sha1s, `_url`) that point both sides at them."""
    files, tables = {}, {}

    def hosted_zip(namespace, name, members, make=zipped):
        data = make(members)
        files[f'/gluon/dataset/{namespace}/{name}'] = data
        return [name, sha1(data)]

    def ext(cls, name, members=None, make=zipped, text=None):
        """A set GluonNLP fetches from its original host (`_url`): an archive of `members`, or one file."""
        data = make(members) if members is not None else text.encode('utf-8')
        members = members if members is not None else {name: text}
        files[f'/ext/{name}'] = data
        tables[cls] = {'_url': f'{base}ext/{name}', '_archive_file': [name, sha1(data)],
                       '_checksums': {m: sha1(t.encode('utf-8')) for m, t in members.items()}}

    for cls, ns, top, texts, suffix in (('WikiText2', 'wikitext-2', 'wikitext-2', WT_TOKENS, 'tokens'),
                                        ('WikiText103', 'wikitext-103', 'wikitext-103', WT_TOKENS, 'tokens'),
                                        ('WikiText2Raw', 'wikitext-2', 'wikitext-2-raw', WT_RAW, 'raw'),
                                        ('WikiText103Raw', 'wikitext-103', 'wikitext-103-raw', WT_RAW, 'raw')):
        texts = {seg: t + cls for seg, t in texts.items()}  # each corpus its own bytes
        name = f'{top}-v1.zip'
        members = {f'{top}/wiki.{seg}.{suffix}': t for seg, t in texts.items()}
        tables[cls] = {'_archive_file': hosted_zip(ns, name, members),
                       '_data_file': {s: [f'wiki.{seg}.{suffix}', sha1(texts[seg].encode())]
                                      for s, seg in (('train', 'train'), ('val', 'valid'), ('test', 'test'))}}
    for cls, name, member, text in (('Text8', 'text8-6c70299b.zip', 'text8', TEXT8),
                                    ('Fil9', 'fil9-e2a6a602.zip', 'fil9', TEXT8.upper() + ' fin')):
        tables[cls] = {'archive_file': hosted_zip('large_text_compression_benchmark', name, {member: text}),
                       'data_file': {'train': [member, sha1(text.encode())]}}
    segs = {'train': 'train.txt', 'val': 'valid.txt', 'test': 'test.txt', 'trainraw': 'train.txt.raw',
            'valraw': 'valid.txt.raw', 'testraw': 'test.txt.raw'}
    tables['Enwik8'] = {'archive_file': hosted_zip('large_text_compression_benchmark',
                                                   'enwik8-d25f6043.zip', ENWIK8),
                        'data_file': {s: [f, sha1(ENWIK8[f].encode())] for s, f in segs.items()}}
    vocab = Vocab(Counter('the cat sat . a dog ran away'.split())).to_json()
    shard_sha1 = {}
    for seg, pattern in (('train', 'training'), ('test', 'heldout')):
        shard_sha1[seg] = sha1(''.join(t for p, t in sorted(GBW.items()) if p.startswith(pattern)).encode())
    tables['GBWStream'] = {
        '_archive_data': hosted_zip('gbw', f'{GBW_TOP}.tar.gz',
                                    {f'{GBW_TOP}/{p}': t for p, t in GBW.items()}, make=tarred),
        '_archive_vocab': hosted_zip('vocab', 'gbw-ebb1a287.zip', {'gbw-ebb1a287.vocab': vocab}),
        '_vocab_file': ['gbw-ebb1a287.vocab', sha1(vocab.encode())],
        '_data_file': {'train': ['training-monolingual.tokenized.shuffled', 'news.en-00*-of-00100',
                                 shard_sha1['train']],
                       'test': ['heldout-monolingual.tokenized.shuffled', 'news.en.heldout-00000-of-00050',
                                shard_sha1['test']]}}

    # word similarity / analogy sets, in the files of their real archives
    ws = {f'wordsim353_sim_rel/{n}': tsv(SIM_PAIRS[:i + 2]) for i, n in enumerate(
        ['wordsim353_agreed.txt', 'wordsim353_annotator1.txt', 'wordsim353_annotator2.txt'])}
    ws['wordsim353_sim_rel/wordsim_relatedness_goldstandard.txt'] = tsv(SIM_PAIRS[:3] + [SIM_PAIRS[0]])
    ws['wordsim353_sim_rel/wordsim_similarity_goldstandard.txt'] = tsv(SIM_PAIRS[2:])
    tables['WordSim353'] = {'_archive_file': hosted_zip('ws353', 'ws353simrel.tar.gz', ws, tarred),
                            '_checksums': {m: sha1(t.encode()) for m, t in ws.items()}}
    men = {f'MEN/{n}': f'{n}\n' for n in ('MEN_dataset_natural_form_full', 'agreement/agreement-score.txt',
                                           'agreement/elias-men-ratings.txt', 'agreement/marcos-men-ratings.txt',
                                           'instructions.txt', 'licence.txt')}
    for i, n in enumerate(('MEN_dataset_lemma_form_full', 'MEN_dataset_lemma_form.dev',
                           'MEN_dataset_lemma_form.test')):
        men[f'MEN/{n}'] = tsv([(f'{a}-n', f'{b}-v', f'{float(s) * 5:.6f}') for a, b, s in SIM_PAIRS[i:]], ' ')
    tables['MEN'] = {'_archive_file': hosted_zip('men', 'MEN.tar.gz', men, tarred),
                     '_checksums': {m: sha1(t.encode()) for m, t in men.items()}}
    ext('RadinskyMTurk', 'Mtruk.csv', text=tsv([(a, b, '2.75') for a, b, _ in SIM_PAIRS], ','))
    ext('RareWords', 'rw.zip', {'rw/rw.txt': tsv([(a, b, s, '9', '8.5') for a, b, s in SIM_PAIRS])})
    ext('SimLex999', 'SimLex-999.zip', {
        'SimLex-999/README.txt': 'SimLex-999\n',
        'SimLex-999/SimLex-999.txt': tsv([('word1', 'word2', 'POS', 'SimLex999', 'conc(w1)')] +
                                         [(a, b, 'N', s, '4.6') for a, b, s in SIM_PAIRS])})
    simverb = {f'data/{n}': f'{n}\n' for n in ('README.txt', 'SimVerb-3500-ratings.txt', 'SimVerb-3500-stats.txt',
                                               'SimVerb-3520-annotator-ratings.csv')}
    for i, n in enumerate(('SimVerb-3500.txt', 'SimVerb-3000-test.txt', 'SimVerb-500-dev.txt')):
        simverb[f'data/{n}'] = tsv([(a, b, 'V', s, 'NONE') for a, b, s in SIM_PAIRS[i:]])
    ext('SimVerb3500', 'D16-1235.Attachment.zip', simverb)
    semeval = {}
    for rel in wee._SEMEVAL17_SHA1:
        if '/subtask1-monolingual/data/' in rel:
            lang = rel.split('/')[-1].split('.')[0]
            semeval['SemEval17-Task2/' + rel] = tsv([(f'{a}_{lang}', b) for a, b, _ in SIM_PAIRS])
        elif '/subtask1-monolingual/keys/' in rel:
            semeval['SemEval17-Task2/' + rel] = tsv([(f'{i / 2:.2f}',) for i in range(len(SIM_PAIRS))])
        else:
            semeval['SemEval17-Task2/' + rel] = rel + '\n'
    ext('SemEval17Task2', 'semeval2017-task2.zip', semeval)
    ext('BakerVerb143', 'EMNLP14.zip', {'verb_similarity dataset.txt': tsv(
        [(a, b) + tuple(str(k) for k in range(10)) + (f'0.{i}',) for i, (a, b, _) in enumerate(SIM_PAIRS)])})
    ext('GoogleAnalogyTestSet', 'questions-words.txt', text=(
        ': capital-common-countries\nAthens Greece Baghdad Iraq\nAthens Greece Bangkok Thailand\n'
        ': family\nboy girl brother sister\n: gram1-adjective-to-adverb\namazing amazingly apparent apparently\n'
        ': gram8-plural\nbanana bananas bird birds\n'))
    bats = {wee.bats_path(code): tsv([(f'{code.lower()}{i}', f'ans{i}/alt{i}' if i % 2 else f'ans{i}')
                                      for i in range(3)]) for code in wee.BATS_CATEGORIES}
    ext('BiggerAnalogyTestSet', 'BATS_3.0.zip', bats)
    return files, tables


CASES = [
    ['wt2_val', 'WikiText2', {'segment': 'val'}],
    ['wt2_train_lines', 'WikiText2', {'segment': 'train', 'flatten': False, 'bos': '<bos>', 'eos': None}],
    ['wt2_test_empty', 'WikiText2', {'segment': 'test', 'flatten': False, 'skip_empty': False}],
    ['wt103_train', 'WikiText103', {}],
    ['wt2raw_val', 'WikiText2Raw', {'segment': 'val'}],
    ['wt2raw_lines', 'WikiText2Raw', {'segment': 'train', 'flatten': False, 'tokenizer': None}],
    ['wt103raw_test', 'WikiText103Raw', {'segment': 'test', 'flatten': False, 'eos': '<eos>'}],
    ['text8', 'Text8', {}], ['text8_7', 'Text8', {'max_sentence_length': 7}],
    ['text8_none', 'Text8', {'max_sentence_length': None}],
    ['fil9', 'Fil9', {}], ['fil9_4', 'Fil9', {'max_sentence_length': 4}],
    ['enwik8', 'Enwik8', {}], ['enwik8_val', 'Enwik8', {'segment': 'val'}],
    ['enwik8_testraw', 'Enwik8', {'segment': 'testraw'}],
    ['gbw_train', 'GBWStream', {}], ['gbw_test', 'GBWStream', {'segment': 'test', 'bos': '<s>', 'eos': None}],
    ['ws353', 'WordSim353', {}], ['ws353_sim', 'WordSim353', {'segment': 'similarity'}],
    ['ws353_rel', 'WordSim353', {'segment': 'relatedness'}],
    ['men', 'MEN', {}], ['men_full', 'MEN', {'segment': 'full'}], ['men_test', 'MEN', {'segment': 'test'}],
    ['mturk', 'RadinskyMTurk', {}], ['rw', 'RareWords', {}], ['simlex', 'SimLex999', {}],
    ['simverb', 'SimVerb3500', {}], ['simverb_dev', 'SimVerb3500', {'segment': 'dev'}],
    ['semeval', 'SemEval17Task2', {}], ['semeval_de', 'SemEval17Task2', {'segment': 'test', 'language': 'de'}],
    ['baker', 'BakerVerb143', {}], ['yang', 'YangPowersVerb130', {}],
    ['google', 'GoogleAnalogyTestSet', {}], ['google_syn', 'GoogleAnalogyTestSet', {'group': 'syntactic'}],
    ['google_family', 'GoogleAnalogyTestSet', {'category': 'family', 'lowercase': False}],
    ['bats', 'BiggerAnalogyTestSet', {}], ['bats_i01', 'BiggerAnalogyTestSet', {'category': 'I01'}],
    ['bats_pairs', 'BiggerAnalogyTestSet', {'category': 'E02', 'form_analogy_pairs': False,
                                            'drop_alternative_solutions': False}],
]


def cls_of(name):
    return getattr(corpora if name in CORPORA else wee, name)


def read(name, kwargs, root):
    """What the peer script reports of a dataset, from ours."""
    ds = cls_of(name)(root=root, **kwargs)
    if name == 'GBWStream':
        parts = [[sample(s) for s in part] for part in ds]
        out = {'parts': sorted(parts) if kwargs.get('segment', 'train') == 'train' else parts,
               'vocab': ds.vocab.idx_to_token}
    else:
        out = {'len': len(ds), 'type': type(ds[0]).__name__ if len(ds) else None,
               'samples': [sample(ds[i]) for i in range(len(ds))],
               'attrs': {a: getattr(ds, a) for a in ('min', 'max', 'segment', 'language', 'group', 'category')
                         if hasattr(ds, a)}}
    return json.loads(json.dumps(out))


def patch_tables(mp, tables):
    for name, attrs in tables.items():
        for a, v in attrs.items():
            mp.setattr(cls_of(name), a, v)


@pytest.fixture(scope='module')
def served(tmp_path_factory):
    with serving() as srv:
        files, tables = build(srv.base)
        srv.files.update(files)
        yield srv, tables


@pytest.fixture(scope='module')
def ref(served, tmp_path_factory):
    srv, tables = served
    return peer_reference('gluonnlp_hosted_data.py', tmp_path_factory.mktemp('hosted_peer'),
                          {'repo': srv.base, 'tables': tables, 'cases': CASES}, 'hosted.json', srv)


@pytest.fixture
def repo(served, monkeypatch):
    srv, tables = served
    monkeypatch.setenv('MXNET_GLUON_REPO', srv.base.rstrip('/'))  # GluonNLP adds the '/'
    patch_tables(monkeypatch, tables)
    srv.hits.clear()
    srv.plan.clear()
    return srv


@pytest.fixture(scope='module')
def ours(ref, served, tmp_path_factory):
    """Every case read by ours (tables patched, MXNET_GLUON_REPO set) into its own root, as the peer did."""
    srv, tables = served
    root = tmp_path_factory.mktemp('hosted_ours')
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv('MXNET_GLUON_REPO', srv.base)
        patch_tables(mp, tables)
        got = {cid: read(name, kwargs, str(root / cid)) for cid, name, kwargs in CASES}
        hits = list(srv.hits)
        srv.hits.clear()
    return {'cases': got, 'roots': root, 'hits': hits}


@pytest.mark.parametrize('cid', [c[0] for c in CASES])
def test_samples_equal_gluonnlps(ours, ref, cid):
    assert ours['cases'][cid] == ref['cases'][cid]


def test_the_same_files_are_fetched_and_left_in_root(ours, ref):
    assert sorted(ours['hits']) == sorted(ref['hits'])
    assert '/gluon/dataset/wikitext-2/wikitext-2-v1.zip' in ours['hits']
    assert '/ext/BATS_3.0.zip' in ours['hits']
    for cid, *_ in CASES:
        assert tree(ours['roots'] / cid) == tree(ref['roots'] / cid), cid


def test_gluonnlps_tables_signatures_and_registry(ref):
    for name, facts in ref['facts'].items():
        cls = cls_of(name)
        for attr, want in facts['tables'].items():
            got = getattr(cls, attr) if attr != '_namespace' or not name.startswith('WikiText') \
                else 'gluon/dataset/' + cls._namespace
            assert json.loads(json.dumps(got)) == want, (name, attr)
        assert signature(cls, hosted.home_dir()) == facts['signature'], name
        assert (name.lower() in list_datasets()) == facts['registered'], name


def test_a_gluonnlp_cache_is_used_in_place(ref, repo, tmp_path):
    peer_root = ref['roots'] / 'wt2_val'
    ds = corpora.WikiText2('val', root=str(peer_root))
    assert list(ds) == ref['cases']['wt2_val']['samples']
    assert len(wee.MEN('dev', root=ref['roots'] / 'men')) == ref['cases']['men']['len']
    assert repo.hits == []


def test_repo_and_home_follow_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv('MXNET_GLUON_REPO', 'http://127.0.0.1:9/mirror')
    monkeypatch.setenv('MXNET_HOME', str(tmp_path / 'mx'))
    assert hosted.repo_file_url('gluon/dataset/men', 'MEN.tar.gz') == \
        'http://127.0.0.1:9/mirror/gluon/dataset/men/MEN.tar.gz'
    assert hosted.default_root('men') == str(tmp_path / 'mx' / 'datasets' / 'men')
    monkeypatch.delenv('MXNET_GLUON_REPO')
    assert hosted.repo_url() == hosted.DEFAULT_REPO


@pytest.mark.parametrize('make', [
    lambda r: corpora.WikiText2('dev', root=r), lambda r: corpora.Enwik8(root=r, segment='valid'),
    lambda r: corpora.GBWStream('val', root=r), lambda r: wee.MEN('train', root=r),
    lambda r: wee.SemEval17Task2('trial', 'fr', root=r), lambda r: wee.WordSim353('both', root=r),
    lambda r: wee.GoogleAnalogyTestSet(group='lexical', root=r),
    lambda r: wee.BiggerAnalogyTestSet(category='X01', root=r)])
def test_a_wrong_segment_is_one_line_naming_the_valid_ones(repo, tmp_path, make):
    with pytest.raises(BadInputError) as e:
        make(str(tmp_path / 'root'))
    assert '\n' not in str(e.value) and 'is not one of' in str(e.value)
    assert repo.hits == []


def test_a_sha1_mismatch_leaves_nothing_partial(repo, monkeypatch, tmp_path):
    monkeypatch.setattr(corpora.WikiText2, '_archive_file', ('wikitext-2-v1.zip', '0' * 40))
    root = tmp_path / 'wt2'
    with pytest.raises(ChecksumError) as e:
        corpora.WikiText2('val', root=str(root))
    assert '\n' not in str(e.value) and 'wikitext-2-v1.zip' in str(e.value)
    assert tree(root) == []  # no archive, no .part, no extraction folder, no data file
    assert repo.hits == ['/gluon/dataset/wikitext-2/wikitext-2-v1.zip']  # a wrong file is not fetched again


def test_a_failed_transfer_is_retried(repo, tmp_path):
    repo.plan[:] = [500]
    ds = wee.RareWords(root=str(tmp_path / 'rw'))
    assert len(ds) == len(SIM_PAIRS) and repo.hits == ['/ext/rw.zip'] * 2
    assert tree(tmp_path / 'rw') == ['rw.zip', 'rw/rw.txt']


def test_a_changed_file_in_a_good_archive_is_one_checksum_line(repo, monkeypatch, tmp_path):
    table = dict(corpora.Text8.data_file)
    monkeypatch.setattr(corpora.Text8, 'data_file', {'train': (table['train'][0], 'f' * 40)})
    with pytest.raises(ChecksumError) as e:
        corpora.Text8(root=str(tmp_path / 't8'))
    assert '\n' not in str(e.value) and 'text8' in str(e.value)
    assert not [p for p in tree(tmp_path / 't8') if p.startswith('.')]


def test_offline_refuses_to_download_but_reads_a_cache(ref, repo, monkeypatch, tmp_path):
    monkeypatch.setenv('GLUONZOO_OFFLINE', '1')
    with pytest.raises(BadInputError) as e:
        wee.SimLex999(root=str(tmp_path / 'simlex'))
    assert 'GLUONZOO_OFFLINE' in str(e.value) and '\n' not in str(e.value)
    assert tree(tmp_path / 'simlex') == []
    assert len(wee.SimLex999(root=str(ref['roots'] / 'simlex'))) == ref['cases']['simlex']['len']
    assert repo.hits == []
