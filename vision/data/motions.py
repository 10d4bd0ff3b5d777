"""Generated action videos whose classes only motion tells apart, written as real video files in UCF101's list format.

There is no labelled video data on these machines, so `make_motions` makes some, deterministically (a fixed
`MotionSpec` gives the same bytes). A clip is `frames` frames of one of OpenCV's sample digits (Debian opencv-doc
digits.png; the test split's clips use the held-out digits and photos), colored away from the background and
drawn over a still crop of one of OpenCV's sample photos, doing one of `MOTIONS`:

    move_left / move_right / move_up / move_down   travel a random distance at constant speed
    rotate_cw / rotate_ccw                         turn by half a turn about its center
    grow / shrink                                  scale between a small and a large size

Each pair of opposite motions has the same distribution of frames: a clip of one is, frame for frame, a possible
clip of the other played backwards (start points are drawn so that the frames a path covers are the same for both
directions). So a model that sees frames without their order (TSN's average over segments) can at best tell the
axis of motion (4 of 8 classes: 50%), and only a temporal model can tell the direction.

What is written, under `root`:

    videos/<class>/<split>_<i:05d>.avi   the clips: Motion-JPEG in AVI (OpenCV's own encoder), `fps` frames a second
    <split>_list.txt                     UCF101's (GluonCV's setting file) lines: "videos/<class>/<name>.avi
                                         <frames> <label>", for train, val, test
    classes.txt                          the 8 motions, in label order
    motions.json                         the spec, per split the clips of each class, and `checksum` (sha256 over
                                         every other file, scenes.folder_checksum)

`motions_folder(spec)` generates it once under $GLUONZOO_HOME/datasets/motions and reuses it while its files still
match the checksum.
"""
import dataclasses
import json
import os

import cv2
import numpy as np

from ...errors import BadInputError
from ..meta import MOTIONS
from .scenes import TEST_PHOTOS, TRAIN_PHOTOS, _background, _load_objects, _load_photos, _write, cache_root, \
    cached_folder, folder_checksum

#: bumped whenever the same spec would write other bytes
VERSION = 1
SPLITS = ('train', 'val', 'test')
#: the object's side as a share of the frame's: moving and turning objects, and a scaling one's two ends
SIDE, SMALL, LARGE = (0.45, 0.6), (0.3, 0.45), (0.75, 0.95)
#: a moving object travels this share of the room the frame leaves it
TRAVEL = (0.6, 1.0)
#: the JPEG quality of each frame (OpenCV's default, 75, smears a 48-pixel frame's colors)
QUALITY = 95
#: colors are drawn until one is this far (RGB distance) from the background's mean, 8 tries
CONTRAST = 120


@dataclasses.dataclass(frozen=True)
class MotionSpec:
    """What a motion folder holds: clips per split (spread evenly over the classes), their side in pixels, frames a
    clip, frames a second and the seed. Clip i of a split depends on (seed, split, i) only."""
    train: int = 1600
    val: int = 320
    test: int = 480
    size: int = 48
    frames: int = 16
    fps: int = 8
    seed: int = 0

    def __post_init__(self):
        for split in SPLITS:
            n = getattr(self, split)
            if not isinstance(n, int) or n < 0 or n % len(MOTIONS):
                raise BadInputError(f'{split}={n!r}: clips a split must be a multiple of the {len(MOTIONS)} '
                                    'motions, so every class has as many')
        if self.size < 24:
            raise BadInputError(f'motion clips are at least 24 pixels wide, not {self.size}')
        if self.frames < 2:
            raise BadInputError(f'a motion clip has at least 2 frames, not {self.frames}')

    def key(self):
        """The folder name of this spec in the cache."""
        return (f'{self.size}px-{self.frames}f-{self.fps}fps-{self.train}-{self.val}-{self.test}-seed{self.seed}-'
                f'v{VERSION}')


# -- rendering ----------------------------------------------------------------------------------------------------
def _color(rng, background):
    mean = background.reshape(-1, 3).mean(0)
    for _ in range(8):
        color = rng.randint(0, 256, 3)
        if np.linalg.norm(color - mean) >= CONTRAST:
            break
    return color.astype(np.float32)


def _path(rng, motion, size, frames):
    """Per frame (center x, center y, side, angle in degrees): opposite motions draw their starts so that the set of
    frames a path covers has the same distribution in both directions."""
    t = np.linspace(0.0, 1.0, frames)
    if motion.startswith(('rotate', 'grow', 'shrink')):
        cx, cy = (size / 2 + rng.uniform(-0.1, 0.1, 2) * size)
        side = np.full(frames, rng.uniform(*SIDE) * size)
        angle = np.full(frames, rng.uniform(0, 360))
        if motion.startswith('rotate'):
            angle = angle + (-180.0 if motion == 'rotate_cw' else 180.0) * t  # OpenCV's positive angle is ccw
        else:
            small, large = rng.uniform(*SMALL) * size, rng.uniform(*LARGE) * size
            side = small + (large - small) * (t if motion == 'grow' else 1 - t)
            angle = np.full(frames, rng.uniform(-20, 20))
        return np.full(frames, cx), np.full(frames, cy), side, angle
    side = rng.uniform(*SIDE) * size
    room = size - side
    travel = rng.uniform(*TRAVEL) * room
    start = rng.uniform(side / 2, side / 2 + room - travel)  # the low end of the covered stretch
    along = start + travel * t
    if motion in ('move_left', 'move_up'):
        along = along[::-1]
    across = np.full(frames, rng.uniform(side / 2, side / 2 + room))
    x, y = (along, across) if motion in ('move_left', 'move_right') else (across, along)
    return x, y, np.full(frames, side), np.full(frames, rng.uniform(-20, 20))


