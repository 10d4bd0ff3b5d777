"""gluonzoo.vision.data.video_reader: the same frame indices give the same pixels through every reader - PyAV
seeking, PyAV from the start, OpenCV's VideoCapture, and GluonCV's decoder (decord 0.6, in the peers venv) - on the
videos Debian's opencv-doc ships (an MS-MPEG4, an MPEG-4 with packed B-frames, a Cinepak with drop frames) and on
two written here (OpenCV's VideoWriter: MPEG-4; PyAV: H.264 with B-frames); a few frames each. Then the bad files:
cut, empty, not a video, missing, and frames past the end - one VideoError naming the file, at once."""
import os
import re
import time

import cv2
import numpy as np
import pytest

from gluonzoo.vision.data.video_reader import VideoError, VideoNotFoundError, VideoReader, read_video
from tests.peers import run_peer

DATA = '/usr/share/doc/opencv-doc/examples/data'  # Debian's opencv-doc: make test installs it (data-digits)
# frames around the keyframes (vtest: 0, 250, 500, 750; Megamind: 0, 1, 98, 154, 200; tree: 0, 25, 50)
IDS = {'vtest.avi': [0, 1, 249, 250, 251, 300, 260], 'Megamind.avi': [0, 3, 4, 97, 98, 150, 201, 269, 150],
       'tree.avi': [0, 1, 24, 25, 26, 67], 'written.mp4': [0, 11, 12, 13, 39, 5],
       'h264.mp4': [55, 3, 10, 11, 29, 30, 31, 0, 59]}
# OpenCV's wheel decodes with FFmpeg 5.1 and decord 0.6 with FFmpeg 4.1, whose MS-MPEG4 decoder rounds a few
# pixels of vtest.avi by up to 2 levels off FFmpeg 8's (PyAV's); every other video decodes bit for bit the same
LEVELS = {'vtest.avi': 2}


def _frames(n=40, w=64, h=48):
    yy, xx = np.mgrid[0:h, 0:w]
    for i in range(n):
        img = np.stack([(xx * 4 + i * 3) % 256, (yy * 5) % 256, np.full_like(xx, 60)], -1).astype(np.uint8)
        cv2.rectangle(img, (i % (w - 10), 10), (i % (w - 10) + 9, 25), (255, 255, 255), -1)
        yield img


def _write_h264(path, n=60):
    # H.264 with B-frames (as most downloaded videos): timestamps out of decode order, keyframes every 10 frames
    import av
    with av.open(str(path), 'w') as c:
        s = c.add_stream('libx264', rate=25)
        s.width, s.height, s.pix_fmt = 64, 48, 'yuv420p'
        s.options = {'g': '10', 'bf': '3', 'keyint_min': '10', 'sc_threshold': '0'}
        for f in _frames(n):
            for pkt in s.encode(av.VideoFrame.from_ndarray(f, format='rgb24')):
                c.mux(pkt)
        for pkt in s.encode():
            c.mux(pkt)
    return str(path)


def _write(path, fourcc='mp4v', n=40):
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), 25, (64, 48))
    for f in _frames(n):
        vw.write(f)
    vw.release()
    return str(path)


@pytest.fixture(scope='module')
def videos(tmp_path_factory):
    d = tmp_path_factory.mktemp('videos')
    paths = {name: os.path.join(DATA, name) for name in IDS if not name.endswith('.mp4')}
    paths['written.mp4'] = _write(d / 'written.mp4')  # MPEG-4 part 2, a keyframe every 12 frames
    paths['h264.mp4'] = _write_h264(d / 'h264.mp4')
    return paths


@pytest.fixture(scope='module')
def decord_frames(videos, tmp_path_factory):
    out = tmp_path_factory.mktemp('decord')
    jobs = [{'path': p, 'ids': IDS[name], 'out': str(out / name)} for name, p in videos.items()]
    run_peer('gluoncv_video_reader.py', out, jobs, timeout=300)
    return {name: (np.load(str(out / name) + '.npy'), int(np.load(str(out / name) + '.len.npy'))) for name in videos}


