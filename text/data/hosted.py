"""The one download, verify and extract path of the datasets GluonNLP 0.10 hosts (hosted_corpora,
word_embedding_evaluation_data): GluonNLP's URLs and cache layout over gluonzoo.zoo.filesystem.

A hosted file's URL is `$MXNET_GLUON_REPO` (default the MXNet S3 bucket) + 'gluon/dataset/<namespace>/<archive>',
as mxnet.gluon.utils._get_repo_file_url builds it; a dataset's default root is `$MXNET_HOME/datasets/<name>`
(MXNET_HOME defaults to ~/.mxnet), so a GluonNLP cache is used in place. An archive is downloaded
(filesystem.download: its retries, timeouts and progress bar) into a temp folder inside root, its sha1 checked
there, then moved beside its files (GluonNLP keeps it too) and extracted into the temp folder; only then are its
files renamed to where they belong, so an interrupted run leaves no partial file, and an archive or file whose
sha1 does not match the table is one ChecksumError line (a wrong archive is not fetched again and again).

>>> repo_file_url('gluon/dataset/wikitext-2', 'wikitext-2-v1.zip').endswith('/wikitext-2/wikitext-2-v1.zip')
True
"""
import os
import shutil
import tempfile

from ... import filesystem, store
from ...errors import BadInputError, ChecksumError

DEFAULT_REPO = 'https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/'


def repo_url():
    """The base URL of the Gluon dataset and model repository: $MXNET_GLUON_REPO, ending in '/'."""
    url = os.environ.get('MXNET_GLUON_REPO') or DEFAULT_REPO
    return url if url.endswith('/') else url + '/'


def repo_file_url(namespace, filename):
    """The URL of hosted file `filename` in `namespace` ('gluon/dataset/<name>')."""
    return f'{repo_url()}{namespace}/{filename}'


def home_dir():
    """$MXNET_HOME (default ~/.mxnet), expanded: where GluonNLP keeps datasets, models and embeddings."""
    return os.path.expanduser(os.environ.get('MXNET_HOME') or os.path.join('~', '.mxnet'))


def default_root(name):
    """$MXNET_HOME/datasets/<name>, GluonNLP's default `root` of dataset `name`."""
    return os.path.join(home_dir(), 'datasets', name)


def pick(table, key, what, arg='segment'):
    """table[key], or one BadInputError line naming the valid keys."""
    try:
        return table[key]
    except (KeyError, TypeError):
        raise BadInputError(f'{what}: {arg}={key!r} is not one of {sorted(table)}') from None


def _path(root, rel):
    return os.path.join(root, *rel.split('/'))


def _good(path, sha1):
    return os.path.isfile(path) and (not sha1 or filesystem.check_sha1(path, sha1))


def _extract(archive, into):
    lower = archive.lower()
    if lower.endswith('.zip'):
        filesystem.unzip(archive, into, strict=True)
    elif lower.endswith(('.tar.gz', '.tgz')):
        filesystem.untar(archive, into, strict=True)
    else:
        return False
    return True


def fetch(url, root, archive, files, flatten=False, what='dataset'):
    """Make `files` ({relative path with '/': sha1 or None}) present and verified under `root`, downloading
    `archive` = (file name, sha1) from `url` and extracting it when any is missing or wrong. A zip or .tar.gz
    is extracted with its folders kept (`flatten`: each member's base name straight into root, as GluonNLP's
    WikiText does); any other archive is itself the one file. With no `files`, the archive is fetched
    (a verified one already there is kept) and extracted every time: the caller checks. Returns root."""
    root = filesystem.makedirs(os.path.expanduser(root))
    if files and all(_good(_path(root, rel), sha1) for rel, sha1 in files.items()):
        return root
    name, sha1 = archive
    kept = os.path.join(root, name)
    tmp = tempfile.mkdtemp(dir=root, prefix='.extract-')
    try:
        if not _good(kept, sha1):
            if store.offline():
                raise BadInputError(f'GLUONZOO_OFFLINE is set, so {url} is not downloaded: put {name} (sha1 {sha1}) '
                                    f'in {root}, or unset GLUONZOO_OFFLINE')
            # into the temp folder and checked there: a transfer that fails is retried, a wrong file is not
            got = filesystem.download(url, path=os.path.join(tmp, name))
            if sha1 and not filesystem.check_sha1(got, sha1):
                raise ChecksumError(f'{what}: {url} was downloaded but its sha1 is not {sha1}: the file on the '
                                    'server changed, or it is not the one GluonNLP hosts')
            os.replace(got, kept)
        unpacked = os.path.join(tmp, 'unpacked')
        if _extract(kept, unpacked):
            for folder, _, members in os.walk(unpacked):
                for member in members:
                    src = os.path.join(folder, member)
                    rel = member if flatten else os.path.relpath(src, unpacked)
                    dest = os.path.join(root, rel)
                    filesystem.makedirs(os.path.dirname(dest))
                    os.replace(src, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for rel, want in files.items():
        path = _path(root, rel)
        if not os.path.isfile(path):
            raise BadInputError(f'{what}: {name} from {url} has no {rel}: the archive is not the one GluonNLP hosts')
        if want and not filesystem.check_sha1(path, want):
            raise ChecksumError(f'{what}: {path} (from {name}) does not have sha1 {want}: remove {root} and '
                                'download again, or the hosted archive changed')
    return root


def fetch_hosted(namespace, root, archive, files, flatten=False, what='dataset'):
    """`fetch` of `archive` hosted at repo_file_url('gluon/dataset/' + namespace, archive name)."""
    return fetch(repo_file_url(f'gluon/dataset/{namespace}', archive[0]), root, archive, files, flatten, what)
