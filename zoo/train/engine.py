"""The one training loop: Gluon Trainer on a hybridized net, per-batch LR schedule, gradient clipping, evaluation
and an atomic checkpoint every epoch, a provenance log, and MXNet's distributed KVStore when asked.

Reproducibility (same config and seed -> the same bytes): every source of randomness is derived from the seed and
the position, not from what ran before. The data order and augmentation come from RandomState([seed, epoch, ...])
(see data.py); MXNet, numpy and Python generators are reseeded from (seed, epoch) at each epoch start; data is
prepared in the training thread (no loader workers to reorder it); and the recipe sets MXNET_ENFORCE_DETERMINISM=1
before MXNet is imported (see `deterministic_env`). Bitwise equality holds on one machine for one
OMP_NUM_THREADS: a different thread count changes float summation order.
"""
import math
import os
import random
import sys
import time

import numpy as np

from . import checkpoint as ckpt
from ..logs import LogWriter, header
from ..errors import CheckpointError

#: set before `import mxnet` (recipes call deterministic_env() first): deterministic kernels, no cuDNN autotune
DETERMINISTIC_ENV = {'MXNET_ENFORCE_DETERMINISM': '1', 'MXNET_CUDNN_AUTOTUNE_DEFAULT': '0'}


def deterministic_env():
    """Put DETERMINISTIC_ENV into os.environ unless the caller chose otherwise; must run before `import mxnet`."""
    for k, v in DETERMINISTIC_ENV.items():
        os.environ.setdefault(k, v)


def _derive(seed, epoch):
    return (int(seed) * 1000003 + int(epoch) * 7919) % (2 ** 31 - 1)


def seed_all(seed):
    import mxnet as mx
    mx.random.seed(seed)
    np.random.seed(seed)
    random.seed(seed)


def lr_at(cfg, t):
    """Learning rate at fractional epoch t: linear warmup, then step / cosine / constant / poly (GluonCV's
    LRScheduler 'poly' with its segmentation scripts' power 0.9: lr (1 - progress) ** 0.9)."""
    if cfg.warmup_epochs and t < cfg.warmup_epochs:
        return cfg.lr * t / cfg.warmup_epochs
    if cfg.lr_mode == 'cosine':
        span = max(cfg.epochs - cfg.warmup_epochs, 1e-8)
        return cfg.lr * 0.5 * (1 + math.cos(math.pi * min((t - cfg.warmup_epochs) / span, 1.0)))
    if cfg.lr_mode == 'step':
        return cfg.lr * cfg.lr_factor ** sum(t >= s for s in cfg.lr_steps)
    if cfg.lr_mode == 'poly':
        span = max(cfg.epochs - cfg.warmup_epochs, 1e-8)
        return cfg.lr * (1 - min((t - cfg.warmup_epochs) / span, 1.0)) ** 0.9
    return cfg.lr


def _context(cfg):
    import mxnet as mx
    if not cfg.gpus:
        return mx.cpu()
    ids = [int(g) for g in cfg.gpus.split(',') if g]
    if len(ids) != 1:
        raise ValueError('one GPU per process: run several processes with scripts/launch.py for more')
    return mx.gpu(ids[0])


def build_net(cfg, ctx, extra=None):
    """The registered model the config names, initialized (a pretrained one keeps its weights, new head aside).

    `extra`: builder kwargs the data decides (a language model's vocab_size), under the config's own."""
    import mxnet as mx
    from ..registry import get_model, initialize_unset
    kwargs = dict(extra or {}, **cfg.model_kwargs)
    net = get_model(cfg.model, pretrained=cfg.pretrained, classes=cfg.classes, ctx=ctx, **kwargs)
    if not cfg.pretrained:
        initialize_unset(net, ctx)  # the draws get_model made before issue 26: the recipes' logs stay reproducible
        init = {'xavier': mx.init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2),
                'uniform': mx.init.Uniform()}.get(cfg.init)
        if init is None:
            raise ValueError(f"init {cfg.init!r} is not 'xavier' or 'uniform'")
        net.initialize(init, ctx=ctx, force_reinit=True)
    return net


class _AuxSync:
    """Averages the non-trained state (BatchNorm running statistics) over dist workers, so all end identical.

    One pushpull a key, as the Trainer sums gradients: with a separate push and pull, about 1 run in 8 ended with
    the first BatchNorm layers' statistics different from the other runs' (both workers alike), so MXNet 1.9.1's
    server answered some pulls with another sum than the one just merged; 40 of 40 runs agreed with pushpull."""
    KEY0 = 1 << 20

    def __init__(self, kv, net):
        self.kv = kv
        self.params = [p for p in net.collect_params().values() if p.grad_req == 'null']
        for i, p in enumerate(self.params):
            kv.init(self.KEY0 + i, p.data())

    def __call__(self):
        for i, p in enumerate(self.params):
            self.kv.pushpull(self.KEY0 + i, p.data())
            p.set_data(p.data() / self.kv.num_workers)


