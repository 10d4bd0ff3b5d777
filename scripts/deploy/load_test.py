"""Load and garbage test of a running gluonzoo service (C++ or Java), as a production user would hit it.

    python scripts/deploy/load_test.py --port 8080 --pid PID --photo a.jpg --photo b.jpg [--path /detect|/segment]

`make deploy-test` runs it against every service and backend (deploy_test.py calls `load_test`). First 1,000 bad
requests from 8 concurrent clients, then 400 good ones from 8 clients. What must hold:

    random bytes, a truncated photo, an empty body       400 with a JSON {"error"}
    a bit-flipped photo                                  200 (it still decodes) or 400 with a JSON error
    a PNG whose header claims 20000x20000 pixels         413 with a JSON error, refused before decoding
    a body over 10 MB                                    413
    a wrong method on /predict, /detect, /segment, /health  405 with a JSON error
    an unknown path                                      404 with a JSON error
    raw bytes that are not HTTP, on the socket           a 400 (or 404) status line (the HTTP library's own page)
    a Content-Length longer than the body sent           400 (or 408) after the server's read timeout

never a 5xx, a reset or a hang (30 s per request); the process stays up and /health answers; every concurrent good
answer equals the serial one for the same photo (the JSON, or the PNG's bytes from /segment); RSS (after a warm-up)
grows by under 64 MB. p50/p99 latency of the good requests is printed.
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import random
import socket
import struct
import sys
import time
import zlib

TIMEOUT = 30.0
CLIENTS = 8
MAX_RSS_GROWTH_MB = 64


def send(port, method, path, body=None, headers=None):
    """(status, body bytes) of one request on a fresh connection; raises on a reset or timeout."""
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=TIMEOUT)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def raw(port, data):
    """Send raw bytes on a socket and wait (without closing our side: a client that half-closes is treated as
    gone); return the status code of the first response line (0 if none came)."""
    with socket.create_connection(('127.0.0.1', port), timeout=TIMEOUT) as s:
        s.sendall(data)
        got = b''
        while b'\r\n' not in got:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
    line = got.split(b'\r\n', 1)[0].split()
    return int(line[1]) if len(line) >= 2 and line[0].startswith(b'HTTP/') and line[1].isdigit() else 0


def png_bomb(width=20000, height=20000):
    """A valid-looking PNG header claiming width x height RGB pixels, with a few bytes of compressed data."""
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    ihdr = struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(b'\0' * 1024)) + \
        chunk(b'IEND', b'')


def parsed(body):
    """An answer to compare: its JSON, or its bytes (the PNG of /segment)."""
    try:
        return json.loads(body)
    except ValueError:  # UnicodeDecodeError included
        return body


def rss_mb(pid):
    with open(f'/proc/{pid}/status') as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) / 1024
    return 0.0


def bad_requests(photos, path, count, seed=0):
    """[(kind, callable(port) -> (status, body or None), allowed statuses, wants JSON)] of `count` bad requests."""
    rng = random.Random(seed)
    other = {'/predict': '/detect', '/detect': '/predict', '/segment': '/predict'}.get(path, '/predict')
    # a video endpoint's bodies are videos: a PNG header opened as a video holds no frame (400), not an image bomb
    bomb = {400, 413} if path == '/recognize' else {413}
    kinds = []

    def post(body, p=path):
        return lambda port: send(port, 'POST', p, body)
    for i in range(count):
        photo = photos[i % len(photos)]
        pick = i % 10
        if pick == 0:
            kinds.append(('random bytes', post(bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 2048)))),
                          {400}, True))
        elif pick == 1:
            kinds.append(('truncated photo', post(photo[:rng.randint(1, len(photo) // 2)]), {400}, True))
        elif pick == 2:
            data = bytearray(photo)
            for _ in range(rng.randint(1, 8)):
                data[rng.randint(len(data) // 4, len(data) - 3)] ^= 1 << rng.randint(0, 7)
            kinds.append(('bit-flipped photo', post(bytes(data)), {200, 400}, True))
        elif pick == 3:
            kinds.append(('image bomb (20000x20000 PNG header)', post(png_bomb()), bomb, True))
        elif pick == 4:
            method = rng.choice(['GET', 'PUT', 'DELETE', 'PATCH'])
            target = rng.choice([path, other])
            kinds.append((f'{method} {target}', lambda port, m=method, t=target: send(port, m, t, b'x'), {405}, True))
        elif pick == 5:
            target = rng.choice(['/', '/nope', '/predict/x', '/health/../predict', '/%ff'])
            kinds.append((f'POST {target}', post(photo, target), {404}, True))
        elif pick == 6:
            junk = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 512))) + b'\r\n\r\n'
            # 404 too: a garbage line whose second word reads as a path is routed by the JDK's own server, which
            # answers its unknown-path page before any of our code runs
            kinds.append(('raw garbage on the socket', lambda port, j=junk: (raw(port, j), None), {400, 404}, False))
        elif pick == 7 and i % 100 == 7:  # 10 in all: each waits for the server's read timeout
            head = (f'POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n'
                    f'Content-Length: {len(photo) + 1000}\r\n\r\n').encode()
            kinds.append(('Content-Length longer than the body',
                          lambda port, d=head + photo: (raw(port, d), None), {400, 408}, False))
        elif pick == 7:
            kinds.append(('photo header only', post(photo[:600]), {400}, True))
        elif pick == 8:
            kinds.append(('empty body', post(b''), {400}, True))
        else:
            if i % 200 == 9:  # a few only: 11 MB each
                kinds.append(('11 MB body', post(b'\xff\xd8' + bytes(11 << 20)), {413}, True))
            else:
                kinds.append(('not an image (text)', post(b'hello, this is not a picture\n' * 20), {400}, True))
    return kinds


def load_test(name, port, pid, photos, path='/predict', query='', bad_count=1000, good_count=400, clients=CLIENTS,
              log=print):
    """Run the test against a service; return a list of failure lines (empty when everything held)."""
    failures = []

    def fail(msg):
        failures.append(f'{name}: {msg}')
        log(f'FAIL {name}: {msg}')
    target = path + query
    serial = {}
    for i, photo in enumerate(photos):  # the serial answers
        status, body = send(port, 'POST', target, photo)
        if status != 200:
            fail(f'good photo {i}: HTTP {status} {body[:200]!r}')
            return failures
        serial[i] = parsed(body)
    # warm-up: one concurrent round, so every worker thread has its inference buffers before RSS is measured
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        list(pool.map(lambda i: send(port, 'POST', target, photos[i % len(photos)]), range(2 * clients)))
    rss_before = rss_mb(pid)

    seen = {}
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        def one(item):
            kind, call, allowed, wants_json = item
            try:
                status, body = call(port)
            except (OSError, http.client.HTTPException) as e:
                return kind, f'{type(e).__name__}: {e}'
            if status not in allowed:
                return kind, f'HTTP {status} (expected {sorted(allowed)}) {(body or b"")[:120]!r}'
            if wants_json and status != 200:
                try:
                    if not json.loads(body).get('error'):
                        raise ValueError
                except (ValueError, AttributeError):
                    return kind, f'HTTP {status} without a JSON error: {(body or b"")[:120]!r}'
            return kind, None
        started = time.time()
        for kind, problem in pool.map(one, bad_requests(photos, target, bad_count)):
            ok, bad = seen.get(kind, (0, []))
            seen[kind] = (ok + (problem is None), bad + ([problem] if problem else []))
    for kind, (ok, bad) in sorted(seen.items()):
        if bad:
            fail(f'{kind}: {len(bad)} of {ok + len(bad)} wrong, e.g. {bad[0]}')
    log(f'{name}: {bad_count} bad requests in {time.time() - started:.1f} s: '
        + ', '.join(f'{k} {ok}/{ok + len(b)}' for k, (ok, b) in sorted(seen.items())))
    if not _alive(pid):
        fail('the process died under the bad requests')
        return failures

    latencies, mismatches, errors = [], 0, []
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        def good(i):
            k = i % len(photos)
            t0 = time.perf_counter()
            try:
                status, body = send(port, 'POST', target, photos[k])
            except (OSError, http.client.HTTPException) as e:
                return k, None, f'{type(e).__name__}: {e}', 0.0
            return k, status, body, time.perf_counter() - t0
        for k, status, body, seconds in pool.map(good, range(good_count)):
            if status != 200:
                errors.append(f'HTTP {status} {body!r}'[:200])
                continue
            latencies.append(seconds)
            mismatches += parsed(body) != serial[k]
    if errors:
        fail(f'{len(errors)} of {good_count} good requests failed, e.g. {errors[0]}')
    if mismatches:
        fail(f'{mismatches} of {good_count} concurrent answers differ from the serial answer for the same photo')
    growth = rss_mb(pid) - rss_before
    if growth >= MAX_RSS_GROWTH_MB:
        fail(f'RSS grew by {growth:.0f} MB (limit {MAX_RSS_GROWTH_MB})')
    if not _alive(pid) or send(port, 'GET', '/health')[0] != 200:
        fail('the process is not serving /health after the test')
    if latencies:
        lat = sorted(latencies)
        log(f'{name}: {len(lat)} good requests from {clients} clients: p50 {1000 * lat[len(lat) // 2]:.1f} ms, '
            f'p99 {1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))]:.1f} ms; RSS {rss_before:.0f} -> '
            f'{rss_before + growth:.0f} MB; answers equal to the serial ones: {len(lat) - mismatches}/{len(lat)}')
    return failures


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f'/proc/{pid}/stat') as f:
        return f.read().split(') ', 1)[1][0] != 'Z'


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--port', type=int, required=True)
    ap.add_argument('--pid', type=int, required=True, help="the service's process id (for RSS and liveness)")
    ap.add_argument('--photo', action='append', required=True, help='a good image (repeatable)')
    ap.add_argument('--path', default='/predict',
                    help='/predict (a classifier), /detect (a detector) or /segment (a segmenter)')
    ap.add_argument('--bad', type=int, default=1000)
    ap.add_argument('--good', type=int, default=400)
    args = ap.parse_args(argv)
    photos = [open(p, 'rb').read() for p in args.photo]
    failures = load_test(f'pid {args.pid}', args.port, args.pid, photos, args.path, bad_count=args.bad,
                         good_count=args.good)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
