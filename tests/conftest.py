"""Shared fixtures: an isolated cache, the real converted MobileNetV2 weights, a real HTTP server on 127.0.0.1, and
the memory every test frees after itself (the suite's peak RSS is printed at the end)."""
import contextlib
import ctypes
import gc
import hashlib
import http.server
import io
import os
import resource
import shutil
import threading
import time
import zipfile

import pytest

import gluonzoo as gz
from gluonzoo import store


def _snapshot(folder):
    """(path, size, mtime) of every file under `folder`: what the suite must leave as it found it."""
    return sorted((os.path.join(d, f), os.stat(os.path.join(d, f)).st_size, os.stat(os.path.join(d, f)).st_mtime_ns)
                  for d, _, files in os.walk(folder) for f in files if not f.endswith('.lock'))


#: the user's real cache, taken before any test ran: tests never write there (pytest_sessionfinish checks)
_REAL_HOME = os.path.abspath(os.path.expanduser(os.environ.get('GLUONZOO_HOME') or os.path.join('~', '.gluonzoo')))
_REAL_HOME_BEFORE = _snapshot(_REAL_HOME)


def _peak_gb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2


#: (GB, test id) of the test during which this process's peak RSS was last raised; per xdist worker, reported to the
#: controller at the end, so the summary names the test to slim when the peak grows
_PEAK = [0.0, '(before any test)']
_WORKER_PEAKS = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item):
    before = _peak_gb()
    yield
    after = _peak_gb()
    if after > before:
        _PEAK[:] = [after, item.nodeid]


def pytest_testnodedown(node, error):
    if 'peak_rss' in getattr(node, 'workeroutput', {}):
        _WORKER_PEAKS[node.gateway.id] = node.workeroutput['peak_rss']


def pytest_sessionfinish(session):
    if hasattr(session.config, 'workeroutput'):  # an xdist worker: hand the controller its peak
        session.config.workeroutput['peak_rss'] = list(_PEAK)
    after = _snapshot(_REAL_HOME)
    if after != _REAL_HOME_BEFORE:
        changed = sorted({p for p, *_ in set(after) ^ set(_REAL_HOME_BEFORE)})
        session.config.pluginmanager.get_plugin('terminalreporter').write_line(
            f'FAILED: the suite wrote to the real cache {_REAL_HOME}: {changed[:5]} (a subprocess got an '
            'environment without the isolated GLUONZOO_HOME?)', red=True)
        session.exitstatus = 1


_ISOLATED_VARS = ('GLUONZOO_REPO', 'GLUONZOO_PATH', 'GLUONZOO_OFFLINE', 'GLUONZOO_PACKAGES')


@pytest.fixture(scope='session', autouse=True)
def _session_env(tmp_path_factory):
    """A cache for what runs outside any one test: module- and session-scoped fixtures are set up before a test's
    own `_isolated_env`, so without this one `get_model(..., pretrained=True)` in such a fixture wrote the shipped
    cifar_resnet20_v1.fmnist file into the real ~/.gluonzoo (a fresh machine's `make test`)."""
    with pytest.MonkeyPatch.context() as mp:
        for var in _ISOLATED_VARS:
            mp.delenv(var, raising=False)
        mp.setenv('GLUONZOO_HOME', str(tmp_path_factory.mktemp('session_home')))
        yield


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path):
    """Every test gets its own empty cache and no mirror/offline settings from the caller's shell."""
    for var in _ISOLATED_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv('GLUONZOO_HOME', str(tmp_path / 'gzhome'))


@pytest.fixture
def offline(monkeypatch):
    """GLUONZOO_OFFLINE=1 over the test's own empty cache (_isolated_env): a download is one clear error."""
    monkeypatch.setenv('GLUONZOO_OFFLINE', '1')


_LIBC = ctypes.CDLL('libc.so.6')


@pytest.fixture(autouse=True)
def _free_memory():
    """After each test: finish MXNet's queued work, collect the nets a test left in reference cycles, and hand the
    freed heap back to the OS. Without it the suite's RSS grew to 19 GB (glibc keeps freed parameter buffers in its
    arenas); with it the registry-wide test file peaks at 2 GB instead of 9."""
    yield
    import mxnet as mx
    mx.nd.waitall()
    gc.collect()
    _LIBC.malloc_trim(0)


