"""The non-local block (Wang et al., "Non-local Neural Networks", arXiv:1711.07971), parameter-compatible with
GluonCV 0.10.5's `action_recognition.non_local` (NonLocal, build_nonlocal_block), which I3D's `i3d_nl*` nets insert
after some residual blocks.

Every position attends to every position of the same clip: theta, phi and g are 1x1(x1) convs to `embed_dim`
channels (phi and g optionally max-pooled 2x2 in space, `sub_sample`), the affinity softmax(theta^T phi / sqrt(
embed_dim)) weighs g, and a 1x1(x1) conv W (then a BatchNorm whose gamma starts at zero, `use_bn`: the block starts
as the identity) maps back and adds the input. Structural names are GluonCV's: `theta`, `phi`, `g`, `W`, `bn`,
`W_bn` (W and bn again), `sub_phi` / `sub_g` (phi / g with the pool) and `concat_proj`; a shared layer is saved
under each name, as GluonCV's files hold it.
"""
from mxnet import init
from mxnet.gluon import nn
from mxnet.gluon.block import HybridBlock

from ....errors import BadInputError
from .base import BatchNorm

#: GluonCV's three designs; its forward computes the embedded Gaussian only (the others raise there)
NONLOCAL_TYPES = ('gaussian', 'dot', 'concat')


def _conv(dim, in_channels, channels):
    conv = nn.Conv3D if dim == 3 else nn.Conv2D
    return conv(channels, (1,) * dim, in_channels=in_channels, weight_initializer=init.MSRAPrelu())


class NonLocal(HybridBlock):
    """GluonCV's non-local block over (N, C, T, H, W) (`dim=3`) or (N, C, H, W) (`dim=2`) maps of `in_channels`.

    `nonlocal_type` is GluonCV's: only 'gaussian' (the embedded Gaussian of the paper) computes; 'dot' and 'concat'
    are refused here, at construction, where GluonCV fails on the first forward. `embed=False` takes x itself for
    theta, phi and g (then `embed_dim` must be `in_channels`, as W maps embed_dim channels back); `sub_sample` pools
    phi and g 2x2 in space (needs `embed`). `norm_layer` / `norm_kwargs` make the BatchNorm after W (`use_bn`).
    `ctx` is accepted as GluonCV's is and changes nothing."""

    def __init__(self, in_channels=1024, nonlocal_type='gaussian', dim=3, embed=True, embed_dim=None,
                 sub_sample=False, use_bn=True, norm_layer=BatchNorm, norm_kwargs=None, ctx=None, **kwargs):
        super().__init__(**kwargs)
        del ctx
        if nonlocal_type not in NONLOCAL_TYPES:
            raise BadInputError(f'nonlocal_type={nonlocal_type!r} is not one of {NONLOCAL_TYPES}')
        if nonlocal_type != 'gaussian':
            raise BadInputError(f"nonlocal_type={nonlocal_type!r}: GluonCV 0.10.5 computes only 'gaussian' (its "
                                f"forward raises for {nonlocal_type!r}); use nonlocal_type='gaussian'")
        if dim not in (2, 3):
            raise BadInputError(f'dim={dim!r}: a non-local block is 2D (images) or 3D (clips)')
        self.nonlocal_type, self.embed, self.sub_sample, self.use_bn = nonlocal_type, embed, sub_sample, use_bn
        self.embed_dim = embed_dim if embed_dim is not None else in_channels // 2
        if not embed and (sub_sample or self.embed_dim != in_channels):
            raise BadInputError(f'embed=False takes x itself for theta, phi and g: it needs sub_sample=False and '
                                f'embed_dim={in_channels} (in_channels), not sub_sample={sub_sample}, '
                                f'embed_dim={self.embed_dim}')
        with self.name_scope():
            if embed:
                self.theta = _conv(dim, in_channels, self.embed_dim)
                self.phi = _conv(dim, in_channels, self.embed_dim)
                self.g = _conv(dim, in_channels, self.embed_dim)
            if sub_sample:
                self.max_pool = nn.MaxPool3D((1, 2, 2)) if dim == 3 else nn.MaxPool2D((2, 2))
                self.sub_phi = nn.HybridSequential(prefix='')
                self.sub_phi.add(self.phi, self.max_pool)
                self.sub_g = nn.HybridSequential(prefix='')
                self.sub_g.add(self.g, self.max_pool)
            self.W = _conv(dim, self.embed_dim, in_channels)
            if use_bn:
                self.bn = norm_layer(in_channels=in_channels, gamma_initializer='zeros', **(norm_kwargs or {}))
                self.W_bn = nn.HybridSequential(prefix='')
                self.W_bn.add(self.W, self.bn)

    def hybrid_forward(self, F, x):
        if self.embed:
            theta = self.theta(x)
            phi, g = (self.sub_phi(x), self.sub_g(x)) if self.sub_sample else (self.phi(x), self.g(x))
        else:
            theta = phi = g = x
        # (N, C', P) each, P the positions; the transposes ride in batch_dot (cheaper than a transpose op)
        affinity = F.batch_dot(F.reshape(theta, (0, 0, -1)), F.reshape(phi, (0, 0, -1)), transpose_a=True)
        attention = F.softmax(affinity * (self.embed_dim ** -0.5), axis=2)
        y = F.batch_dot(F.reshape(g, (0, 0, -1)), attention, transpose_b=True)
        y = F.reshape_like(y, theta)  # back to theta's (N, C', T, H, W): the full-size positions, never pooled
        return (self.W_bn(y) if self.use_bn else self.W(y)) + x


def build_nonlocal_block(cfg):
    """GluonCV's factory: a NonLocal from a dict of its options (`in_channels`, `nonlocal_type`, ...)."""
    if not isinstance(cfg, dict):
        raise BadInputError(f'build_nonlocal_block takes a dict of NonLocal options, not {type(cfg).__name__}')
    return NonLocal(**cfg)
