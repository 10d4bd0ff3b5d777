"""Write docs/from_gluoncv.md and docs/from_gluonnlp.md: the peers' public API (read from the installed gluoncv and
gluonnlp in the peers venv, by tests/peers/peer_api.py) against gluonzoo.cv / gluonzoo.nlp, name by name: provided,
differs (why), not provided (why). The reasons are data beside the namespaces (cv/_notes.py, nlp/_notes.py).
`--snapshot` also rewrites the API snapshots the namespaces serve their leaf modules from (cv/gluoncv_api.json,
nlp/gluonnlp_api.json); `--check` fails when a page or a snapshot is stale.

    .venv/bin/python scripts/docs/migration.py [--check] [--snapshot]
"""
import argparse
import fnmatch
import importlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
PEERS = os.environ.get('GLUONZOO_PEERS_PYTHON', os.path.join(ROOT, '.venv-peers', 'bin', 'python'))

#: peer -> (our package, the peer's subpackages that make its public API, snapshot, page)
PEER_PACKAGES = {
    'gluoncv': ('gluonzoo.cv', 'model_zoo,data,utils,nn,loss', 'cv/gluoncv_api.json', 'docs/from_gluoncv.md'),
    'gluonnlp': ('gluonzoo.nlp', 'model,data,vocab,embedding,loss,utils,calibration,initializer,optimizer,metric',
                 'nlp/gluonnlp_api.json', 'docs/from_gluonnlp.md'),
}
#: gluonzoo's own spelling of what the peer's layout re-exports
OWN = {'gluoncv': 'gluonzoo.vision', 'gluonnlp': 'gluonzoo.text'}
#: what a user writes instead, shown at the top of each page
CHANGE = {'gluoncv': ('import gluoncv as gcv', 'import gluonzoo.cv as gcv',
                      'from gluoncv import model_zoo, data, utils', 'from gluonzoo.cv import model_zoo, data, utils'),
          'gluonnlp': ('import gluonnlp as nlp', 'import gluonzoo.nlp as nlp',
                       'from gluonnlp.data import batchify', 'from gluonzoo.nlp.data import batchify')}


def peer_api(peer):
    """{module: {name: kind}} of the installed peer."""
    if not os.path.exists(PEERS):
        sys.exit(f'{os.path.normpath(PEERS)} is missing: run `make peers` (the tables read the peers themselves)')
    _, subs, _, _ = PEER_PACKAGES[peer]
    out = subprocess.run([PEERS, os.path.join(ROOT, 'tests', 'peers', 'peer_api.py'), peer, subs],
                         capture_output=True, text=True, timeout=600, check=True).stdout
    return json.loads(out)


def notes(peer):
    """(DIFFERS {peer name: why}, NOT_PROVIDED [(peer name pattern, why)], OTHER_ISSUES [(pattern, issue)])."""
    module = importlib.import_module(PEER_PACKAGES[peer][0] + '._notes')
    return module.DIFFERS, module.NOT_PROVIDED, module.OTHER_ISSUES


def bar(peer):
    """(TARGET, FLOOR): the issue's share of own names to provide, and the share last measured."""
    module = importlib.import_module(PEER_PACKAGES[peer][0] + '._notes')
    return module.TARGET, module.FLOOR


def _first(patterns, name):
    return next((why for pattern, why in patterns if fnmatch.fnmatchcase(name, pattern)), None)


def _ours(ours_root, peer, full):
    """Our object under the peer's dotted name `full`, or None."""
    module, _, name = full.rpartition('.')
    try:
        return getattr(importlib.import_module(ours_root + module[len(peer):]), name)
    except (ImportError, AttributeError):
        return None


def classify(peer, api):
    """[(peer module, name, kind, status, why)], status one of provided, differs, missing. A DIFFERS note is of
    the object: it holds under every spelling the peer has for it (gluonnlp.model.BERTModel and
    gluonnlp.model.bert.BERTModel), so the notes name each object once."""
    ours_root = PEER_PACKAGES[peer][0]
    differs, not_provided, other = notes(peer)
    by_object = {id(obj): why for full, why in differs.items()
                 if (obj := _ours(ours_root, peer, full)) is not None and not isinstance(obj, (str, int, float))}
    rows = []
    for module in sorted(api):
        ours = ours_root + module[len(peer):]
        try:
            mod = importlib.import_module(ours)
        except ImportError:
            mod = None
        for name, kind in sorted(api[module].items()):
            full = f'{module}.{name}'
            try:
                present = mod is not None and hasattr(mod, name)
            except Exception:  # noqa: BLE001 -- a name whose lookup fails is not provided; the page says so
                present = False
            if present:
                why = differs.get(full) or by_object.get(id(getattr(mod, name)), '')
                status = 'differs' if why else 'provided'
            else:
                issue = _first(other, full)
                why = f'issue {issue}' if issue else _first(not_provided, full) or 'not yet'
                status = 'later' if issue else 'missing'
            rows.append((module, name, kind, status, why))
    return rows


