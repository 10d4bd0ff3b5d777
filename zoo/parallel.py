"""Data parallelism helpers of GluonCV's `utils.parallel` (its segmentation scripts use them): a model and a
criterion called once per device on the slices of a batch, optionally in threads (`sync=True`), a threaded
backward, and a small worker pool for `Parallelizable` units of work.

    model = DataParallelModel(net, ctx_list=[mx.gpu(0), mx.gpu(1)])
    criterion = DataParallelCriterion(loss, ctx_list=[mx.gpu(0), mx.gpu(1)])
    with autograd.record():
        outputs = model(data)                 # one tuple of outputs per device
        losses = criterion(outputs, target)   # one loss per device
    parallel_backward(losses)

>>> import mxnet as mx
>>> net = mx.gluon.nn.Dense(2, in_units=3); net.initialize()
>>> [o[0].shape for o in DataParallelModel(net, [mx.cpu(0), mx.cpu(1)])(mx.nd.ones((5, 3)))]
[(3, 2), (2, 2)]
"""
import queue
import threading


def _as_tuple(out):
    import mxnet as mx
    if isinstance(out, mx.nd.NDArray):
        return (out,)
    return tuple(out) if isinstance(out, list) and out else out


def _split(obj, ctx_list):
    """`obj` cut into one piece per device: NDArrays along axis 0 (uneven allowed), containers element-wise,
    anything else repeated."""
    import mxnet as mx
    if isinstance(obj, mx.nd.NDArray):
        return mx.gluon.utils.split_and_load(obj, ctx_list, 0, even_split=False)
    if isinstance(obj, tuple) and obj:
        return list(zip(*[_split(o, ctx_list) for o in obj]))
    if isinstance(obj, list) and obj:
        return [list(p) for p in zip(*[_split(o, ctx_list) for o in obj])]
    if isinstance(obj, dict) and obj:
        return [dict(p) for p in zip(*[_split(item, ctx_list) for item in obj.items()])]
    return [obj for _ in ctx_list]


def _split_args(args, kwargs, ctx_list):
    args = _split(tuple(args), ctx_list) if args else []
    kwargs = _split(kwargs, ctx_list) if kwargs else []
    n = max(len(args), len(kwargs))
    return tuple(list(args) + [()] * (n - len(args))), tuple(list(kwargs) + [{}] * (n - len(kwargs)))


def _run_all(calls, sync):
    """[call() for call in calls], in one thread each when `sync` (autograd's recording and training mode carried
    into the threads); the first exception is raised."""
    from mxnet import autograd
    if not sync:
        return tuple(c() for c in calls)
    recording, training = autograd.is_recording(), bool(autograd.is_training())
    results = [None] * len(calls)

    def work(i, call):
        try:
            if recording:
                with autograd.record(training):
                    out = call()
            else:
                out = call()
            for o in (out if isinstance(out, tuple) else (out,)):
                o.wait_to_read()
            results[i] = out
        except Exception as e:  # noqa: BLE001 - handed back to the caller's thread
            results[i] = e
    threads = [threading.Thread(target=work, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        if isinstance(r, Exception):
            raise r
    return tuple(results)


class DataParallelModel:
    """`module` (its parameters moved to every device of `ctx_list`) called on each device's slice of the
    inputs: a tuple, one tuple of outputs per device. Without `ctx_list` it is the module's own call."""

    def __init__(self, module, ctx_list=None, sync=False):
        module.collect_params().reset_ctx(ctx=ctx_list)
        self.module, self.ctx_list, self.sync = module, ctx_list, sync

    def __call__(self, *inputs, **kwargs):
        if not self.ctx_list:
            return self.module(*inputs, **kwargs)
        args, kws = _split_args(inputs, kwargs, self.ctx_list)
        calls = [lambda a=a, k=k: _as_tuple(self.module(*a, **k)) for a, k in zip(args, kws)]
        return _run_all(calls, self.sync)

    def __repr__(self):
        return 'DataParallel:\n module = {' + repr(self.module) + '}'


class DataParallelCriterion:
    """`module(*outputs_i, *targets_i)` on each device: `inputs` are DataParallelModel's per-device outputs, the
    targets are split like its inputs. A tuple of losses, one per device."""

    def __init__(self, module, ctx_list=None, sync=False):
        self.module, self.ctx_list, self.sync = module, ctx_list, sync

    def __call__(self, inputs, *targets, **kwargs):
        if not self.ctx_list:
            return self.module(inputs, *targets, **kwargs)
        targets, kws = _split_args(targets, kwargs, self.ctx_list)
        if len(self.ctx_list) == 1:
            return _as_tuple(self.module(*(tuple(inputs[0]) + tuple(targets[0])), **kws[0]))
        if len(inputs) != len(self.ctx_list):
            raise ValueError(f'{len(inputs)} per-device outputs for {len(self.ctx_list)} devices')
        calls = [lambda i=i, t=t, k=k: self.module(*(tuple(i) + tuple(t)), **k)
                 for i, t, k in zip(inputs, targets, kws)]
        return _run_all(calls, self.sync)


def parallel_backward(losses, sync=True):
    """Backward of each device's loss, in one thread each when `sync`."""
    from mxnet import autograd
    if not sync:
        for loss in losses:
            loss.backward()
        return
    threads = [threading.Thread(target=autograd.backward, args=(loss,)) for loss in losses]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


class Parallelizable:
    """A unit of work for Parallel: subclass it and define forward_backward(x)."""

    def forward_backward(self, x):
        raise NotImplementedError(f'{type(self).__name__} must define forward_backward(x)')


class Parallel:
    """`num_workers` threads running `parallizable.forward_backward` on what `put` hands them; `get` returns the
    results as they finish (a worker's exception is raised by `get`). The first `num_workers` puts run in the
    caller's thread with `serial_init` (so deferred parameter shapes settle once)."""

    class _Stop:
        pass

    class _Failed:
        """A worker's exception, raised again by get() (else the worker dies and get() waits forever)."""

        def __init__(self, error):
            self.error = error

    def __init__(self, num_workers, parallizable, serial_init=True):
        self._in, self._out = queue.Queue(), queue.Queue()
        self._parallizable, self._serial = parallizable, num_workers if serial_init else 0
        self._threads = [threading.Thread(target=self._work, daemon=True) for _ in range(num_workers)]
        for t in self._threads:
            t.start()

    def _work(self):
        while True:
            x = self._in.get()
            if isinstance(x, Parallel._Stop):
                return
            try:
                self._out.put(self._parallizable.forward_backward(x))
            except BaseException as e:  # noqa: BLE001 -- handed to the caller: get() raises it
                self._out.put(Parallel._Failed(e))

    def put(self, x):
        if self._serial > 0 or not self._threads:
            self._serial -= 1
            self._out.put(self._parallizable.forward_backward(x))
        else:
            self._in.put(x)

    def get(self):
        out = self._out.get()
        if isinstance(out, Parallel._Failed):
            raise out.error
        return out

    def __del__(self):
        for t in getattr(self, '_threads', ()):
            if t.is_alive():
                self._in.put(Parallel._Stop())
        for t in getattr(self, '_threads', ()):
            t.join(10)
