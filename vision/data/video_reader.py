"""Frames of a video file by index: `VideoReader(path)[i]` is frame i as HxWx3 uint8 RGB, `get_batch(ids)` an
(N, H, W, 3) array, `len()` the frame count (decord's interface, which GluonCV's video datasets use).

Frame i is the i-th frame the decoder shows (AVI's empty "drop" chunks are no frames: tree.avi holds 68 over 444
ticks, as decord and OpenCV read it). Two backends give the same frames for the same indices. PyAV (FFmpeg 8
through `av`, the default) indexes the file's packets once (no decoding: 4 ms for vtest.avi's 795) and seeks to the
keyframe before each wanted frame, so a clip from the end of a long video does not decode all of it; a frame is
known by its timestamp, and the frames after a seek must follow on one by one, else (AVI's invented timestamps for
packed B-frames: Megamind.avi, where decord's get_batch returns frame 52 for frame 150) it counts frames from the
start instead. OpenCV's VideoCapture (the fallback when `av` is missing) always counts from the start.

A file that cannot be opened, has no video stream, holds no frames, or is shorter than its header says (a cut
download), and an index past the end, raise one VideoError naming the file; never a hang or a short clip.
"""
import bisect
import os

import cv2
import numpy as np

from ...errors import BadInputError

__all__ = ['VideoError', 'VideoNotFoundError', 'VideoReader', 'read_video', 'video_backends', 'default_backend']


class VideoError(BadInputError, RuntimeError):
    """A video (or a video dataset's file) that cannot be read as asked. A RuntimeError too: GluonCV's video
    datasets raise that, and code written against them catches it."""


class VideoNotFoundError(VideoError, FileNotFoundError):
    """A video file (or frame, or list file) that is not there."""


def video_backends():
    """The backends this install has, best first: 'av' (PyAV) when importable, then 'opencv'."""
    try:
        import av  # noqa: F401
    except ImportError:
        return ('opencv',)
    return ('av', 'opencv')


def default_backend():
    """$GLUONZOO_VIDEO_BACKEND when set, else the best installed one."""
    return os.environ.get('GLUONZOO_VIDEO_BACKEND') or video_backends()[0]


def _claimed_short(path, claimed, present):
    """The error for a file whose header claims `claimed` frames (time ticks for AVI) but holds `present`."""
    return VideoError(f'{path}: the header says {claimed} frames but the file holds {present}: it is truncated or '
                      'corrupt (an interrupted copy or download); fetch or re-encode it')


class _Unsure(Exception):
    """Timestamps that do not order the decoder's frames: count them from the start instead."""


