"""gluonzoo's GLUE, SuperGLUE and Baidu ERNIE datasets (text/data/glue.py, super_glue.py over text/data/hosted.py)
against GluonNLP 0.10's (the peers venv, one run): small zips / tgz in GluonNLP's layouts are served on 127.0.0.1
(MXNET_GLUON_REPO for GLUE and SuperGLUE, patched URLs for MRPC's SentEval files, its dev ids and ERNIE's
archive), both sides' sha1 tables patched to them, and the samples, the files left in root, the requested URLs,
GluonNLP's real tables and signatures compared; then bad inputs: a wrong segment, a sha1 mismatch."""
import json
import os

import pytest

from gluonzoo.errors import BadInputError, ChecksumError
from gluonzoo.text.data import classification, glue, hosted, super_glue
from gluonzoo.text.data.datasets import list_datasets
from tests.conftest import serving
from tests.peers.hosted_cases import peer_reference, sample, sha1, signature, tarred, tree, tsv, zipped

GLUE = ['GlueCoLA', 'GlueSST2', 'GlueSTSB', 'GlueQQP', 'GlueRTE', 'GlueMNLI', 'GlueQNLI', 'GlueWNLI']
SUPER = ['SuperGlueRTE', 'SuperGlueCB', 'SuperGlueWSC', 'SuperGlueWiC', 'SuperGlueCOPA', 'SuperGlueMultiRC',
         'SuperGlueBoolQ', 'SuperGlueReCoRD', 'SuperGlueAXb', 'SuperGlueAXg']
ERNIE = ['BaiduErnieXNLI', 'BaiduErnieLCQMC', 'BaiduErnieChnSentiCorp']


def cls_of(name):
    return getattr(super_glue if name.startswith('SuperGlue') else glue, name)


def glue_tsv(name, seg):
    """Rows wide enough for every field GluonNLP reads, a header where it skips one; QQP's dev a broken row."""
    indices, discard = cls_of(name)._fields[seg]
    width = max(indices) + 2
    rows = [[f'h{j}' for j in range(width)]] if discard else []
    rows += [[f'{name} {seg} r{i} c{j}' + (' it \'s "q" – ü ' if j == 1 else '') for j in range(width)]
             for i in range(3)]
    if name == 'GlueQQP' and seg == 'dev':
        rows.insert(2, ['broken', 'row'])
    return tsv(rows)


def jsonl(name, seg):
    if name == 'SuperGlueMultiRC':
        recs = [{'idx': i, 'paragraph': {'text': f'<b>Sent 1: </b>{seg} one {i}.<br><b>Sent 12: </b>Two.<br>',
                                         'questions': [{'question': 'Q?', 'idx': 0,
                                                        'answers': [{'text': 'A', 'idx': 0, 'label': 1}]}]}}
                for i in range(2)]
    else:
        recs = [{'premise': f'{name} {seg} {i} – ü', 'hypothesis': 'h', 'label': 'entailment', 'idx': i,
                 'nested': {'z': [1, 2.5, None], 'a': True}} for i in range(3)]
    return ''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in recs)


MRPC_HEADER = ('Quality', '#1 ID', '#2 ID', '#1 String', '#2 String')
MRPC_TRAIN = [MRPC_HEADER, ('1', '702876', '702977', 'Amrozi accused his brother .', 'Referring to him .'),
              ('0', '2108705', '2108831', "Yucaipa owned Dominick 's .", 'Yucaipa bought it .'),
              ('1', '1330381', '1330521', 'They had published .', 'On June 10 , it said .  '),
              ('0', '3344667', '3344648', 'Around 0335 GMT .', 'Tab shares jumped .')]
MRPC_TEST = [MRPC_HEADER, ('1', '1089874', '1089925', "PCCW 's chief .", 'Current Chief .'),
             ('0', '3019446', '3019327', 'The world .', 'Worlds apart .')]
MRPC_DEV_IDS = [('2108705', '2108831'), ('3344667', '3344648')]
ERNIE_FILES = {
    'task_data/xnli/train.tsv': tsv([('premise', 'hypo', 'label')] + [(f'前提{i}', f'假设{i}', 'neutral')
                                                                      for i in range(3)]),
    'task_data/xnli/dev.tsv': tsv([('premise', 'hypo', 'label'), ('他说', '他没说', 'contradiction')]),
    'task_data/xnli/test.tsv': tsv([('premise', 'hypo', 'label'), ('测试', '测', 'entailment')]),
    'task_data/chnsenticorp/train.tsv': tsv([('label', 'text_a'), ('1', '选择珠江花园的原因'), ('0', '不好')]),
    'task_data/chnsenticorp/dev.tsv': tsv([('label', 'text_a'), ('1', '很好')]),
    'task_data/chnsenticorp/test.tsv': tsv([('label', 'text_a'), ('0', '差'), ('1', '好')]),
    'task_data/README': 'ernie\n'}
