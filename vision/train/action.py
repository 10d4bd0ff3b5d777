"""Video action recognition in the training engine (gluonzoo.train.protocol), as GluonCV 0.10.5's
scripts/action-recognition/train_recognizer.py trains TSN, I3D, R(2+1)D and SlowFast:

    data     one clip a video, decoded once (the clips of the generated motion videos are short: vision.data.motions)
             into memory through gluonzoo's video reader. A clip model gets (N, 3, T, H, W); a frame model (TSN,
             GluonCV's `resnet*_v1b_*` with num_segments S) gets S frames a video, one from each of S equal stretches
             of the clip (a random one in training, the middle one in evaluation, TSN's sampling), as (N * S, 3, H, W).
             Train: a random H x W window of each clip (the same for all its frames; `--augment crop`), never a
             horizontal flip (it would turn moving left into moving right); eval: the centre window.
    loss     softmax cross-entropy over the video's scores (TSN: the mean of its segments'), the engine's Trainer.
    eval     top-1 accuracy and loss over the eval split, one centre clip a video.

The draws of batch b come from RandomState([seed, epoch, b, 1 + rank]), so a run is reproducible on one thread and
resumes exactly. The task is ImageClassification's (vision/train/classification.py) over ClipData, the net built
for the data's classes.
"""
import os

import numpy as np

from ...errors import BadInputError
from ..data.arrays import Batches
from ..data.video import clip_frame_ids, sample_offsets
from ..meta import IMAGENET_MEAN, IMAGENET_STD
from .classification import ImageClassification, refuse_classification_options

TASK = 'action-recognition'


