"""Learning-rate schedules as MXNet `lr_scheduler.LRScheduler`s (what a gluon Trainer takes), with GluonCV's
`LRScheduler` / `LRSequential` arguments: a schedule over `niters` updates (or `nepochs * iters_per_epoch`) from
`base_lr` to `target_lr`, and a chain of them, each starting where the previous ended (warmup then cosine, say).

>>> s = LRSequential([LRScheduler('linear', base_lr=0, target_lr=1, niters=3),
...                   LRScheduler('cosine', base_lr=1, target_lr=0, niters=5)])
>>> [round(s(i), 3) for i in range(9)]
[0.0, 0.5, 1.0, 1.0, 0.854, 0.5, 0.146, 0.0, 0.0]
"""
import math
import warnings

from mxnet import lr_scheduler as _mx

MODES = ('constant', 'step', 'linear', 'poly', 'cosine')


class LRScheduler(_mx.LRScheduler):
    """One schedule: `mode` 'constant' (base_lr throughout), 'step' (base_lr times step_factor per step passed,
    steps at `step_iter` updates or `step_epoch` epochs), 'linear', 'poly' (1 - progress) ** power, or 'cosine',
    from base_lr at update `offset` to target_lr at update offset + niters - 1, and held there. `baselr` /
    `targetlr` are GluonCV's old spellings (used when base_lr / target_lr are left at their defaults)."""

    def __init__(self, mode, base_lr=0.1, target_lr=0, niters=0, nepochs=0, iters_per_epoch=0, offset=0, power=2,
                 step_iter=None, step_epoch=None, step_factor=0.1, baselr=None, targetlr=None):
        super().__init__()
        if mode not in MODES:
            raise ValueError(f'LRScheduler mode {mode!r}: use one of {", ".join(MODES)}')
        if mode == 'step' and step_iter is None and step_epoch is None:
            raise ValueError("LRScheduler('step') needs step_iter (updates) or step_epoch (epochs)")
        if baselr is not None:
            warnings.warn('baselr is deprecated: use base_lr', DeprecationWarning, stacklevel=2)
            base_lr = baselr if base_lr == 0.1 else base_lr
        if targetlr is not None:
            warnings.warn('targetlr is deprecated: use target_lr', DeprecationWarning, stacklevel=2)
            target_lr = targetlr if target_lr == 0 else target_lr
        self.mode, self.base_lr, self.power, self.step_factor, self.offset = mode, base_lr, power, step_factor, offset
        self.target_lr = base_lr if mode == 'constant' else target_lr
        self.niters, self.step = niters, step_iter
        if nepochs * iters_per_epoch > 0:
            self.niters = nepochs * iters_per_epoch
            if step_epoch is not None:
                self.step = [e * iters_per_epoch for e in step_epoch]
        self.learning_rate = base_lr

    def __call__(self, num_update):
        self.update(num_update)
        return self.learning_rate

    def update(self, num_update):
        last = self.niters - 1
        t = min(max(0, num_update - self.offset), last)
        progress = t / last if last > 0 else 0.0
        if self.mode == 'step':
            passed = sum(1 for s in (self.step or ()) if s <= t)
            self.learning_rate = self.base_lr * self.step_factor ** passed
            return
        remaining = {'constant': 0.0, 'linear': 1 - progress, 'poly': (1 - progress) ** self.power,
                     'cosine': (1 + math.cos(math.pi * progress)) / 2}[self.mode]
        self.learning_rate = self.target_lr + (self.base_lr - self.target_lr) * remaining


class LRSequential(_mx.LRScheduler):
    """LRSchedulers run one after another; one of 0 updates is passed over, and past the end the last holds."""

    def __init__(self, schedulers):
        super().__init__()
        if not len(schedulers):
            raise ValueError('LRSequential needs at least one LRScheduler')
        self.schedulers, self.update_sep, self.count, self.learning_rate = [], [], 0, 0
        for s in schedulers:
            self.add(s)

    def add(self, scheduler):
        if not isinstance(scheduler, LRScheduler):
            raise TypeError(f'LRSequential chains LRScheduler objects, not {type(scheduler).__name__}')
        scheduler.offset = self.count
        self.count += scheduler.niters
        self.update_sep.append(self.count)
        self.schedulers.append(scheduler)

    def __call__(self, num_update):
        self.update(num_update)
        return self.learning_rate

    def update(self, num_update):
        num_update = min(num_update, self.count - 1)
        which = next((i for i, end in enumerate(self.update_sep) if end > num_update), len(self.schedulers) - 1)
        s = self.schedulers[which]
        s.update(num_update)
        self.learning_rate = s.learning_rate