LCQMC = tsv([('text_a', 'text_b', 'label'), ('喜欢打篮球的男生', '爱打篮球的男生', '1'), ('我手机', '手机', '0')])


def build(base, lcqmc):
    """({url path: bytes}, job): every archive in GluonNLP's layout, and the tables and URLs that point both sides
    at them."""
    files, tables = {}, {}
    for name in GLUE + SUPER:
        cls = cls_of(name)
        tables[name] = {}
        for seg in cls._data_file:
            text = glue_tsv(name, seg) if name in GLUE else jsonl(name, seg)
            member = f'{seg}.tsv' if name in GLUE else f'{seg}.jsonl'
            data_sha1 = sha1(text.encode('utf-8'))
            archive = zipped({f'{cls._namespace.split("/")[1]}/{member}': text})  # a folder, flattened
            files[f'/gluon/dataset/{cls._namespace}/{seg}-{data_sha1[:8]}.zip'] = archive
            tables[name][seg] = [seg, sha1(archive), data_sha1]
    mrpc = {'raw_url': f'{base}senteval/', 'data_file': {}}
    # the tsv files GluonNLP writes (their sha1 lets a generated one be kept)
    body = [tuple(c.strip() for c in r) for r in MRPC_TRAIN[1:]]
    made = {'train': tsv([MRPC_HEADER] + [r for r in body if r[1:3] not in MRPC_DEV_IDS]),
            'dev': tsv([MRPC_HEADER] + [r for r in body if r[1:3] in MRPC_DEV_IDS]),
            'test': tsv([('index',) + MRPC_HEADER[1:]] + [(str(i),) + r[1:] for i, r in enumerate(MRPC_TEST[1:])])}
    for seg, raw_name, rows in (('train', 'msr_paraphrase_train.txt', MRPC_TRAIN),
                                ('dev', 'msr_paraphrase_train.txt', MRPC_TRAIN),
                                ('test', 'msr_paraphrase_test.txt', MRPC_TEST)):
        raw = tsv(rows).encode('utf-8')
        files[f'/senteval/{raw_name}'] = raw
        mrpc['data_file'][seg] = [raw_name, sha1(raw), sha1(made[seg].encode('utf-8'))]
    ids = tsv(MRPC_DEV_IDS).encode()
    files['/mrpc_dev_ids.tsv'] = ids
    mrpc['dev_ids'] = [f'{base}mrpc_dev_ids.tsv', sha1(ids)]
    files['/ernie/task_data_zh.tgz'] = tarred(ERNIE_FILES)
    with open(lcqmc, 'w', encoding='utf-8') as f:
        f.write(LCQMC)
    return files, {'repo': base, 'tables': tables, 'mrpc': mrpc, 'ernie_url': f'{base}ernie/task_data_zh.tgz'}


def cases(lcqmc):
    out = []
    for name in GLUE + SUPER:
        segs = list(cls_of(name)._data_file)
        if name in ('SuperGlueAXb', 'SuperGlueAXg'):
            out.append([name, name, {}])
            continue
        out += [[f'{name}_{s}', name, {'segment': s} if s != 'train' else {}] for s in segs]
        if name in GLUE:
            out += [[f'{name}_{segs[-1]}_all', name, {'segment': segs[-1], 'return_all_fields': True}]]
    out += [[f'GlueMRPC_{s}', 'GlueMRPC', {'segment': s}] for s in ('train', 'dev', 'test')]
    for name in ('BaiduErnieXNLI', 'BaiduErnieChnSentiCorp'):
        out += [[f'{name}_{s}', name, {'segment': s}] for s in ('train', 'dev', 'test')]
    out += [['BaiduErnieXNLI_all', 'BaiduErnieXNLI', {'segment': 'dev', 'return_all_fields': True}],
            ['lcqmc', 'BaiduErnieLCQMC', {'file_path': lcqmc}],
            ['lcqmc_test', 'BaiduErnieLCQMC', {'file_path': lcqmc, 'segment': 'test'}]]
    return out


def read(name, kwargs, root):
    cls = cls_of(name)
    ds = cls(**kwargs) if name == 'BaiduErnieLCQMC' else cls(root=root, **kwargs)
    out = {'len': len(ds), 'type': type(ds[0]).__name__ if len(ds) else None,
           'samples': [sample(ds[i]) for i in range(len(ds))]}
    return json.loads(json.dumps(out))


