"""What GluonCV's inflated 3D nets share (i3d_resnet.py, i3d_inceptionv1.py, i3d_inceptionv3.py, i3d_slow.py):
the clip check, the segmental consensus, the head swap, and the two ways GluonCV starts their weights.

Inflation (Carreira & Zisserman, arXiv:1705.07750), GluonCV's rule: the 2D ImageNet classifier's parameters and the
3D net's (less its non-local blocks) are paired in parameter order; a 2D kernel (O, I, kh, kw) becomes the 3D kernel
(O, I, kt, kh, kw) that repeats it kt times divided by kt (a clip of identical frames then gives the 2D response),
BatchNorm parameters and statistics are copied, and the 3D head keeps its own initialization. GluonCV's `_custom`,
`_ucf101` and `_hmdb51` builders instead start from its Kinetics-400 checkpoint: everything but the head is copied.
"""
import contextlib
import io

import mxnet as mx
from mxnet.gluon import nn
from mxnet.gluon.block import HybridBlock

from ....errors import BadInputError
from ....heads import reset_head
from .base import FeatureHead, check_views, copy_all_but_head
from .non_local import NonLocal


def _params_under(block, kind):
    """ids of the parameters held by blocks of type `kind` inside `block`."""
    found = set()

    def walk(b):
        if isinstance(b, kind):
            found.update(id(p) for p in b.collect_params().values())
            return
        for child in b._children.values():
            walk(child)
    walk(block)
    return found


class I3DNet(FeatureHead, HybridBlock):
    """Base of the I3D nets: (N * num_segments * num_crop, 3, T, H, W) clips -> (N, nclass) scores, the features of
    a clip's views averaged (GluonCV's consensus), or the averaged features (N, feat_dim) with `feat_ext`. A
    subclass builds `head` (Dropout, then the Dense that `head_attr` also names) and sets feat_dim."""
    head_attr = 'fc'

    def _setup(self, num_segments, num_crop, feat_ext, dropout_ratio, init_std):
        check_views(type(self).__name__, num_segments, num_crop)
        self.num_segments, self.num_crop, self.feat_ext = num_segments, num_crop, feat_ext
        self.dropout_ratio, self.init_std = dropout_ratio, init_std

    def _make_head(self, nclass):
        """Dropout + Dense, the Dense registered twice (`head.1` and `head_attr`), as GluonCV's files name it."""
        self.head = nn.HybridSequential(prefix='')
        self.head.add(nn.Dropout(rate=self.dropout_ratio))
        dense = nn.Dense(in_units=self.feat_dim, units=nclass, weight_initializer=mx.init.Normal(sigma=self.init_std))
        setattr(self, self.head_attr, dense)
        self.head.add(dense)

    def consensus(self, F, feat):
        """(N * views, feat_dim) clip features -> the video's (N, feat_dim) mean, then the head unless feat_ext."""
        x = F.mean(F.reshape(feat, shape=(-1, self.num_segments * self.num_crop, self.feat_dim)), axis=1)
        return x if self.feat_ext else self.head(x)

    def forward(self, x, *args):
        if isinstance(x, mx.nd.NDArray):
            self._check_clip(x.shape)
            try:
                return super().forward(x, *args)
            except mx.base.MXNetError as e:
                message = self._too_small(x.shape, e)
                if message is None:
                    raise
                raise BadInputError(message) from None
        return super().forward(x, *args)

    def _check_clip(self, shape):
        views = self.num_segments * self.num_crop
        if len(shape) != 5 or shape[1] != 3:
            raise BadInputError(f'{type(self).__name__} takes RGB clips (N, 3, T, H, W), not an array of shape '
                                f'{tuple(shape)}: stack the sampled frames along T')
        if shape[0] % views:
            raise BadInputError(f'{type(self).__name__} averages num_segments * num_crop = {views} clips a video: '
                                f'the batch {shape[0]} is not a multiple of {views}')

    def _too_small(self, shape, error):
        """The one-line message when a well-formed clip is too short or too small for the strides and kernels
        (the graph's shape inference fails on it too), else None: the failure was something else."""
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # MXNet prints the failing shapes
                self(mx.sym.var('data')).infer_shape(data=tuple(shape))
        except mx.base.MXNetError:
            lines = [ln.strip() for ln in str(error).splitlines() if ln.strip()]
            reason = next((ln for ln in lines if 'Check failed' in ln or 'Error' in ln), lines[-1] if lines else '')
            return (f'a clip of {shape[2]} frames of {shape[3]}x{shape[4]} is too small for '
                    f'{type(self).__name__}\'s strides and kernels: sample more frames or a larger crop '
                    f'(the record\'s input_shape; MXNet: {reason[:200]})')
        return None

    def reset_class(self, classes, reuse_weights=None):
        """A fresh Dense head for `classes` (a count or names); rows named in `reuse_weights` are copied over."""
        self.classes = reset_head(self, 'head', classes, reuse_weights, getattr(self, 'classes', None))
        setattr(self, self.head_attr, self.head[len(self.head) - 1])

    # -- starting weights ---------------------------------------------------------------------------------------
    def inflate_from(self, net2d, ctx=None):
        """Set this net's weights from the 2D classifier `net2d` by GluonCV's inflation rule (module docstring):
        pairs in parameter order, non-local blocks left out, the Dense head left as it is."""
        ctx = ctx or mx.cpu()
        skip = _params_under(self, NonLocal)
        ours = [p for p in self.collect_params().values() if id(p) not in skip]
        theirs = list(net2d.collect_params().values())
        if len(ours) != len(theirs):
            raise BadInputError(f'{type(net2d).__name__} has {len(theirs)} parameters, {type(self).__name__} '
                                f'{len(ours)} outside its non-local blocks: not the 2D net this one inflates')
        head = {id(p) for p in getattr(self, self.head_attr).collect_params().values()}
        for p3, p2 in zip(ours, theirs):
            if id(p3) in head:
                continue
            w2 = p2.data().as_in_context(ctx)
            if len(p3.shape) == w2.ndim + 1 and p3.shape[:2] + p3.shape[3:] == w2.shape:
                t = p3.shape[2]
                value = mx.nd.broadcast_to(w2.expand_dims(axis=2), shape=p3.shape) / t
            elif tuple(p3.shape) == w2.shape:
                value = w2
            else:
                raise BadInputError(f'cannot inflate {p2.name} {w2.shape} into {p3.name} {p3.shape}: the 2D '
                                    f'and 3D parameter orders differ')
            _set(p3, value, ctx)

    def copy_body_from(self, net):
        """Set every parameter but the Dense head's (`head` and `head_attr`) from `net`, a loaded net of the same
        architecture (GluonCV's `use_kinetics_pretrain`: its Kinetics-400 checkpoint under a head for other
        classes)."""
        copy_all_but_head(self, net, ('head', self.head_attr))


def _set(param, value, ctx):
    if param._data is None:
        param.initialize(init=mx.init.Zero(), ctx=ctx)
    param.set_data(value)


def pretrained_2d(name, ctx=None):
    """The registry's 2D ImageNet classifier `name` with its GluonCV checkpoint (fetched or cached, sha1-checked)."""
    from ....registry import get_model
    return get_model(name, pretrained=True, ctx=ctx)
