"""The training configuration: one flat dataclass, read from JSON / command-line flags, strict about its keys.

Every key changes what a run computes except those in RUN_ONLY (where output goes, progress bars); a resumed run
must agree with its checkpoint on all the others.
"""
import argparse
import dataclasses
import difflib
import json
from typing import Optional, Tuple, Union

from ..errors import BadInputError

RUN_ONLY = ('out', 'log', 'progress', 'print_every', 'resume')


@dataclasses.dataclass
class TrainConfig:
    """What the engine trains, on what, and how; the header of every log holds it resolved."""
    model: str = 'cifar_resnet20_v1'
    model_kwargs: dict = dataclasses.field(default_factory=dict)
    pretrained: bool = False  # start from the model's default weights (fine-tuning); the head is reset for `classes`
    # a count (classifiers), or class names (detectors: `--classes a,b` picks those of the data's classes)
    classes: Union[int, Tuple[str, ...], None] = None
    dataset: str = 'fashion_mnist'
    # the dataset loader's own settings (TSV columns, ...), checked against its signature; None: its defaults
    dataset_kwargs: Optional[dict] = None
    train_limit: int = 0  # first N training samples only (0: all); tiny configs for tests
    val_limit: int = 0
    epochs: int = 1
    batch_size: int = 128
    optimizer: str = 'nag'
    lr: float = 0.1
    momentum: float = 0.9
    wd: float = 5e-4
    lr_mode: str = 'cosine'  # 'step' | 'cosine' | 'constant' | 'poly' (GluonCV's, power 0.9: segmentation)
    lr_steps: Tuple[int, ...] = ()  # epochs at which 'step' multiplies the rate by lr_factor
    lr_factor: float = 0.1
    warmup_epochs: float = 0.0  # linear ramp from 0 to lr, per batch
    label_smoothing: float = 0.0
    mixup: float = 0.0  # Beta(alpha, alpha) mixing of inputs and labels; 0 turns it off
    mixup_off_epochs: int = 0  # last N epochs without mixup
    clip_gradient: float = 0.0  # max global L2 norm of the batch-mean gradient; 0 turns it off
    augment: str = 'crop_flip'  # 'none' | 'crop_flip' (pad 2 + random crop + horizontal flip) | 'crop' (no flip)
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
    # the square input side of tasks that resize their images (detection); None: the model's own (its record's)
    data_shape: Optional[int] = None

    def __post_init__(self):
        self.lr_steps = tuple(int(s) for s in self.lr_steps)
        if isinstance(self.classes, str):
            self.classes = [c.strip() for c in self.classes.split(',') if c.strip()]
        if isinstance(self.classes, (list, tuple)):
            self.classes = [str(c) for c in self.classes]  # a list, as the log's JSON gives it back
        problems = []
        if isinstance(self.classes, list) and not self.classes:
            problems.append('classes names no class')
        if self.data_shape is not None and self.data_shape < 1:
            problems.append('data_shape must be >= 1')
        if self.lr_mode not in ('step', 'cosine', 'constant', 'poly'):
            problems.append(f"lr_mode {self.lr_mode!r} is not 'step', 'cosine', 'constant' or 'poly'")
        if self.augment not in ('none', 'crop_flip', 'crop'):
            problems.append(f"augment {self.augment!r} is not 'none', 'crop_flip' or 'crop'")
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
        """A config from a mapping; an unknown key is an error naming the closest valid one, a value of the wrong
        type (from a JSON file: "epochs": "3") an error naming the key and the type it needs."""
        if not isinstance(d, dict):
            raise BadInputError(f'a training config is a JSON object of keys, not {type(d).__name__}')
        fields = {f.name: f for f in dataclasses.fields(cls)}
        for key, value in d.items():
            if key not in fields:
                close = difflib.get_close_matches(str(key), list(fields), n=1, cutoff=0.0)
                raise BadInputError(f'unknown training config key {key!r}; did you mean {close[0]!r}? '
                                    f'(valid keys: {", ".join(fields)})')
            want = _accepts(fields[key].type)
            if not want[1](value):
                raise BadInputError(f'training config key {key!r} must be {want[0]}, got {value!r} '
                                    f'({type(value).__name__})')
        return cls(**d)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _accepts(t):
    """(what a field of type `t` takes, in words; a check of a JSON value) for the types TrainConfig uses."""
    t = str(t)
    if 'Union[int' in t:  # classes
        return ('a count, names joined by commas, or a list of names', lambda v: v is None or _is_int(v) or
                isinstance(v, str) or (isinstance(v, (list, tuple)) and all(isinstance(c, str) for c in v)))
    if 'Optional[int]' in t:
        return 'an integer or null', lambda v: v is None or _is_int(v)
    if 'Optional[dict]' in t:
        return 'a JSON object or null', lambda v: v is None or isinstance(v, dict)
    if 'Tuple' in t:
        return 'a list of integers', lambda v: isinstance(v, (list, tuple)) and all(_is_int(x) for x in v)
    return {'int': ('an integer', _is_int),
            'float': ('a number', lambda v: _is_int(v) or isinstance(v, float)),
            'bool': ('true or false', lambda v: isinstance(v, bool)),
            'str': ('a string', lambda v: isinstance(v, str)),
            'dict': ('a JSON object', lambda v: isinstance(v, dict))}.get(t.replace("<class '", '').rstrip("'>"),
                                                                           ('anything', lambda v: True))


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
    if 'Union[int' in str(t):  # classes: a count, or comma-separated names
        return lambda s: None if s.lower() == 'none' else int(s) if s.strip().isdigit() else s
    if 'Tuple' in str(t):
        return lambda s: tuple(int(x) for x in s.split(',') if x)
    if t in (dict, 'dict') or 'Optional[dict]' in str(t):
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
        # `--data voc:PATH` too: the spelling GluonCV's and the detection docs' fine-tuning commands use
        extra = ('--data',) if f.name == 'dataset' else ()
        p.add_argument('--' + f.name.replace('_', '-'), '--' + f.name, *extra, dest=f.name, type=_flag_type(f),
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
                loaded = json.load(fh)
        except (OSError, ValueError) as e:
            raise BadInputError(f'cannot read config {args.config}: {e}') from None
        if not isinstance(loaded, dict):
            raise BadInputError(f'config {args.config} holds a JSON {type(loaded).__name__}, not an object of keys')
        values.update(loaded)
    values.update({k: v for k, v in vars(args).items() if k != 'config' and v is not None})
    return TrainConfig.from_dict(values)
