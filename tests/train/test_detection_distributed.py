"""The detection recipe with --kvstore dist_sync (scripts/launch.py on 127.0.0.1, 2 workers + 1 server): both workers
end with the same bytes, as classification's do (test_distributed.py)."""
import json
import os
import subprocess
import sys

from gluonzoo.vision.data.scenes import SceneSpec, make_scenes

from .helpers import LAUNCH, ROOT, sha1

RECIPE = os.path.join(ROOT, 'scripts', 'vision', 'detection', 'train.py')


def test_two_workers_train_an_ssd_to_the_same_bytes(tmp_path):
    data, out = tmp_path / 'voc', tmp_path / 'dist'
    make_scenes(data, SceneSpec(train=6, val=2, test=2, size=64))
    worker = [sys.executable, RECIPE, '--dataset', f'voc:{data}', '--model-kwargs', '{"pretrained_base": false}',
              '--data-shape', '64', '--batch-size', '2', '--epochs', '1', '--progress', '0', '--kvstore', 'dist_sync',
              '--out', str(out)]
    env = dict(os.environ, OMP_NUM_THREADS='1', MXNET_CPU_WORKER_NTHREADS='1')
    p = subprocess.run([sys.executable, LAUNCH, '-n', '2', '-s', '1', '--timeout', '240', '--', *worker], env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    with open(out / 'train.jsonl') as f:
        records = [json.loads(line) for line in f]
    head, final = records[0], records[-1]
    assert head['config']['kvstore'] == 'dist_sync' and head['dataset']['train_size'] == 8
    # 8 images, 2 a worker: 2 steps of a global batch of 4; rank 1's parameters (BatchNorm statistics too) are rank 0's
    assert sha1(out / final['weights_file']) == sha1(out / 'worker-1.params') == final['weights_sha1']
    assert 0 <= final['metrics']['map'] <= 1
