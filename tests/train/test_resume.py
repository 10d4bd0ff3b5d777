"""--resume continues to the very bytes an uninterrupted run ends with: after a clean stop and after kill -9."""
import os
import shutil
import signal
import subprocess

import pytest

from .helpers import env, recipe_cmd, recipe_main, records, run_recipe, sha1, weights_file

# every engine feature on, so the bitwise comparison covers them: warmup, step schedule, mixup (off for the last
# epoch), label smoothing, gradient clipping
OPTS = ['--epochs', '3', '--lr-mode', 'step', '--lr-steps', '2', '--warmup-epochs', '0.5', '--mixup', '0.2',
        '--mixup-off-epochs', '1', '--label-smoothing', '0.1', '--clip-gradient', '2']


@pytest.fixture(scope='module')
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp('full') / 'run'
    run_recipe(*OPTS, '--out', str(out))
    return out


def test_resume_after_a_stop_matches_the_uninterrupted_run(uninterrupted, tmp_path):
    out = tmp_path / 'run'
    shutil.copytree(uninterrupted, out)
    # as if it had stopped after epoch 2: drop what epoch 3 wrote
    os.remove(out / 'epoch-0003.ckpt')
    os.remove(weights_file(out))
    p = run_recipe(*OPTS, '--out', str(out), '--resume')
    assert sha1(weights_file(out)) == sha1(weights_file(uninterrupted)), p.stderr
    assert records(out / 'train.jsonl') == records(uninterrupted / 'train.jsonl')
    assert records(out / 'train.jsonl', 'resume')[0]['after_epoch'] == 2


def test_kill_9_mid_epoch_then_resume_matches(uninterrupted, tmp_path):
    out = tmp_path / 'run'
    p = subprocess.Popen(recipe_cmd(*OPTS, '--out', str(out), '--print-every', '1'), env=env(),
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        for line in p.stdout:
            if line.startswith('epoch 2 batch 4/'):  # half way through epoch 2, after epoch 1's checkpoint
                break
        else:
            pytest.fail('the run ended before epoch 2 batch 4')
        os.killpg(p.pid, signal.SIGKILL)
    finally:
        p.wait(30)
        p.stdout.close()
    assert p.returncode == -signal.SIGKILL
    assert sorted(f for f in os.listdir(out) if f.endswith('.ckpt')) == ['epoch-0001.ckpt']
    run_recipe(*OPTS, '--out', str(out), '--resume')
    assert sha1(weights_file(out)) == sha1(weights_file(uninterrupted))
    assert records(out / 'train.jsonl') == records(uninterrupted / 'train.jsonl')


def test_corrupt_checkpoint_is_an_error_not_a_fresh_start(uninterrupted, tmp_path, capsys):
    out = tmp_path / 'run'
    shutil.copytree(uninterrupted, out)
    ckpt = out / 'epoch-0003.ckpt'
    data = bytearray(ckpt.read_bytes())
    at = data.index(b'params') + 200  # inside the stored params member: the zip still opens, the sha1 fails
    data[at] ^= 0xFF
    ckpt.write_bytes(bytes(data))
    assert recipe_main([*OPTS, '--out', str(out), '--resume']) == 2
    err = capsys.readouterr().err
    assert 'is corrupt' in err and 'epoch-0003.ckpt' in err
    ckpt.write_bytes(bytes(data[:len(data) // 2]))  # truncated
    assert recipe_main([*OPTS, '--out', str(out), '--resume']) == 2
    assert 'is corrupt' in capsys.readouterr().err
    assert len(records(out / 'train.jsonl')) == 3  # nothing was restarted or overwritten
    assert sha1(weights_file(out)) == sha1(weights_file(uninterrupted))


@pytest.mark.parametrize('change,key', [(['--lr', '0.05'], 'lr'), (['--model', 'cifar_resnet20_v2'], 'model'),
                                        (['--seed', '7'], 'seed'), (['--epochs', '4'], 'epochs')])
def test_mismatched_checkpoint_is_an_error(uninterrupted, capsys, change, key):
    assert recipe_main([*OPTS, *change, '--out', str(uninterrupted), '--resume']) == 2
    assert f'was made with {key}=' in capsys.readouterr().err


def test_resume_needs_a_checkpoint_and_a_fresh_run_an_empty_out(uninterrupted, tmp_path, capsys):
    assert recipe_main([*OPTS, '--out', str(tmp_path / 'empty'), '--resume']) == 2
    assert 'no checkpoint' in capsys.readouterr().err
    assert recipe_main([*OPTS, '--out', str(uninterrupted)]) == 2
    err = capsys.readouterr().err
    assert 'already holds checkpoints' in err and '--resume' in err


def test_checkpoint_of_another_net_is_refused(uninterrupted, tmp_path):
    """Same config, other parameter shapes (as if the model file had changed): refused by shape, not loaded."""
    import mxnet as mx
    from mxnet import gluon
    from gluonzoo.train import checkpoint as ckpt
    net = gluon.nn.Dense(3, in_units=2)
    net.initialize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd')
    path = ckpt.latest(str(uninterrupted))
    meta = ckpt.read(path)[0]
    with pytest.raises(ckpt.CheckpointError, match='does not fit the net'):
        ckpt.restore(path, net, trainer, meta['config'], mx.cpu())
