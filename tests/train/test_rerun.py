"""`gluonzoo train NAME`: rerun a trained checkpoint's recipe, which must write the same log; records of kind
'recipe' are fetched from where that rerun leaves them, and say how to rebuild them when they are not there."""
import dataclasses
import glob
import json
import os
import shutil
import subprocess
import sys
import warnings

import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.cli import main as cli
from gluonzoo.errors import BadInputError, ChecksumError, WeightsNotFoundError
from gluonzoo.logs import read_log
from gluonzoo.errors import NotReproducedError
from gluonzoo.recipes import recipe_command
from gluonzoo.train.rerun import differences, rerun
from gluonzoo.weights import ONE_THREAD, Source, Weights

from .helpers import RECIPE, TINY, records, sha1, weights_file


def _record(out, log, committed, sha, **kw):
    """A 'recipe' record of the tiny Fashion-MNIST run that writes into `out` / `log`, committed as `committed`."""
    recipe = f'{ONE_THREAD} {RECIPE} {" ".join(TINY)} --epochs 1 --out {out} --log {log}'
    return Weights(arch='cifar_resnet20_v1', tag='tiny', sha1=sha, task='image-classification', num_params=1,
                   source=Source(kind='recipe'), recipe=recipe, log=str(committed), **kw)


def _registrable(arch, out, log, committed_log, sha):
    """The tiny run's record under its own arch, with cifar_resnet20_v1.fmnist's classes, preprocessing and checks,
    so `gluonzoo verify` and `get_model` can take it once `_registered`."""
    tiny = _record(out, log, committed_log, sha)
    return dataclasses.replace(gz.get_weights('cifar_resnet20_v1.fmnist'), arch=arch, tag='tiny', sha1=sha,
                               source=tiny.source, recipe=tiny.recipe, log=tiny.log, default=True)


def _registered(*records):
    from gluonzoo.registry import get_entry
    from ..conftest import registered
    return registered(records[0].arch, get_entry('cifar_resnet20_v1').builder, task=records[0].task,
                      weights=list(records), protected=('in_channels',))


@pytest.fixture(scope='module')
def committed(tmp_path_factory):
    """One real run of the tiny recipe, through the record's own command; its log kept aside as the committed one."""
    tmp = tmp_path_factory.mktemp('rerun')
    out, log = tmp / 'run', tmp / 'run.jsonl'
    probe = _record(out, log, tmp / 'x.jsonl', '0' * 40)
    env, argv = recipe_command(probe)
    subprocess.run([sys.executable, *argv[1:]], env=dict(os.environ, **env), check=True, capture_output=True,
                   timeout=600)
    shutil.copy(log, tmp / 'committed.jsonl')
    return tmp, sha1(weights_file(out))


def test_rerun_reproduces_the_committed_log_and_the_store_takes_its_file(committed, tmp_path):
    tmp, sha = committed
    w = _record(tmp / 'run', tmp / 'run.jsonl', tmp / 'committed.jsonl', sha)
    shutil.rmtree(tmp / 'run')  # a rerun starts from nothing (folders outside out/ are never cleared for it)
    made, note = rerun(w)
    assert sha1(made) == sha and note is None
    assert records(tmp / 'run.jsonl') == records(tmp / 'committed.jsonl')
    path = store.fetch(w, root=tmp_path / 'cache', progress=False)
    assert sha1(path) == sha and path.endswith(w.file_stem + '.params')


def test_a_rerun_that_departs_from_the_log_is_refused(committed, tmp_path):
    tmp, sha = committed
    logged = [json.loads(line) for line in open(tmp / 'committed.jsonl')]
    logged[1]['train']['loss'] += 1e-6  # the committed log claims another first-epoch loss
    claim = tmp_path / 'claims.jsonl'
    claim.write_text(''.join(json.dumps(r) + '\n' for r in logged))
    w = _record(tmp_path / 'run', tmp_path / 'run.jsonl', claim, sha)
    with pytest.raises(NotReproducedError, match=r'did not reproduce .*epoch 1: train'):
        rerun(w)


