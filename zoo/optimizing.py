"""Fused inference: `optimize(net, x)` hands a Gluon net to MXNet's oneDNN subgraph backend.

    >>> net = gz.get_model('mobilenetv2_1.0', pretrained=True)      # doctest: +SKIP
    >>> gz.optimize(net, mx.nd.zeros((1, 3, 224, 224)))              # doctest: +SKIP

The backend fuses conv + BatchNorm + activation (and Dense + activation, ...) into oneDNN primitives: MobileNetV2
runs several times faster than `hybridize()` on a CPU, with outputs equal to float rounding. It is not always right:
MXNet 1.9.1 fuses a pre-activation residual's conv + sum wrongly (CIFAR ResNet v2: 20-80% off) and cannot partition
some nets at all (SE-ResNet, HRNet, NASNet: shape errors), so `optimize` checks the fused outputs against the plain
net's on the example and keeps the plain path where they differ by more than float rounding: RTOL, or for deep nets
that amplify rounding, ROUNDING times what one ulp of noise on the input does to the plain net's outputs (fused
graphs measure 0.5-1.6 of it, the wrong fusion 10^6). tests/test_registry_models.py checks every model. The
net is changed in place and returned; training must not use it (the fused graph has no backward), so `gluonzoo
train` keeps the plain path.

Shapes: the graph is partitioned once, for any input shape; `static_shape=True` (the default) also plans memory for
the example's shape, and an input of another shape re-plans it (correct, slower). Callers whose shapes change on
every call (one picture at its own size) pass `static_shape=False`.
"""
import logging
import warnings

from .errors import BadInputError

log = logging.getLogger(__name__)

BACKEND = 'MKLDNN'  # MXNet 1.9's name for the oneDNN subgraph backend
RTOL = 1e-5  # fused vs plain, relative to the largest |output|: float rounding is ~1e-6, a wrong fusion 1e-1 or more
ROUNDING = 10  # or this many times the plain net's own change under one ulp of input noise, whichever is larger


def backend_available(ctx):
    """Whether the oneDNN backend can run on `ctx`: a CPU context of an MXNet built with it (not a GPU build)."""
    import mxnet as mx
    return ctx.device_type == 'cpu' and mx.runtime.Features().is_enabled(BACKEND)


def optimize(net, *example_inputs, static_shape=True, check=True):
    """Hybridize `net` through the oneDNN subgraph backend for inference on inputs like `example_inputs` (one NDArray,
    or one per input of a multi-input net; a single list/tuple is unpacked); returns `net`, changed in place.

    With `check` (the default) the plain net is run on the example (and on it nudged by one ulp), then the fused
    one, whose outputs must equal the plain ones within float rounding (see RTOL, ROUNDING): pass a real input
    (all-zero pictures can hide a wrong fusion). Where the backend is absent (a GPU build or a GPU context) the net
    is hybridized with `static_alloc=True` and one log line says so; a net the backend cannot take (it raises, or
    its outputs differ) gets the same plain path and one warning. `check=False` skips the plain runs and the
    comparison, and runs the fused net once (a failure of the partition or of that run still means the plain path;
    one on a later run shows to the caller): for callers that compare outputs themselves. Calling it again on an
    optimized net does nothing, so entry points may call it on every batch.
    """
    import mxnet as mx
    if len(example_inputs) == 1 and isinstance(example_inputs[0], (list, tuple)):
        example_inputs = tuple(example_inputs[0])
    if not example_inputs or not all(isinstance(x, mx.nd.NDArray) for x in example_inputs):
        raise BadInputError('optimize(net, *example_inputs) needs the NDArray(s) the net is called with, e.g. '
                            'optimize(net, mx.nd.zeros((1, 3, 224, 224)))')
    name = getattr(getattr(net, 'weights', None), 'name', None) or type(net).__name__
    done = getattr(net, '_gz_optimized', None)
    # hybridize() by the user afterwards drops the backend but not our mark: only a live partition counts as done
    if done == (BACKEND, static_shape) and getattr(net, '_backend', None) == BACKEND and net._active:
        return net
    if done == ('plain', static_shape):
        return net
    plain = dict(static_alloc=True, static_shape=static_shape)
    if not isinstance(net, mx.gluon.HybridBlock):
        warnings.warn(f'{name} is a {type(net).__name__}, not a HybridBlock: the oneDNN backend cannot take it; '
                      'its hybrid children are hybridized instead', stacklevel=2)
        net.hybridize(**plain)
        net._gz_optimized = ('plain', static_shape)
        return net
    ctx = example_inputs[0].context
    deferred = _check_initialized(net, ctx)
    if not backend_available(ctx):
        log.info('%s: no oneDNN backend for %s in this MXNet build: hybridize(static_alloc=True) instead', name, ctx)
        net.hybridize(**plain)
        net._gz_optimized = ('plain', static_shape)
        return net
    if is_optimized(net):
        net.hybridize(**plain)  # optimized for another static_shape: the reference must come from the plain graph
    if check or deferred:
        want = [o.asnumpy() for o in _flat(net(*example_inputs))]  # copied: a static_alloc graph reuses its outputs
    if check:
        noise, _ = _error(want, _flat(net(*nudged(example_inputs))))
        tol = max(RTOL, ROUNDING * noise) if noise < float('inf') else RTOL
    # static_shape fails on the second run of some fused graphs (resnet18_v1: "can't generate TBlob for MKLDNN
    # data") that run without it: try that before the plain path
    for fixed in dict.fromkeys([static_shape, False]):
        try:
            net.optimize_for(*example_inputs, backend=BACKEND, clear=True, static_alloc=True, static_shape=fixed)
            for _ in range(2 if check else 1):  # some failures only show when the graph runs, some on its second run
                got = _flat(net(*example_inputs))
                why = _differs(want, got, tol) if check else _wait(got)
                if why:
                    break
        except mx.base.MXNetError as e:
            why = f'it fails: {_first_line(e)}'
        if not why:
            net._gz_optimized = (BACKEND, static_shape)
            return net
        if not why.startswith('it fails'):
            break  # a wrong fusion is wrong at any static_shape
    warnings.warn(f'{name}: the oneDNN backend cannot take it ({why}): plain hybridized path', stacklevel=2)
    net.hybridize(**plain)  # clears the partitioned graph and the backend
    net._gz_optimized = ('plain', static_shape)
    return net


