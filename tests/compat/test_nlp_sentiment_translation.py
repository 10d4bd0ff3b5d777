"""gluonzoo's sentiment and translation datasets (text/data/sentiment.py, translation.py over text/data/hosted.py)
against GluonNLP 0.10's (the peers venv, one run): small archives in GluonNLP's hosted layout are served on
127.0.0.1 (MXNET_GLUON_REPO), both sides' sha1 tables patched to them, and the samples, vocabularies, the files
left in root, the requested URLs, GluonNLP's real tables and signatures compared; then bad inputs: a wrong
segment or language pair (one BadInputError line naming the valid ones), a sha1 mismatch (nothing left)."""
import json

import pytest

from gluonzoo.errors import BadInputError, ChecksumError
from gluonzoo.text.data import gpt2_bpe, hosted
from gluonzoo.text.data import sentiment
from gluonzoo.text.data import translation
from gluonzoo.text.data.datasets import list_datasets
from gluonzoo.text.vocab import Counter, Vocab
from tests.conftest import serving
from tests.peers.hosted_cases import Stop, peer_reference, sha1, signature, tree, zipped

SENTIMENT = ['IMDB', 'MR', 'TREC', 'SUBJ', 'SST_1', 'SST_2', 'CR', 'MPQA']
TRANSLATION = ['IWSLT2015', 'WMT2014', 'WMT2014BPE', 'WMT2016', 'WMT2016BPE']
VOCAB = ('IWSLT2015', 'WMT2014BPE', 'WMT2016BPE')
TEXTS = ['a gripping , funny film .', 'dull and overlong', 'Ünïcode — café „quotes“', 'what is the capital ?',
         'no movement , no yuks , not much of anything .']


GPT2_FILE, GPT2_ZIP = 'openai_webtext_bpe_ranks-396d4d8e.json', 'openai_webtext_bpe_ranks-396d4d8e.zip'
GPT2_MERGES = ['Ġ t', 'h e', 'Ġt he', 'Ġ a', 'i n', 'in g', 'e r', 'Ġ w', 'o r', 'l d', 'Ġw or', 'Ġwor ld', 'Ã ©',
               'c af', 'f Ã©', 'ca fÃ©', 'x yz', "' s", 'Ġ 1', 'Ġ1 2', 'Ċ Ċ', 'Ġ Ġ', 'o u', 'Ġt h', 'Ġth ing',
               'a f', 'c a']
GPT2_TEXTS = ["the world's thing", ' The  other  thing 12345 is café\n\nin  ', 'Hello, wörld! 😀 emoji',
              "It's 12:00; they'll sing\tand we'd go", '', '   ', 'ça fait']


def cls_of(name):
    return getattr(sentiment if name in SENTIMENT else translation, name)


def tr_files(cls):
    """Every (file name) any argument combination of a translation class reads."""
    names = {n for t in cls._files.values() for n, _ in t.values()}
    return sorted(names | {n for n, _ in cls._full_files.values()} | {n for n, _ in cls._de_src_files.values()})


