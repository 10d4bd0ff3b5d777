"""The training configuration: one flat dataclass, read from JSON / command-line flags, strict about its keys.

Every key changes what a run computes except those in RUN_ONLY (where output goes, progress bars); a resumed run
must agree with its checkpoint on all the others.
"""
import argparse
import dataclasses
import difflib
import json
from typing import Optional, Tuple

from ..errors import BadInputError

RUN_ONLY = ('out', 'log', 'progress', 'print_every', 'resume')


@dataclasses.dataclass
class TrainConfig:
    """What the engine trains, on what, and how; the header of every log holds it resolved."""
    model: str = 'cifar_resnet20_v1'
    model_kwargs: dict = dataclasses.field(default_factory=dict)
    pretrained: bool = False  # start from the model's default weights (fine-tuning); the head is reset for `classes`
    classes: Optional[int] = None
    dataset: str = 'fashion_mnist'
    train_limit: int = 0  # first N training samples only (0: all); tiny configs for tests
    val_limit: int = 0
    epochs: int = 1
    batch_size: int = 128
    optimizer: str = 'nag'
    lr: float = 0.1
    momentum: float = 0.9
    wd: float = 5e-4
    lr_mode: str = 'cosine'  # 'step' | 'cosine' | 'constant'
    lr_steps: Tuple[int, ...] = ()  # epochs at which 'step' multiplies the rate by lr_factor
    lr_factor: float = 0.1
    warmup_epochs: float = 0.0  # linear ramp from 0 to lr, per batch
    label_smoothing: float = 0.0
    mixup: float = 0.0  # Beta(alpha, alpha) mixing of inputs and labels; 0 turns it off
    mixup_off_epochs: int = 0  # last N epochs without mixup
    clip_gradient: float = 0.0  # max global L2 norm of the batch-mean gradient; 0 turns it off
    augment: str = 'crop_flip'  # 'none' | 'crop_flip' (pad 2 + random crop + horizontal flip)
    init: str = 'xavier'
    seed: int = 0
    hybridize: bool = True
    kvstore: str = 'device'  # 'device' | 'dist_sync' (scripts/launch.py starts the processes)
    gpus: str = ''  # '' for CPU, '0,1' for GPUs 0 and 1
    out: str = 'out/train'
    log: str = ''  # JSON-lines log path; default <out>/train.jsonl
    progress: bool = True
    print_every: int = 0  # print 'epoch E batch B' lines every N batches (0: never); the fault test watches them
    resume: bool = False

    def __post_init__(self):
        self.lr_steps = tuple(int(s) for s in self.lr_steps)
        problems = []
        if self.lr_mode not in ('step', 'cosine', 'constant'):
            problems.append(f"lr_mode {self.lr_mode!r} is not 'step', 'cosine' or 'constant'")
        if self.augment not in ('none', 'crop_flip'):
            problems.append(f"augment {self.augment!r} is not 'none' or 'crop_flip'")
        if self.epochs < 1 or self.batch_size < 1:
            problems.append('epochs and batch_size must be >= 1')
        if not 0 <= self.label_smoothing < 1:
            problems.append('label_smoothing must be in [0, 1)')
        if self.kvstore not in ('device', 'local', 'dist_sync', 'dist_device_sync'):
            problems.append(f"kvstore {self.kvstore!r} is not device, local, dist_sync or dist_device_sync "
                            '(dist_async cannot be reproduced)')
        if problems:
            raise BadInputError('bad training config: ' + '; '.join(problems))

    def to_dict(self):
        d = dataclasses.asdict(self)
        d['lr_steps'] = list(self.lr_steps)
        return d

    def fingerprint(self):
        """The keys that decide the numbers a run produces (everything but RUN_ONLY)."""
        return {k: v for k, v in self.to_dict().items() if k not in RUN_ONLY}

    @classmethod
    def from_dict(cls, d):
        """A config from a mapping; an unknown key is an error naming the closest valid one."""
        names = [f.name for f in dataclasses.fields(cls)]
        for key in d:
            if key not in names:
                close = difflib.get_close_matches(key, names, n=1, cutoff=0.0)
                raise BadInputError(f'unknown training config key {key!r}; did you mean {close[0]!r}? '
                                    f'(valid keys: {", ".join(names)})')
        return cls(**d)


def _flag_type(field):
    t = field.type
    if t in (bool, 'bool'):
        return lambda s: {'1': True, 'true': True, 'yes': True, '0': False, 'false': False, 'no': False}[s.lower()]
    if t in (int, 'int'):
        return int
    if t in (float, 'float'):
        return float
    if 'Optional[int]' in str(t):
        return lambda s: None if s.lower() == 'none' else int(s)
    if 'Tuple' in str(t):
        return lambda s: tuple(int(x) for x in s.split(',') if x)
    if t in (dict, 'dict'):
        return json.loads
    return str


def parse_args(argv=None, defaults=None, description=None):
    """TrainConfig from `--config FILE.json` then `--key value` flags (one per field, `-` or `_` spelling).

    `defaults` are the recipe's own values, applied before the file and the flags. An unknown flag or file key is
    an error naming the closest valid key.
    """
    p = argparse.ArgumentParser(description=description, allow_abbrev=False)
    p.add_argument('--config', help='JSON file of config keys (flags given too override it)')
    for f in dataclasses.fields(TrainConfig):
        if f.name == 'resume':
            p.add_argument('--resume', action='store_true', default=None,
                           help='continue from the latest checkpoint in --out (an error if there is none)')
            continue
        p.add_argument('--' + f.name.replace('_', '-'), '--' + f.name, dest=f.name, type=_flag_type(f),
                       default=None, metavar=f.name.upper())
    args, unknown = p.parse_known_args(argv)
    if unknown:
        flags = [s for a in p._actions for s in a.option_strings]
        bad = unknown[0].split('=')[0]
        close = difflib.get_close_matches(bad, flags, n=1, cutoff=0.0)
        raise BadInputError(f'unknown option {bad!r}; did you mean {close[0]!r}? (--help lists them)')
    values = dict(defaults or {})
    if args.config:
        try:
            with open(args.config) as fh:
                values.update(json.load(fh))
        except (OSError, ValueError) as e:
            raise BadInputError(f'cannot read config {args.config}: {e}') from None
    values.update({k: v for k, v in vars(args).items() if k != 'config' and v is not None})
    return TrainConfig.from_dict(values)