def _broadcast_weights(trainer):
    """Give every dist worker rank 0's weights before the first gradient allreduce, and wait until they have them.

    MXNet 1.9.1's Trainer broadcasts lazily, inside the first allreduce_grads, under the same kvstore keys the
    gradients then use, and with update_on_kvstore=False the server's value of a key becomes the first summed
    gradient. Rank 0's broadcast pull writes into its weight array, so it waits behind the first backward (which
    reads that array) and can reach the server after both workers pushed that key's first gradient: rank 0 then
    starts from a gradient sum instead of the weight (seen: one conv weight, about 1 run in 8 on 2 loaded cores).
    So the engine makes the Trainer's own lazy calls itself, at the same point, and waits for the pulls before any
    gradient is pushed. (Making them before the first backward instead crashed the server with 'init 4 first'.)
    A no-op once the kvstore is initialized.
    """
    import mxnet as mx
    if trainer._kv_initialized and not trainer._params_to_init:
        return
    if not trainer._kv_initialized:
        trainer._init_kvstore()
    trainer._init_params()
    mx.nd.waitall()


def precheck(cfg, lead=True):
    """The checkpoint a run of `cfg` resumes from (None for a fresh run), refusing what cannot be continued:
    --resume without a checkpoint, a corrupt one or one made by another config, or a fresh run into an --out that
    already holds checkpoints. Cheap: recipes call it before loading any data."""
    found = ckpt.latest(cfg.out)
    if cfg.resume and found is None:
        raise CheckpointError(f'--resume: there is no checkpoint (epoch-NNNN.ckpt) in {cfg.out} to continue from')
    if not cfg.resume and found is not None and lead:
        raise CheckpointError(f'{cfg.out} already holds checkpoints ({os.path.basename(found)}): pass --resume to '
                              'continue that run, or choose another --out')
    if cfg.resume:
        ckpt.check_config(found, ckpt.read(found)[0], cfg.fingerprint())
    return found