def build():
    """({url path: bytes}, sentiment tables in GluonNLP's shape, translation {class: {archive, sha1}})."""
    files, sent, tr = {}, {}, {}
    for k, name in enumerate(SENTIMENT):
        cls = cls_of(name)
        table = cls._data_file if name == 'IMDB' else cls._files
        sent[name] = {}
        for i, seg in enumerate(sorted(table)):
            samples = [[f'{t} {name} {seg}', (i + j + k) % 5] for j, t in enumerate(TEXTS[i % 2:])]
            data = json.dumps(samples, ensure_ascii=name != 'CR').encode('utf-8')
            if name == 'IMDB':
                fname = table[seg][0]
                files[f'/gluon/dataset/imdb/{fname}'] = data
                sent[name][seg] = [fname, sha1(data)]
                continue
            (zname, _), (fname, old) = table[seg]
            zdata = zipped({f'{fname[:-5]}/{fname}': data, f'{fname[:-5]}/': b''})
            files[f'/gluon/dataset/{cls._namespace}/{zname}'] = zdata
            # MR's table carries a trailing space after the sha1: kept
            sent[name][seg] = [[zname, sha1(zdata)], [fname, sha1(data) + old[40:]]]
    for name in TRANSLATION:
        cls = cls_of(name)
        members, langs = {}, sorted(next(iter(cls._archives)).split('_'))
        for n in tr_files(cls):
            if n.endswith('.json'):
                words = f'{name} {n} ' + ' '.join(TEXTS)
                members[n] = Vocab(Counter(words.split())).to_json().encode('utf-8')
            else:
                lines = [f'{t} <{n}>' if (j + len(n)) % 4 else '' for j, t in enumerate(TEXTS)] + [' x  ', '']
                members[n] = ('\n'.join(lines) + '\n').encode('utf-8')
        zname = next(iter(cls._archives.values()))[0]
        zdata = zipped({f'{zname[:-4]}/{n}': d for n, d in members.items()})
        files[f'/gluon/dataset/{cls._dir}/{zname}'] = zdata
        tr[name] = {'archive': [zname, sha1(zdata)], 'sha1': {n: sha1(d) for n, d in members.items()}, 'langs': langs}
    ranks = '#version: 0.2\n' + ''.join(m + '\n' for m in GPT2_MERGES)
    zdata = zipped({GPT2_FILE: ranks.encode('utf-8')})
    files[f'/gluon/dataset/vocab/{GPT2_ZIP}'] = zdata
    tr['gpt2'] = {'archive': [GPT2_ZIP, sha1(zdata)], 'file': [GPT2_FILE, sha1(ranks.encode('utf-8'))],
                  'texts': GPT2_TEXTS}
    return files, sent, tr


CASES = [
    ['imdb', 'IMDB', {}], ['imdb_unsup', 'IMDB', {'segment': 'unsup'}], ['mr', 'MR', {}],
    ['trec_test', 'TREC', {'segment': 'test'}], ['subj', 'SUBJ', {}], ['sst1_dev', 'SST_1', {'segment': 'dev'}],
    ['sst2_test', 'SST_2', {'segment': 'test'}], ['cr', 'CR', {}], ['mpqa', 'MPQA', {}],
    ['iwslt', 'IWSLT2015', {}], ['iwslt_vi', 'IWSLT2015', {'segment': ['val', 'test'], 'src_lang': 'vi',
                                                          'tgt_lang': 'en'}],
    ['wmt14', 'WMT2014', {'segment': 'newstest2014'}],
    ['wmt14_de', 'WMT2014', {'segment': ['newstest2014', 'train'], 'src_lang': 'de', 'tgt_lang': 'en'}],
    ['wmt14_full', 'WMT2014', {'segment': 'newstest2014', 'full': True}],
    ['wmt14bpe_de', 'WMT2014BPE', {'segment': 'newstest2014', 'src_lang': 'de', 'tgt_lang': 'en'}],
    ['wmt14bpe_full', 'WMT2014BPE', {'segment': ['newstest2014', 'newstest2009'], 'full': True}],
    ['wmt16', 'WMT2016', {'segment': ['train', 'newstest2016']}],
    ['wmt16bpe', 'WMT2016BPE', {'segment': 'newstest2015', 'src_lang': 'de', 'tgt_lang': 'en'}],
]


def read(name, kwargs, root):
    ds = cls_of(name)(root=root, **kwargs)
    out = {'len': len(ds), 'samples': [list(ds[i]) for i in range(len(ds))],
           'types': sorted({type(x).__name__ for s in ds for x in s})}
    if name in VOCAB:
        out['src_vocab'] = ds.src_vocab.idx_to_token
        out['tgt_vocab'] = ds.tgt_vocab.idx_to_token
    return json.loads(json.dumps(out))


