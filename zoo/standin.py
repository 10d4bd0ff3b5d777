"""Local stand-ins for trained checkpoints that a rerun on this machine could not rebuild byte for byte.

`gluonzoo train NAME` first asks the rerun's log to equal the committed one; then the file is the published one.
When it does not (another CPU's oneDNN kernels sum floats in another order, and training amplifies the last bit),
the rerun is still accepted if every final metric that the record's `check['rerun']` names (default:
`check['log']`) is within its tolerance of the logged value. The file then stays in the cache under its own sha1,
`{arch}-{its sha1[:8]}.params`, never under the published name, and a provenance note beside it,
`{arch}-{published sha1[:8]}.standin.json`, says what it stands in for: the command, the machine, its metrics and
the logged ones, the first differences, and where the rerun's log is (copied beside it). `get_model(NAME,
pretrained=True)` then loads it with one warning; `gluonzoo verify NAME` checks its sha1 against the note and
re-measures it against the note's metrics. A later byte-exact rerun removes the note. The store reads the notes
(store.find_standin, re-exported here as `find`): every load passes there.
"""
import json
import os
import shutil
import tempfile
import time

from .store import cache_root, file_hash, find_standin as find, standin_note_path as note_path  # noqa: F401


def in_use(w, path):
    """The note of record `w`'s stand-in when `path` (the file store.fetch gave for `w`) is that stand-in, else None:
    a published file in the cache wins over a stand-in beside it, and is checked against the published log."""
    found = find(w) if w.source.kind == 'recipe' else None
    return found[1] if found and found[0] == path else None


def tolerances(w):
    """{metric: absolute tolerance} a non-identical rerun of record `w` must meet on its final metrics."""
    return dict(w.check.get('rerun') or w.check.get('log') or {})


def compare(w, logged, rerun):
    """[(metric, logged value, rerun's value, tolerance, ok)] over tolerances(w), from two TrainLogs' finals."""
    out = []
    for metric, tol in sorted(tolerances(w).items()):
        a, b = logged.final['metrics'].get(metric), rerun.final['metrics'].get(metric)
        out.append((metric, a, b, tol, a is not None and b is not None and abs(a - b) <= tol))
    return out


def write(w, made, rerun_log, differences, results, command, root=None):
    """Keep the rerun's file `made` in the cache under its own sha1 with the note; return (path, note)."""
    from .logs import machine
    root = cache_root(root)
    os.makedirs(root, exist_ok=True)
    sha = file_hash(made)
    name = f'{w.arch}-{sha[:8]}'
    for src, dst in ((made, name + '.params'), (rerun_log.path, name + '.jsonl')):
        _copy(src, os.path.join(root, dst))
    note = {'name': w.name, 'stands_in_for': w.sha1, 'sha1': sha, 'file': name + '.params',
            'log': os.path.join(root, name + '.jsonl'), 'command': command, 'machine': machine(),
            'time': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()), 'differences': differences[:5],
            'metrics': [[m, logged, got, tol] for m, logged, got, tol, _ in results]}
    _write_atomically(note_path(w, root), json.dumps(note, indent=1, sort_keys=True) + '\n')
    return os.path.join(root, note['file']), note


def remove(w, root=None):
    """Drop the note of record `w` (a byte-exact rerun made the published file); the file it named may stay."""
    path = note_path(w, root)
    if os.path.exists(path):
        os.remove(path)


def _copy(src, dst):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(dst), prefix='.standin-', suffix='.part')
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix='.standin-', suffix='.part')
    with os.fdopen(fd, 'w') as f:
        f.write(text)
    os.replace(tmp, path)
