"""The provenance log: what the header records, the reader's checks, and plot_log.py's PNG."""
import hashlib
import importlib.util
import json
import os

import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.logs import check_weights, read_log

from .helpers import ROOT, sha1, weights_file


def test_header_epochs_and_final_record(tiny_run):
    log = read_log(tiny_run / 'train.jsonl')
    h = log.header
    assert h['command'][1].endswith('train.py') and '--epochs' in h['command']
    assert h['config']['epochs'] == 2 and h['seed'] == h['config']['seed'] == 0
    assert len(h['git_commit']) == 40
    with open(os.path.join(ROOT, 'constraints.txt'), 'rb') as f:
        assert h['constraints_sha256'] == hashlib.sha256(f.read()).hexdigest()
    assert len(h['dataset']['checksum']) == 64 and h['dataset']['train_size'] == 256
    assert h['versions']['mxnet'] == '1.9.1' and h['versions']['gluonzoo']
    assert h['env']['MXNET_ENFORCE_DETERMINISM'] == '1' and h['env']['OMP_NUM_THREADS'] == '1'
    assert [r['epoch'] for r in log.epochs] == [1, 2]
    for r in log.epochs:
        assert set(r['train']) >= {'loss', 'top1'} and set(r['eval']) == {'loss', 'top1'} and r['lr'] >= 0
    assert log.final['split'] == 'test' and log.final['metrics'] == log.epochs[-1]['eval']
    assert log.final['weights_sha1'] == sha1(weights_file(tiny_run))
    assert log.curve('eval.top1') == [(1, log.epochs[0]['eval']['top1']), (2, log.epochs[1]['eval']['top1'])]


@pytest.mark.parametrize('mangle,message', [
    (lambda rs: rs[1:], 'header'),
    (lambda rs: [rs[0], rs[2], rs[1]] + rs[3:], 'in order'),
    (lambda rs: rs[:1] + [rs[-1]] + rs[1:-1], 'final record'),
    (lambda rs: [], 'header'),
])
def test_reader_refuses_malformed_logs(tiny_run, tmp_path, mangle, message):
    with open(tiny_run / 'train.jsonl') as f:
        records = [json.loads(line) for line in f]
    bad = tmp_path / 'bad.jsonl'
    bad.write_text(''.join(json.dumps(r) + '\n' for r in mangle(records)))
    with pytest.raises(BadInputError, match=message):
        read_log(bad)
    bad.write_text('{"type": "header"}\nnot json\n')
    with pytest.raises(BadInputError, match='bad.jsonl:2 is not a JSON record'):
        read_log(bad)


def test_check_weights_needs_the_logged_sha1(tiny_run):
    import dataclasses
    import gluonzoo as gz
    w = dataclasses.replace(gz.get_weights('cifar_resnet20_v1.gluoncv'), log=str(tiny_run / 'train.jsonl'))
    with pytest.raises(BadInputError, match='produced weights'):
        check_weights(w)
    w = dataclasses.replace(w, sha1=read_log(tiny_run / 'train.jsonl').final['weights_sha1'])
    assert check_weights(w).final['epochs'] == 2


def test_plot_log_writes_a_png(tiny_run, tmp_path):
    spec = importlib.util.spec_from_file_location('plot_log', os.path.join(ROOT, 'scripts', 'plot_log.py'))
    plot_log = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot_log)
    out = tmp_path / 'curves.png'
    assert plot_log.main([str(tiny_run / 'train.jsonl'), '-o', str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b'\x89PNG\r\n\x1a\n' and len(data) > 10000
    assert plot_log.main([str(tmp_path / 'missing.jsonl'), '-o', str(out)]) == 2
