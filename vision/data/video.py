"""GluonCV 0.10's video classification datasets and clip sampling, over gluonzoo's VideoReader (.video_reader).

Sampling (GluonCV's VideoClsCustom, the same numpy draws): a video of `duration` frames is cut into `num_segments`
equal parts; each gives one clip of `new_length` frames, `new_step` apart, from a start offset that is random in
training (`train=True`), the part's middle in validation (`train=False`) and in the test (`test_mode=True`, which
also samples a video too short for validation's rule). `temporal_jitter` moves each frame up to `new_step - 1` on.
A clip that runs past the video's end repeats frames (GluonCV's rule), so every clip has its full length. SlowFast
(`slowfast=True`): of each clip's consecutive frames, every `fast_temporal_stride`-th goes to the fast pathway and
every `slow_temporal_stride`-th to the slow one, concatenated fast then slow along T.

Samples are frame folders (`root/<video>/img_00001.jpg`..., 1-based, `name_pattern`) or, with `video_loader=True`,
video files (frames read through VideoReader, the count from the file). The list file (`setting`) has a line a
video: `path num_frames label` (GluonCV's), or `path label` (the frame count then comes from the video or its
folder; GluonCV refuses such lines); `setting=None` lists `root/<class>/<video>` instead, one sub-folder a class
(`classes`). Frames are resized to `new_width` x `new_height` (OpenCV bilinear, as GluonCV's frame folders; GluonCV's
decord path resizes inside FFmpeg instead, and only with `data_aug='v1'`), then `transform` (a video transform of
gluonzoo.vision.transforms.video) maps the list of HxWx3 RGB frames to CxHxW ones, and a sample is
(NDArray (segments * crops, 3, new_length, H, W) - or (segments * crops, 3, H, W) when new_length is 1 - , label).
"""
import inspect
import os

import cv2
import mxnet as mx
import numpy as np
from mxnet.gluon.data import Dataset

from .. import meta
from ...errors import BadInputError
from ..image import read_image
from ..transforms import functional as F
from .video_reader import VideoError, VideoNotFoundError, VideoReader

__all__ = ['VideoClsCustom', 'Kinetics400', 'Kinetics700', 'UCF101', 'HMDB51', 'SomethingSomethingV2',
           'Kinetics400Attr', 'Kinetics700Attr', 'UCF101Attr', 'HMDB51Attr', 'SomethingSomethingV2Attr',
           'sample_offsets', 'clip_frame_ids', 'slowfast_frame_ids', 'read_list', 'VIDEO_EXTENSIONS']

#: the file endings `setting=None` takes for videos
VIDEO_EXTENSIONS = ('.mp4', '.avi', '.mkv', '.webm', '.mov', '.m4v', '.mpg', '.mpeg', '.flv', '.wmv', '.3gp',
                    '.ogv')