def fit(cfg, task, net=None, argv=None):
    """Train `task` (see tasks.py for the interface) with `cfg`; return the final record (and weights path).

    Writes <out>/epoch-NNNN.ckpt each epoch and <out>/<arch>-<sha1[:8]>.params at the end; the log goes to
    cfg.log (default <out>/train.jsonl). With cfg.resume it continues from the latest checkpoint in <out>, which
    must exist and fit; without it, an <out> that already holds checkpoints is refused.
    """
    import mxnet as mx
    from mxnet import gluon

    ctx = _context(cfg)
    kv = mx.kv.create(cfg.kvstore) if cfg.kvstore.startswith('dist') else None
    rank, workers = (kv.rank, kv.num_workers) if kv else (0, 1)
    lead = rank == 0

    found = precheck(cfg, lead)

    seed_all(cfg.seed)
    net = net or build_net(cfg, ctx, task.model_kwargs() if hasattr(task, 'model_kwargs') else None)
    task.settle(net, ctx)  # one forward pass: deferred shapes become real before checkpoints or kvstore see them
    if cfg.hybridize:
        net.hybridize(static_alloc=True, static_shape=True)
    opt = {'learning_rate': cfg.lr, 'wd': cfg.wd}
    if cfg.optimizer in ('sgd', 'nag'):
        opt['momentum'] = cfg.momentum
    # update_on_kvstore=False: workers update locally from the summed gradients, so each holds its optimizer
    # state and can checkpoint it (states on the servers cannot be saved in dist mode). A dist Trainer gets the
    # trained parameters only: it would also broadcast worker 0's BatchNorm running statistics at its first step,
    # which _AuxSync owns (and then a resumed run would see that broadcast once more than an uninterrupted one).
    params = net.collect_params()
    if kv:
        params = {k: p for k, p in params.items() if p.grad_req != 'null'}
    trainer = gluon.Trainer(params, cfg.optimizer, opt, kvstore=kv, update_on_kvstore=False if kv else None)
    aux_sync = _AuxSync(kv, net) if kv and workers > 1 else None

    log_path = cfg.log or os.path.join(cfg.out, 'train.jsonl')
    log = LogWriter(log_path) if lead else None
    start, history = 0, []
    if cfg.resume:
        meta = ckpt.restore(found, net, trainer, cfg.fingerprint(), ctx)
        start, history = meta['next']['epoch'], meta['history']
        head = meta['header']
        if log:
            log.restart([head] + history + [{'type': 'resume', 'after_epoch': start, 'checkpoint': found,
                                             'command': header(cfg.to_dict(), {}, argv)['command'],
                                             'time': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}])
    else:
        head = header(cfg.to_dict(), task.dataset_info(), argv)
        if log:
            log.restart([head])

    nb = task.num_batches(cfg.batch_size, workers)
    if nb < 1:
        raise ValueError(f'{len(task.train)} training samples give no full batch of {cfg.batch_size} '
                         f'x {workers} worker(s): lower batch_size')
    params = [p for p in net.collect_params().values() if p.grad_req != 'null']
    for epoch in range(start, cfg.epochs):
        seed_all(_derive(cfg.seed, epoch))
        t0 = time.time()
        sums = {}
        bar = _bar(cfg, lead, nb, epoch)
        for b, batch in task.batches(epoch, cfg, rank, workers):
            lr = lr_at(cfg, epoch + b / nb)
            trainer.set_learning_rate(lr)
            stats = task.train_step(net, batch, cfg, epoch, ctx)
            if kv:
                _broadcast_weights(trainer)
            trainer.allreduce_grads()
            if cfg.clip_gradient:
                # the gradients are sums over the global batch; the limit is on their mean
                gluon.utils.clip_global_norm([p.grad(ctx) for p in params],
                                             cfg.clip_gradient * cfg.batch_size * workers)
            trainer.update(cfg.batch_size * workers)
            for k, v in stats.items():
                sums[k] = sums.get(k, 0.0) + v
            if bar:
                bar.update(1)
                bar.set_postfix(loss=f'{sums["loss"] / sums["n"]:.4f}', lr=f'{lr:.4g}')
            if cfg.print_every and (b + 1) % cfg.print_every == 0 and lead:
                print(f'epoch {epoch + 1} batch {b + 1}/{nb} loss {sums["loss"] / sums["n"]:.4f}', flush=True)
        if bar:
            bar.close()
        if aux_sync:
            aux_sync()
        mx.nd.waitall()
        train = {k: v / sums['n'] for k, v in sums.items() if k != 'n'}
        record = {'type': 'epoch', 'epoch': epoch + 1, 'train': train, 'eval': task.evaluate(net, ctx),
                  'lr': lr, 'seconds': round(time.time() - t0, 3)}
        history.append(record)
        if lead:
            state = {'next': {'epoch': epoch + 1, 'batch': 0}, 'config': cfg.fingerprint(), 'rng': ckpt.rng_state(),
                     'mx_seed_next': _derive(cfg.seed, epoch + 1), 'history': history, 'header': head}
            ckpt.save(ckpt.path_for(cfg.out, epoch + 1), net, trainer, state)
            _prune(cfg.out, keep=2)
            log.write(record)
            print(f'epoch {epoch + 1}/{cfg.epochs}: ' + _fmt(record), file=sys.stderr, flush=True)

    final = {'type': 'final', 'metrics': history[-1]['eval'], 'split': task.eval_split, 'epochs': cfg.epochs}
    path = _save_weights(net, cfg, rank if workers > 1 else None)
    final.update(weights_sha1=ckpt_sha1(path), weights_file=os.path.basename(path))
    if lead:
        log.write(final)
    return dict(final, weights_path=path, log=log_path, rank=rank, workers=workers)


def ckpt_sha1(path):
    from ..store import file_hash
    return file_hash(path)


def _save_weights(net, cfg, rank):
    """<out>/<arch>-<sha1[:8]>.params (GluonCV's naming); dist worker r>0 writes worker-r.params beside it."""
    from ..store import file_hash
    os.makedirs(cfg.out, exist_ok=True)
    tmp = os.path.join(cfg.out, f'.weights-{rank or 0}.part')
    net.save_parameters(tmp)
    sha1 = file_hash(tmp)
    name = f'worker-{rank}.params' if rank else f'{cfg.model}-{sha1[:8]}.params'
    path = os.path.join(cfg.out, name)
    os.replace(tmp, path)
    return path


def _prune(out, keep):
    import glob
    old = sorted(glob.glob(os.path.join(glob.escape(out), 'epoch-*.ckpt')))[:-keep]
    for p in old:
        os.remove(p)


def _bar(cfg, lead, total, epoch):
    if not (cfg.progress and lead):
        return None
    from tqdm import tqdm
    return tqdm(total=total, desc=f'epoch {epoch + 1}/{cfg.epochs}', file=sys.stderr, leave=False,
                dynamic_ncols=True)


def _fmt(record):
    parts = [f'train {k} {v:.4f}' for k, v in record['train'].items()]
    parts += [f'eval {k} {v:.4f}' for k, v in record['eval'].items() if isinstance(v, (int, float))]
    return ', '.join(parts) + f' ({record["seconds"]:.1f}s)'