def summary(rows):
    """(provided incl. differs, all names, names not left to another open issue)."""
    have = sum(r[3] in ('provided', 'differs') for r in rows)
    return have, len(rows), sum(r[3] != 'later' for r in rows)


def render(peer, rows):
    before, after, before2, after2 = CHANGE[peer]
    have, total, own = summary(rows)
    title = {'gluoncv': 'GluonCV', 'gluonnlp': 'GluonNLP'}[peer]
    ours = PEER_PACKAGES[peer][0]
    lines = [f'# Coming from {title}', '',
             f'Generated by `scripts/docs/migration.py` from the installed {peer} (the peers venv) and `{ours}`; '
             'do not edit by hand. The reasons come from '
             f'`{PEER_PACKAGES[peer][2].split("/")[0]}/_notes.py`.', '',
             'Change the import lines, nothing else:', '', '```python',
             f'{after}                 # was: {before}', f'{after2}   # was: {before2}', '```', '',
             f'Every name under `{ours}` is gluonzoo\'s one implementation, where {title} puts it (zoo/aliases.py '
             'serves the leaf modules whose names their package already exports). The design decision: '
             f'`{OWN[peer]}` stays gluonzoo\'s own spelling and holds the code; `{ours}` is {title}\'s layout as '
             'declarative re-exports of it (its files hold imports only), so a migrating user learns no new '
             'layout and a gluonzoo user one; the objects are the same either way.', '',
             '## Coverage', '',
             f'{have} of {total} public names of {title} ({100 * have / total:.1f}%) are provided; '
             f'{have} of the {own} that no other open issue of this milestone adds ({100 * have / max(own, 1):.1f}%).',
             '', f'The bar for a complete drop-in is {100 * bar(peer)[0]:.0f}% of the names no other open issue adds.',
             '', '| status | names |', '|---|---:|']
    for status, label in (('provided', 'provided'), ('differs', 'provided, differs (why below)'),
                          ('later', 'not provided yet: another open issue adds it'),
                          ('missing', 'not provided (why below)')):
        lines.append(f'| {label} | {sum(r[3] == status for r in rows)} |')
    lines += ['', '## Differences', '', '| name | why |', '|---|---|']
    lines += [f'| `{m}.{n}` | {why} |' for m, n, _, s, why in rows if s == 'differs']
    lines += ['', '## Not provided', '', '| name | kind | why |', '|---|---|---|']
    lines += [f'| `{m}.{n}` | {k} | {why} |' for m, n, k, s, why in rows if s in ('missing', 'later')]
    lines += ['', '## Provided, by module', '', '| module | names |', '|---|---|']
    modules = {}
    for m, n, _, s, _ in rows:
        if s in ('provided', 'differs'):
            modules.setdefault(m, []).append(n)
    lines += [f'| `{m}` | {", ".join(f"`{n}`" for n in names)} |' for m, names in modules.items()]
    return '\n'.join(lines) + '\n'


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--check', action='store_true', help='fail when a page or snapshot is stale')
    p.add_argument('--snapshot', action='store_true', help='rewrite the API snapshots from the installed peers')
    args = p.parse_args(argv)
    stale = []
    for peer, (_, _, snap, page) in PEER_PACKAGES.items():
        api = peer_api(peer)
        snap_path = os.path.join(ROOT, snap)
        with open(snap_path) as f:
            if json.load(f) != api:
                if args.snapshot and not args.check:
                    with open(snap_path, 'w') as g:
                        json.dump(api, g, indent=0, sort_keys=True)
                else:
                    stale.append(snap)
        text = render(peer, classify(peer, api))
        page_path = os.path.join(ROOT, page)
        old = open(page_path).read() if os.path.exists(page_path) else None
        if old != text:
            if args.check:
                stale.append(page)
            else:
                with open(page_path, 'w') as f:
                    f.write(text)
    if stale:
        sys.exit(f'stale: {", ".join(stale)}: run .venv/bin/python scripts/docs/migration.py'
                 + (' --snapshot' if any(s.endswith('.json') for s in stale) else ''))


if __name__ == '__main__':
    main()
