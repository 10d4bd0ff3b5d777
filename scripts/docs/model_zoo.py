"""Write docs/model_zoo.md from the registry: one row per checkpoint. `--check` fails when the file is stale.

    .venv/bin/python scripts/docs/model_zoo.py [--check]
"""
import os
import sys

import gluonzoo as gz

METRICS = ('top1', 'top5', 'map', 'ppl', 'bleu')  # the headline figures a record's metrics may hold
OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'docs', 'model_zoo.md')


def render():
    lines = ['# Model zoo', '',
             'Generated from the registry by `scripts/docs/model_zoo.py`; do not edit by hand. Metrics are the '
             "source's published figures unless a log is linked.", '',
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
    text = render()
    if '--check' in sys.argv:
        current = open(OUT).read() if os.path.exists(OUT) else ''
        if current != text:
            sys.exit('docs/model_zoo.md is stale: run .venv/bin/python scripts/docs/model_zoo.py')
        print('docs/model_zoo.md is up to date')
    else:
        with open(OUT, 'w') as f:
            f.write(text)
        print('wrote', os.path.normpath(OUT))
