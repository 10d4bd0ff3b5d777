"""Re-measure a trained checkpoint against the log that made it (`gluonzoo verify NAME`).

The record's `check['log']` maps metric -> tolerance: the checkpoint is evaluated on the split the log's final
record names, with the data its config names, and each metric must be within its tolerance (absolute, in the
log's units) of the logged value. A different machine may flip a few predictions through float rounding; a wrong
checkpoint, data set or preprocessing moves the numbers by far more than the tolerance.
"""
from ..errors import BadInputError


def verify_log(w, ctx=None, path=None):
    """[(metric, logged value, measured value, tolerance, ok)] for record `w`; raises if its log is unusable.
    `path`: the file store.fetch gave for `w`, when the caller has it (fetch hashes the whole file)."""
    import mxnet as mx
    from ..logs import check_weights
    from ..registry import get_model
    from .config import TrainConfig
    from .datasets import load_task
    from .. import standin
    from ..logs import read_log
    from ..store import fetch
    # a local stand-in (gluonzoo.standin) that get_model loads is measured against its own rerun's log
    note = standin.in_use(w, path or fetch(w))
    log = read_log(note['log']) if note else check_weights(w)
    wanted = dict(w.check.get('log', {}))
    if not wanted:
        raise BadInputError(f'{w.name} names a log but its record has no check["log"] metrics to re-measure')
    cfg = TrainConfig.from_dict(log.config)
    task = load_task(cfg)
    if log.final.get('split') != task.eval_split:
        raise BadInputError(f'{log.path} measured its final metrics on {log.final.get("split")!r}; the dataset '
                            f'{cfg.dataset!r} evaluates {task.eval_split!r}')
    ctx = ctx or mx.cpu()
    net = get_model(w.name, pretrained=True, ctx=ctx)
    if w.input_shape and len(w.input_shape) == 4:  # pictures of one size: the fused graph, checked on a random one
        import numpy as np
        from ..optimizing import optimize
        optimize(net, mx.nd.array(np.random.RandomState(0).uniform(size=w.input_shape), ctx=ctx))
    else:  # token ids and friends: several inputs that a random array does not stand for
        net.hybridize()
    got = task.evaluate(net, ctx)
    out = []
    for metric, tol in sorted(wanted.items()):
        if metric not in log.final['metrics'] or metric not in got:
            raise BadInputError(f'{w.name}: metric {metric!r} is not in both the log and the evaluation')
        logged = log.final['metrics'][metric]
        out.append((metric, logged, got[metric], tol, abs(got[metric] - logged) <= tol))
    return log, out
