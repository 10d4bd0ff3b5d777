"""Pair a torch state_dict with a Gluon net, layer by layer, in definition order.

Both frameworks list parameters in the order the layers were defined, so when an architecture is written to
mirror another, walking both lists together maps every tensor without a hand-written name table. Every pair is
checked: same kind of layer, same element count; a mismatch names both sides.
"""
import collections

import numpy as np

from ..errors import BadInputError

# torch parameter name -> gluon parameter name, per layer kind
_BN = {'weight': 'gamma', 'bias': 'beta', 'running_mean': 'running_mean', 'running_var': 'running_var'}
_SKIP = ('num_batches_tracked',)


def _group(names):
    groups = collections.OrderedDict()
    for name in names:
        layer, _, leaf = name.rpartition('.')
        if leaf not in _SKIP:
            groups.setdefault(layer, []).append(leaf)
    return groups


def torch_to_gluon(state_dict, net):
    """Return gluon structural name -> numpy array for `net` (shapes must be known: run one forward first)."""
    params = net._collect_params_with_prefix()
    src, dst = _group(state_dict), _group(params)
    if len(src) != len(dst):
        raise BadInputError(f'checkpoint has {len(src)} layers with parameters, {type(net).__name__} has '
                            f'{len(dst)}: they are not the same architecture')
    out = collections.OrderedDict()
    for (s_layer, s_leaves), (d_layer, d_leaves) in zip(src.items(), dst.items()):
        is_bn = 'running_mean' in s_leaves
        if is_bn != ('running_mean' in d_leaves) or len(s_leaves) != len(d_leaves):
            raise BadInputError(f'layer {s_layer!r} ({s_leaves}) does not match gluon {d_layer!r} ({d_leaves})')
        for leaf in s_leaves:
            d_name = f'{d_layer}.{_BN[leaf] if is_bn else leaf}'
            if d_name not in params:
                raise BadInputError(f'{s_layer}.{leaf} has no counterpart {d_name} in {type(net).__name__}')
            value, shape = state_dict[f'{s_layer}.{leaf}'], params[d_name].shape
            if value.size != int(np.prod(shape)):
                raise BadInputError(f'{s_layer}.{leaf} has shape {value.shape}, gluon {d_name} wants {shape}')
            out[d_name] = np.ascontiguousarray(value.reshape(shape), dtype=np.float32)  # Linear -> 1x1 conv
    return out


def convert_torch_file(path, net, input_shape=(1, 3, 32, 32)):
    """A torch checkpoint file -> gluon name -> numpy array for the Gluon twin `net` (built, not initialized).

    The net is initialized with zeros only to learn its shapes (one forward of `input_shape`): a random initializer
    would draw from MXNet's global generator, so a first use of a package's weights (which converts them) would
    leave the generator elsewhere than a later use (which reads the cache), and a recipe fine-tuning those weights
    would then initialize its new head differently on a fresh machine (seen: two results from one recipe)."""
    import mxnet as mx
    from .torch_pickle import load_torch_checkpoint
    net.initialize(mx.init.Zero())
    net(mx.nd.zeros(input_shape))
    return torch_to_gluon(load_torch_checkpoint(path), net)