class _AVSource:
    """PyAV: a packet index (sorted timestamps, keyframes) and keyframe seeks, a frame known by its timestamp; where
    timestamps do not order the frames (AVI's invented ones for packed B-frames: Megamind.avi, on which decord's
    get_batch returns frame 52 for 150), frames counted from the start, as OpenCV does."""

    def __init__(self, path):
        import av
        self.path, self._av = path, av
        self.container = self._open()
        try:
            self._index()
        except BaseException:
            self.container.close()
            raise

    def _open(self):
        av = self._av
        try:
            return av.open(self.path)
        except av.error.FileNotFoundError as e:
            raise VideoNotFoundError(f'{self.path}: no such video file') from e
        except (av.error.FFmpegError, OSError, ValueError) as e:
            why = getattr(e, 'strerror', None) or e
            raise VideoError(f'{self.path}: not a video FFmpeg can open ({why}); check the file is a complete '
                             'video') from e

    def _index(self):
        if not self.container.streams.video:
            raise VideoError(f'{self.path}: has no video stream (no frames were written, or an audio or data '
                             'file)')
        stream, c = self.container.streams.video[0], self.container
        rate, tb = stream.average_rate or stream.guessed_rate, stream.time_base
        # the header's count: AVI's length in time ticks, MP4's samples; Matroska has none, but its duration holds
        # when the video is the only stream (an audio track may run longer)
        claimed = stream.frames or (round(c.duration * rate / 1_000_000) if len(c.streams) == 1 and c.duration
                                    and rate else 0)
        packets = []  # decode order: (pts, keyframe, duration)
        try:
            for p in self.container.demux(stream):
                if p.is_corrupt:
                    raise VideoError(f'{self.path}: frame {len(packets)} is damaged: the file is truncated or '
                                     'corrupt; re-encode or fetch it again')
                if p.size and not p.is_discard:  # empty: the final flush, AVI drop chunks; discard: edit lists
                    packets.append((p.pts if p.pts is not None else p.dts, bool(p.is_keyframe), p.duration or 0))
        except self._av.error.FFmpegError as e:
            raise VideoError(f'{self.path}: corrupt video container ({e}); re-encode or fetch it again') from e
        if not packets:
            raise VideoError(f'{self.path}: holds no video frames')
        self.count = len(packets)
        self.fps = float(rate) if rate else 0.0
        times = [p[0] for p in packets]
        if None not in times:
            # the span the packets cover, in frames (AVI: one tick a frame, drop chunks included), vs the header's
            span = self.count
            if rate and tb:
                last = max(packets)
                span = max(span, round((last[0] + (last[2] or 1) - min(times)) * tb * rate))
            if claimed and span < claimed:
                raise _claimed_short(self.path, claimed, span)
        reordered = any(b < a for a, b in zip(times, times[1:])) if None not in times else True
        ordered = sorted(packets)
        self.by_time = (None not in times and len(set(times)) == len(times) and ordered[0][1]
                        and not (reordered and 'avi' in self.container.format.name.split(',')))
        if self.by_time:
            self.pts = [p[0] for p in ordered]
            self.index_of = {t: i for i, t in enumerate(self.pts)}
            self.keys = [i for i, p in enumerate(ordered) if p[1]]
        from av.video.reformatter import VideoReformatter
        self._rgb = VideoReformatter()  # one converter a file: PyAV's to_ndarray builds a new one every frame

    def _next(self, frames, w):
        try:
            return next(frames)
        except StopIteration:
            raise VideoError(f'{self.path}: decoding stopped before frame {w} of {self.count}: the file is '
                             'truncated or corrupt; re-encode or fetch it again') from None
        except self._av.error.FFmpegError as e:
            raise VideoError(f'{self.path}: cannot decode frame {w} ({e}): the file is corrupt') from e

    def read(self, wanted):
        """{index: frame} for the sorted unique indices `wanted`."""
        if self.by_time:
            try:
                return self._seeking(wanted)
            except _Unsure:
                self.by_time = False
        return self._counting(wanted)

    def _seeking(self, wanted):
        out, frames, pos = {}, None, None
        for w in wanted:
            key = self.keys[bisect.bisect_right(self.keys, w) - 1]
            if frames is None or key > pos + 1:  # seek when that skips frames; else decode on
                self.container.seek(self.pts[key], stream=self.container.streams.video[0], backward=True)
                frames, pos = self.container.decode(video=0), None
            while pos is None or pos < w:
                frame = self._next(frames, w)
                i = self.index_of.get(frame.pts if frame.pts is not None else frame.dts)
                # after a seek the frames must follow on one by one from at or before w: anything else means the
                # timestamps do not order them
                if i is None or (pos is None and i > w) or (pos is not None and i != pos + 1):
                    raise _Unsure
                pos = i
                if i == w:
                    out[w] = self._rgb.reformat(frame, format='rgb24').to_ndarray()
        return out

    def _counting(self, wanted):
        self.container.close()
        self.container = self._open()
        out, frames, todo = {}, self.container.decode(video=0), set(wanted)
        for i in range(wanted[-1] + 1):
            frame = self._next(frames, i)
            if i in todo:
                out[i] = self._rgb.reformat(frame, format='rgb24').to_ndarray()
        return out

    def close(self):
        self.container.close()