def patch_tables(mp, sent, tr):
    for name, table in sent.items():
        mp.setattr(cls_of(name), '_data_file' if name == 'IMDB' else '_files', table)
    for name, t in tr.items():
        if name == 'gpt2':
            mp.setattr(gpt2_bpe.GPT2BPETokenizer, 'bpe_ranks_file_hash', tuple(t['file']))
            mp.setattr(gpt2_bpe.GPT2BPETokenizer, 'bpe_ranks_archive_hash', tuple(t['archive']))
            continue
        cls = cls_of(name)

        def resha(d, s=t['sha1']):
            return {k: (n, s[n]) for k, (n, _) in d.items()}
        mp.setattr(cls, '_archives', {k: tuple(t['archive']) for k in cls._archives})
        mp.setattr(cls, '_files', {k: resha(v) for k, v in cls._files.items()})
        mp.setattr(cls, '_full_files', resha(cls._full_files))
        mp.setattr(cls, '_de_src_files', resha(cls._de_src_files))


@pytest.fixture(scope='module')
def served():
    with serving() as srv:
        files, sent, tr = build()
        srv.files.update(files)
        yield srv, sent, tr


@pytest.fixture(scope='module')
def ref(served, tmp_path_factory):
    srv, sent, tr = served
    return peer_reference('gluonnlp_sentiment_translation.py', tmp_path_factory.mktemp('sent_tr_peer'),
                          {'repo': srv.base, 'sentiment': sent, 'translation': tr, 'cases': CASES}, 'sent_tr.json',
                          srv)


@pytest.fixture
def repo(served, monkeypatch):
    srv, sent, tr = served
    monkeypatch.setenv('MXNET_GLUON_REPO', srv.base.rstrip('/'))
    patch_tables(monkeypatch, sent, tr)
    srv.hits.clear()
    srv.plan.clear()
    return srv


@pytest.fixture(scope='module')
def ours(ref, served, tmp_path_factory):
    srv, sent, tr = served
    root = tmp_path_factory.mktemp('sent_tr_ours')
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv('MXNET_GLUON_REPO', srv.base)
        patch_tables(mp, sent, tr)
        got = {cid: read(name, kwargs, str(root / cid)) for cid, name, kwargs in CASES}
        tok, detok = gpt2_bpe.GPT2BPETokenizer(root=str(root / 'gpt2')), gpt2_bpe.GPT2BPEDetokenizer()
        got_gpt2 = {'tokens': [tok(t) for t in GPT2_TEXTS], 'detok': [detok(tok(t)) for t in GPT2_TEXTS]}
        hits = list(srv.hits)
        srv.hits.clear()
    return {'cases': got, 'roots': root, 'hits': hits, 'gpt2': got_gpt2}


def test_gpt2_bpe_tokens_and_detokenized_text_equal_gluonnlps(ours, ref):
    assert ours['gpt2'] == ref['gpt2']
    assert ours['gpt2']['detok'] == GPT2_TEXTS
    assert [list(t) for t in (gpt2_bpe.GPT2BPETokenizer.bpe_ranks_file_hash,
                              gpt2_bpe.GPT2BPETokenizer.bpe_ranks_archive_hash)] == ref['gpt2_tables']
    assert 'Ġworld' in ours['gpt2']['tokens'][0]


@pytest.mark.parametrize('cid', [c[0] for c in CASES])
def test_samples_and_vocabularies_equal_gluonnlps(ours, ref, cid):
    assert ours['cases'][cid] == ref['cases'][cid]
    assert ours['cases'][cid]['len'] > 0


def test_the_same_files_are_fetched_and_left_in_root(ours, ref):
    assert sorted(ours['hits']) == sorted(ref['hits'])
    assert '/gluon/dataset/imdb/unsup.json' in ours['hits']
    assert '/gluon/dataset/wmt2016/wmt2016bpe_de_en-8cf0dbf6.zip' in ours['hits']
    # GluonNLP deletes the rank zip once extracted; hosted.fetch keeps it beside the file, as for every set
    assert tree(ours['roots'] / 'gpt2') == sorted(tree(ref['roots'] / 'gpt2') + [GPT2_ZIP])
    for cid, *_ in CASES:
        assert tree(ours['roots'] / cid) == tree(ref['roots'] / cid), cid