def patch(mp, job):
    for name, table in job['tables'].items():
        mp.setattr(cls_of(name), '_data_file', {k: tuple(v) for k, v in table.items()})
    mrpc = job['mrpc']
    mp.setattr(glue.GlueMRPC, '_data_file', {k: tuple(v) for k, v in mrpc['data_file'].items()})
    mp.setattr(glue.GlueMRPC, '_raw_url', mrpc['raw_url'])
    mp.setattr(glue.GlueMRPC, '_dev_ids', tuple(mrpc['dev_ids']))
    mp.setattr(glue, '_baidu_ernie_data_url', job['ernie_url'])


@pytest.fixture(scope='module')
def served(tmp_path_factory):
    with serving() as srv:
        lcqmc = str(tmp_path_factory.mktemp('lcqmc') / 'lcqmc_dev.tsv')
        files, job = build(srv.base, lcqmc)
        srv.files.update(files)
        yield srv, job, cases(lcqmc)


@pytest.fixture(scope='module')
def ref(served, tmp_path_factory):
    srv, job, cs = served
    return peer_reference('gluonnlp_glue_data.py', tmp_path_factory.mktemp('glue_peer'), {**job, 'cases': cs},
                          'glue.json', srv)


@pytest.fixture(scope='module')
def ours(ref, served, tmp_path_factory):
    srv, job, cs = served
    root = tmp_path_factory.mktemp('glue_ours')
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv('MXNET_GLUON_REPO', srv.base.rstrip('/'))
        patch(mp, job)
        with pytest.warns(UserWarning, match='1 incomplete samples'):  # QQP's broken dev row, as GluonNLP warns
            got = {cid: read(name, kwargs, str(root / cid)) for cid, name, kwargs in cs}
        hits = list(srv.hits)
        srv.hits.clear()
    return {'cases': got, 'roots': root, 'hits': hits}


@pytest.fixture
def repo(served, monkeypatch):
    srv, job, _ = served
    monkeypatch.setenv('MXNET_GLUON_REPO', srv.base)
    patch(monkeypatch, job)
    srv.hits.clear()
    srv.plan.clear()
    return srv


def test_samples_equal_gluonnlps(ours, ref, served):
    cs = served[2]
    assert len(cs) > 60
    for cid, *_ in cs:
        assert ours['cases'][cid] == ref['cases'][cid], cid
    assert ref['cases']['SuperGlueCB_val']['type'] == 'OrderedDict'
    assert ref['cases']['SuperGlueMultiRC_test']['samples'][0]['text'] == ['test one 0.', 'Two.']
    assert len(ref['cases']['GlueQQP_dev']['samples']) == 3 and ref['cases']['GlueMRPC_dev']['len'] == 2


def test_the_same_files_are_fetched_and_left_in_root(ours, ref, served):
    assert sorted(ours['hits']) == sorted(ref['hits'])
    assert '/mrpc_dev_ids.tsv' in ours['hits'] and '/ernie/task_data_zh.tgz' in ours['hits']
    for cid, name, _ in served[2]:
        if name != 'BaiduErnieLCQMC':
            assert tree(ours['roots'] / cid) == tree(ref['roots'] / cid), cid


def test_gluonnlps_tables_urls_signatures_and_registry(ref):
    facts = ref['facts']
    for name in GLUE + SUPER + ['GlueMRPC'] + ERNIE:
        cls = cls_of(name)
        if name not in ERNIE:
            assert json.loads(json.dumps(cls._data_file)) == facts[name]['tables']['data_file'], name
            assert cls.__new__(cls)._repo_dir() == facts[name]['tables']['repo'], name
        assert signature(cls, hosted.home_dir()) == facts[name]['signature'], name
        assert (name.lower() in list_datasets()) == facts[name]['registered'], name
    assert glue._baidu_ernie_data_url == facts['ernie_url']
    assert list(glue.GlueMRPC._dev_ids) == facts['mrpc_dev_ids']


def test_a_gluonnlp_cache_is_used_in_place(ref, repo):
    for cid, name, kwargs in (('GlueCoLA_dev', 'GlueCoLA', {'segment': 'dev'}),
                              ('SuperGlueCB_val', 'SuperGlueCB', {'segment': 'val'}),
                              ('GlueMRPC_train', 'GlueMRPC', {'segment': 'train'}),
                              ('BaiduErnieXNLI_test', 'BaiduErnieXNLI', {'segment': 'test'})):
        root = ref['roots'] / cid
        stamps = {p: os.stat(root / p).st_mtime_ns for p in tree(root)}
        assert read(name, kwargs, str(root)) == ref['cases'][cid], cid
        assert {p: os.stat(root / p).st_mtime_ns for p in tree(root)} == stamps, cid  # nothing rewritten
    assert repo.hits == []