class ClipData(Batches):
    """uint8 clips (N, T, H, W, 3) RGB and int labels; yields normalized float32 batches for a clip model
    (N, 3, T, crop, crop) or, with `segments`, for a frame model (N * segments, 3, crop, crop).

    >>> clips = np.zeros((2, 4, 6, 6, 3), np.uint8)
    >>> x, y = next(ClipData(clips, [0, 1], crop=4).eval_batches(2))
    >>> x.shape, y.tolist()
    ((2, 3, 4, 4, 4), [0, 1])
    >>> next(ClipData(clips, [0, 1], crop=4, segments=2).eval_batches(2))[0].shape
    (4, 3, 4, 4)
    """

    def __init__(self, clips, labels, crop, segments=None, augment='none', mean=IMAGENET_MEAN, std=IMAGENET_STD):
        clips = np.asarray(clips)
        if clips.ndim != 5 or clips.shape[-1] != 3 or clips.dtype != np.uint8:
            raise BadInputError(f'clips must be uint8 (N, T, H, W, 3) RGB, not {clips.dtype} {clips.shape}')
        if not crop <= min(clips.shape[2:4]):
            raise BadInputError(f'crop {crop} is larger than the {clips.shape[2]}x{clips.shape[3]} frames')
        if segments is not None and not 1 <= segments <= clips.shape[1]:
            raise BadInputError(f'segments={segments}: a clip of {clips.shape[1]} frames has 1 to {clips.shape[1]}')
        if augment not in ('none', 'crop'):
            raise BadInputError(f"augment {augment!r} is not 'none' or 'crop' (video clips are never flipped: "
                                'that would swap the direction of motion)')
        self.clips, self.labels = clips, np.asarray(labels, dtype=np.int64)
        self.crop, self.segments, self.augment = crop, segments, augment
        self.mean = np.asarray(mean, np.float32).reshape(3, 1, 1, 1) * 255
        self.std = np.asarray(std, np.float32).reshape(3, 1, 1, 1) * 255

    drawing = ('crop',)

    def _frames(self, t, rng):
        """The frame indices of one video: all of them, or TSN's one frame from each of `segments` stretches (GluonCV's
        sampling, vision.data.video: a random one in training, the middle one otherwise, as recognize() takes)."""
        if self.segments is None:
            return np.arange(t)
        offsets, jitter = sample_offsets(t, self.segments, mode='train' if rng is not None else 'test', rng=rng)
        return clip_frame_ids(offsets, jitter, t)

    def _prepare(self, idx, rng):
        _, t, h, w, _ = self.clips.shape
        c = self.crop
        out = []
        for i in idx:
            y0, x0 = (rng.randint(0, h - c + 1), rng.randint(0, w - c + 1)) if rng is not None else \
                ((h - c) // 2, (w - c) // 2)
            clip = self.clips[i, self._frames(t, rng), y0:y0 + c, x0:x0 + c]  # (T', c, c, 3)
            out.append((clip.transpose(3, 0, 1, 2).astype(np.float32) - self.mean) / self.std)  # (3, T', c, c)
        x = np.stack(out)
        if self.segments is not None:  # TSN's frames, video after video: (N * S, 3, c, c)
            x = x.transpose(0, 2, 1, 3, 4).reshape(-1, 3, c, c)
        return np.ascontiguousarray(x)


class ActionRecognition(ImageClassification):
    """ImageClassification over ClipData; the engine builds the net with a head for the data's classes."""

    def model_kwargs(self):
        return {'nclass': self.classes}  # GluonCV's name: the registry's classes= is the config's own


# -- the data: a video list folder decoded once ----------------------------------------------------------------
def is_frame_model(name):
    """Whether registered model `name` takes frames (TSN: (N * segments, 3, H, W)) rather than clips."""
    from ...registry import get_entry
    return len(get_entry(name).test_input) == 4


def decode_list(root, list_files, limit=None, backend=None):
    """(clips uint8 (N, T, H, W, 3), labels) of the videos UCF101-style lists name (paths relative to `root`), the
    first `limit` of them when given (cut before anything is decoded), read through gluonzoo's video reader; every
    clip must have its list's frame count and one frame size."""
    from ..data.video import read_list
    from ..data.video_reader import VideoError, read_video
    items = [(f, *item) for f in list_files for item in read_list(os.path.join(root, f))][:limit or None]
    if not items:
        raise BadInputError(f'{", ".join(os.path.join(root, f) for f in list_files)} name no videos')
    clips, labels = None, np.empty(len(items), np.int64)
    for n, (list_file, rel, frames, label) in enumerate(items):
        path = os.path.join(root, rel)
        clip = read_video(path, backend=backend)
        if frames is not None and len(clip) != frames:
            raise VideoError(f'{path}: {len(clip)} frames, the list {list_file} says {frames}')
        if clips is None:
            clips = np.empty((len(items),) + clip.shape, np.uint8)
        elif clip.shape != clips.shape[1:]:
            raise VideoError(f'{path}: frames {clip.shape}, the list\'s first video {clips.shape[1:]}: the clips of a '
                             'list must have one length and frame size (re-encode or cut them)')
        clips[n], labels[n] = clip, label
    return clips, labels


def action_task(cfg, name, source, root, train_lists, eval_list, classes, checksum, new_step=1):
    """ImageClassification over ClipData of the videos `train_lists` and `eval_list` name (under `root`): frames for
    a frame model (its num_segments, from --model-kwargs, default 1), clips for a clip model (every `new_step`-th
    frame, from the first: the test clip a record with frames T / new_step and step new_step centres on a T-frame
    video); crop --data-shape (default: the frames' short side)."""
    # never a flip: mirrored videos turn moving left into moving right
    refuse_classification_options(cfg, 'action-recognition training', augments=('none', 'crop'))
    if isinstance(new_step, bool) or not isinstance(new_step, int) or new_step < 1:
        raise BadInputError(f'new_step={new_step!r} (--dataset-kwargs): the step between a clip\'s frames is a '
                            'positive int')
    frame_model = is_frame_model(cfg.model)
    if frame_model and new_step != 1:
        raise BadInputError(f'new_step={new_step}: {cfg.model} takes frames (TSN segments), not clips; drop it')
    xtr, ytr = decode_list(root, train_lists, cfg.train_limit)
    xte, yte = decode_list(root, [eval_list], cfg.val_limit)
    xtr, xte = xtr[:, ::new_step], xte[:, ::new_step]
    segments = cfg.model_kwargs.get('num_segments', 1) if frame_model else None
    crop = cfg.data_shape or min(xtr.shape[2:4])
    augment = cfg.augment
    info = {'name': name, 'source': source, 'train_split': '+'.join(f.split('_list')[0] for f in train_lists),
            'checksum': checksum, 'classes': list(classes), 'clip': list(xtr.shape[1:4]), 'crop': crop,
            'segments': segments, 'new_step': new_step}
    return ActionRecognition(ClipData(xtr, ytr, crop, segments, augment), ClipData(xte, yte, crop, segments),
                             len(classes), info, eval_split=eval_list.split('_list')[0], eval_batch_size=32)