def _check(got, want, levels, what):
    assert got.shape == want.shape and got.dtype == np.uint8, f'{what}: {got.shape} {got.dtype}, {want.shape}'
    diff = np.abs(got.astype(int) - want)
    assert diff.max() <= levels, f'{what}: pixels differ by up to {diff.max()}'
    if levels:  # close pixels, but still the same frames: each nearer its own than any other asked for
        near = [[np.abs(g.astype(int) - w).mean() for w in want] for g in got]
        assert all(row[i] == min(row) for i, row in enumerate(near)), f'{what}: frames out of place'


@pytest.mark.parametrize('name', sorted(IDS))
def test_same_frames_through_every_reader(videos, decord_frames, name):
    ids, path = IDS[name], videos[name]
    seeking = VideoReader(path, 'av')
    got = seeking.get_batch(ids)
    _check(got, VideoReader(path, 'av', seek=False).get_batch(ids), 0, f'{name}: PyAV seeking vs from the start')
    cv = VideoReader(path, 'opencv')
    assert len(cv) == len(seeking), f'{name}: OpenCV counts {len(cv)} frames, PyAV {len(seeking)}'
    _check(cv.get_batch(ids), got, LEVELS.get(name, 0), f'{name}: OpenCV vs PyAV')
    want, count = decord_frames[name]
    assert count == len(seeking), f'{name}: decord counts {count} frames, PyAV {len(seeking)}'
    _check(got, want, LEVELS.get(name, 0), f"{name}: PyAV vs GluonCV's decord")
    assert np.array_equal(seeking[ids[2]], got[2]) and seeking.fps > 0
    # PyAV seeks on all but the AVI whose timestamps do not order its frames
    assert seeking.seeking == (name != 'Megamind.avi'), f'{name}: seeking {seeking.seeking}'


def test_writer_round_trip(tmp_path):
    # MJPEG: intra frames, so the written frames come back within JPEG's loss, in order
    frames = read_video(_write(tmp_path / 'm.avi', 'MJPG'))
    sent = np.stack([f[:, :, ::-1] for f in _frames()])
    assert frames.shape == (40, 48, 64, 3)
    assert np.abs(frames.astype(int) - sent).mean() < 4


@pytest.mark.parametrize('backend', ['av', 'opencv'])
def test_bad_files_are_one_error_naming_the_file(tmp_path, backend):
    blob = open(os.path.join(DATA, 'vtest.avi'), 'rb').read()
    cases = {'cut.avi': blob[:len(blob) // 3], 'head.avi': blob[:20000], 'text.avi': b'not a video\n' * 50,
             'empty.avi': b''}
    for name in ('m.mkv', 'm.mp4'):
        data = open(_write(tmp_path / f'full_{name}'), 'rb').read()
        cases[f'cut_{name}'] = data[:len(data) * 6 // 10]
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    vw = cv2.VideoWriter(str(tmp_path / 'zero.avi'), cv2.VideoWriter_fourcc(*'MJPG'), 25, (64, 48))
    vw.release()  # a header and no frames
    for name in list(cases) + ['zero.avi']:
        start = time.perf_counter()
        with pytest.raises(VideoError, match=re.escape(f'{tmp_path / name}: ')):
            VideoReader(tmp_path / name, backend).get_batch([0, 300])
        assert time.perf_counter() - start < 10, f'{name}: took {time.perf_counter() - start:.1f}s to fail'
    with pytest.raises(VideoNotFoundError, match='missing.avi: no such video file'):
        VideoReader(tmp_path / 'missing.avi', backend)
    vr = VideoReader(os.path.join(DATA, 'tree.avi'), backend)
    with pytest.raises(VideoError, match=r'tree.avi: frame 68 asked for, but the video has 68 frames'):
        vr.get_batch([3, 68])
    with pytest.raises(VideoError, match='frame -1'):
        vr[-1]
