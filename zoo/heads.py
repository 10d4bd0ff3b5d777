"""Swap the output layer of a classification head for one with other classes: what every model's `reset_class`
does to its own head (a Gluon Dense or 1x1 Conv2D, or the last of those in a HybridSequential head).

The new layer is built like the old one (kernel, bias, flatten, parameter name prefix, so exported graphs keep
their node names), initialized at once on the old layer's context with Gluon's default initializer, and the rows
of classes kept through `reuse_weights` are copied from the old layer (GluonCV's detection `reset_class` API).
"""
from .errors import BadInputError


def class_names(classes):
    """`classes` as a list of distinct, non-empty class names; a count gives placeholders `class0`, `class1`, ...
    (what a detector built for N classes without names calls them).

    >>> class_names(2), class_names(('cat', 'dog'))
    (['class0', 'class1'], ['cat', 'dog'])
    """
    if isinstance(classes, int) and not isinstance(classes, bool) and classes > 0:
        return [f'class{i}' for i in range(classes)]
    if isinstance(classes, str) or not isinstance(classes, (list, tuple)) or not classes \
            or not all(isinstance(c, str) and c for c in classes):
        raise ValueError(f'classes must be a non-empty list of class names (or a positive count), not {classes!r}')
    twice = sorted({c for c in classes if list(classes).count(c) > 1})
    if twice:
        raise ValueError(f'classes names {twice} more than once: class names must be distinct')
    return list(classes)


def _output_layer(owner, attr):
    """(parent block, child key, layer): the last Dense/Conv2D of `owner.<attr>` (itself, or inside a Sequential)."""
    from mxnet.gluon import nn
    head = getattr(owner, attr, None)
    if isinstance(head, (nn.Dense, nn.Conv2D)):
        return owner, attr, head
    if isinstance(head, (nn.HybridSequential, nn.Sequential)):
        for key, child in reversed(list(head._children.items())):
            if isinstance(child, (nn.Dense, nn.Conv2D)):
                return head, key, child
    raise BadInputError(f'{type(owner).__name__}.{attr} is not a Dense/Conv2D head (or a Sequential ending in one)')


def _like(layer, units):
    """A fresh layer configured as `layer` but with `units` outputs and the same parameter names."""
    from mxnet.gluon import nn
    in_units = layer.weight.shape[1] if layer.weight.shape and len(layer.weight.shape) > 1 else 0
    use_bias = layer.bias is not None
    act = layer.act._act_type if layer.act is not None else None
    if isinstance(layer, nn.Dense):
        return nn.Dense(units, activation=act, use_bias=use_bias, flatten=layer._flatten, in_units=in_units,
                        dtype=layer.weight.dtype, prefix=layer.prefix)
    k = layer._kwargs
    return nn.Conv2D(units, k['kernel'], k['stride'], k['pad'], k['dilate'], k['num_group'], k['layout'],
                     activation=act, use_bias=use_bias, in_channels=in_units, prefix=layer.prefix)


def _index(key, names, count, what):
    if isinstance(key, int) and not isinstance(key, bool):
        if 0 <= key < count:
            return key
        raise ValueError(f'reuse_weights: {what} class index {key} is not in [0, {count})')
    if names and key in names:
        return names.index(key)
    raise ValueError(f'reuse_weights: {what} class {key!r} is not one of the {what} classes '
                     f'{list(names)[:8] if names else "(unnamed: give indices)"}')


def reuse_pairs(reuse_weights, new_names, new_count, old_names, old_count):
    """[(new index, old index)] of a `reuse_weights` mapping {new class: old class}, by name or index; a list of
    names keeps each of them from the old classes under the same name."""
    if not reuse_weights:
        return []
    if isinstance(reuse_weights, (list, tuple)):
        reuse_weights = {k: k for k in reuse_weights}
    if not isinstance(reuse_weights, dict):
        raise ValueError(f'reuse_weights must be a dict {{new class: old class}} or a list of class names, not '
                         f'{reuse_weights!r}')
    return [(_index(n, new_names, new_count, 'new'), _index(o, old_names, old_count, 'old'))
            for n, o in reuse_weights.items()]


def reset_head(owner, attr, classes, reuse_weights=None, old_classes=None):
    """Replace the output layer of `owner.<attr>` by one with `classes` outputs (a count or a list of names);
    return the new class names (None for a count). `old_classes` names the old outputs for `reuse_weights`."""
    names = None if isinstance(classes, int) else list(classes)
    count = classes if names is None else len(names)
    if isinstance(classes, bool) or count < 1:
        raise ValueError(f'classes must be a positive count or a non-empty list of names, not {classes!r}')
    parent, key, old = _output_layer(owner, attr)
    old_count = old.weight.shape[0]
    pairs = reuse_pairs(reuse_weights, names, count, list(old_classes) if old_classes else None, old_count)
    try:  # a net initialized but not yet run has its weights' context in its deferred init
        ctx = old.weight.list_ctx()[0]
    except RuntimeError:
        ctx = None
    if pairs and old.weight._data is None:
        raise ValueError('reuse_weights needs the old head\'s weights: load them or run the net once first')
    saved = {n: p.data().copy() for n, p in (('weight', old.weight), ('bias', old.bias)) if p is not None} \
        if pairs else {}
    new = _like(old, count)
    if parent is owner:
        setattr(owner, attr, new)
    else:
        parent.register_child(new, key)
    if ctx is not None:
        new.initialize(ctx=ctx)
        for n, data in saved.items():  # the old weights were there, so the new layer knows its input size
            value = getattr(new, n).data().copy()
            for i, j in pairs:
                value[i] = data[j]
            getattr(new, n).set_data(value)
    if getattr(owner, '_active', False):  # a hybridized net: the cached graph has the old layer in it
        owner.hybridize(True, **dict(owner._flags))
    return names