def _claims(committed_log, tmp_path, change):
    """A copy of the committed log with `change(records)` applied: a log this machine's rerun will not match."""
    logged = [json.loads(line) for line in open(committed_log)]
    change(logged)
    claim = tmp_path / 'claims.jsonl'
    claim.write_text(''.join(json.dumps(r) + '\n' for r in logged))
    return claim


def test_a_close_rerun_becomes_a_stand_in_that_loads_with_a_warning(committed, tmp_path, capsys):
    tmp, sha = committed
    published = '1' * 40  # the bytes another machine made: this one cannot make them

    def other_machine(records):
        records[1]['train']['loss'] += 1e-6
        records[-1]['weights_sha1'] = published
        records[-1]['metrics']['top1'] -= 0.004  # within the tolerance below
    claim = _claims(tmp / 'committed.jsonl', tmp_path, other_machine)
    w = _record(tmp_path / 'run', tmp_path / 'run.jsonl', claim, published, check={'rerun': {'top1': 0.005}})
    made, note = rerun(w)
    # kept under its own sha1, never under the published name, with a note saying what it stands in for
    assert os.path.basename(made) == f'cifar_resnet20_v1-{sha[:8]}.params' and sha1(made) == sha
    assert note['stands_in_for'] == published and note['sha1'] == sha and 'epoch 1: train' in note['differences'][0]
    assert note['machine']['cpu'] and note['command'] == w.recipe
    assert not os.path.exists(os.path.join(store.cache_root(), f'{w.file_stem}.params'))
    with pytest.warns(UserWarning, match=r'using the local rebuild .* in place of the published 11111111: .*top1 '):
        assert store.fetch(w, progress=False) == made
    with warnings.catch_warnings():  # the warning comes once a process, not at every fetch
        warnings.simplefilter('error')
        assert store.fetch(w, progress=False) == made
    with open(made, 'r+b') as f:  # altered: the note is ignored, the file never loaded; the rerun's own output
        f.write(b'x')              # in out/ is not the published file either
    with pytest.raises(ChecksumError, match='the record says 1111'):
        store.fetch(w, progress=False)
    assert 'is missing or altered' in capsys.readouterr().err


def test_a_published_file_in_the_cache_wins_over_a_stand_in_beside_it(committed, tmp_path, capsys):
    """`gluonzoo train NAME` after the published file was built can still leave a stand-in: fetch, and verify's
    sha1 and re-measured log, stay the published file's."""
    from gluonzoo import standin
    tmp, sha = committed
    arch = 'cifar_resnet20_v1_both'
    w = _registrable(arch, tmp / 'run', tmp / 'run.jsonl', tmp / 'committed.jsonl', sha)
    published = store.fetch(w, progress=False)
    other = tmp_path / 'other.params'
    other.write_bytes(b'the file of a rerun here that did not match the log')

    def better(records):  # its log claims 0.003 more than the published file scores: verify would say DIFFERS
        records[-1]['metrics']['top1'] += 0.003
    rerun_log = read_log(_claims(tmp / 'committed.jsonl', tmp_path, better))
    logged = read_log(tmp / 'committed.jsonl').final['metrics']['top1']
    standin.write(w, str(other), rerun_log, ['epoch 1: ...'], [('top1', logged, logged + 0.003, 0.005, True)],
                  w.recipe)
    assert standin.find(w) and store.fetch(w, progress=False) == published
    assert standin.in_use(w, published) is None
    with _registered(w):
        assert cli(['verify', f'{arch}.tiny']) == 0
    out = capsys.readouterr().out
    assert f'sha1 {sha} ok ({published})' in out and f'the log says {logged:.4f}' in out


def test_a_rerun_beyond_its_tolerance_is_refused_and_keeps_nothing(committed, tmp_path):
    tmp, sha = committed

    def other_machine(records):
        records[1]['train']['loss'] += 1e-6
        records[-1]['metrics']['top1'] -= 0.05
    claim = _claims(tmp / 'committed.jsonl', tmp_path, other_machine)
    w = _record(tmp_path / 'run', tmp_path / 'run.jsonl', claim, sha, check={'log': {'top1': 0.005}})
    with pytest.raises(NotReproducedError, match=r'final top1 .* tolerance 0.005'):
        rerun(w)
    assert not glob.glob(os.path.join(store.cache_root(), '*'))


