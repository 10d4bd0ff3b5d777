"""Fine-tuning on GLUE-style TSV files as a GluonNLP user runs it: a tiny pair set built from the real WordNet
glosses by make_gloss_pairs.py, MiniLM fine-tuned through finetune.py's TSV flags; the pair encoding against
GluonNLP's BERTSentenceTransform, the metrics against MXNet's own, and bad files named down to the row."""
import hashlib
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.train.config import TrainConfig
from gluonzoo.train.datasets import load_task

from ..peers import PYTHON
from ..text import test_gluonnlp_api as gluonnlp_mirror
from .helpers import ROOT, env, read_log

HERE = os.path.join(ROOT, 'scripts', 'text', 'classification')
FINETUNE, MAKE_PAIRS = os.path.join(HERE, 'finetune.py'), os.path.join(HERE, 'make_gloss_pairs.py')
TSV = ['--text-cols', '0,1', '--label-col', '2', '--skip-header']
# GluonNLP's own tiny checkpoints and vocabularies on a local mirror, under records made as the shipped ones
checkpoints, mirror = gluonnlp_mirror.checkpoints, gluonnlp_mirror.mirror


def _module(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope='module')
def pairs(tmp_path_factory):
    """train.tsv (48 pairs) and dev.tsv (16) from the real glosses."""
    out = tmp_path_factory.mktemp('gloss_pairs')
    assert _module(MAKE_PAIRS).main(['--out', str(out), '--train-size', '48', '--dev-size', '16']) == 0
    return out


def _write(path, lines):
    path.write_text(''.join(line + '\n' for line in lines), encoding='utf-8')
    return str(path)


def test_gloss_pairs_are_balanced_and_reproducible(pairs, tmp_path):
    rows = [line.split('\t') for line in (pairs / 'dev.tsv').read_text(encoding='utf-8').splitlines()]
    assert rows[0] == ['gloss_a', 'gloss_b', 'same_class'] and len(rows) == 17
    assert all(len(r) == 3 and r[0] and r[1] and r[0] != r[1] for r in rows[1:])
    assert sorted(r[2] for r in rows[1:]) == ['0'] * 8 + ['1'] * 8
    _module(MAKE_PAIRS).main(['--out', str(tmp_path), '--train-size', '48', '--dev-size', '16'])
    assert (tmp_path / 'train.tsv').read_bytes() == (pairs / 'train.tsv').read_bytes()