class _CVSource:
    """OpenCV: frames counted by decoding from the start (its frame-count property is the header's guess: 444 for
    tree.avi's 68 frames), grabbed in one pass, only the wanted ones converted."""

    by_time = False  # it always counts from the start

    def __init__(self, path):
        self.path = path
        if not os.path.exists(path):
            raise VideoNotFoundError(f'{path}: no such video file')
        cap = self._open()
        claimed, rate = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)), cap.get(cv2.CAP_PROP_FPS)
        self.count, last_ms = 0, 0.0
        while cap.grab():
            self.count += 1
            last_ms = cap.get(cv2.CAP_PROP_POS_MSEC)
        cap.release()
        if not self.count:
            raise VideoError(f'{path}: holds no video frames OpenCV can decode')
        self.fps = rate
        span = max(self.count, round(last_ms / 1000 * rate) + 1) if rate > 0 else self.count
        if claimed > 0 and span < claimed:
            raise _claimed_short(path, claimed, span)

    def _open(self):
        cap = cv2.VideoCapture(self.path, cv2.CAP_FFMPEG)
        if not cap.isOpened():
            raise VideoError(f'{self.path}: not a video OpenCV can open; check the file is a complete video')
        return cap

    def read(self, wanted):
        cap, out, todo = self._open(), {}, set(wanted)
        try:
            for i in range(wanted[-1] + 1):
                if not cap.grab():
                    raise VideoError(f'{self.path}: decoding stopped at frame {i} of {self.count}: the file is '
                                     'truncated or corrupt')
                if i in todo:
                    ok, bgr = cap.retrieve()
                    if not ok:
                        raise VideoError(f'{self.path}: cannot decode frame {i}: the file is corrupt')
                    out[i] = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        finally:
            cap.release()
        return out

    def close(self):
        pass


_SOURCES = {'av': _AVSource, 'opencv': _CVSource}


class VideoReader:
    """Frames of the video at `path` by index (0-based, presentation order), RGB uint8.

    `backend`: 'av' (PyAV), 'opencv', or None for `default_backend()`; `seek=False`: PyAV counts from the start
    too. Both give the same pixels for the same indices where their FFmpeg decoders agree
    (tests/vision/test_video_reader.py: OpenCV's wheel carries FFmpeg 5.1, whose MS-MPEG4 decoder differs from
    FFmpeg 8's by up to 2 levels on a few pixels of vtest.avi; every other video there is bit for bit the same).

    >>> vr = VideoReader('/usr/share/doc/opencv-doc/examples/data/tree.avi')  # doctest: +SKIP
    >>> len(vr), vr[0].shape, vr.get_batch([0, 5, 5]).shape  # doctest: +SKIP
    (68, (240, 320, 3), (3, 240, 320, 3))
    """

    def __init__(self, path, backend=None, seek=True):
        self.path = os.fspath(path)
        self.backend = backend or default_backend()
        if self.backend not in _SOURCES:
            raise BadInputError(f'video backend {self.backend!r} is not one of {sorted(_SOURCES)}')
        if self.backend == 'av' and 'av' not in video_backends():
            raise BadInputError("video backend 'av' needs PyAV: pip install av (or backend='opencv')")
        self._src = _SOURCES[self.backend](self.path)
        if not seek:
            self._src.by_time = False
        self.fps = self._src.fps

    def __len__(self):
        return self._src.count

    @property
    def seeking(self):
        """Whether frames are found by seeking to keyframes (PyAV, where timestamps order the frames), not counted
        from the start."""
        return self._src.by_time

    def __getitem__(self, i):
        return self.get_batch([i])[0]

    def get_batch(self, indices):
        """Frames `indices` (any order, repeats allowed) as an (N, H, W, 3) uint8 array."""
        ids = [int(i) for i in np.asarray(indices).reshape(-1)]
        if not ids:
            raise BadInputError(f'{self.path}: no frame indices given')
        bad = [i for i in ids if not 0 <= i < len(self)]
        if bad:
            raise VideoError(f'{self.path}: frame {bad[0]} asked for, but the video has {len(self)} frames '
                             f'(0..{len(self) - 1}); the clip is longer than the video')
        got = self._src.read(sorted(set(ids)))
        shapes = {f.shape for f in got.values()}
        if len(shapes) > 1:
            raise VideoError(f'{self.path}: its frames change size ({sorted(shapes)}); re-encode it at one size')
        return np.stack([got[i] for i in ids])

    def close(self):
        self._src.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_video(path, indices=None, backend=None):
    """Frames `indices` (default: all) of the video at `path` as an (N, H, W, 3) uint8 RGB array."""
    with VideoReader(path, backend) as vr:
        return vr.get_batch(range(len(vr)) if indices is None else indices)