def render_motion(rng, photos, glyphs, motion, spec):
    """(frames, size, size, 3) uint8 RGB: one digit glyph doing `motion` over a still photo crop."""
    background = _background(rng, photos, spec.size).astype(np.float32)
    glyph = glyphs[rng.randint(len(glyphs))].astype(np.float32) / 255.0
    color = _color(rng, background)
    out = np.empty((spec.frames, spec.size, spec.size, 3), np.uint8)
    g = glyph.shape[0]
    for f, (x, y, side, angle) in enumerate(zip(*_path(rng, motion, spec.size, spec.frames))):
        # the glyph's center to (x, y), scaled to `side` and turned: one affine warp, bilinear, zero outside
        m = cv2.getRotationMatrix2D((g / 2, g / 2), angle, side / g)
        m[:, 2] += (x - g / 2, y - g / 2)
        alpha = cv2.warpAffine(glyph, m, (spec.size, spec.size), flags=cv2.INTER_LINEAR, borderValue=0.0)[..., None]
        out[f] = np.clip(background * (1 - alpha) + color * alpha + 0.5, 0, 255).astype(np.uint8)
    return out


def write_video(path, frames, fps):
    """Write RGB `frames` (T, H, W, 3) as Motion-JPEG AVI with OpenCV's own encoder (the same bytes on every machine
    with the same OpenCV). make_motions writes into a new folder that scenes.cached_folder renames into place whole,
    so no half-written file is ever seen."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    h, w = frames.shape[1:3]
    writer = cv2.VideoWriter(path, cv2.CAP_OPENCV_MJPEG, cv2.VideoWriter_fourcc(*'MJPG'), fps, (w, h))
    if not writer.isOpened():
        raise BadInputError(f'OpenCV cannot write Motion-JPEG AVI to {path}: its MJPEG writer is missing from this '
                            'OpenCV build')
    writer.set(cv2.VIDEOWRITER_PROP_QUALITY, QUALITY)
    try:
        for frame in frames:
            writer.write(cv2.cvtColor(frame, cv2.COLOR_RGB2BGR))
    finally:
        writer.release()


def make_motions(root, spec=MotionSpec(), progress=None):
    """Write the clips of `spec` into folder `root` (created; it must not hold files yet) as the module docstring
    describes; returns the manifest (also written to root/motions.json). `progress(n)` is called after each clip."""
    root = os.fspath(root)
    if os.path.isdir(root) and os.listdir(root):
        raise BadInputError(f'{root} is not empty: make_motions writes into a new folder')
    photos = {'train': _load_photos(TRAIN_PHOTOS), 'test': _load_photos(TEST_PHOTOS)}
    counts = {}
    for s, split in enumerate(SPLITS):
        part = 'test' if split == 'test' else 'train'
        glyphs, _ = _load_objects('digits', part)
        lines, per_class = [], {m: 0 for m in MOTIONS}
        for i in range(getattr(spec, split)):
            label = i % len(MOTIONS)
            rng = np.random.RandomState([spec.seed, s, i])
            clip = render_motion(rng, photos[part], glyphs, MOTIONS[label], spec)
            rel = f'videos/{MOTIONS[label]}/{split}_{i:05d}.avi'
            write_video(os.path.join(root, rel), clip, spec.fps)
            lines.append(f'{rel} {spec.frames} {label}\n')
            per_class[MOTIONS[label]] += 1
            if progress:
                progress(1)
        _write(os.path.join(root, f'{split}_list.txt'), ''.join(lines))
        counts[split] = per_class
    _write(os.path.join(root, 'classes.txt'), ''.join(f'{m}\n' for m in MOTIONS))
    manifest = {'version': VERSION, 'spec': dataclasses.asdict(spec), 'classes': list(MOTIONS),
                'source': "OpenCV's handwritten digits and sample photos (Debian opencv-doc)",
                'photos': {'train_val': list(TRAIN_PHOTOS), 'test': list(TEST_PHOTOS)}, 'splits': counts,
                'checksum': folder_checksum(root, exclude=('motions.json',))}
    _write(os.path.join(root, 'motions.json'), json.dumps(manifest, indent=1, sort_keys=True) + '\n')
    return manifest


def motions_folder(spec=MotionSpec(), cache=None, progress=None):
    """The folder holding the clips of `spec` under $GLUONZOO_HOME/datasets/motions (or `cache`), generated on first
    use and reused while it still matches its checksum (scenes.cached_folder)."""
    return cached_folder(cache_root('motions', cache), spec, make_motions, 'motions.json', progress)
