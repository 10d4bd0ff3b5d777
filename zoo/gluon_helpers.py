"""Training-loop helpers of GluonCV's `utils`, domain-free: batches split across devices (`split_data`,
`split_and_load`, with a `multiplier` the slice sizes keep), one `seed` for Python, numpy and MXNet, a
`TrainingHistory` of per-epoch numbers with its plot, and block walkers (`recursive_visit`, `set_lr_mult`,
`freeze_bn`, `purge_model_nan`).

>>> import mxnet as mx
>>> [s.shape[0] for s in split_data(mx.nd.zeros((10, 2)), 3, even_split=False)]
[3, 3, 4]
"""
import os
import random
import re

import numpy as np


def split_data(data, num_slice, batch_axis=0, even_split=True, multiplier=1):
    """`num_slice` NDArrays cut from `data` along `batch_axis`, every slice but the last `multiplier`-aligned;
    with `even_split` a size `num_slice` does not divide is a ValueError, without it fewer items than slices
    give one slice an item."""
    import mxnet as mx
    size = data.shape[batch_axis]
    if even_split and size % num_slice:
        raise ValueError(f'data of shape {data.shape} cannot be split evenly into {num_slice} slices along axis '
                         f'{batch_axis}: use a batch size that is a multiple of {num_slice}, or even_split=False')
    step = (size // multiplier // num_slice) * multiplier
    if not even_split and size < num_slice:
        step, num_slice = 1, size
    bounds = [(i * step, (i + 1) * step if i < num_slice - 1 else size) for i in range(num_slice)]
    if batch_axis == 0:
        return [data[a:b] for a, b in bounds]
    return [mx.nd.slice_axis(data, axis=batch_axis, begin=a, end=b) for a, b in bounds]


def split_and_load(data, ctx_list, batch_axis=0, even_split=True, multiplier=1):
    """split_data(data, len(ctx_list), ...) with slice i copied to ctx_list[i] (numpy data becomes an NDArray)."""
    import mxnet as mx
    if not isinstance(data, mx.nd.NDArray):
        data = mx.nd.array(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    return [s.as_in_context(c) for s, c in
            zip(split_data(data, len(ctx_list), batch_axis, even_split, multiplier), ctx_list)]


def seed(a=None):
    """Seed Python's `random`, numpy's and MXNet's generators with `a` (None: fresh entropy for the first two;
    MXNet then gets a seed drawn from numpy)."""
    import mxnet as mx
    random.seed(a)
    np.random.seed(a)
    mx.random.seed(a if a is not None else int(np.random.randint(2 ** 31 - 1)))


class TrainingHistory:
    """Per-epoch values of named series (`labels`): `update([v1, v2, ...])` once an epoch, `plot(...)` draws them
    with matplotlib (to `save_path`, or on screen)."""

    def __init__(self, labels):
        self.labels, self.l, self.epochs = list(labels), len(labels), 0
        self.history = {name: [] for name in self.labels}

    def update(self, values):
        if len(values) != self.l:
            raise ValueError(f'TrainingHistory.update takes {self.l} values ({", ".join(self.labels)}), '
                             f'got {len(values)}')
        for name, v in zip(self.labels, values):
            self.history[name].append(v)
        self.epochs += 1

    def plot(self, labels=None, colors=None, y_lim=(0, 1), save_path=None, legend_loc='upper right'):
        import matplotlib.pyplot as plt
        labels = self.labels if labels is None else list(labels)
        colors = [f'C{i}' for i in range(len(labels))] if colors is None else list(colors)
        if len(colors) != len(labels):
            raise ValueError(f'{len(colors)} colors for {len(labels)} labels')
        unknown = [n for n in labels if n not in self.history]
        if unknown:
            raise ValueError(f'no series {unknown[0]!r}; the history has {", ".join(self.labels)}')
        plt.ylim(y_lim)
        lines = [plt.plot(range(self.epochs), self.history[n], c, label=n)[0] for n, c in zip(labels, colors)]
        plt.legend(lines, labels, loc=legend_loc)
        if save_path is None:
            plt.show()
        else:
            plt.savefig(os.path.expanduser(save_path))


def recursive_visit(net, callback, **kwargs):
    """callback(block, **kwargs) on `net` and every block below it, parents first."""
    callback(net, **kwargs)
    for child in net._children.values():
        recursive_visit(child, callback, **kwargs)


def set_lr_mult(net, pattern, mult=1.0, verbose=False):
    """Set `lr_mult` of the parameters whose names match the regex `pattern`; returns `net`."""
    rx = re.compile(pattern)
    for name, p in net.collect_params().items():
        if rx.match(name):
            p.lr_mult = mult
            if verbose:
                print(f'Set lr_mult of {p.name} to {mult}')
    return net


def _freeze(block, use_global_stats=True):
    from mxnet.gluon.nn import BatchNorm
    if isinstance(block, BatchNorm):
        block._kwargs['use_global_stats'] = use_global_stats


def freeze_bn(net, use_global_stats=True):
    """Make every BatchNorm below `net` use (or not) its running statistics in training too; returns `net`."""
    recursive_visit(net, _freeze, use_global_stats=use_global_stats)
    return net


def purge_model_nan(net, nan=0.0, posinf=0.0, neginf=0.0, verbose=False):
    """Replace NaN and +/-inf in every initialized parameter of `net`, in place; returns `net`."""
    import mxnet as mx
    for name, p in net.collect_params().items():
        for arr in (p.list_data() if p._data is not None else []):
            a = arr.asnumpy()
            if not np.isfinite(a).all():
                if verbose:
                    print(f'{name}: {int((~np.isfinite(a)).sum())} non-finite values replaced')
                arr[:] = mx.nd.array(np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf), dtype=arr.dtype)
    return net


def import_dummy_module(code, name):
    """A new module `name` whose namespace is what running the source `code` in it defines."""
    import types
    module = types.ModuleType(name)
    exec(compile(code, f'<{name}>', 'exec'), module.__dict__)  # noqa: S102 - the caller's own code, by contract
    return module