def test_cli_train_jobs_runs_recipes_at_once_and_a_failure_stops_none(committed, tmp_path, capsys):
    tmp, sha = committed
    arch = 'cifar_resnet20_v1_jobs'
    good = _registrable(arch, tmp_path / 'a', tmp_path / 'a.jsonl', tmp / 'committed.jsonl', sha)
    bad = dataclasses.replace(good, tag='bad', default=False,  # its script refuses the flag at once
                              recipe=f'{ONE_THREAD} {RECIPE} --no-such-flag --out {tmp_path / "b"} '
                                     f'--log {tmp_path / "b.jsonl"}')
    with _registered(good, bad):
        assert cli(['train', f'{arch}.tiny', f'{arch}.bad', '--jobs', '2']) == 1
    out, err = capsys.readouterr()
    assert f'{arch}.tiny: reproduced' in out and f'{arch}.tiny: verified' in out
    assert f'the recipe of {arch}.bad exited with 2 (its output: {tmp_path / "b.out"})' in err
    assert '1 of 2 checkpoints were not built' in err
    assert "unknown option '--no-such-flag'" in (tmp_path / 'b.out').read_text()
    assert 'epoch 1/1' in (tmp_path / 'a.out').read_text()  # the recipe's lines go to its file, not to ours
    assert records(tmp_path / 'a.jsonl') == records(tmp / 'committed.jsonl')


def test_a_rerun_never_clears_a_folder_outside_out(committed):
    tmp, sha = committed
    w = _record(tmp / 'run', tmp / 'run.jsonl', tmp / 'committed.jsonl', sha)
    with pytest.raises(BadInputError, match='is not under .*/out: remove it, or pass --resume'):
        rerun(w)
    assert (tmp / 'run').is_dir()


def test_differences_name_data_config_and_epochs(committed):
    tmp, _ = committed
    base = read_log(tmp / 'committed.jsonl')
    assert differences(base, base) == []
    other = dataclasses.replace(base, header=dict(base.header, dataset=dict(base.header['dataset'], checksum='ab'),
                                                  config=dict(base.config, lr=1.0)), epochs=[])
    found = differences(base, other)
    assert found[0].startswith('the data differ') and found[1].startswith('config lr is 1.0')
    assert found[-1] == '0 epochs, the log has 1'


def test_recipe_source_without_its_file_says_how_to_rebuild_it(committed, tmp_path):
    tmp, sha = committed
    w = _record(tmp_path / 'never', tmp_path / 'never.jsonl', tmp / 'committed.jsonl', sha)
    with pytest.raises(WeightsNotFoundError, match=r'gluonzoo train cifar_resnet20_v1.tiny` \(or `make weights`'):
        store.fetch(w, progress=False)


def test_recipe_output_with_other_bytes_is_refused(committed, tmp_path):
    tmp, sha = committed
    out = tmp_path / 'run'
    out.mkdir()
    name = read_log(tmp / 'committed.jsonl').final['weights_file']
    (out / name).write_bytes(b'not the trained weights')
    w = _record(out, tmp_path / 'run.jsonl', tmp / 'committed.jsonl', sha)
    with pytest.raises(ChecksumError, match='the record says'):
        store.fetch(w, root=tmp_path / 'cache', progress=False)
    assert not list((tmp_path / 'cache').glob('*.params'))


def test_recipe_records_need_a_command_and_a_log():
    with pytest.raises(ValueError, match="a recipe source needs the record's recipe command and log"):
        Weights(arch='x', tag='t', sha1='0' * 40, task='translation', num_params=1, source=Source(kind='recipe'))
    with pytest.raises(BadInputError, match='was not trained by a gluonzoo recipe'):
        recipe_command(gz.get_weights('mobilenetv2_1.0.in1k'))


def test_cli_train_refuses_what_it_cannot_rerun(capsys):
    assert cli(['train']) == 1
    assert 'give checkpoint names' in capsys.readouterr().err
    assert cli(['train', 'mobilenetv2_1.0.in1k']) == 1
    assert 'was not trained by a gluonzoo recipe' in capsys.readouterr().err
