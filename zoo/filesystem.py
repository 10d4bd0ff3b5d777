"""Files and versions, domain-free: `download` of any URL to a path (over the store's HTTP streaming, so the same
timeouts, progress bar and short-body check apply), `check_sha1`, `makedirs`, `check_version`, archive extraction
and optional imports with an install hint. GluonCV and GluonNLP spell these `utils.download`, `utils.makedirs`, ...;
gluonzoo.cv and gluonzoo.nlp re-export them.

>>> import tempfile, os
>>> d = makedirs(os.path.join(tempfile.mkdtemp(), 'a', 'b')); makedirs(d) == d  # no error when it exists
True
"""
import contextlib
import hashlib
import importlib
import os
import re
import sys
import tarfile
import tempfile
import urllib.error
import warnings
import zipfile

from .errors import BadInputError, ChecksumError


def makedirs(path):
    """Create `path` and its parents (`mkdir -p`); an existing folder is fine. Returns the path."""
    os.makedirs(os.path.expanduser(path), exist_ok=True)
    return path


def check_sha1(filename, sha1_hash):
    """Whether the sha1 of the file's bytes starts with `sha1_hash` (a prefix of 8 hex digits is enough, as
    GluonCV's file names carry)."""
    digest = hashlib.sha1()
    with open(filename, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            digest.update(chunk)
    got, want = digest.hexdigest(), str(sha1_hash).lower()
    n = min(len(got), len(want))
    return n > 0 and got[:n] == want[:n]


_URL = re.compile(r'^(?:http|ftp)s?://(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+'
                  r'(?:[a-z]{2,6}\.?|[a-z0-9-]{2,}\.?))(?::\d+)?(?:/?|[/?]\S+)$', re.IGNORECASE)


def is_valid_url(url):
    """Whether `url` looks like an http(s) or ftp(s) URL of a host name, localhost or an IPv4 address."""
    return bool(_URL.match(str(url)))


def download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Download `url` to `path` (a file, or a folder to put it in; default: the URL's file name in the current
    folder) and return the file's path. A file already there is kept unless `overwrite`, or its sha1 does not
    match `sha1_hash`. The body goes to a temp file beside the target, renamed into place when complete (and its
    sha1 right), so no half-written file is ever left; a failed try is repeated up to `retries` times in all, then
    the last error is raised (a 4xx answer at once). $GLUONZOO_OFFLINE=1 refuses to download. `verify_ssl` is
    accepted for GluonCV's signature (certificates are always checked)."""
    from . import store
    if not is_valid_url(url):
        raise BadInputError(f'download: {url!r} is not an http(s) or ftp URL')
    name = url.split('?')[0].rstrip('/').split('/')[-1]
    if path is None:
        fname = name
    else:
        path = os.path.expanduser(path)
        fname = os.path.join(path, name) if os.path.isdir(path) else path
    if not overwrite and os.path.exists(fname) and (not sha1_hash or check_sha1(fname, sha1_hash)):
        return fname
    if store.offline():
        raise BadInputError(f'GLUONZOO_OFFLINE is set, so {url} is not downloaded: put the file at {fname}, or '
                            'unset GLUONZOO_OFFLINE')
    folder = os.path.dirname(os.path.abspath(fname))
    makedirs(folder)
    if int(retries) < 1:
        raise BadInputError(f'download: retries={retries} must be at least 1')
    for attempt in range(1, int(retries) + 1):
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f'.{os.path.basename(fname)}-', suffix='.part')
        try:
            with os.fdopen(fd, 'wb') as out:
                store.stream_url(url, out, f'downloading {os.path.basename(fname)}')
            if sha1_hash and not check_sha1(tmp, sha1_hash):
                raise ChecksumError(f'{url} was downloaded but its sha1 does not start with {sha1_hash}: the '
                                    f'file on the server changed or the download was cut short')
            os.replace(tmp, fname)
            return fname
        except (urllib.error.URLError, OSError, BadInputError, ChecksumError) as e:
            if isinstance(e, urllib.error.HTTPError) and e.code < 500 or attempt == int(retries):
                if isinstance(e, urllib.error.HTTPError):
                    raise RuntimeError(f'Failed downloading url {url}: HTTP {e.code} {e.reason}') from None
                if isinstance(e, urllib.error.URLError):
                    raise RuntimeError(f'Failed downloading url {url}: {e.reason}') from None
                raise
            print(f'gluonzoo: download of {url} failed ({e}); {int(retries) - attempt} tries left', file=sys.stderr)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)


def _version_tuple(v):
    return tuple(int(p) if p.isdigit() else p for p in re.findall(r'\d+|[a-z]+', str(v).lower()))