def test_gluonnlps_tables_signatures_and_registry(ref, monkeypatch, tmp_path):
    def stop(self, _):
        raise Stop({'_archive_file': self._archive_file, '_data_file': self._data_file,
                     '_supported_segments': self._supported_segments, '_namespace': self._namespace})
    monkeypatch.setattr(translation._TranslationDataset, '_fetch_data_path', stop)
    for name, facts in ref['facts'].items():
        cls = cls_of(name)
        if name == 'IMDB':
            got = cls._data_file
        elif name in SENTIMENT:
            got = cls._data_file(cls.__new__(cls))
            assert cls._repo_dir(cls.__new__(cls)) == facts['repo_dir']
        else:
            got = {}
            for key in facts['tables']:
                src, tgt, full = key.split('-')
                kw = {'full': full == 'True'} if name.startswith('WMT2014') else {}
                with pytest.raises(Stop) as e:
                    cls(src_lang=src, tgt_lang=tgt, root=str(tmp_path), **kw)
                got[key] = e.value.args[0]
        assert json.loads(json.dumps(got)) == facts['tables'], name
        assert signature(cls, hosted.home_dir()) == facts['signature'], name
        assert (name.lower() in list_datasets()) == facts['registered'], name


def test_a_gluonnlp_cache_is_used_in_place(ref, repo):
    ds = sentiment.SST_1('dev', root=str(ref['roots'] / 'sst1_dev'))
    assert [list(s) for s in ds] == ref['cases']['sst1_dev']['samples']
    ds = translation.WMT2016BPE('newstest2015', 'de', 'en', root=str(ref['roots'] / 'wmt16bpe'))
    assert ds.src_vocab.idx_to_token == ref['cases']['wmt16bpe']['src_vocab']
    assert repo.hits == []


@pytest.mark.parametrize('make', [
    lambda r: sentiment.IMDB('dev', root=r), lambda r: sentiment.TREC('val', root=r),
    lambda r: sentiment.SST_2('unsup', root=r), lambda r: translation.IWSLT2015('dev', root=r),
    lambda r: translation.WMT2014(['train', 'newstest2016'], root=r),
    lambda r: translation.WMT2016('newstest2009', root=r),
    lambda r: translation.IWSLT2015(src_lang='en', tgt_lang='de', root=r),
    lambda r: translation.WMT2016BPE(src_lang='en', tgt_lang='en', root=r)])
def test_a_wrong_segment_or_pair_is_one_line_naming_the_valid_ones(repo, tmp_path, make):
    with pytest.raises(BadInputError) as e:
        make(str(tmp_path / 'root'))
    msg = str(e.value)
    assert '\n' not in msg and ('is not one of' in msg or 'en<->' in msg or 'de<->' in msg), msg
    assert repo.hits == []


def test_a_set_without_vocabulary_says_so(repo, tmp_path):
    ds = translation.WMT2016('newstest2012', root=str(tmp_path / 'w'))
    with pytest.raises(BadInputError) as e:
        ds.src_vocab
    assert '\n' not in str(e.value) and 'vocab' in str(e.value)


@pytest.mark.parametrize('which', ['sentiment', 'translation'])
def test_a_sha1_mismatch_leaves_nothing_behind(repo, monkeypatch, tmp_path, which):
    root = tmp_path / 'r'
    if which == 'sentiment':
        (z, _), f = sentiment.TREC._files['test']
        monkeypatch.setattr(sentiment.TREC, '_files', {'test': ((z, '0' * 40), f)})
        with pytest.raises(ChecksumError) as e:
            sentiment.TREC('test', root=str(root))
        assert z in str(e.value) and repo.hits == [f'/gluon/dataset/trec/{z}']
        assert tree(root) == []
    else:
        z, _ = translation.IWSLT2015._archives['en_vi']
        monkeypatch.setattr(translation.IWSLT2015, '_archives', {'en_vi': (z, '0' * 40)})
        with pytest.raises(ChecksumError) as e:
            translation.IWSLT2015('val', root=str(root))
        assert z in str(e.value) and repo.hits == [f'/gluon/dataset/iwslt2015/{z}']
        assert tree(root) == []
    assert '\n' not in str(e.value)
