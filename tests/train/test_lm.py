"""The language-model recipe (Austen, LSTM): perplexity falls, and --resume ends with the uninterrupted bytes
(the LSTM state runs across batches and restarts each epoch, so epoch checkpoints are complete)."""
import json
import os
import shutil
import subprocess
import sys

from .helpers import ROOT, env, sha1

LM = os.path.join(ROOT, 'scripts', 'text', 'lm', 'train.py')
TINY_LM = ['--train-limit', '7001', '--val-limit', '3501', '--epochs', '2', '--progress', '0',
           '--model-kwargs', '{"embed_size": 32, "hidden_size": 32}']


def _run(*args):
    p = subprocess.run([sys.executable, LM, *TINY_LM, *args], env=env(), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return p


def _weights(out):
    (name,) = [f for f in os.listdir(out) if f.startswith('standard_lstm_lm_200-')]
    return os.path.join(out, name)


def test_lm_learns_and_resumes_bit_exactly(tmp_path):
    full = tmp_path / 'full'
    _run('--out', str(full))
    with open(full / 'train.jsonl') as f:
        records = [json.loads(line) for line in f]
    epochs = [r for r in records if r['type'] == 'epoch']
    assert epochs[1]['eval']['ppl'] < epochs[0]['eval']['ppl'] < 10002  # better than uniform over the vocab
    assert records[0]['dataset']['vocab_size'] == 10002 and records[0]['dataset']['name'] == 'austen'
    part = tmp_path / 'part'
    shutil.copytree(full, part)
    os.remove(part / 'epoch-0002.ckpt')
    os.remove(_weights(part))
    _run('--out', str(part), '--resume')
    assert sha1(_weights(part)) == sha1(_weights(full))