def is_optimized(net):
    """Whether `net` currently runs through the oneDNN backend."""
    return getattr(net, '_backend', None) == BACKEND and getattr(net, '_active', False)


def _check_initialized(net, ctx):
    """Whether some parameter waits for its shape (the first run settles it); refuse a net never initialized."""
    import mxnet as mx
    deferred = False
    for p in net.collect_params().values():
        try:
            p.data(ctx)
        except mx.gluon.parameter.DeferredInitializationError:
            deferred = True
        except RuntimeError as e:
            raise BadInputError(f'parameter {p.name} cannot be used on {ctx} ({_first_line(e)}): call net.initialize() '
                                'or load its weights (on the inputs\' context) before optimize()') from None
    return deferred


def nudged(inputs, seed=0):
    """`inputs` with one ulp of relative noise on each float value (integer inputs, e.g. token ids, as they are):
    what float32 rounding alone does to a net's input."""
    import mxnet as mx
    import numpy as np
    rng = np.random.RandomState(seed)
    return [mx.nd.array(x.asnumpy() * (1 + np.finfo(np.float32).eps * rng.standard_normal(x.shape)), ctx=x.context,
                        dtype=x.dtype) if np.issubdtype(x.dtype, np.floating) else x for x in inputs]


def _error(want, got):
    """(largest relative error over the outputs, or inf, and why they cannot be compared or None)."""
    import numpy as np
    if len(want) != len(got):
        return float('inf'), f'{len(got)} outputs instead of {len(want)}'
    worst = 0.0
    for i, (a, b) in enumerate(zip(want, got)):
        a, b = a.astype('float64'), b.asnumpy().astype('float64')
        if a.shape != b.shape:
            return float('inf'), f'output {i} has shape {b.shape} instead of {a.shape}'
        both_nan = np.isnan(a) & np.isnan(b)
        a, b = np.where(both_nan, 0, a), np.where(both_nan, 0, b)
        err = np.abs(a - b).max(initial=0) / max(np.abs(a).max(initial=0), 1e-30)
        worst = max(worst, err if err == err else float('inf'))  # a nan on one side only
    return worst, None


def _differs(want, got, tol):
    """Why the fused outputs `got` are not the plain ones `want` (None when equal within `tol`)."""
    err, problem = _error(want, got)
    return problem or (None if err <= tol else
                       f'its outputs differ from the plain net\'s by {err:.1e} of the largest, over {tol:.1e}')


def _wait(outs):
    for o in outs:
        o.wait_to_read()


def _flat(out):
    return [y for o in out for y in _flat(o)] if isinstance(out, (list, tuple)) else [out]


def _first_line(e):
    """The line of an error that says what went wrong (MXNet's messages may start with a C++ traceback)."""
    lines = [line.strip() for line in str(e).splitlines() if line.strip()] or [type(e).__name__]
    return (lines[-1] if lines[0].startswith('Traceback') else lines[0])[:200]