# -- sampling (GluonCV's draws: numpy's global generator unless `rng` is given) -----------------------------------
def sample_offsets(num_frames, num_segments=1, new_length=1, new_step=1, mode='train', temporal_jitter=False,
                   rng=None):
    """(segment start offsets, 1-based; per-frame jitter) of GluonCV's train / val / test sampling of a video of
    `num_frames` frames: `mode` is 'train' (random start in each segment), 'val' or 'test' (each segment's middle;
    'test' also for videos shorter than num_segments + new_length * new_step - 1). `rng`: a numpy RandomState.

    >>> sample_offsets(100, num_segments=4, new_length=8, mode='val')[0].tolist()
    [12, 35, 59, 82]
    """
    rng = np.random if rng is None else rng
    skip = new_length * new_step
    if mode == 'train':
        average = (num_frames - skip + 1) // num_segments
        if average > 0:
            offsets = np.multiply(list(range(num_segments)), average) + rng.randint(average, size=num_segments)
        elif num_frames > max(num_segments, skip):
            offsets = np.sort(rng.randint(num_frames - skip + 1, size=num_segments))
        else:
            offsets = np.zeros((num_segments,))
    elif mode in ('val', 'test'):
        fits = num_frames > (num_segments + skip - 1 if mode == 'val' else skip - 1)
        tick = (num_frames - skip + 1) / float(num_segments)
        offsets = (np.array([int(tick / 2.0 + tick * x) for x in range(num_segments)]) if fits
                   else np.zeros((num_segments,)))
    else:
        raise ValueError(f"sampling mode {mode!r} is not 'train', 'val' or 'test'")
    jitter = (rng.randint(new_step, size=skip // new_step) if temporal_jitter
              else np.zeros(skip // new_step, dtype=int))
    return offsets + 1, jitter


def _walk(offsets, jitter, duration, new_length, new_step):
    """For each segment, its frames' 0-based ids: a frame past the end falls back to the clip's current start, and
    the start stops moving at the end (GluonCV's loaders, frame folders and videos alike)."""
    for seg in offsets:
        offset, ids = int(seg), []
        for i in range(new_length):
            ids.append(offset + jitter[i] - 1 if offset + jitter[i] <= duration else offset - 1)
            if offset + new_step < duration:
                offset += new_step
        yield ids


def clip_frame_ids(offsets, jitter, duration, new_length=1, new_step=1):
    """The 0-based frame ids of every segment's clip, segment by segment (`offsets`, `jitter` of sample_offsets)."""
    return [int(i) for ids in _walk(offsets, jitter, duration, new_length, new_step) for i in ids]


def slowfast_frame_ids(offsets, jitter, duration, new_length, fast_temporal_stride=2, slow_temporal_stride=16):
    """SlowFast's frame ids: of each segment's `new_length` consecutive frames, the fast pathway's (every
    fast_temporal_stride-th) then the slow one's (every slow_temporal_stride-th, counted from the clip start)."""
    out = []
    for ids in _walk(offsets, jitter, duration, new_length, 1):
        out += [ids[i] for i in range(len(ids)) if (i + 1) % fast_temporal_stride == 0]
        out += [ids[i] for i in range(len(ids)) if (i + 1) % fast_temporal_stride == 0
                and (i + 1) % slow_temporal_stride == 0]
    return [int(i) for i in out]


# -- list files ----------------------------------------------------------------------------------------------------
def read_list(setting):
    """[(path, num_frames or None, label)] of a list file: `path num_frames label` or `path label` a line."""
    if not os.path.isfile(setting):
        raise VideoNotFoundError(f'{setting}: the list file (setting=) is not there; it has one line a video: '
                                 '"path num_frames label" or "path label"')
    items = []
    with open(setting) as f:
        for n, line in enumerate(f, 1):
            cols = line.split()
            if not cols:
                continue
            try:
                if len(cols) >= 3:
                    items.append((cols[0], int(cols[1]), int(cols[2])))
                elif len(cols) == 2:
                    items.append((cols[0], None, int(cols[1])))
                else:
                    raise ValueError
            except ValueError:
                raise VideoError(f'{setting}:{n}: {line.strip()!r} is not "path num_frames label" or "path label" '
                                 '(integers after the path)') from None
    return items


def _scan(root, videos):
    """[(path, None, label)], classes of root/<class>/<video file or frame folder>."""
    if not os.path.isdir(root):
        raise VideoNotFoundError(f'{root}: not a folder; setting=None reads root/<class>/<video>')
    classes = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    items = []
    for label, cls in enumerate(classes):
        for name in sorted(os.listdir(os.path.join(root, cls))):
            path = os.path.join(cls, name)
            full = os.path.join(root, path)
            if (videos and os.path.isfile(full) and name.lower().endswith(VIDEO_EXTENSIONS)) or \
                    (not videos and os.path.isdir(full)):
                items.append((path, None, label))
    return items, classes


def _count_frames(folder, name_pattern):
    """Frames 1, 2, ... of `folder` named by `name_pattern`, counted up to the first missing one."""
    if not os.path.isdir(folder):
        raise VideoNotFoundError(f'{folder}: the frame folder is not there (video_loader=True reads video files)')
    names, n = set(os.listdir(folder)), 0
    while name_pattern % (n + 1) in names:
        n += 1
    if not n:
        raise VideoError(f'{folder}: holds no frames named {name_pattern!r} from 1 on')
    return n


class VideoClsCustom(Dataset):
    """GluonCV's VideoClsCustom: a video classification dataset of clips sampled from frame folders or video files
    (the module doc has the rules; each parameter keeps GluonCV's name and meaning).

    `root`: the folder the list's paths are under; `setting`: the list file (None: one sub-folder of root a class);
    `train` / `test_mode`: which sampling; `name_pattern`: frame file names (1-based); `video_ext`: appended to list
    paths without one; `num_segments`, `num_crop`, `new_length`, `new_step`, `temporal_jitter`: the clips;
    `new_width` / `new_height`: frames resized to that (<= 0: kept); `target_width` / `target_height`: the size the
    transform gives; `video_loader`: video files, not frame folders; `use_decord`, `data_aug`: GluonCV's switches
    for its decord reader (with use_decord and data_aug != 'v1', frames keep their size); `slowfast`,
    `slow_temporal_stride`, `fast_temporal_stride`: SlowFast's sampling; `lazy_init`: read no list; `transform`:
    list of HxWx3 frames -> list of CxHxW ones. `video_backend` (gluonzoo's): the VideoReader backend.
    `is_color` and `modality` are GluonCV's too; as there, frames are read in color, and only modality 'rgb'.
    """

    def __init__(self, root, setting, train=True, test_mode=False, name_pattern='img_%05d.jpg', video_ext='mp4',
                 is_color=True, modality='rgb', num_segments=1, num_crop=1, new_length=1, new_step=1, new_width=340,
                 new_height=256, target_width=224, target_height=224, temporal_jitter=False, video_loader=False,
                 use_decord=False, slowfast=False, slow_temporal_stride=16, fast_temporal_stride=2, data_aug='v1',
                 lazy_init=False, transform=None, video_backend=None):
        super().__init__()
        if modality != 'rgb':
            raise BadInputError(f"modality {modality!r}: GluonCV's video datasets read 'rgb' frames only")
        for name, v in (('num_segments', num_segments), ('num_crop', num_crop), ('new_length', new_length),
                        ('new_step', new_step)):
            if int(v) != v or v < 1:
                raise BadInputError(f'{name}={v!r}: must be a positive integer')
        if slowfast:
            # GluonCV asserts these three
            if slow_temporal_stride % fast_temporal_stride:
                raise BadInputError(f'slow_temporal_stride {slow_temporal_stride} must be a multiple of '
                                    f'fast_temporal_stride {fast_temporal_stride}')
            if temporal_jitter or new_step != 1:
                raise BadInputError('slowfast=True samples consecutive frames: set temporal_jitter=False and '
                                    'new_step=1')
        self.root, self.setting, self.train, self.test_mode = root, setting, train, test_mode
        self.is_color, self.modality, self.name_pattern, self.video_ext = is_color, modality, name_pattern, video_ext
        self.num_segments, self.num_crop, self.new_length, self.new_step = num_segments, num_crop, new_length, new_step
        self.skip_length = new_length * new_step
        self.new_width, self.new_height = new_width, new_height
        self.target_width, self.target_height = target_width, target_height
        self.temporal_jitter, self.video_loader, self.use_decord = temporal_jitter, video_loader, use_decord
        self.slowfast, self.slow_temporal_stride = slowfast, slow_temporal_stride
        self.fast_temporal_stride, self.data_aug, self.lazy_init = fast_temporal_stride, data_aug, lazy_init
        self.transform, self.video_backend = transform, video_backend
        self.classes, self.clips = None, []
        if not lazy_init:
            self.clips = self._make_dataset(root, setting)
            if not self.clips:
                raise VideoError(f'{setting or root}: lists no video clips; check the data folder and list file')

    def _make_dataset(self, directory, setting):
        if setting is None:
            items, self.classes = _scan(directory, self.video_loader)
        else:
            items = read_list(setting)
        return [(os.path.join(directory, path), duration, label) for path, duration, label in items]

    def __len__(self):
        return len(self.clips)

    def _mode(self):
        return 'test' if self.test_mode else 'train' if self.train else 'val'

    def _video_name(self, directory):
        # a list path with no extension gets video_ext (GluonCV's rule: a dot in the last name means it has one)
        return directory if '.' in directory.split('/')[-1] else f'{directory}.{self.video_ext}'

    def __getitem__(self, index):
        directory, duration, target = self.clips[index]
        reader = None
        if self.video_loader:
            reader = VideoReader(self._video_name(directory), self.video_backend)
            duration = len(reader)
        elif duration is None:
            duration = _count_frames(directory, self.name_pattern)
        offsets, jitter = sample_offsets(duration, self.num_segments, self.new_length, self.new_step, self._mode(),
                                         self.temporal_jitter)
        ids = (slowfast_frame_ids(offsets, jitter, duration, self.new_length, self.fast_temporal_stride,
                                  self.slow_temporal_stride) if self.slowfast
               else clip_frame_ids(offsets, jitter, duration, self.new_length, self.new_step))
        try:
            frames = self._read_video(reader, ids) if reader is not None else self._read_folder(directory, ids)
        finally:
            if reader is not None:
                reader.close()
        if self.transform is not None:
            frames = self.transform(frames)
        return mx.nd.array(self._stack(frames, directory)), target

    def _resize(self, img):
        h, w = img.shape[:2]
        if self.new_width > 0 and self.new_height > 0 and (h != self.new_height or w != self.new_width):
            return F.resize(img, (self.new_height, self.new_width), cv2.INTER_LINEAR)
        return img

    def _read_video(self, reader, ids):
        frames = list(reader.get_batch(ids))
        if self.use_decord and self.data_aug != 'v1':
            return frames
        return [self._resize(f) for f in frames]

    def _read_folder(self, directory, ids):
        done = {}
        for i in set(ids):
            path = os.path.join(directory, self.name_pattern % (i + 1))
            try:
                rgb = read_image(path)
            except BadInputError:
                if not os.path.exists(path):
                    raise VideoNotFoundError(f'{path}: frame {i + 1} of {directory} is not there (its list line '
                                             'may claim more frames than the folder holds)') from None
                raise VideoError(f'{path}: frame {i + 1} of {directory} is not an image OpenCV can decode') from None
            done[i] = self._resize(rgb)
        return [done[i] for i in ids]

    def _stack(self, frames, directory):
        # GluonCV's layout: (segments * crops, new_length or the SlowFast frames, 3, H, W), then T and C swapped
        clip = np.stack(frames, axis=0)
        length = len(frames) // (self.num_segments * self.num_crop) if self.slowfast else self.new_length
        shape = (length, 3, self.target_height, self.target_width)
        if clip.size % int(np.prod(shape)):
            raise BadInputError(f'{directory}: the transform gave {len(frames)} frames of shape {clip.shape[1:]}, '
                                f'which do not make clips of {length} frames of 3 x {self.target_height} x '
                                f'{self.target_width}; the transform must give 3 x target_height x target_width')
        clip = np.transpose(clip.reshape((-1,) + shape), (0, 2, 1, 3, 4))
        return np.squeeze(clip, axis=2) if self.new_length == 1 else clip


def _dataset(name, folder, frames, setting, key, pattern='img_%05d.jpg'):
    """A GluonCV dataset class: VideoClsCustom with GluonCV's default root, list file and frame names."""
    base = inspect.signature(VideoClsCustom.__init__)
    home = os.path.join('~', '.mxnet', 'datasets', folder)
    defaults = {'root': os.path.expanduser(os.path.join(home, frames)),
                'setting': os.path.expanduser(os.path.join(home, setting)), 'name_pattern': pattern}
    sig = base.replace(parameters=[p.replace(default=defaults.get(p.name, p.default))
                                   for p in base.parameters.values()])

    def __init__(self, *args, **kwargs):
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        VideoClsCustom.__init__(*bound.arguments.values())
    __init__.__signature__ = sig
    doc = (f"GluonCV's {name}: VideoClsCustom over {folder}'s frames (or videos, video_loader=True), by default "
           f"under {home}; labels index {name}Attr().classes.")
    return type(name, (VideoClsCustom,), {'__init__': __init__, '__doc__': doc, '__module__': __name__}), \
        type(f'{name}Attr', (), {'__init__': _attr(key), '__doc__': f"{name}'s num_class and classes (GluonCV's).",
                                 '__module__': __name__})


def _attr(key):
    def __init__(self):
        self.classes = list(meta.ACTION_CLASSES[key])
        self.num_class = len(self.classes)
    return __init__


Kinetics400, Kinetics400Attr = _dataset('Kinetics400', 'kinetics400', 'rawframes_train',
                                        'kinetics400_train_list_rawframes.txt', 'kinetics400')
Kinetics700, Kinetics700Attr = _dataset('Kinetics700', 'kinetics700', 'rawframes_train',
                                        'kinetics700_train_list_rawframes.txt', 'kinetics700')
UCF101, UCF101Attr = _dataset('UCF101', 'ucf101', 'rawframes',
                              'ucfTrainTestlist/ucf101_train_split_1_rawframes.txt', 'ucf101')
HMDB51, HMDB51Attr = _dataset('HMDB51', 'hmdb51', 'rawframes',
                              'testTrainMulti_7030_splits/hmdb51_train_split_1_rawframes.txt', 'hmdb51')
SomethingSomethingV2, SomethingSomethingV2Attr = _dataset(
    'SomethingSomethingV2', 'somethingsomethingv2', '20bn-something-something-v2-frames', 'train_videofolder.txt',
    'sthsthv2', pattern='%06d.jpg')
