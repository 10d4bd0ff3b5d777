"""The `gluonzoo` command as a user runs it: a real subprocess, exit codes and the one-line errors."""
import json
import os
import subprocess
import sys
from importlib import resources

import pytest

ASSETS = resources.files('gluonzoo.vision').joinpath('assets')


def run(*args):
    p = subprocess.run([sys.executable, '-m', 'gluonzoo.cli', *args], capture_output=True, text=True,
                       env=dict(os.environ), timeout=300)
    return p.returncode, p.stdout, p.stderr


def one_line_error(err):
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith('gluonzoo: error: '), err
    return lines[0]


@pytest.mark.parametrize('command', ['list', 'info', 'predict', 'detect', 'embed', 'export', 'verify-export', 'verify',
                                     'train'])
def test_every_command_has_help(command):
    code, out, _ = run(command, '--help')
    assert code == 0 and 'usage: gluonzoo ' + command in out


def test_list_and_info():
    code, out, _ = run('list', 'mobilenetv2_1*', '--pretrained')
    assert code == 0 and 'mobilenetv2_1.0' in out and 'gluoncv,in1k' in out and 'mobilenetv2_0.5' not in out
    code, out, _ = run('info', 'mobilenetv2_1.0', '--json')
    d = json.loads(out)
    assert d['name'] == 'mobilenetv2_1.0.in1k' and d['source']['converter'].endswith('from_torchvision')
    assert d['preprocess']['crop'] == 224


def test_predict_prints_top5(pretrained_home):
    code, out, err = run('predict', 'mobilenetv2_1.0', str(ASSETS.joinpath('chelsea.jpg')))
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 6 and lines[1].split(None, 1)[1] == 'Egyptian cat'


def test_unknown_model_is_one_line():
    code, _, err = run('predict', 'mobilenet_v2', str(ASSETS.joinpath('chelsea.jpg')))
    assert code == 1 and 'closest: mobilenetv2_' in one_line_error(err)


def test_non_image_is_one_line_and_debug_shows_traceback(tmp_path):
    bad = tmp_path / 'notes.txt'
    bad.write_text('hello')
    code, _, err = run('predict', 'mobilenetv2_1.0', str(bad))
    assert code == 1 and 'notes.txt is not an image' in one_line_error(err)
    code, _, err = run('--debug', 'predict', 'mobilenetv2_1.0', str(bad))
    assert code == 1 and 'Traceback' in err


def test_offline_with_nothing_cached(monkeypatch):
    monkeypatch.setenv('GLUONZOO_OFFLINE', '1')
    code, _, err = run('verify', 'mobilenetv2_0.5')
    assert code == 1 and 'GLUONZOO_OFFLINE is set and mobilenetv2_0.5-08038185.params' in one_line_error(err)


def test_unwritable_cache(tmp_path, monkeypatch):
    (tmp_path / 'f').write_text('')
    monkeypatch.setenv('GLUONZOO_HOME', str(tmp_path / 'f' / 'home'))
    code, _, err = run('verify', 'mobilenetv2_1.0')
    assert code == 1 and 'cannot write to the cache folder' in one_line_error(err)


def test_verify_and_export(pretrained_home, tmp_path):
    code, out, err = run('verify', 'mobilenetv2_1.0')
    assert code == 0, err
    assert 'sha1 d78ff03a' in out and 'chelsea.jpg: Egyptian cat' in out and 'verified' in out
    code, out, err = run('export', 'mobilenetv2_1.0', '--out', str(tmp_path / 'mb'))
    assert code == 0, err
    assert (tmp_path / 'mb-symbol.json').is_file() and (tmp_path / 'mb-0000.params').is_file()


def test_verify_catches_a_corrupted_cache_by_refetching(pretrained_home):
    path = pretrained_home / 'models' / 'mobilenetv2_1.0-d78ff03a.params'
    with open(path, 'r+b') as f:
        f.seek(4000)
        f.write(b'\xff' * 64)
    code, out, err = run('verify', 'mobilenetv2_1.0')
    assert code == 0 and 'corrupt (sha1 mismatch); fetching it again' in err
    assert 'sha1 d78ff03a' in out
