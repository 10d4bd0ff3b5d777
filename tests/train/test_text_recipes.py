"""The MiniLM fine-tuning recipe runs end to end on a tiny slice of the WordNet glosses and logs accuracy."""
import json
import os
import subprocess
import sys

from .helpers import ROOT, env

FINETUNE = os.path.join(ROOT, 'scripts', 'text', 'classification', 'finetune.py')


def test_minilm_finetune_tiny(tmp_path):
    out = tmp_path / 'run'
    p = subprocess.run([sys.executable, FINETUNE, '--train-limit', '64', '--val-limit', '32', '--batch-size', '16',
                        '--epochs', '1', '--progress', '0', '--out', str(out)], env=env(), capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    with open(out / 'train.jsonl') as f:
        records = [json.loads(line) for line in f]
    head, final = records[0], records[-1]
    assert head['dataset']['name'] == 'wordnet_glosses' and head['dataset']['train_size'] == 64
    assert head['config']['pretrained'] is True and final['split'] == 'test'
    assert 0 <= final['metrics']['top1'] <= 1 and final['weights_file'].endswith('.params')
    assert os.path.isfile(out / final['weights_file'])
