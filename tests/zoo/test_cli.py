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


def _commands():
    from gluonzoo.cli import build_parser
    sub = next(a for a in build_parser()._actions if a.dest == 'command')
    return sorted(sub.choices)


def test_the_command_list_is_complete():  # the registered verbs are there, so the parametrization below covers them
    assert {'list', 'info', 'export', 'verify-export', 'verify', 'train', 'predict', 'detect', 'embed'} <= set(
        _commands())


@pytest.mark.parametrize('command', _commands())
def test_every_command_has_help(command):
    code, out, _ = run(command, '--help')
    assert code == 0 and 'usage: gluonzoo ' + command in out


@pytest.mark.parametrize('args, says', [
    (['list', '--bogus'], 'unrecognized arguments: --bogus'),
    (['bogus'], "invalid choice: 'bogus'"),
    (['predict'], 'gluonzoo: error: predict: the following arguments are required: name, images'),
    (['export', 'mobilenetv2_1.0', '--input-shape', '1,a'], "'1,a' is not a shape"),
    (['export', 'mobilenetv2_1.0', '--input-shape', '1,3,0,224'], "'1,3,0,224' is not a shape"),
    (['verify-export', 'mobilenetv2_1.0', '--batch', '0'], "'0' is not a positive integer"),
    (['detect', 'yolo3_tiny_darknet_coco', 'x.jpg', '--threshold', 'abc'], "invalid float value: 'abc'"),
    (['info', 'no_such_model'], "unknown model 'no_such_model'"),
    (['info', 'mobilenetv2_1.0.no_such_tag'], 'no_such_tag'),
    (['train'], 'give checkpoint names'),
    (['train', 'mobilenetv2_1.0.digits', '--missing'], 'not both or neither'),
])
def test_usage_errors_are_one_line_and_exit_1(args, says, capsys):
    from gluonzoo.cli import main  # in-process (argparse and the registry only): the subprocess tests cover the rest
    try:
        code = main(args)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code == 1 and says in one_line_error(err) and out == ''


@pytest.mark.parametrize('command, model', [('predict', 'mobilenetv2_1.0'), ('detect', 'yolo3_tiny_darknet_coco')])
def test_missing_directory_and_empty_image_paths(command, model, tmp_path):
    (tmp_path / 'empty.jpg').write_bytes(b'')
    from tests.vision.test_image import _png_header
    (tmp_path / 'bomb.png').write_bytes(_png_header(20000, 20000))
    for path, says in [(tmp_path / 'nope.jpg', 'No such file'), (tmp_path, 'Is a directory'),
                       (tmp_path / 'empty.jpg', 'empty.jpg'), (tmp_path / 'bomb.png', 'claims 20000x20000 pixels')]:
        code, _, err = run(command, model, str(path))
        assert code == 1 and says in one_line_error(err)


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