def pytest_terminal_summary(terminalreporter):
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024 ** 2
    peaks = _WORKER_PEAKS or {'the pytest process': _PEAK}
    for who, (gb, test) in sorted(peaks.items()):
        terminalreporter.write_line(f'peak RSS: {gb:.2f} GB in {who}, reached in {test}')
    terminalreporter.write_line(f'peak RSS: {_peak_gb():.2f} GB in the pytest process, {child:.2f} GB in the largest '
                                'subprocess it ran' + (' (the xdist workers among them)' if _WORKER_PEAKS else ''))


@pytest.fixture(scope='session')
def converted_cache(tmp_path_factory):
    """A cache folder holding the real mobilenetv2_1.0.in1k file, converted once per test session."""
    root = tmp_path_factory.mktemp('converted') / 'models'
    store.fetch(gz.get_weights('mobilenetv2_1.0'), root=root, progress=False)
    return root


@pytest.fixture
def pretrained_home(converted_cache, monkeypatch, tmp_path):
    """GLUONZOO_HOME with the converted weights already cached (a copy: tests may damage it)."""
    home = tmp_path / 'home'
    shutil.copytree(converted_cache, home / 'models')
    monkeypatch.setenv('GLUONZOO_HOME', str(home))
    return home


def sha1(data):
    return hashlib.sha1(data).hexdigest()


def zipped(member, data):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w') as zf:
        zf.writestr(member, data)
    return buf.getvalue()


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(('127.0.0.1', 0), _Handler)
        self.files = {}  # url path -> bytes
        self.hits = []  # url paths requested, in order
        self.delay = 0.0
        self.truncate = False  # send half the body with the full Content-Length
        # faults, one per request in order, then normal answers: an int (that HTTP status), 'stall' (half the body,
        # then wait for `release`), 'nolength' (no Content-Length header), or bytes (sent instead of the file)
        self.plan = []
        self.half_sent = threading.Event()  # set once a 'stall' answer has sent its first half
        self.release = threading.Event()  # ends every stalled answer (the fixture sets it at teardown)
        self.before_body = None  # a callable run before each body is sent (e.g. to wait for a second client)
        self.spans = []  # (start, end) time of each answered request
        self.base = f'http://127.0.0.1:{self.server_address[1]}/'


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        srv = self.server
        start = time.time()
        srv.hits.append(self.path)
        time.sleep(srv.delay)
        fault = srv.plan.pop(0) if srv.plan else None
        body = fault if isinstance(fault, bytes) else srv.files.get(self.path)
        if isinstance(fault, int) or body is None:
            self.send_error(fault if isinstance(fault, int) else 404)
            return
        if srv.before_body:
            srv.before_body()
        self.send_response(200)
        if fault != 'nolength':
            self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        if fault == 'stall':
            self.wfile.write(body[:len(body) // 2])
            self.wfile.flush()
            srv.half_sent.set()
            srv.release.wait(120)
            return
        self.wfile.write(body[:len(body) // 2] if srv.truncate else body)
        srv.spans.append((start, time.time()))

    def log_message(self, *args):
        pass


@pytest.fixture
def http_server():
    """A real HTTP server on 127.0.0.1 serving `server.files`; stopped after the test."""
    with serving() as srv:
        yield srv


@contextlib.contextmanager
def serving():
    """A real HTTP server on 127.0.0.1 serving `server.files` for the block (module-scoped fixtures use it)."""
    srv = _Server()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.release.set()
        srv.shutdown()
        srv.server_close()
        thread.join(5)


@contextlib.contextmanager
def registered(name, builder, **kwargs):
    """Register a throwaway model for the duration of a block."""
    from gluonzoo.registry import register_model, unregister_model
    register_model(name, **kwargs)(builder)
    try:
        yield
    finally:
        unregister_model(name)


def tiny_params(path_dir, seed=0):
    """A real Gluon .params file of a tiny net (3x2x1 pictures -> 4 classes), its bytes and the builder that fits
    it."""
    import mxnet as mx
    from mxnet.gluon import nn

    def build(classes=4):
        net = nn.HybridSequential()
        net.add(nn.Dense(8, in_units=6), nn.Dense(classes, in_units=8))
        return net
    mx.random.seed(seed)
    net = build()
    net.initialize(mx.init.Normal(1.0))
    path = os.path.join(path_dir, f'tiny-{seed}.params')
    net.save_parameters(path)
    with open(path, 'rb') as f:
        return f.read(), build
