"""Write docs/model_zoo.md from the registry: GluonCV coverage by task, then one row per checkpoint. `--check`
fails when the file is stale. The coverage counts GluonCV 0.10.5's own `get_model_list()`, read in the peers venv
(`make peers`), so it is measured, not typed in.

    .venv/bin/python scripts/docs/model_zoo.py [--check]
"""
import json
import os
import subprocess
import sys

import gluonzoo as gz

METRICS = ('top1', 'top5', 'map', 'ppl', 'bleu')  # the headline figures a record's metrics may hold
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', 'docs', 'model_zoo.md')
PEERS = os.environ.get('GLUONZOO_PEERS_PYTHON', os.path.join(HERE, '..', '..', '.venv-peers', 'bin', 'python'))


def gluoncv_names():
    """{name: task} of GluonCV's model list, from the peers venv."""
    if not os.path.exists(PEERS):
        sys.exit(f'{os.path.normpath(PEERS)} is missing: run `make peers` (the coverage table reads GluonCV itself)')
    out = subprocess.run([PEERS, os.path.join(HERE, 'gluoncv_names.py')], capture_output=True, text=True,
                         timeout=300, check=True).stdout
    return json.loads(out)


def coverage(names):
    """Markdown rows: per GluonCV task, how many of its names gluonzoo registers, and which are missing."""
    ours = set(gz.list_models())
    rows = ['| GluonCV task | registered / GluonCV names | missing |', '|---|---:|---|']
    tasks = sorted(set(names.values()), key=lambda t: (t != 'image-classification', t))
    for task in tasks + ['all']:
        group = [n for n, t in names.items() if task in (t, 'all')]
        missing = [n for n in group if n not in ours]
        shown = 'none' if not missing else ('see the rows above' if task == 'all' else
                                            ', '.join(f'`{n}`' for n in missing))
        rows.append(f'| {task} | {len(group) - len(missing)} / {len(group)} | {shown} |')
    return rows


def render(names):
    lines = ['# Model zoo', '',
             'Generated from the registry by `scripts/docs/model_zoo.py`; do not edit by hand. Metrics are the '
             "source's published figures unless a log is linked.", '',
             "## GluonCV coverage", '',
             "GluonCV 0.10.5's `get_model_list()` names (read from the installed gluoncv, by the module that defines "
             'each) that `gluonzoo.get_model` also builds:', '', *coverage(names), '',
             '## Checkpoints', '',
             '| checkpoint | task | params | metrics | sha1 | source | log |',
             '|---|---|---:|---|---|---|---|']
    for name in gz.list_models(tags=True):
        w = gz.get_weights(name)
        m = w.metrics
        default = ' (default)' if w.default else ''
        log = f'[{os.path.basename(w.log)}](../{w.log})' if w.log else '-'
        metrics = ', '.join(f'{k} {m[k]}' for k in METRICS if k in m) or '-'
        lines.append(f'| `{name}`{default} | {w.task} | {w.num_params / 1e6:.2f}M | {metrics} | `{w.sha1[:8]}` | '
                     f'{w.source.describe()} | {log} |')
    return '\n'.join(lines) + '\n'


if __name__ == '__main__':
    text = render(gluoncv_names())
    if '--check' in sys.argv:
        current = open(OUT).read() if os.path.exists(OUT) else ''
        if current != text:
            sys.exit('docs/model_zoo.md is stale: run .venv/bin/python scripts/docs/model_zoo.py')
        print('docs/model_zoo.md is up to date')
    else:
        with open(OUT, 'w') as f:
            f.write(text)
        print('wrote', os.path.normpath(OUT))
