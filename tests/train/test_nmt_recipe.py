"""The Transformer translation recipe runs end to end on a few hundred trans-de-en pairs and logs test BLEU that is
corpus_bleu of the model's greedy decodes (re-decoded here from the saved weights, independently of the task)."""
import importlib.util
import json
import os

import mxnet as mx
import pytest

from .helpers import ROOT

RECIPE = os.path.join(ROOT, 'scripts', 'text', 'nmt', 'train.py')
TINY = ['--train-limit', '320', '--val-limit', '40', '--batch-size', '32', '--epochs', '1', '--progress', '0',
        '--model-kwargs', '{"units": 32, "hidden_size": 64, "num_layers": 1, "num_heads": 2}']


def _main(argv):
    spec = importlib.util.spec_from_file_location('nmt_recipe', RECIPE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main(argv)


def _greedy(net, task):
    from gluonzoo.text.decoding import greedy_search, nmt_step_fn
    src, valid = task.val[0], task.val[1]
    out = []
    for i in range(len(src)):
        step = nmt_step_fn(net, mx.nd.array(src[i:i + 1, :int(valid[i])]))
        ids = greedy_search(step, [[task.bos_id]], eos_id=task.eos_id, max_length=task.val[2].shape[1])[0]
        assert ids[0] == task.bos_id and (ids[-1] == task.eos_id or len(ids) == task.val[2].shape[1])
        out.append(task.tokenizer.decode([t for t in ids[1:] if t != task.eos_id]))
    return out


def test_nmt_recipe_tiny_logs_bleu_of_the_decodes(tmp_path):
    from gluonzoo.text.metrics import corpus_bleu
    from gluonzoo.train import TrainConfig
    from gluonzoo.train.datasets import load_task
    from gluonzoo.train.engine import build_net
    out = tmp_path / 'run'
    assert _main(TINY + ['--out', str(out)]) == 0
    with open(out / 'train.jsonl') as f:
        records = [json.loads(line) for line in f]
    head, final = records[0], records[-1]
    assert head['dataset']['name'] == 'trans_de_en' and head['dataset']['direction'] == 'de-en'
    assert 0 < head['dataset']['train_size'] <= 320 and 0 < head['dataset']['eval_size'] <= 40
    assert final['type'] == 'final' and final['split'] == 'test' and set(final['metrics']) == {'bleu', 'loss'}
    assert final['metrics'] == records[-2]['eval']

    # the same data and net from the log's config, the logged weights, decoded here
    cfg = TrainConfig.from_dict(head['config'])
    task = load_task(cfg)
    assert len(task.val_refs) == head['dataset']['eval_size'] and all(task.val_refs)
    net = build_net(cfg, mx.cpu(), task.model_kwargs())
    net.load_parameters(str(out / final['weights_file']), ctx=mx.cpu())
    net.hybridize(static_alloc=True, static_shape=True)  # as the engine ran it
    hyps = _greedy(net, task)
    assert final['metrics']['bleu'] == corpus_bleu(hyps, [task.val_refs])
    # and the task's BLEU reads those decodes: against themselves as references they score 100
    assert any(len(h.split()) >= 4 for h in hyps), hyps  # a 4-gram exists, so BLEU-4 is defined
    task.val_refs = hyps
    assert task.evaluate(net, mx.cpu())['bleu'] == pytest.approx(100.0)