@pytest.mark.parametrize('make', [
    lambda r: glue.GlueCoLA('val', root=r), lambda r: glue.GlueMNLI('dev', root=r),
    lambda r: glue.GlueMRPC('valid', root=r), lambda r: super_glue.SuperGlueRTE('dev', root=r),
    lambda r: glue.BaiduErnieXNLI('val', root=r), lambda r: glue.BaiduErnieChnSentiCorp('eval', root=r)])
def test_a_wrong_segment_is_one_line_naming_the_valid_ones(repo, tmp_path, make):
    with pytest.raises(BadInputError) as e:
        make(str(tmp_path / 'root'))
    assert '\n' not in str(e.value) and 'is not one of' in str(e.value)
    assert repo.hits == []


def test_a_sha1_mismatch_leaves_nothing_partial(repo, monkeypatch, tmp_path):
    table = dict(glue.GlueRTE._data_file)
    seg, _, data_sha1 = table['dev']
    monkeypatch.setattr(glue.GlueRTE, '_data_file', {**table, 'dev': (seg, '0' * 40, data_sha1)})
    root = tmp_path / 'rte'
    with pytest.raises(ChecksumError) as e:
        glue.GlueRTE('dev', root=str(root))
    assert '\n' not in str(e.value) and f'dev-{data_sha1[:8]}.zip' in str(e.value)
    assert tree(root) == []
    assert repo.hits == [f'/gluon/dataset/GLUE/RTE/dev-{data_sha1[:8]}.zip']


def test_get_task_is_gluonnlps(ref):
    import mxnet as mx
    import numpy as np
    for name, want in ref['tasks'].items():
        if name == 'error':
            assert 'ValueError' in want
            continue
        t = classification.get_task(name.upper() if name == 'sst' else name)
        assert type(t).__name__ == want['class'] and t.class_labels == want['class_labels'], name
        assert t.is_pair == want['is_pair'] and t.label_alias == want['label_alias'], name
        assert json.loads(json.dumps(t.metrics.get_config())) == want['config'], name
        labels = [np.array([1, 0, 1, 1.]), np.array([0, 0, 1, 0.])]
        scores = [np.array([[.2, .8], [.6, .4], [.7, .3], [.1, .9]]),
                  np.array([[.4, .6], [.9, .1], [.3, .7], [.8, .2]])]
        for y, p in zip(labels, scores):
            t.metrics.update([mx.nd.array(y)], [mx.nd.array(p[:, 1] * 5 if t.class_labels is None else p)])
        names, values = t.metrics.get()
        got = [names, [float(v) for v in values] if isinstance(values, list) else float(values)]
        assert got == pytest.approx(want['values']) if not isinstance(names, list) else \
            (got[0] == want['values'][0] and got[1] == pytest.approx(want['values'][1])), name
    assert classification.get_task('mrpc') is not classification.get_task('mrpc')
    with pytest.raises(BadInputError) as e:
        classification.get_task('foo')
    assert isinstance(e.value, ValueError) and '\n' not in str(e.value) and "'sts-b'" in str(e.value)


def test_tasks_read_their_datasets_by_segment(monkeypatch):
    # stubs: the real datasets' default roots are under ~/.mxnet
    seen = []

    class Stub:
        def __init__(self, segment='train'):
            seen.append(segment)
    monkeypatch.setattr(classification.MNLITask, '_dataset', Stub)
    monkeypatch.setattr(classification.CoLATask, '_dataset', Stub)
    mnli = classification.get_task('mnli')
    assert [n for n, _ in mnli.dataset_dev()] == ['dev_matched', 'dev_mismatched']
    assert [n for n, _ in mnli.dataset_test()] == ['test_matched', 'test_mismatched']
    cola = classification.get_task('cola')
    assert [cola.dataset_train()[0], cola.dataset_dev()[0], cola.dataset_test()[0]] == ['train', 'dev', 'test']
    assert seen == ['dev_matched', 'dev_mismatched', 'test_matched', 'test_mismatched', 'train', 'dev', 'test']


def test_lcqmc_task_reads_a_local_file(served, ref):
    path = [kw for cid, _, kw in served[2] if cid == 'lcqmc_test'][0]['file_path']
    ds = classification.get_task('lcqmc').get_dataset(path, 'test')
    assert [list(s) for s in ds] == ref['cases']['lcqmc_test']['samples']
