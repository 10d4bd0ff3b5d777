"""The same recipe twice with the same seed: identical epoch metrics and identical parameter bytes (CPU)."""
from .helpers import records, run_recipe, sha1, weights_file


def test_same_seed_same_metrics_and_params(tmp_path):
    a, b = tmp_path / 'a', tmp_path / 'b'
    for out in (a, b):
        run_recipe('--epochs', '1', '--out', str(out))
    ra, rb = records(a / 'train.jsonl'), records(b / 'train.jsonl')
    assert len(ra) == 1 and ra == rb
    assert sha1(weights_file(a)) == sha1(weights_file(b))
    assert records(a / 'train.jsonl', 'final') == records(b / 'train.jsonl', 'final')


def test_another_seed_gives_other_params(tmp_path):
    run_recipe('--epochs', '1', '--out', str(tmp_path / 'a'), '--seed', '1', '--train-limit', '64')
    run_recipe('--epochs', '1', '--out', str(tmp_path / 'b'), '--seed', '2', '--train-limit', '64')
    assert sha1(weights_file(tmp_path / 'a')) != sha1(weights_file(tmp_path / 'b'))