def test_finetune_tsv_pairs(pairs, tmp_path):
    out = tmp_path / 'run'
    train, dev = str(pairs / 'train.tsv'), str(pairs / 'dev.tsv')
    p = subprocess.run([sys.executable, FINETUNE, '--train', train, '--dev', dev, *TSV, '--metric', 'acc,f1,mcc',
                        '--max-len', '32', '--batch-size', '16', '--epochs', '1', '--progress', '0', '--out',
                        str(out)], env=env(), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    head, epoch, final = read_log(out / 'train.jsonl')
    data = head['dataset']
    assert data['name'] == 'tsv' and data['labels'] == ['0', '1'] and data['text_cols'] == [0, 1]
    assert (data['train_size'], data['eval_size'], data['max_length']) == (48, 16, 32)
    assert data['sha1'] == [hashlib.sha1(open(f, 'rb').read()).hexdigest() for f in (train, dev)]
    assert head['config']['model'] == 'bert_6_384_12.all_minilm_l6_v2' and head['config']['pretrained'] is True
    assert head['config']['dataset_kwargs']['label_col'] == 2 and head['command'][1] == FINETUNE
    assert head['type'] == 'header' and {'git_commit', 'versions', 'constraints_sha256', 'env'} <= set(head)
    assert final['split'] == 'dev' and final['metrics'] == epoch['eval']
    m = final['metrics']
    assert sorted(m) == ['acc', 'f1', 'loss', 'mcc'] and 0 <= m['acc'] <= 1 and 0 <= m['f1'] <= 1
    assert -1 <= m['mcc'] <= 1 and m['loss'] > 0
    assert os.path.isfile(out / final['weights_file']) and os.path.isfile(out / 'epoch-0001.ckpt')
    assert f'dev acc {m["acc"]:.4f} f1 {m["f1"]:.4f} mcc {m["mcc"]:.4f}' in p.stdout


PEER = '''
import collections, json, sys
import gluonnlp as nlp
vocab_file, jobs = sys.argv[1], json.loads(sys.argv[2])
tokens = [t.rstrip('\\n') for t in open(vocab_file, encoding='utf-8')]
vocab = nlp.vocab.BERTVocab(collections.Counter(tokens))  # its own order: compared as token strings
tok = nlp.data.BERTTokenizer(vocab, lower=True)
out = []
for max_len, row in jobs:
    ids, valid, types = nlp.data.BERTSentenceTransform(tok, max_len, pad=False, pair=len(row) == 2)(row)
    out.append([vocab.to_tokens(ids.tolist()), int(valid), types.tolist()])
print(json.dumps(out))
'''


def test_encoding_matches_gluonnlp(pairs):
    """[CLS] a [SEP] b [SEP], segment ids and longest-first truncation as GluonNLP's BERTSentenceTransform, for
    pairs and single texts, with lengths under most definitions' so that the cut is exercised."""
    from gluonzoo.text.train.tsv import encode, read_tsv, wordpiece_for
    tok = wordpiece_for('bert_6_384_12.all_minilm_l6_v2')
    ours, jobs = [], []
    for cols, max_len in (((0, 1), 20), ((1,), 10)):
        rows = read_tsv(str(pairs / 'dev.tsv'), cols, 2, skip_header=True)
        ids, valid = encode(tok, rows, max_len)
        ours += zip(ids, valid)
        jobs += [[max_len, r[0]] for r in rows]
    p = subprocess.run([PYTHON, '-c', PEER, tok.vocab_file, json.dumps(jobs)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    theirs = json.loads(p.stdout)
    assert len(theirs) == 32 and sum(v == job[0] for (_, v, _), job in zip(theirs, jobs)) >= 8
    for (ids, valid), (tokens, n, types) in zip(ours, theirs):
        assert valid == n and [tok.id_to_token(int(t)) for t in ids[0, :n]] == tokens
        assert ids[1, :n].tolist() == types and not ids[:, n:].any()


def _fail(capsys, argv, tmp_path):
    code = _module(FINETUNE).main(argv + ['--out', str(tmp_path / 'out'), '--progress', '0'])
    err = capsys.readouterr().err
    assert code == 2 and err.count('error:') == 1, err
    assert not os.path.exists(tmp_path / 'out') or not os.listdir(tmp_path / 'out')
    return err


def test_bad_tsv_rows_are_named(capsys, tmp_path):
    good = _write(tmp_path / 'good.tsv', ['a\tb\tlabel', 'a cat\ta dog\t1', 'a car\ta tree\t0', 'red\tgreen\t1'])
    ragged = _write(tmp_path / 'ragged.tsv', ['a\tb\tlabel', 'a cat\ta dog\t1', 'a car\ta tree\textra\t0'])
    err = _fail(capsys, ['--train', ragged, '--dev', good, *TSV], tmp_path)
    assert 'ragged.tsv row 3 has 4' in err and 'row 1 has 3' in err
    unknown = _write(tmp_path / 'unknown.tsv', ['a\tb\tlabel', 'a cat\ta dog\t1', 'a car\ta tree\tmaybe'])
    err = _fail(capsys, ['--train', good, '--dev', unknown, *TSV], tmp_path)
    assert "unknown.tsv row 3: label 'maybe' is not one of the labels ['0', '1']" in err
    empty = _write(tmp_path / 'empty.tsv', ['a\tb\tlabel', 'a cat\t \t1'])
    assert 'empty.tsv row 2: column 1 is empty' in _fail(capsys, ['--train', empty, '--dev', good, *TSV], tmp_path)
    assert 'needs both --train' in _fail(capsys, ['--train', good, *TSV], tmp_path)
    assert 'no setting' in _fail(capsys, ['--dataset', f'tsv:{good},{good}', '--dataset-kwargs',
                                          '{"text_col": 0}'], tmp_path)
    with pytest.raises(BadInputError, match=r'--label-col 5 \(columns count from 0\)'):
        load_task(TrainConfig(model='bert_6_384_12', dataset=f'tsv:{good},{good}',
                              dataset_kwargs={'label_col': 5}))
    with pytest.raises(BadInputError, match='roberta_12_768_12.* has no WordPiece vocabulary'):
        load_task(TrainConfig(model='roberta_12_768_12', dataset=f'tsv:{good},{good}',
                              dataset_kwargs={'text_cols': [0, 1], 'label_col': 2, 'skip_header': True}))


def test_metrics_match_mxnet():
    """F1 and MCC as MXNet's own mx.metric.F1 / mx.metric.MCC (binary, on class 1) compute them."""
    import mxnet as mx
    from gluonzoo.text.metrics import f1, mcc
    rng = np.random.RandomState(0)
    for n, p_pos in ((50, 0.5), (200, 0.2), (31, 0.8)):
        y, pred = (rng.rand(n) < p_pos).astype(int), (rng.rand(n) < 0.5).astype(int)
        pred[:n // 3] = y[:n // 3]  # better than chance
        probs = mx.nd.array(np.eye(2)[pred])
        for ours, theirs in ((f1, mx.metric.F1()), (mcc, mx.metric.MCC())):
            theirs.update([mx.nd.array(y)], [probs])
            assert ours(pred, y) == pytest.approx(theirs.get()[1], abs=1e-12)


@pytest.mark.usefixtures('mirror')
def test_gluonnlp_checkpoint_finetunes_on_tsv(pairs, tmp_path):
    """A GluonNLP BERT record named with finetune_classifier.py's flags: GluonNLP's own tiny checkpoint (with its
    pre-training heads, which the recipe leaves out as GluonNLP's script does) and vocabulary, from the local
    mirror, fine-tuned in-process."""
    import mxnet as mx
    out = tmp_path / 'run'
    code = _module(FINETUNE).main(['--train', str(pairs / 'train.tsv'), '--dev', str(pairs / 'dev.tsv'), *TSV,
                                   '--bert_model', 'bert_12_768_12', '--bert_dataset', 'tiny-wiki.v1', '--max_len',
                                   '16', '--batch-size', '16',
                                   '--progress', '0', '--out', str(out)])
    assert code == 0
    head, _, final = read_log(out / 'train.jsonl')
    assert head['config']['model'] == 'bert_12_768_12.tiny_wiki_v1' and head['dataset']['max_length'] == 16
    assert sorted(final['metrics']) == ['acc', 'loss'] and os.path.isfile(out / final['weights_file'])
    names = list(mx.nd.load(str(out / final['weights_file'])))
    assert any(n.startswith('bert.encoder.') for n in names) and any(n.startswith('classifier.') for n in names)
    assert not [n for n in names if n.startswith(('bert.decoder', 'bert.classifier'))], names
