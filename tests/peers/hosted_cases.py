"""What the hosted-dataset tests (tests/compat/test_nlp_hosted_data.py, test_nlp_glue_data.py,
test_nlp_sentiment_translation.py) and their peer scripts share, in both venvs: archives built in memory in
GluonNLP's layouts, what a dataset left in its root, its samples and its signature as plain JSON."""
import hashlib
import inspect
import io
import json
import os
import tarfile
import zipfile


class Stop(Exception):
    """Raised by a patched download method, to read a class's tables from an instance before it downloads."""


def sha1(data):
    return hashlib.sha1(data).hexdigest()


def zipped(members):
    """A zip of {name: str (UTF-8) or bytes}."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w') as zf:
        for name, data in members.items():
            zf.writestr(name, data.encode('utf-8') if isinstance(data, str) else data)
    return buf.getvalue()


def tarred(members):
    """A .tar.gz of {name: str}, with a fixed mtime so its bytes (and sha1) are the same on every run."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w:gz') as tf:
        for name, text in members.items():
            data = text.encode('utf-8')
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 1600000000
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def tsv(rows, sep='\t'):
    return ''.join(sep.join(r) + '\n' for r in rows)


def tree(root):
    """The files under root, relative, with '/'."""
    return sorted(os.path.relpath(os.path.join(d, f), root).replace(os.sep, '/')
                  for d, _, fs in os.walk(root) for f in fs)


def sample(x):
    return list(x) if isinstance(x, tuple) else x


def signature(cls, home):
    """[name, default, kind] of each constructor parameter, as JSON: `root` relative to `home` ($MXNET_HOME), a
    callable default as 'callable'."""
    sig = []
    for p in inspect.signature(cls).parameters.values():
        d = p.default
        if p.name == 'root':
            d = os.path.relpath(os.path.expanduser(d), home) if d.startswith(os.sep) else d
        elif callable(d):
            d = 'callable'
        sig.append([p.name, d if d is not inspect.Parameter.empty else '<required>', str(p.kind)])
    return json.loads(json.dumps(sig))


def peer_reference(script, out, job, result, server):
    """(our venv) Run peer `script` on `job` with its root out/roots, and return its `result` JSON with 'roots' (that
    folder) and 'hits' (the server's requests, which are then cleared for our side's run)."""
    from tests.peers import run_peer
    run_peer(script, out, [{**job, 'root': str(out / 'roots')}], timeout=120)
    with open(out / result) as f:
        ref = json.load(f)
    ref['roots'], ref['hits'] = out / 'roots', list(server.hits)
    server.hits.clear()
    return ref