def check_version(min_version, warning_only=False, version=None, what='gluonzoo'):
    """Raise AssertionError (or warn, with `warning_only`) when `version` (default gluonzoo's) is older than
    `min_version`. Versions compare part by part, numbers as numbers ('0.10' > '0.9')."""
    if version is None:
        from . import __version__ as version
    if _version_tuple(version) < _version_tuple(min_version):
        msg = f'Installed {what} version ({version}) does not satisfy the minimum required version ({min_version})'
        if warning_only:
            warnings.warn(msg)
        else:
            raise AssertionError(msg)


def _safe_members(names, archive):
    for n in names:
        if n.startswith(('/', '\\')) or '..' in re.split(r'[/\\]', n):
            raise BadInputError(f'{archive}: member {n!r} would be written outside the target folder; refused')


def unzip(zip_file_path, root='./', strict=False):
    """Extract a zip into `root` (skipped when its last member is already there, unless `strict`); return the
    folder of its common prefix."""
    root = os.path.expanduser(root)
    with zipfile.ZipFile(zip_file_path) as zf:
        names = zf.namelist()
        _safe_members(names, zip_file_path)
        if strict or not os.path.exists(os.path.join(root, names[-1])):
            zf.extractall(root)
    return os.path.join(root, os.path.commonprefix(names))


def untar(tar_file_path, root='./', strict=False):
    """Extract a .tar.gz into `root` (skipped when its last member is already there, unless `strict`); return
    the folder of its common prefix."""
    root = os.path.expanduser(root)
    with tarfile.open(tar_file_path, 'r:gz') as tf:
        names = tf.getnames()
        _safe_members(names, tar_file_path)
        if strict or not os.path.exists(os.path.join(root, names[-1])):
            tf.extractall(root)
    return os.path.join(root, os.path.commonprefix(names))


@contextlib.contextmanager
def temporary_filename(suffix=None):
    """The name of a new empty temp file, removed when the block ends (other processes may reopen it)."""
    fd, name = tempfile.mkstemp(suffix=suffix)
    os.close(fd)
    try:
        yield name
    finally:
        if os.path.exists(name):
            os.unlink(name)


def try_import(package, message=None, fromlist=None):
    """Import `package` (a dotted name); when it is missing, an ImportError with `message` (how to install)."""
    try:
        return importlib.import_module(package) if not fromlist else __import__(package, fromlist=fromlist)
    except ImportError as e:
        raise ImportError(message or f'{package} is required: pip install {package.split(".")[0]}') from e


def import_try_install(package, extern_url=None):
    """Import `package`; gluonzoo never installs packages behind the user's back, so a missing one is an
    ImportError naming the pip command (and `extern_url`, where it installs from)."""
    where = f' {extern_url}' if extern_url else f' {package}'
    return try_import(package, f'{package} is required: install it with `pip install{where}`')


def try_import_cv2():
    return try_import('cv2', 'OpenCV is required: pip install opencv-python-headless')


def try_import_pycocotools():
    return try_import('pycocotools.coco', 'pycocotools is required: pip install pycocotools')


def try_import_munkres():
    return try_import('munkres', 'munkres is required: pip install munkres')


def try_import_colorama():
    return try_import('colorama', 'colorama is required: pip install colorama')


def try_import_decord():
    return try_import('decord', 'decord is required: pip install decord')


def try_import_mmcv():
    return try_import('mmcv', 'mmcv is required: pip install mmcv')


def try_import_rarfile():
    return try_import('rarfile', 'rarfile is required: pip install rarfile')


def try_import_html5lib():
    return try_import('html5lib', 'html5lib is required: pip install html5lib')


def try_import_skimage():
    return try_import('skimage', 'scikit-image is required: pip install scikit-image')


def try_import_gdfDownloader():  # noqa: N802 - GluonCV's name
    return try_import('googleDriveFileDownloader', 'googleDriveFileDownloader is required: pip install '
                      'googleDriveFileDownloader')


def try_import_dali():
    """NVIDIA DALI, or None when it is not installed (GluonCV's contract: the caller checks)."""
    try:
        return importlib.import_module('nvidia.dali')
    except ImportError:
        return None


class PathTree:
    """A folder's tree as text, `max_depth` levels deep: `print(PathTree('data'))`."""

    def __init__(self, root, max_depth=1):
        self.root, self.max_depth = os.fspath(root), max_depth

    def _lines(self, folder, prefix, depth):
        try:
            entries = sorted(os.scandir(folder), key=lambda e: (not e.is_dir(), e.name))
        except OSError:
            return
        for i, e in enumerate(entries):
            last = i == len(entries) - 1
            yield prefix + ('└── ' if last else '├── ') + e.name + ('/' if e.is_dir() else '')
            if e.is_dir() and depth < self.max_depth:
                yield from self._lines(e.path, prefix + ('    ' if last else '│   '), depth + 1)

    def __str__(self):
        return '\n'.join([os.path.basename(os.path.abspath(self.root)) + '/'] + list(self._lines(self.root, '', 1)))
