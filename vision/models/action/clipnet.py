"""What GluonCV's 3D clip recognizers (SlowFast, R(2+1)D, C3D, P3D) share: the clip check, the segmental consensus
and `reset_class` (base.py: the class count of a builder and the Kinetics start).

A batch holds `num_segments * num_crop` clips of each video, one after the other: each clip's pooled features are
averaged over its video's clips (GluonCV's consensus) before the head, so (N * num_segments * num_crop, 3, T, H, W)
clips give (N, nclass) scores, or with `feat_ext=True` the averaged features (N, feat_dim).
"""
import mxnet as mx
from mxnet.gluon import nn

from ....errors import BadInputError, InputCountError
from ....heads import reset_head
from .base import FeatureHead, check_views


def pooled(size, kernel, stride, pad=0):
    """The length a pooling or convolution window leaves of `size` (floor mode, MXNet's default).

    >>> pooled(16, 2, 2), pooled(7, 2, 2, 1)
    (8, 4)
    """
    return (size + 2 * pad - kernel) // stride + 1


class ClipNet(FeatureHead, nn.HybridBlock):
    """A clip recognizer: `forward` checks the clips (N * num_segments * num_crop, 3, T, H, W) before the graph runs
    (`clip_problem` adds what a family needs of T, H, W), `consensus` averages a video's clip features, `reset_class`
    swaps the head `head_name` for other classes (gluonzoo.heads). Subclasses set `feat_dim`."""
    head_name = 'fc'
    classes = None  # class names, set by get_model from the weights record or by reset_class
    feat_dim = None

    def __init__(self, num_segments=1, num_crop=1, feat_ext=False, **kwargs):
        super().__init__(**kwargs)
        check_views(type(self).__name__, num_segments, num_crop)
        self.num_segments, self.num_crop, self.feat_ext = num_segments, num_crop, feat_ext

    def forward(self, x, *args):
        if args:
            raise InputCountError(f'{type(self).__name__} takes one input, the clips; got {1 + len(args)}')
        if isinstance(x, mx.nd.NDArray):
            self.check_clip(x.shape)
        return super().forward(x)

    def check_clip(self, shape):
        """Raise BadInputError saying what clips this net takes when `shape` is not one of them."""
        clips = self.num_segments * self.num_crop
        got = 'x'.join(map(str, shape))
        if len(shape) != 5 or shape[1] != 3:
            raise BadInputError(f'{type(self).__name__} takes clips of shape (N, 3, T, H, W) (RGB frames along T), '
                                f'got {got}; a video reader (gluonzoo.vision.data) gives them in that layout')
        if shape[0] % clips:
            raise BadInputError(f'{type(self).__name__} averages num_segments x num_crop = {clips} clips a video, '
                                f'got a batch of {shape[0]}: give {clips} clips per video, or build it with the '
                                f'num_segments/num_crop the batch has')
        problem = self.clip_problem(*shape[2:])
        if problem:
            raise BadInputError(f'{type(self).__name__} {problem}, got {got}; sample clips as its weights record\'s '
                                f'preprocess says')

    def clip_problem(self, frames, height, width):
        """What is wrong with clips of this T x H x W for this net (a phrase), or None when they run."""
        return None

    def consensus(self, x):
        """(N * clips, feat_dim) -> (N, feat_dim): the mean over each video's num_segments x num_crop clips."""
        return x.reshape((-1, self.num_segments * self.num_crop, self.feat_dim)).mean(axis=1)

    def reset_class(self, classes, reuse_weights=None):
        """A fresh head for `classes` (a count or a list of names); `reuse_weights` ({new: old} by name or index,
        or a list of names kept) copies the rows of those classes over (GluonCV's detection API)."""
        self.classes = reset_head(self, self.head_name, classes, reuse_weights, self.classes)
